// The engine's entry point: one file in, located diagnostics out. Pure apart from reading the
// package's own data and schemas; no editor, no LSP, no network, and workspace content is never run.
import * as path from 'node:path';
import picomatch from 'picomatch';
import { LineIndex } from './text';
import { parseYaml, type YamlFile, type OffsetRange } from './parse/yaml';
import type { Diagnostic, Family, Severity, SeveritySetting } from './types';
import type { ResolvedConfig } from './config';
import { allRules, docsUrl, ruleIds, starlingxRules, kubernetesRules, kataRules, persistRules } from './rules';
import { parseToml, type TomlFile } from './parse/toml';
import { isKataName, detectFlavour, KataContext, resolveKataWindow } from './families/kata';
import { JsonFile } from './parse/json';
import { PersistContext, persistKind, isPersistName, isLegacyStoreFile, isPersistContent } from './families/kata-persist';
import { legacyStore, releasesWithoutLegacyStore } from './rules/kata-persist/legacy-store';
import { persistData } from './kata/persist';
import { describeReleases } from './kata/data';
import { helmTemplate, staleData } from './rules/kubernetes/engine-notes';
import { KubernetesContext, type NeighbourFacts, manifestObjects, isManifestValue, isManifestLike, looksLikeHelmTemplate, lifecycleRows } from './families/kubernetes';
import { kubernetesApis } from './data';
import type { Finding, FindingFix, RuleMeta } from './rules/types';
import { parseError, skippedFile, unusedSuppression, duplicateKey } from './rules/general';
import { isStarlingxName, looksLikeStarlingx, StarlingxContext } from './families/starlingx';
import { findSuppressions } from './suppress';

export const MAX_FILE_BYTES = 20 * 1024 * 1024;

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

