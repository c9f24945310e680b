// Whether a file is left out by an `ignore:` list: the one function the language server (editor) and lsp-lint (through
// the server's skewguard/ignoredFiles request) both use, so the editor and CI leave out the same files.
//
// The lists are the resolved configuration's `ignoreLayers`: the `ignore:` of the .skewguard.yaml that applies to the
// file (the nearest one, as for the rest of the configuration), with its patterns relative to that file's folder, then
// the editor settings' and lsp-lint's `--ignore` patterns, relative to the workspace root. gitignore syntax.
import { gitignoreMatcher } from './glob';
import type { ResolvedConfig } from './config';

export interface IgnoreVerdict {
  /** Where the matching list is: the config file's path, "settings" or "command line". */
  source: string;
  /** The folder the patterns are relative to. */
  base: string;
  patterns: string[];
}

const matchers = new WeakMap<string[], { ignores(p: string): boolean }>();
const matcherOf = (patterns: string[]) => {
  let m = matchers.get(patterns);
  if (!m) { m = gitignoreMatcher(patterns); matchers.set(patterns, m); }
  return m;
};

const sep = (p: string) => (p.includes('\\') && !p.includes('/') ? '\\' : '/');

/** `file` relative to `base` with `/` separators, or undefined when it is not inside it. */
function relativeTo(base: string, file: string): string | undefined {
  const b = base.replace(/[\\/]+$/, '');
  const s = sep(file);
  if (file === b || !file.startsWith(b + s)) return undefined;
  return file.slice(b.length + 1).split(/[\\/]/).join('/');
}

/**
 * The ignore list that leaves `file` out (absolute path; `isDir`: a folder), or undefined when it is checked. `root`:
 * the workspace root the settings' and command line's patterns are relative to.
 */
export function ignoreVerdict(config: Pick<ResolvedConfig, 'ignoreLayers'>, file: string, root: string | undefined, isDir = false): IgnoreVerdict | undefined {
  for (const layer of config.ignoreLayers ?? []) {
    if (!layer.patterns.length) continue;
    const base = layer.base ?? root;
    if (!base) continue;
    const rel = relativeTo(base, file);
    if (rel === undefined) continue;
    if (matcherOf(layer.patterns).ignores(isDir ? `${rel}/` : rel)) return { source: layer.source, base, patterns: layer.patterns };
  }
  return undefined;
}
