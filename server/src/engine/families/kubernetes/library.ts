// What the engine library (dist/engine.js: the tests, benchmarks and data scripts) gives of the Kubernetes family: its
// data accessors, the Kubernetes window's check, and its lifecycle, conversion, served, field, operator and CEL modules
// as namespaces. The registry re-exports it (families/registry.ts), so that engine/index.ts names no family.
export * from './data/apis';
export * from './data/past-data';
export { checkKubernetesWindow, type KubeWindow } from './config';
export * as k8sLifecycle from './data/lifecycle';
export * as k8sConvert from './data/convert';
export * as k8sServed from './data/served';
export * as k8sFields from './data/fields';
export * as k8sOperators from './data/operators';
export * as k8sCel from './cel';
