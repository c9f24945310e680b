// The Kata persist.json family: a sandbox's or container's saved state (and the legacy store files before 2.0).
import * as path from 'node:path';
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import { parseError } from '../../rules/general';
import { JsonFile } from '../../parse/json';
import { persistData } from './data';
import { describeReleases } from '../kata-config/data';
import { runRule } from '../core';
import { resolveKataWindow } from '../kata-config';
import { PersistContext, persistKind, isPersistName, isLegacyStoreFile, isPersistContent } from './index';
import { persistHover } from './language';
import { rule as persistFieldNotRead } from './rules/field-not-read';
import { rule as persistFieldType } from './rules/field-type-mismatch';
import { rule as persistMissing } from './rules/missing-field';
import { rule as persistVersion } from './rules/persist-version';
import { legacyStore, releasesWithoutLegacyStore } from './rules/legacy-store';
import { rule as sandboxTakeover } from './rules/sandbox-takeover';

// This family's part of an analysis result (FamilyResults in registry.ts): read by its hover, completion and facts.
declare module '../registry' {
  interface FamilyResults {
    persist?: PersistContext;
  }
}

export const persistRules: Rule<PersistContext>[] = [persistFieldNotRead, persistFieldType, persistMissing, persistVersion];

/** A legacy store file (state.json …) and the window: it has no persist.json layout to check field by field. */
export interface LegacyStoreRun { path: string; text: string; json: JsonFile; window: string[] }

export const legacyStoreRule: Rule<LegacyStoreRun> = {
  ...legacyStore,
  check({ path: file, text, json, window }, report) {
    const ls = persistData().legacyStore;
    const late = releasesWithoutLegacyStore(window, ls.notReadFrom);
    if (!late.length) return;
    const first = json.topLevelKeys()[0]?.range ?? { start: 0, end: Math.min(1, text.length) };
    report({
      message: `legacy store file ${path.basename(file)}: ${describeReleases(late, window)} read${late.length === 1 ? 's' : ''} only persist.json (${ls.upgradeFailure.statement}); `
        + 'stop the sandbox before the upgrade, or it cannot be managed afterwards',
      range: first,
      data: { notReadBy: late },
    });
  },
};

const byName = (file: string) => isPersistName(file) || isLegacyStoreFile(file);

export const kataPersist: FamilyModule<'kata-persist'> = {
  id: 'kata-persist',
  title: 'Kata Containers `persist.json`',
  modelineNames: ['kata-persist'],
  serves: { files: [{ ext: '.json' }], languages: ['json'] },
  // JSON is parsed as YAML (a superset) only where it may be a manifest: persist.json files can be megabytes.
  look({ file, ext, text }) {
    if (ext !== '.json') return { notYaml: false };
    if (byName(file)) return { notYaml: true };
    const content = isPersistContent(text, file);
    return { notYaml: content, memo: content };
  },
  detect({ file, ext, text, memo }) {
    if (ext !== '.json') return DETECT.no;
    if (byName(file)) return DETECT.name;
    return (memo as boolean | undefined ?? isPersistContent(text, file)) ? DETECT.content : DETECT.no;
  },
  rules: [...persistRules, legacyStoreRule, sandboxTakeover],
  analyze({ input, emit, stage }) {
    const { text, config, faults } = input;
    const json = stage('parse', () => new JsonFile(text));
    const e = json.errors[0];
    const w = stage('context', () => resolveKataWindow(config));
    if (e) {
      emit(parseError, { message: `${e.code === 'JSON_DEPTH' ? `JSON ${e.message}, so the file is not checked` : `JSON syntax error: ${e.message}`}`, range: { start: e.start, end: e.end } });
      return {};
    }
    if (isLegacyStoreFile(input.path) && !isPersistName(input.path)) {
      runRule(legacyStoreRule, { path: input.path, text, json, window: w.window }, emit, faults);
      return {};
    }
    const kind = stage('detect', () => persistKind(json.value, input.path));
    if (!kind) return {};
    // persist.json is the Go runtime's format: under a window that switches flavour it is checked at the Go side's releases.
    const goReleases = w.crossing ? (w.crossing.first === 'go' ? w.crossing.before : w.crossing.after) : w.window;
    const persist = stage('context', () => new PersistContext(input.path, json, kind, goReleases, w.source));
    for (const rule of persistRules) runRule(rule, persist, emit, faults);
    if (w.crossing) runRule(sandboxTakeover, { persist, crossing: w.crossing }, emit, faults);
    return { persist };
  },
  hover: (r, text, pos) => (r.persist ? persistHover(r.persist, text, pos) : undefined),
  complete: () => [],
  facts: (r) => (r.persist ? { persistKind: r.persist.kind, eras: r.persist.eras().map((id) => ({ id, writtenBy: r.persist!.eraRange(id) })), kataWindow: r.persist.windowText } : undefined),
  stepsSource: (r) => (r.config ? resolveKataWindow(r.config).source : undefined),
  steps: (r) => r.persist?.window ?? (r.config ? resolveKataWindow(r.config).window : undefined),
  stepsName: 'Kata Containers',
  data: persistData,
};
