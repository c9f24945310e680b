// The documents the language server checks, one list for the desktop client (extension.ts, file: and untitled:
// documents) and the web client (browser.ts, any scheme: vscode-vfs on github.dev, vscode-remote, file, untitled), so
// that a language added to one is not missed by the other.
import type { DocumentFilter } from 'vscode-languageclient';

const FILTERS: DocumentFilter[] = [
  { language: 'yaml' }, { language: 'json' }, { language: 'jsonc' }, { language: 'toml' }, { language: 'kata-toml' },
  // Helm chart templates: the `helm` language of vscode-kubernetes-tools, and helpers whatever their language.
  { language: 'helm' }, { pattern: '**/templates/**/*.tpl' },
  // TOML files whatever their language (none is registered without a TOML extension): containerd's config.toml and
  // its drop-ins are recognised by the server from their content, and other TOML files are left alone there.
  { pattern: '**/*.toml' },
];

/** The filters on `scheme` (every scheme when not given); on file:, untitled YAML documents too. */
export function documentSelector(scheme?: 'file'): DocumentFilter[] {
  if (!scheme) return FILTERS.map((f) => ({ ...f }));
  return [...FILTERS.map((f) => ({ scheme, ...f }) as DocumentFilter), { scheme: 'untitled', language: 'yaml' }];
}
