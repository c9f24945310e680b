// Public surface of the engine (bundled as dist/engine.js for tests, benchmarks and scripts).
export * from './types';
export * from './text';
export * from './versions';
export * from './config';
export * from './analyze';
export { findingSteps, STEP_LIST_KEYS } from './steps';
export * from './data';
export { AJV_OPTIONS, validatorFile, schemaSum, validatorSum, precompiledValidator } from './precompiled';
export { validatorFor, schemaFor } from './schema';
export { allRules, ruleById, ruleIds, notSuppressible, fixedSeverity, docsUrl, DOCS_BASE } from './rules';
export type { RuleMeta } from './rules/types';
export { parseYaml, parseYamlFull, parseYamlHeld, forgetHeld, splitDocuments, documentCuts, setParseCacheBudget, forgetParsed } from './parse/yaml';
export { fastParseWhy } from './parse/fast-yaml';
export { YamlEditor } from './parse/yaml-edit';
export { hover, complete } from './language';
// The families (the registry) and what each gives the library (families/<id>/library.ts, re-exported by the registry).
export * from './families/registry';
export { servedTable } from './served';
export { checkGlob, compileGlob, globMatcher, gitignoreMatcher, expandBraces, GLOB_MAX_LENGTH, GLOB_MAX_WILDCARDS, GLOB_MAX_EXPANSIONS } from './glob';
export { normalizeSettings, settingsSchema, userLevelSettings } from '../shared/settings';
export { userLevelAnswer } from '../shared/user-level';
export type { FileAccess } from './files';
export * as windowSteps from './window-verdict';
export { windowText } from './window-text';
export { knownComponents, checkComponentVersion, componentsConfigSection, type ComponentVersionSetting } from './components/config';
export * as operators from './components/operators';
export * as operatorData from './components/operator-data';
export * as operatorPins from './components/operator-pins';
