// The product version: package.json's "version", put in at build time by scripts/build.mjs (esbuild `define`),
// so that lsp-lint --version, the SARIF driver and the language server's serverInfo can never disagree with it.
declare const __SKEWGUARD_VERSION__: string;

export const VERSION: string = __SKEWGUARD_VERSION__;
