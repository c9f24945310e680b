// The language server in a web worker (the web extension, github.dev / vscode.dev): the same server
// (main.ts) and engine, built for the browser by scripts/build.mjs, which replaces the Node modules
// on its path: node:fs by the in-memory file system (the package's data/ and schemas inlined; the workspace's files
// from the client), vscode-languageserver/node by the browser entry (server/src/web/lsp-node.ts), a module of a
// family's server side by its .web.ts sibling (the Helm renderer by families/helm-chart/server/helm-render.web.ts).
import 'skewguard:web-data';
import './main';
