// The engine's entry point: one file in, located diagnostics out. Pure apart from reading the
// package's own data and schemas; no editor, no LSP, no network, and workspace content is never run.
import * as path from 'node:path';
import { globMatcher } from './glob';
import { LineIndex } from './text';
import { parseYaml, type YamlFile, type OffsetRange } from './parse/yaml';
import type { Diagnostic, Family, Severity, SeveritySetting } from './types';
import type { ResolvedConfig } from './config';
import { allRules, docsUrl, ruleIds, starlingxRules, kubernetesRules, kataRules, persistRules } from './rules';
import { parseToml, type TomlFile } from './parse/toml';
import { isKataConfig, detectFlavour, KataContext, resolveKataWindow } from './families/kata';
import { JsonFile } from './parse/json';
import { PersistContext, persistKind, isPersistName, isLegacyStoreFile, isPersistContent } from './families/kata-persist';
import { legacyStore, releasesWithoutLegacyStore } from './rules/kata-persist/legacy-store';
import { persistData } from './kata/persist';
import { describeReleases } from './kata/data';
import { helmTemplate, staleData, windowPastData } from './rules/kubernetes/engine-notes';
import { windowPastDataOf } from './config';
import { KubernetesContext, type NeighbourFacts, manifestObjects, isManifestValue, isManifestLike, looksLikeHelmTemplate, lifecycleRows } from './families/kubernetes';
import { kubernetesApis } from './data';
import type { Finding, FindingFix, RuleMeta } from './rules/types';
import { parseError, skippedFile, unusedSuppression, duplicateKey, internalError, describeFailure } from './rules/general';
import { injectFault, type Faults } from './faults';
import { isStarlingxName, looksLikeStarlingx, StarlingxContext } from './families/starlingx';
import { findSuppressions } from './suppress';

import { MAX_FILE_BYTES } from '../shared/limits';
export { MAX_FILE_BYTES };

export interface AnalyzeInput {
  /** File system path (or a display name for stdin / untitled documents). */
  path: string;
  text: string;
  config: ResolvedConfig;
  /** The workspace folder the path is relative to, for `files:` associations. */
  root?: string;
  /** Say that the Kubernetes data is stale (the caller does this once per run). */
  reportStaleData?: boolean;
  /** Today, for the staleness check (tests pin it). */
  today?: Date;
  /** Facts from other files of the workspace, for cross-file rules (the language server gathers them). */
  neighbours?: NeighbourFacts;
  /** Stages made to throw (SKEWGUARD_FAULT, tests only). */
  faults?: Faults;
}

export interface AnalyzeResult {
  family?: Family;
  diagnostics: Diagnostic[];
  /** The parsed file, for hovers and completion (undefined when the file was skipped). */
  yaml?: YamlFile;
  stx?: StarlingxContext;
  k8s?: KubernetesContext;
  kata?: KataContext;
  toml?: TomlFile;
  persist?: PersistContext;
  /** The data was reported stale in this file. */
  staleReported?: boolean;
  /** The configuration the file was analysed with. */
  config?: ResolvedConfig;
  /** The path the file was analysed as. */
  path?: string;
}

const MODELINE = /#\s*skewguard:\s*(starlingx|kubernetes|kata-config|kata-persist|kata)\b/;