const TOP_LEVEL_MANIFEST = (t: string) => /^apiVersion[ \t]*:[ \t]*["']?[\w.\-/]+/m.test(t) && /^kind[ \t]*:[ \t]*["']?[A-Z]\w*/m.test(t);

export function detectFamily(file: string, text: string, config: ResolvedConfig, root?: string, yaml?: YamlFile, persistContent?: boolean): Family | undefined {
  const rel = root ? path.relative(root, file).split(path.sep).join('/') : file.split(path.sep).join('/');
  for (const [glob, fam] of Object.entries(config.files)) {
    if (picomatch.isMatch(rel, glob, { dot: true, matchBase: !glob.includes('/') })) return fam;
  }
  const head = text.slice(0, 2000);
  const m = MODELINE.exec(head);
  if (m) return (m[1] === 'kata' ? 'kata-config' : m[1]) as Family;
  const ext = path.extname(file).toLowerCase();
  if (ext === '.json') {
    if (isPersistName(file) || isLegacyStoreFile(file)) return 'kata-persist';
    if (yaml?.docs.some((d) => isManifestValue(d.value))) return 'kubernetes';
    return (persistContent ?? isPersistContent(text, file)) ? 'kata-persist' : undefined;
  }
  if (ext === '.toml') return isKataName(file) ? 'kata-config' : undefined;
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

export function analyze(input: AnalyzeInput): AnalyzeResult {
  const { text, config } = input;
  const lines = new LineIndex(text);
  const diagnostics: Diagnostic[] = [];
  const emit = (rule: RuleMeta, f: Finding) => {
    const sev = severityFor(rule, config, f.severity);
    if (sev === 'off') return;
    const toFixes = (fixes: FindingFix[]) => fixes.map((x) => ({ ...x, edits: x.edits.map((e) => ({ range: lines.range(e.range.start, e.range.end), newText: e.newText })) }));
    const d: Diagnostic = {
      ruleId: rule.id, severity: sev, message: f.message,
      range: lines.range(f.range.start, f.range.end), docsUrl: docsUrl(rule.id),
      fixes: typeof f.fixes === 'function' ? undefined : f.fixes && toFixes(f.fixes),
      data: f.data,
    };
    if (typeof f.fixes === 'function') {
      // Computed on first use (code actions, fix-all), then kept.
      const make = f.fixes;
      let memo: Diagnostic['fixes'];
      Object.defineProperty(d, 'fixes', {
        enumerable: true, configurable: true,
        get: () => (memo ??= toFixes(make())),
        set: (v: Diagnostic['fixes']) => { memo = v; },
      });
    }
    diagnostics.push(d);
  };

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
  const persistContent = ext === '.json' && !isPersistName(input.path) && !isLegacyStoreFile(input.path) && isPersistContent(text, input.path);
  const persistLike = ext === '.json' && (isPersistName(input.path) || isLegacyStoreFile(input.path) || persistContent);
  const yaml = ext === '.toml' || persistLike ? undefined : parseYaml(text);
  const family = detectFamily(input.path, text, config, input.root, yaml, persistContent);
  if (!family) return { diagnostics, yaml };

  let stx: StarlingxContext | undefined;
  if (family === 'starlingx' && yaml) {
    reportSyntax(yaml, emit);
    const content = yaml.docs.filter((d) => !d.empty);
    const doc = content[0];
    // Ansible loads a variables file as a single document; a second one makes it fail.
    for (const extra of content.slice(1)) {
      emit(parseError, { message: 'a second YAML document: Ansible reads a bootstrap overrides file as one document and fails on this one', range: { start: extra.rootRange().start, end: extra.rootRange().start + 1 } });
    }
    if (doc && doc.errors.length === 0) {
      stx = new StarlingxContext(yaml, doc, config.starlingx.release, config.starlingx.source);
      const v = doc.value;
      if (v !== null && (typeof v !== 'object' || Array.isArray(v))) {
        emit(parseError, { message: 'a StarlingX bootstrap overrides file must be a mapping of keys to values', range: doc.rootRange() });
      } else {
        for (const rule of starlingxRules) runRule(rule, stx, emit);
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
      reportSyntax(yaml, emit);
      ({ k8s, staleReported } = checkManifests(yaml, input, ext === '.json', emit));
    }
  }

  let kata: KataContext | undefined;
  let toml: TomlFile | undefined;
  if (family === 'kata-config') {
    toml = parseToml(text);
    const e = toml.errors[0];
    if (e?.code === 'TOML_LIMIT') {
      emit(skippedFile, { message: `not checked: ${e.message}`, range: { start: e.start, end: e.end } });
    } else if (e) {
      emit(parseError, { message: `${e.code === 'TOML_DEPTH' ? `TOML ${e.message}, so the file is not checked` : `TOML syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
    } else {
      const { flavour, source } = detectFlavour(input.path, toml, config);
      const w = resolveKataWindow(config);
      kata = new KataContext(input.path, toml, flavour, source, w.window, w.source);
      for (const rule of kataRules) runRule(rule, kata, emit);
    }
  }

  let persist: PersistContext | undefined;
  if (family === 'kata-persist') {
    const json = new JsonFile(text);
    const e = json.errors[0];
    const w = resolveKataWindow(config);
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
      const kind = persistKind(json.value, input.path);
      if (kind) {
        persist = new PersistContext(input.path, json, kind, w.window, w.source);
        for (const rule of persistRules) runRule(rule, persist, emit);
      }
    }
  }

  applySuppressions(text, diagnostics, emit);
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  return { family, diagnostics, yaml, stx, k8s, kata, toml, persist, staleReported, config, path: input.path };
}

function checkManifests(yaml: YamlFile, input: AnalyzeInput, json: boolean, emit: (r: RuleMeta, f: Finding) => void) {
  const { config } = input;
  const rows = lifecycleRows(config.kubernetesRows?.rows, config.kubernetesRows?.origin);
  const k8s = new KubernetesContext(yaml, manifestObjects(yaml), config.kubernetes, rows, json, input.neighbours, input.path, config.starlingx.release.release);
  for (const rule of kubernetesRules) runRule(rule, k8s, emit);
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
  }
  return { k8s, staleReported };
}

function runRule<C>(rule: { check(ctx: C, report: (f: Finding) => void): void } & RuleMeta, ctx: C, emit: (r: RuleMeta, f: Finding) => void) {
  try {
    rule.check(ctx, (f) => emit(rule, f));
  } catch (e) {
    emit(parseError, { message: `internal error in rule ${rule.id}: ${(e as Error).message}`, range: { start: 0, end: 0 } });
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
      message: `${e.code === 'TO_JS' || e.code === 'RESOURCE_EXHAUSTION' ? 'YAML not read' : 'YAML syntax error'}${where}: ${e.message}${more > 0 ? ` (and ${more} more error${more === 1 ? '' : 's'} after it)` : ''}`,
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
    if (d.ruleId !== parseError.id) {
      for (const s of sups) {
        if (s.ruleIds.length && !s.ruleIds.includes(d.ruleId)) continue;
        if (s.kind === 'file' || s.line === d.range.start.line) { s.used.add(d.ruleId); suppressed = true; }
      }
    }
    if (!suppressed) kept.push(d);
  }
  diagnostics.length = 0;
  diagnostics.push(...kept);
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
