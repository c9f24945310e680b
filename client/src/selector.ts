// The documents the language server checks, one list for the desktop client (extension.ts, file: and untitled:
// documents) and the web client (browser.ts, any scheme: vscode-vfs on github.dev, vscode-remote, file, untitled), so
// that a language added to one is not missed by the other.
import type { DocumentFilter } from 'vscode-languageclient';
import { SERVED } from '../../server/src/shared/served';

// From the families' `serves` (engine/served.ts, put in by the build): their languages, then their patterns (a Helm
// chart's `**/templates/**/*.tpl` helpers, TOML files whatever their language: containerd's config.toml and its
// drop-ins are recognised by the server from their content, and other TOML files are left alone there).
const FILTERS: DocumentFilter[] = [...SERVED.languages.map((language) => ({ language })), ...SERVED.patterns.map((pattern) => ({ pattern }))];

/** The filters on `scheme` (every scheme when not given); on file:, untitled YAML documents too. */
export function documentSelector(scheme?: 'file'): DocumentFilter[] {
  if (!scheme) return FILTERS.map((f) => ({ ...f }));
  return [...FILTERS.map((f) => ({ scheme, ...f }) as DocumentFilter), { scheme: 'untitled', language: 'yaml' }];
}
