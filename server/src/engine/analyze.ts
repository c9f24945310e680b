// The engine's entry point: one file in, located diagnostics out. Pure apart from reading the
// package's own data and schemas; no editor, no LSP, no network, and workspace content is never run.
import * as path from 'node:path';
import { globMatcher } from './glob';
import { LineIndex, lineIndexOf, forgetLineIndex } from './text';
import { forgetTemplateScan } from './parse/template-text';
import { parseYaml, pinParsed, type YamlFile, type OffsetRange } from './parse/yaml';
import type { Diagnostic, Family, Severity, SeveritySetting, SourceInfo } from './types';
import type { ResolvedConfig } from './config';
import { allRules, docsUrl, ruleIds, notSuppressible } from './rules';
import type { NeighbourFacts } from './families/registry';
import type { Finding, FindingFix, RuleMeta } from './rules/types';
import { skippedFile, unusedSuppression, internalError, describeFailure } from './rules/general';
import { injectFault, type Faults } from './faults';
import { findSuppressions } from './suppress';
import { families, familyById, MODELINE, modelineFamily, type FamilyResults } from './families/registry';
import type { Emit, FamilyModule, Stage } from './families/types';
import { DETECT } from './families/types';
import type { FileAccess } from './files';
import { findingSteps } from './steps';

import { MAX_FILE_BYTES } from '../shared/limits';
export { MAX_FILE_BYTES };

export interface AnalyzeInput {
  // A family adds its own inputs here (module augmentation: families/helm-chart/rendered.ts, what a real Helm rendered).
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
  /** Read access to the files around this one (a Helm chart's other files); the language server gives it. */
  files?: FileAccess;
  /**
   * The text is a part of a bigger multi-document file, made of whole documents (the language server checks big
   * files part by part): the index of its first document in the file, so that messages number documents as in it.
   */
  partOf?: { firstDocument: number };
}

export interface AnalyzeResult extends FamilyResults {
  family?: Family;
  diagnostics: Diagnostic[];
  /** The parsed file, for hovers and completion (undefined when the file was skipped). */
  yaml?: YamlFile;
  /** The data was reported stale in this file. */
  staleReported?: boolean;
  /** The configuration the file was analysed with. */
  config?: ResolvedConfig;
  /** The path the file was analysed as. */
  path?: string;
  /** The steps of the file's window (its family's versions), in order: the columns of a per-step verdict. */
  windowSteps?: readonly string[];
  /** Where that window came from (the family's stepsSource): 'default' when nobody chose it. */
  windowSource?: SourceInfo;
  /** Which family read the file and why. */
  readAs?: ReadAs;
}

/** Each finding's steps (engine/steps.ts), among the window's; a finding of no step concerns them all (one shared array). */
function attachSteps(result: AnalyzeResult, window: readonly string[] | undefined): void {
  if (!window?.length) return;
  const all = Object.freeze(window.slice());
  result.windowSteps = all;
  for (const d of result.diagnostics) {
    const s = findingSteps(d.data, all);
    d.steps = s.length === all.length ? all : Object.freeze(s.slice());
  }
}

/** Which family read a file and why (issue #26): --print-config, the first line's hover and the status item say it. */
export interface ReadAs {
  family: Family | null;
  /** What decided: a `files:` glob, a modeline, the file's name or place, its content, or nothing claimed it. */
  by: 'files' | 'modeline' | 'path' | 'content' | 'none';
  why: string;
}

const LEVEL_WHY: Record<number, string> = { [DETECT.name]: 'its name', [DETECT.structure]: 'the structure of its content', [DETECT.content]: 'the shape of its content', [DETECT.hint]: 'a hint in its content' };

/**
 * The file's family: a `files:` association, else a modeline, else the family of the registry whose detect() is
 * surest (a tie goes to the one listed first). `memos` are the families' looks at the file before it was parsed.
 */
export function detectFamily(file: string, text: string, config: ResolvedConfig, root?: string, yaml?: YamlFile, memos?: Map<Family, unknown>, files?: FileAccess): Family | undefined {
  return classifyFile(file, text, config, root, yaml, memos, files).family ?? undefined;
}

/** detectFamily with the reason (ReadAs). */
export function classifyFile(file: string, text: string, config: ResolvedConfig, root?: string, yaml?: YamlFile, memos?: Map<Family, unknown>, files?: FileAccess): ReadAs {
  let rel: string | undefined;
  for (const [glob, fam] of Object.entries(config.files)) {
    rel ??= root ? path.relative(root, file).split(path.sep).join('/') : file.split(path.sep).join('/');
    if (globMatcher(glob, { matchBase: true })(rel)) return { family: fam, by: 'files', why: `files: associates ${JSON.stringify(glob)} with ${fam}` };
  }
  const head = text.slice(0, 2000);
  const m = MODELINE.exec(head);
  if (m) return { family: modelineFamily(m[1]) ?? null, by: 'modeline', why: `the modeline "${m[0]}" at line ${new LineIndex(head).positionAt(m.index).line + 1}` };
  const ext = path.extname(file).toLowerCase();
  let best: FamilyModule | undefined;
  let surest = 0;
  const input = (f: FamilyModule) => ({ file, ext, text, head, yaml, memo: memos?.get(f.id as Family), files });
  for (const f of families) {
    const level = f.detect(input(f));
    if (level > surest) { surest = level; best = f; }
  }
  if (!best) return { family: null, by: 'none', why: 'no family recognises its name or content' };
  const why = best.explain?.(input(best), surest) ?? LEVEL_WHY[surest];
  return { family: best.id as Family, by: surest === DETECT.name ? 'path' : 'content', why };
}

