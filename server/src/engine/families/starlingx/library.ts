// What the engine library (dist/engine.js: the tests, benchmarks and data scripts) gives of the StarlingX family: its
// releases' data accessors. The registry re-exports it (families/registry.ts), so that engine/index.ts names no family.
export * from './data';