// Any value: `kind: *foo` (an alias without its anchor) is a manifest that says why it is not checked. `^` (multiline)
// matches after LF, CRLF and a lone CR alike.
const TOP_LEVEL_MANIFEST = (t: string) => /^apiVersion[ \t]*:[ \t]*[^\s#]/m.test(t) && /^kind[ \t]*:[ \t]*[^\s#]/m.test(t);

/**
 * Whether JSON text has `apiVersion` and `kind` keys in its top-level object: for a manifest the reader could not
 * turn into a value (nested too deeply). One pass, no recursion: depth is counted outside strings.
 */
function jsonTopLevelManifest(t: string): boolean {
  let depth = 0, api = false, kind = false;
  for (let i = 0; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 34 /* " */) {
      const s = i;
      for (i++; i < t.length && t.charCodeAt(i) !== 34; i++) if (t.charCodeAt(i) === 92) i++;
      if (depth !== 1) continue;
      let j = i + 1;
      while (j < t.length && /\s/.test(t[j])) j++;
      if (t.charCodeAt(j) !== 58 /* : */) continue;
      const key = t.slice(s + 1, i);
      if (key === 'apiVersion') api = true;
      else if (key === 'kind') kind = true;
      if (api && kind) return true;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  return false;
}

export function detectFamily(file: string, text: string, config: ResolvedConfig, root?: string, yaml?: YamlFile, persistContent?: boolean): Family | undefined {
  const rel = root ? path.relative(root, file).split(path.sep).join('/') : file.split(path.sep).join('/');
  for (const [glob, fam] of Object.entries(config.files)) {
    if (globMatcher(glob, { matchBase: true })(rel)) return fam;
  }
  const head = text.slice(0, 2000);
  const m = MODELINE.exec(head);
  if (m) return (m[1] === 'kata' ? 'kata-config' : m[1]) as Family;
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') {
    if (isPersistName(file) || isLegacyStoreFile(file)) return 'kata-persist';
    if (yaml?.docs.some((d) => isManifestValue(d.value))) return 'kubernetes';
    // Not read (nested too deeply, an alias error): still a manifest if its top level says so, and told why.
    if (yaml?.docs.some((d) => d.value == null && d.errors.length) && jsonTopLevelManifest(text)) return 'kubernetes';
    return (persistContent ?? isPersistContent(text, file)) ? 'kata-persist' : undefined;
  }
  if (ext === '.toml') return isKataConfig(file, text) ? 'kata-config' : undefined;
  if (ext !== '.yml' && ext !== '.yaml' && ext !== '') return undefined;
  if (isStarlingxName(file)) return 'starlingx';
  const first = yaml?.docs.find((d) => !d.empty);
  if (yaml?.docs.some((d) => isManifestLike(d.value))) return 'kubernetes';
  if (looksLikeStarlingx(first)) return 'starlingx';
  if (/^\s*apiVersion\s*:/m.test(head) && /^\s*kind\s*:/m.test(text) && looksLikeHelmTemplate(text)) return 'kubernetes';
  // A document the reader could not turn into a value (an alias bomb, nesting too deep, a syntax error) is still a
  // manifest when it says so at its top level: it gets the reason it is not checked instead of silence.
  if (yaml?.docs.some((d) => d.value == null && d.errors.length && TOP_LEVEL_MANIFEST(yaml.text.slice(d.offset, d.end)))) return 'kubernetes';
  return undefined;
}

export function severityFor(rule: RuleMeta, config: ResolvedConfig, own?: Severity): SeveritySetting {
  return config.rules[rule.id] ?? own ?? rule.defaultSeverity;
}

/** An exception in a stage of analyze() before the rules: the file gets the internal-error diagnostic alone. */
class StageFailure {
  constructor(readonly stage: string, readonly error: unknown) {}
}

export function analyze(input: AnalyzeInput): AnalyzeResult {
  const { text, config, faults } = input;
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const emit = (rule: RuleMeta, f: Finding) => {
    // An internal error is always an error: the `rules:` setting does not turn it off.
    const sev = rule === internalError ? 'error' : severityFor(rule, config, f.severity);
    if (sev === 'off') return;
    const toFixes = (fixes: FindingFix[]) => fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ range: lines.range(e.range.start, e.range.end), newText: e.newText })) }));
    const d: Diagnostic = {
      ruleId: rule.id, severity: sev, message: f.message,
      range: lines.range(f.range.start, f.range.end), docsUrl: docsUrl(rule.id),
      fixes: typeof f.fixes === 'function' ? undefined : f.fixes && toFixes(f.fixes),
      data: f.data,
    };
    if (rule === internalError && f.data && 'error' in f.data) {
      // The exception itself, for the server's log (its stack), is no part of the diagnostic's data.
      const { error, ...rest } = f.data;
      d.data = rest;
      Object.defineProperty(d, 'error', { value: error, enumerable: false });
    }
    if (typeof f.fixes === 'function') {
      // Computed on first use (code actions, fix-all), then kept.
      const make = f.fixes;
      let memo: Diagnostic['fixes'];
      Object.defineProperty(d, 'fixes', {
        enumerable: true, configurable: true,
        get: () => (memo ??= (injectFault(faults, 'fix'), toFixes(make()))),
        set: (v: Diagnostic['fixes']) => { memo = v; },
      });
    }
    diagnostics.push(d);
  };

  const stage = <T>(name: string, fn: () => T): T => {
    try { injectFault(faults, name); return fn(); } catch (e) { throw e instanceof StageFailure ? e : new StageFailure(name, e); }
  };
  const failed = (stageName: string, e: unknown) => emit(internalError, { message: describeFailure(stageName, e), range: { start: 0, end: 0 }, data: { stage: stageName, error: e } });
  try {
    return analyzeStages(input, diagnostics, emit, stage);
  } catch (e) {
    // Before the rules (or outside any stage): nothing else of this file can be trusted, so the internal error stands alone.
    diagnostics.length = 0;
    if (e instanceof StageFailure) failed(e.stage, e.error); else failed('analyze', e);
    return { diagnostics, config, path: input.path };
  }
}