export function severityFor(rule: RuleMeta, config: ResolvedConfig, own?: Severity): SeveritySetting {
  // A rule with a fixed severity (its metadata says so, e.g. skewguard/internal-error): `rules:` does not change it.
  if (rule.fixedSeverity) return rule.defaultSeverity;
  return config.rules[rule.id] ?? own ?? rule.defaultSeverity;
}

/** An exception in a stage of analyze() before the rules: the file gets the internal-error diagnostic alone. */
class StageFailure {
  constructor(readonly stage: string, readonly error: unknown) {}
}

export function analyze(input: AnalyzeInput): AnalyzeResult {
  const { text, config, faults } = input;
  const lines = lineIndexOf(text);
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
  } finally {
    forgetTemplateScan();
    forgetLineIndex();
    pinParsed(undefined);
  }
}

/** Why a text is not read at all (binary, over the size limit), or undefined. */
function notRead(text: string): string | undefined {
  const nul = text.indexOf('\u0000');
  if (nul >= 0) return `not checked: binary data (NUL byte at offset ${nul})`;
  if (text.length > MAX_FILE_BYTES) return `not checked: larger than the ${MAX_FILE_BYTES / 1048576} MB limit`;
  return undefined;
}

type ClassifyInput = Pick<AnalyzeInput, 'path' | 'text' | 'config' | 'root' | 'files'>;

/** Each family's look, the YAML parse when one is wanted, and the family with its reason: analyze()'s first stages. */
function classifyStages(input: ClassifyInput, stage: Stage): { ext: string; yaml: YamlFile | undefined; readAs: ReadAs } {
  const { text } = input;
  const ext = path.extname(input.path).toLowerCase();
  // Each family's cheap look (name, a scan of the text) says whether the file is to be read as YAML at all.
  const memos = new Map<Family, unknown>();
  const notYaml = stage('detect', () => {
    let no = false;
    for (const f of families) {
      const l = f.look?.({ file: input.path, ext, text });
      if (!l) continue;
      if (l.memo !== undefined) memos.set(f.id, l.memo);
      no ||= l.notYaml;
    }
    return no;
  });
  const yaml = stage('parse', () => (notYaml ? undefined : parseYaml(text)));
  const readAs = stage('detect', () => classifyFile(input.path, text, input.config, input.root, yaml, memos, input.files));
  return { ext, yaml, readAs };
}

/**
 * Which family reads a file and why, decided as analyze() decides it, without running any rule (`lsp-lint
 * --print-config <file>`). Undefined where analyze() gives none: a file not read (binary, over the size limit), or
 * one whose detection fails.
 */
export function readAsOf(input: ClassifyInput): ReadAs | undefined {
  if (notRead(input.text)) return undefined;
  try {
    return classifyStages(input, (_name, fn) => fn()).readAs;
  } catch {
    return undefined;
  }
}

function analyzeStages(input: AnalyzeInput, diagnostics: Diagnostic[], emit: Emit, stage: Stage): AnalyzeResult {
  const { text, config, faults } = input;
  const skipped = notRead(text);
  if (skipped) {
    emit(skippedFile, { message: skipped, range: { start: 0, end: 0 } });
    return { diagnostics };
  }

  const { ext, yaml, readAs } = classifyStages(input, stage);
  // Until analyze() ends, what else parses this text's documents (a root index reading this file) gets this parse.
  pinParsed(yaml);
  const family = readAs.family ?? undefined;
  if (!family) return { diagnostics, yaml, readAs };
  const own = familyById(family)?.analyze({ input, ext, yaml, emit, stage }) ?? {};

  try {
    injectFault(faults, 'suppress');
    applySuppressions(text, diagnostics, emit);
  } catch (e) {
    // What was to be suppressed is not known: every finding stays, with the reason.
    emit(internalError, { message: describeFailure('suppress', e), range: { start: 0, end: 0 }, data: { stage: 'suppress', error: e } });
  }
  diagnostics.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
  const result: AnalyzeResult = { family, diagnostics, yaml, ...own, staleReported: own.staleReported ?? false, config, path: input.path, readAs };
  attachSteps(result, familyById(family)?.steps?.(result));
  if (result.windowSteps) result.windowSource = familyById(family)?.stepsSource?.(result);
  return result;
}

function applySuppressions(text: string, diagnostics: Diagnostic[], emit: (r: RuleMeta, f: Finding) => void) {
  const sups = findSuppressions(text);
  if (!sups.length) return;
  const kept: Diagnostic[] = [];
  for (const d of diagnostics) {
    let suppressed = false;
    // Whether a comment may silence the finding is the rule's metadata (`suppressible: false`).
    if (!notSuppressible.has(d.ruleId)) {
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
    const removeAll: Finding['fixes'] = [{ title: 'Remove this suppression', edits: [{ range: s.lineRange, newText: '' }], preferred: true, destructive: false }];
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
