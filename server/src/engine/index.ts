// Public surface of the engine (bundled as dist/engine.js for tests, benchmarks and scripts).
export * from './types';
export * from './text';
export * from './versions';
export * from './config';
export * from './analyze';
export * from './data';
export { allRules, ruleById, ruleIds, notSuppressible, fixedSeverity, docsUrl, DOCS_BASE } from './rules';
export type { RuleMeta } from './rules/types';
export { parseYaml, parseYamlFull, splitDocuments, setParseCacheBudget } from './parse/yaml';
export { fastParseWhy } from './parse/fast-yaml';
export { YamlEditor } from './parse/yaml-edit';
export { hover, complete } from './language';
export * as k8sLifecycle from './kubernetes/lifecycle';
export { checkGlob, compileGlob, globMatcher, gitignoreMatcher, expandBraces, GLOB_MAX_LENGTH, GLOB_MAX_WILDCARDS, GLOB_MAX_EXPANSIONS } from './glob';
export { normalizeSettings, settingsSchema } from '../shared/settings';
export * as k8sConvert from './kubernetes/convert';
export * as k8sServed from './kubernetes/served';
