// The one home of names that the engine, the language server, lsp-lint and the client all use. A leaf module:
// it imports nothing but types, so that lsp-lint can use it without bundling the engine.
import type { SeveritySetting } from '../engine/types';

/** The workspace configuration file, in the order it is looked for in a folder. */
export const CONFIG_FILENAMES: readonly string[] = ['.skewguard.yaml', '.skewguard.yml'];

/** Whether a path or URI names a configuration file (by its last segment). */
export function isConfigFileName(pathOrUri: string): boolean {
  const base = pathOrUri.slice(Math.max(pathOrUri.lastIndexOf('/'), pathOrUri.lastIndexOf('\\')) + 1);
  return CONFIG_FILENAMES.includes(base);
}

/** Folders never walked into, whatever .gitignore says: version control metadata and installed packages. */
export const ALWAYS_SKIPPED_FOLDERS: readonly string[] = ['.git', 'node_modules'];

/** The severities a rule can be set to, in the order messages list them. */
export const SEVERITIES: SeveritySetting[] = ['error', 'warning', 'info', 'hint', 'off'];
