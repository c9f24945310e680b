// The language server in a web worker (the web extension, github.dev / vscode.dev): the same server
// (main.ts) and engine, built for the browser by scripts/build.mjs, which replaces the Node modules
// on its path: node:fs by the in-memory file system (the package's data/ and schemas inlined; the workspace's files
// from the client), vscode-languageserver/node by the browser entry (server/src/web/lsp-node.ts), Helm rendering by server/src/web/helm-render.ts.
import 'skewguard:web-data';
import './main';
