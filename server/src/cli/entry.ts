// dist/lsp-lint.js: spawns the language server first (early.ts), then runs lsp-lint itself, dist/lsp-lint-main.js
// (cli/main.ts), from a V8 code cache when there is a good one (shared/code-cache.ts).
import './early';
import * as path from 'node:path';
import { runCached } from '../shared/code-cache';

runCached(path.join(__dirname, 'lsp-lint-main.js'), 'lsp-lint', module);
