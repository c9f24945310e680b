// The editor settings (`skewguard.*`), typed and validated by the same code as `.skewguard.yaml`
// (engine/config.ts validateConfigValue): invalid values are left out and reported, the rest applies.
import { configSchema, validateConfigValue, settingsKeysOf, CONFIG_SECTIONS, type Overrides, type ValueProblem } from '../engine/config';
import { AFTER_CORE_KEYS } from '../engine/config-core';
import type { Settings } from './protocol';

/** The settings section's schema: the config file's keys (but the lifecycle rows), plus the editor-only ones. */
export const settingsSchema = {
  ...configSchema,
  title: 'skewguard editor settings (skewguard.*)',
  properties: {
    ...configSchema.properties,
    // A section's keys the editor settings have (ConfigSection.settingsKeys; the Kubernetes window and OpenAPI documents,
    // the Helm binary only: whether to render is the workspace's own choice, .skewguard.yaml helm.render, --helm-render),
    // and the keys of the sections within it (the components' versions, kubernetes.components).
    ...Object.fromEntries(CONFIG_SECTIONS.filter((c) => c.settingsKeys).map((c) => {
      const s = (configSchema.properties as unknown as Record<string, { properties: Record<string, object> }>)[c.section];
      return [c.section, { ...s, properties: Object.fromEntries(settingsKeysOf(c)!.map((k) => [k, s.properties[k]])) }];
    })),
    debounceMs: { type: 'number', minimum: 0, maximum: 5000 },
    trace: { type: 'object' },
    // Added by the VS Code client, not a setting of its own: which settings' values are the user's (user level, from
    // inspect()), e.g. { "kubernetes.openapi": ["1.38"] }; a value set in the workspace is read only inside it.
    userLevel: { type: 'object' },
  },
} as const;

/**
 * The settings whose user-level entries the VS Code client says (`userLevel`), as section.key: the config sections'
 * `userLevel` keys, named in the initialize result (`userLevelSettings`, shared/user-level.ts).
 */
export function userLevelSettings(): string[] {
  return CONFIG_SECTIONS.flatMap((c) => (c.userLevel ?? []).map((k) => [c.within?.section, c.section, k].filter(Boolean).join('.')));
}

export interface SettingsProblem {
  /** The setting's full name, e.g. "skewguard.kubernetes.window". */
  setting: string;
  message: string;
}

export interface NormalizedSettings {
  /** Only the valid settings. */
  settings: Settings;
  /** What the valid settings contribute to the resolved configuration. */
  overrides: Overrides;
  problems: SettingsProblem[];
}

const DEBOUNCE_DEFAULT = 150;

/**
 * Validates raw settings (from workspace/configuration, didChangeConfiguration or initializationOptions.settings).
 * Empty strings and null are "not set" (VS Code sends its defaults). Cached per settings object.
 */
export function normalizeSettings(raw: unknown, knownRules: Set<string>): NormalizedSettings {
  if (raw && typeof raw === 'object') {
    const hit = cache.get(raw);
    if (hit && hit.rules === knownRules) return hit.result;
  }
  const result = normalizeUncached(raw, knownRules);
  if (raw && typeof raw === 'object') cache.set(raw, { rules: knownRules, result });
  return result;
}
const cache = new WeakMap<object, { rules: Set<string>; result: NormalizedSettings }>();

function normalizeUncached(raw: unknown, knownRules: Set<string>): NormalizedSettings {
  if (raw === undefined || raw === null) return { settings: {}, overrides: {}, problems: [] };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings: {}, overrides: {}, problems: [{ setting: 'skewguard', message: 'the settings must be an object' }] };
  }
  const value = dropUnset(structuredClone(raw)) as Record<string, any>;
  // NaN and ±Infinity are numbers to JSON Schema and fail both bounds at once: one clear problem instead.
  const early: ValueProblem[] = [];
  if (typeof value.debounceMs === 'number' && !Number.isFinite(value.debounceMs)) {
    early.push({ message: `debounceMs: must be a number of milliseconds from 0 to 5000, not ${value.debounceMs}`, path: ['debounceMs'], at: 'value' });
    delete value.debounceMs;
  }
  // Nothing set (lsp-lint, a client without settings): nothing to validate, and no validator to compile.
  if (!early.length && !Object.keys(value).length) return { settings: {}, overrides: {}, problems: [] };
  const validated = validateConfigValue(value, knownRules, settingsSchema, 'settings');
  const overrides = validated.overrides;
  const problems = [...early, ...validated.problems];
  const out: NormalizedSettings = {
    settings: {},
    overrides,
    problems: problems.map((p) => ({ setting: ['skewguard', ...p.path.map(shortSeg)].join('.'), message: p.message })),
  };
  const s = out.settings;
  // The sections (families/<id>/config.ts), each from its valid overrides; those after the core's keys (AFTER_CORE_KEYS:
  // the Helm binary) after them. A section within another's (the components' versions) is a key of that one's, put in
  // after the sections of its group.
  const sectionsOf = (tail: boolean) => {
    const group = CONFIG_SECTIONS.filter((x) => (x.order >= AFTER_CORE_KEYS) === tail);
    const out = s as Record<string, Record<string, unknown> | undefined>;
    for (const c of group.filter((x) => !x.within)) {
      const part = c.settingsOf(overrides);
      if (part) out[c.section] = part;
    }
    for (const c of group.filter((x) => x.within)) {
      const part = c.settingsOf(overrides);
      if (part) out[c.within!.section] = { ...out[c.within!.section], [c.section]: part };
    }
  };
  sectionsOf(false);
  if (overrides.rules) s.rules = overrides.rules;
  if (overrides.files) s.files = overrides.files;
  if (overrides.ignore) s.ignore = overrides.ignore;
  sectionsOf(true);
  const d = value.debounceMs;
  if (typeof d === 'number' && Number.isFinite(d) && d >= 0 && d <= 5000) s.debounceMs = d;
  return out;
}

/** A path segment for a setting's name (a files: glob can be long). */
const shortSeg = (x: string | number) => (String(x).length > 60 ? `${String(x).slice(0, 57)}…` : String(x));

/** Leaves out empty strings, null and emptied objects (VS Code's "not set"). */
function dropUnset(v: unknown): unknown {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return v;
  const o = v as Record<string, unknown>;
  for (const [k, x] of Object.entries(o)) {
    if (x === '' || x === null) { delete o[k]; continue; }
    if (x && typeof x === 'object' && !Array.isArray(x) && k !== 'rules' && k !== 'files') dropUnset(x);
  }
  return o;
}

/** The debounce delay of valid settings. */
export function debounceOf(s: Settings): number {
  return typeof s.debounceMs === 'number' ? s.debounceMs : DEBOUNCE_DEFAULT;
}

/** A stable key of a problem list (to report each distinct set once). */
export function problemsKey(problems: SettingsProblem[]): string {
  return problems.map((p) => `${p.setting}\u0000${p.message}`).sort().join('\u0001');
}
