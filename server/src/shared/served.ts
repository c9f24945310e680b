// The files skewguard serves (engine/served.ts composes them from the families; the build puts the table in as
// `__SKEWGUARD_SERVED__`), for the bundles that do not bundle the engine: lsp-lint's walk and the clients.
export interface ServedTable {
  /** Extensions (lower case, with the dot) served wherever they are. */
  extensions: string[];
  /** Extensions served only below a folder of that name (`within`), directly in one (`parent`), or in a file whose
   *  name matches `name` (`*` any characters, case-insensitive). */
  conditional: Array<{ ext: string; within?: string; parent?: string; name?: string }>;
  /** VS Code language ids of served documents. */
  languages: string[];
  /** Glob patterns of served documents whatever their language. */
  patterns: string[];
}

declare const __SKEWGUARD_SERVED__: ServedTable;

export const SERVED: ServedTable = __SKEWGUARD_SERVED__;

/** Whether a file at `abs` is served (a folder walk opens it). */
export function isServedPath(abs: string, t: ServedTable = SERVED): boolean {
  const i = Math.max(abs.lastIndexOf('/'), abs.lastIndexOf('\\'));
  const name = abs.slice(i + 1);
  const dot = name.lastIndexOf('.');
  const ext = dot <= 0 ? '' : name.slice(dot).toLowerCase();
  if (t.extensions.includes(ext)) return true;
  const parts = abs.split(/[\\/]/);
  return t.conditional.some((c) => c.ext === ext && (c.name ? nameMatches(c.name, name) : c.within ? parts.slice(0, -1).includes(c.within) : parts[parts.length - 2] === c.parent));
}

/** A file name against a pattern whose only wildcard is `*` (any characters), case-insensitive. */
export function nameMatches(pattern: string, name: string): boolean {
  const parts = pattern.toLowerCase().split('*');
  const n = name.toLowerCase();
  if (parts.length === 1) return n === parts[0];
  if (!n.startsWith(parts[0])) return false;
  let at = parts[0].length;
  for (let i = 1; i < parts.length - 1; i++) {
    const j = n.indexOf(parts[i], at);
    if (j < 0) return false;
    at = j + parts[i].length;
  }
  const last = parts[parts.length - 1];
  return n.length - last.length >= at && n.endsWith(last);
}

/** Every extension read for facts (the web client), conditional ones included. */
export const anyServedExtension = (t: ServedTable = SERVED): string[] => [...new Set([...t.extensions, ...t.conditional.map((c) => c.ext)])];