type Emit = (r: RuleMeta, f: Finding) => void;
type Stage = <T>(name: string, fn: () => T) => T;

function analyzeStages(input: AnalyzeInput, diagnostics: Diagnostic[], emit: Emit, stage: Stage): AnalyzeResult {
  const { text, config, faults } = input;
  const nul = text.indexOf('\u0000');
  if (nul >= 0) {
    emit(skippedFile, { message: `not checked: binary data (NUL byte at offset ${nul})`, range: { start: 0, end: 0 } });
    return { diagnostics };
  }
  if (text.length > MAX_FILE_BYTES) {
    emit(skippedFile, { message: `not checked: larger than the ${MAX_FILE_BYTES / 1048576} MB limit`, range: { start: 0, end: 0 } });
    return { diagnostics };
  }

  const ext = path.extname(input.path).toLowerCase();
  // JSON is parsed as YAML (a superset) only where it may be a manifest; persist.json files can be megabytes.
  const persistContent = stage('detect', () => ext === '.json' && !isPersistName(input.path) && !isLegacyStoreFile(input.path) && isPersistContent(text, input.path));
  const persistLike = ext === '.json' && (isPersistName(input.path) || isLegacyStoreFile(input.path) || persistContent);
  const yaml = stage('parse', () => (ext === '.toml' || persistLike ? undefined : parseYaml(text)));
  const family = stage('detect', () => detectFamily(input.path, text, config, input.root, yaml, persistContent));
  if (!family) return { diagnostics, yaml };

  let stx: StarlingxContext | undefined;
  if (family === 'starlingx' && yaml) {
    stage('parse', () => reportSyntax(yaml, emit));
    const content = yaml.docs.filter((d) => !d.empty);
    const doc = content[0];
    // Ansible loads a variables file as a single document; a second one makes it fail.
    for (const extra of content.slice(1)) {
      emit(parseError, { message: 'a second YAML document: Ansible reads a bootstrap overrides file as one document and fails on this one', range: { start: extra.rootRange().start, end: extra.rootRange().start + 1 } });
    }
    if (doc && doc.errors.length === 0) {
      stx = stage('context', () => new StarlingxContext(yaml, doc, config.starlingx.release, config.starlingx.source));
      const v = doc.value;
      if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
        emit(parseError, { message: 'a StarlingX bootstrap overrides file must be a mapping of keys to values', range: doc.rootRange() });
      } else {
        for (const rule of starlingxRules) runRule(rule, stx!, emit, faults);
      }
    }
  }

  let k8s: KubernetesContext | undefined;
  let staleReported = false;
  if (family === 'kubernetes' && yaml) {
    if (looksLikeHelmTemplate(text)) {
      const at = text.indexOf('{{');
      emit(helmTemplate, {
        message: 'template: this file holds Helm template syntax, so it is not checked as a manifest; render it and lint the output, '
          + `e.g. \`helm template <release> <chart> | lsp-lint --stdin-filename ${path.basename(input.path)}\``,
        range: { start: at, end: at + 2 },
      });
    } else {
      stage('parse', () => reportSyntax(yaml, emit));
      ({ k8s, staleReported } = checkManifests(yaml, input, ext === '.json', emit, stage));
    }
  }

  let kata: KataContext | undefined;
  let toml: TomlFile | undefined;
  if (family === 'kata-config') {
    toml = stage('parse', () => parseToml(text));
    const e = toml.errors[0];
    if (e?.code === 'TOML_LIMIT') {
      emit(skippedFile, { message: `not checked: ${e.message}`, range: { start: e.start, end: e.end } });
    } else if (e) {
      emit(parseError, { message: `${e.code === 'TOML_DEPTH' ? `TOML ${e.message}, so the file is not checked` : `TOML syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
    } else {
      const t = toml;
      const { flavour, source } = stage('detect', () => detectFlavour(input.path, t, config));
      kata = stage('context', () => { const w = resolveKataWindow(config); return new KataContext(input.path, t, flavour, source, w.window, w.source); });
      for (const rule of kataRules) runRule(rule, kata, emit, faults);
    }
  }

  let persist: PersistContext | undefined;
  if (family === 'kata-persist') {
    const json = stage('parse', () => new JsonFile(text));
    const e = json.errors[0];
    const w = stage('context', () => resolveKataWindow(config));
    if (e) {
      emit(parseError, { message: `${e.code === 'JSON_DEPTH' ? `JSON ${e.message}, so the file is not checked` : `JSON syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
    } else if (isLegacyStoreFile(input.path) && !isPersistName(input.path)) {
      const ls = persistData().legacyStore;
      const late = releasesWithoutLegacyStore(w.window, ls.notReadFrom);
      if (late.length) {
        const first = json.topLevelKeys()[0]?.range ?? { start: 0, end: Math.min(1, text.length) };
        emit(legacyStore, {
          message: `legacy store file ${path.basename(input.path)}: ${describeReleases(late, w.window)} read${late.length === 1 ? 's' : ''} only persist.json (${ls.upgradeFailure.statement}); `
            + 'stop the sandbox before the upgrade, or it cannot be managed afterwards',
          range: first,
          data: { notReadBy: late },
        });
      }
    } else {
      const kind = stage('detect', () => persistKind(json.value, input.path));
      if (kind) {
        persist = stage('context', () => new PersistContext(input.path, json, kind, w.window, w.source));
        for (const rule of persistRules) runRule(rule, persist, emit, faults);
      }
    }
  }

  try {
    injectFault(faults, 'suppress');
    applySuppressions(text, diagnostics, emit);
  } catch (e) {
    // What was to be suppressed is not known: every finding stays, with the reason.
    emit(internalError, { message: describeFailure('suppress', e), range: { start: 0, end: 0 }, data: { stage: 'suppress', error: e } });
  }
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { family, diagnostics, yaml, stx, k8s, kata, toml, persist, staleReported, config, path: input.path };
}

function checkManifests(yaml: YamlFile, input: AnalyzeInput, json: boolean, emit: Emit, stage: Stage) {
  const { config } = input;
  const k8s = stage('context', () => {
    const rows = lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin);
    return new KubernetesContext(yaml, manifestObjects(yaml), config.kubernetes, rows, json, input.neighbours, input.path, config.starlingx.release.release, config.components);
  });
  for (const rule of kubernetesRules) runRule(rule, k8s, emit, input.faults);
  let staleReported = false;
  if (input.reportStaleData && k8s.objects.length) {
    const asOf = kubernetesApis().asOf;
    const age = ((input.today ?? new Date()).getTime() - Date.parse(asOf)) / 86400000;
    if (age > 183) {
      staleReported = true;
      emit(staleData, {
        message: `the Kubernetes API lifecycle data is as of ${asOf}, more than six months ago: deprecations announced since then are not known`,
        range: k8s.objects[0].apiVersionRange,
      });
    }
    // Steps of the window the data does not know: said once per run too (with the stale-data note's flag).
    const past = windowPastDataOf(config.kubernetes.minors);
    if (past) {
      staleReported = true;
      const announced = past.announced.length ? `; only the removals already announced for them are checked (${past.announced.join(', ')})` : '';
      emit(windowPastData, {
        message: `the Kubernetes window ${k8s.windowText} goes past the API lifecycle data, which knows Kubernetes up to ${past.knownUpTo} (as of ${past.asOf}): `
          + `${past.steps.length > 1 ? `${past.steps[0]}..${past.steps[past.steps.length - 1]} are` : `${past.steps[0]} is`} not vouched for, removals there are not known${announced}`,
        range: k8s.objects[0].apiVersionRange,
        data: { ...past },
      });
    }
  }
  return { k8s, staleReported };
}

/** Runs one rule; an exception in it is that rule's internal error, and the other rules still run. */
function runRule<C>(rule: { check(ctx: C, report: (f: Finding) => void): void } & RuleMeta, ctx: C, emit: Emit, faults?: Faults) {
  const stageName = `rule:${rule.id}`;
  try {
    injectFault(faults, stageName);
    rule.check(ctx, (f) => emit(rule, f));
  } catch (e) {
    emit(internalError, { message: describeFailure(stageName, e), range: { start: 0, end: 0 }, data: { stage: stageName, rule: rule.id, error: e } });
  }
}

function reportSyntax(yaml: YamlFile, emit: (r: RuleMeta, f: Finding) => void) {
  for (const doc of yaml.docs) {
    for (const dup of doc.duplicateKeys) {
      const key = yaml.text.slice(dup.start).match(/^["']?([^:"'\r\n]*)/)?.[1]?.trim() ?? '';
      const end = dup.start + Math.max(1, key.length + (/^["']/.test(yaml.text.slice(dup.start)) ? 2 : 0));
      emit(duplicateKey, { message: `key "${key}" is given more than once in this mapping: YAML readers keep this last value and silently drop the earlier one`, range: { start: dup.start, end } });
    }
    const e = doc.errors[0];
    if (!e) continue;
    const more = doc.errors.length - 1;
    const where = yaml.docs.length > 1 ? ` (document ${doc.index + 1})` : '';
    emit(parseError, {
      message: `${e.code === 'TO_JS' || e.code === 'RESOURCE_EXHAUSTION' || e.code === 'TOO_DEEP' ? 'YAML not read' : 'YAML syntax error'}${where}: ${e.message}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'} after it)` : ''}`,
      range: { start: e.start, end: e.end },
    });
  }
}

function applySuppressions(text: string, diagnostics: Diagnostic[], emit: (r: RuleMeta, f: Finding) => void) {
  const sups = findSuppressions(text);
  if (!sups.length) return;
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    let suppressed = false;
    if (d.ruleId !== parseError.id && d.ruleId !== internalError.id) {
      for (const s of sups) {
        if (s.ruleIds.length && !s.ruleIds.includes(d.ruleId)) continue;
        if (s.kind === 'file' || s.line === d.range.start.line) { s.used.add(d.ruleId); suppressed = true; }
      }
    }
    if (!suppressed) kept.push(d);
  }
  diagnostics.length = 0;
  for (const d of kept) diagnostics.push(d); // no spread: a file can have more diagnostics than a call takes arguments
  for (const s of sups) {
    const unknown = s.ruleIds.filter((id) => !ruleIds.has(id));
    const unusedIds = s.ruleIds.filter((id) => ruleIds.has(id) && !s.used.has(id));
    const removeAll: Finding['fixes'] = [{ title: 'Remove this suppression', edits: [{ range: s.lineRange, newText: '' }], preferred: true }];
    if (unknown.length) {
      emit(unusedSuppression, { message: `suppression names unknown rule id${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`, range: s.range });
    } else if ((s.ruleIds.length === 0 && s.used.size === 0) || (s.ruleIds.length && unusedIds.length === s.ruleIds.length)) {
      emit(unusedSuppression, { message: `suppression of ${s.ruleIds.join(', ') || 'all rules'} ${s.kind === 'file' ? 'in this file' : 'on the next line'} suppresses nothing`, range: s.range, fixes: removeAll });
    } else if (unusedIds.length) {
      emit(unusedSuppression, { message: `suppression of ${unusedIds.join(', ')} suppresses nothing`, range: s.range });
    }
  }
}

export { allRules };
export type { OffsetRange };
