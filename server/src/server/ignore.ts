// `ignore:` in the server: a file the ignore lists leave out is not checked in the editor (its diagnostics are empty,
// the status item says why), and lsp-lint asks with skewguard/ignoredFiles which of the files its folder walk found
// are left out. Both answers come from engine/ignore.ts ignoreVerdict() with the configuration that applies to each
// file (the nearest .skewguard.yaml), so the editor and CI leave out the same files.
import * as path from 'node:path';
import type { Connection } from 'vscode-languageserver/node';
import type { ResolvedConfig } from '../engine/config';
import { ignoreVerdict, type IgnoreVerdict } from '../engine/ignore';
import { IgnoredFilesRequest, type IgnoredFilesParams, type IgnoredFilesResult } from '../shared/protocol';
import type { WorkspaceState } from './workspace';

/** Why the file is left out, or undefined. */
export function ignoredFile(ws: WorkspaceState, file: string, config: Pick<ResolvedConfig, 'ignoreLayers'>, isDir = false): IgnoreVerdict | undefined {
  return ignoreVerdict(config, file, ws.rootFor(file) ?? ws.roots[0], isDir);
}

/** A person's sentence for the verdict. */
export function describeIgnored(v: IgnoreVerdict, root: string | undefined): string {
  const where = path.isAbsolute(v.source) ? (root ? path.relative(root, v.source) || v.source : v.source) : v.source;
  return `ignored by the ignore: list of ${where}`;
}

export function registerIgnoredFiles(connection: Connection, ws: () => WorkspaceState, configOf: (file: string) => Pick<ResolvedConfig, 'ignoreLayers'>): void {
  connection.onRequest(IgnoredFilesRequest, (p: IgnoredFilesParams): IgnoredFilesResult => {
    const out: IgnoredFilesResult = { ignored: [] };
    for (const [i, f] of (p.paths ?? []).entries()) {
      if (typeof f !== 'string') continue;
      const isDir = !!p.dirs?.[i];
      // A folder's configuration is the one of a file inside it.
      const v = ignoredFile(ws(), f, configOf(isDir ? path.join(f, '__folder__') : f), isDir);
      if (v) out.ignored.push({ path: f, reason: describeIgnored(v, ws().rootFor(f)) });
    }
    return out;
  });
}
