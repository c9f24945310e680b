// What the engine library (dist/engine.js: the tests, benchmarks and data scripts) gives of the Kata configuration
// family: the node's chain (RuntimeClass → containerd runtime → configuration file → flavour) as a namespace. The
// registry re-exports it (families/registry.ts), so that engine/index.ts names no family.
export * as kataChain from './data/chain';
