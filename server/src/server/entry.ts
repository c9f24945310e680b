// dist/server.js, what every client starts (lsp-lint, VS Code, `skewguard-language-server`): the language server,
// dist/server-main.js (server/main.ts), run from a V8 code cache when there is a good one (shared/code-cache.ts).
import * as path from 'node:path';
import { runCached } from '../shared/code-cache';

runCached(path.join(__dirname, 'server-main.js'), 'server', module);
