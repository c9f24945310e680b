// What the engine library (dist/engine.js: the tests, benchmarks and data scripts) gives of the Helm chart family: what
// each template emits at each minor (the helm-render agreement test compares it with `helm template`), the emission
// fixes and groups, and the template evaluator as a namespace. The registry re-exports it (families/registry.ts).
export { helmEmissions } from './run';
export { literalFix as helmLiteralFix, groupsOf as helmEmissionGroups } from './rules/emissions';
export * as helmTemplate from './template';
