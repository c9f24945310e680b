// node:path for the web build (scripts/build.mjs aliases node:path here): POSIX semantics, except for the root. In
// the browser a document's path is its URI as the server's uriToPath makes it: without a plain scheme
// (memfs://h/x.yaml -> //h/x.yaml) or whole when the scheme has other characters (vscode-vfs://github/o/r/x.yaml,
// vscode-remote://host/x.yaml). A leading "//" or "<scheme>://" is therefore a root, kept by join/dirname/resolve.
export const sep = '/';
export const delimiter = ':';

const ROOT = /^([a-z][a-z0-9+.-]*:)?\/\/(?!\/)/i;

function split(p: string): { root: string; parts: string[] } {
  const m = ROOT.exec(p);
  const root = m ? m[0] : p.startsWith('/') ? '/' : '';
  return { root, parts: p.slice(root.length).split('/').filter((s) => s && s !== '.') };
}

export function normalize(p: string): string {
  if (p === '') return '.';
  const { root, parts } = split(p);
  const out: string[] = [];
  for (const s of parts) {
    if (s === '..') { if (out.length && out[out.length - 1] !== '..') out.pop(); else if (!root) out.push('..'); } else out.push(s);
  }
  const body = out.join('/');
  const trailing = p.endsWith('/') && body ? '/' : '';
  return (root + body + trailing) || (root ? root : '.');
}

export function isAbsolute(p: string): boolean { return p.startsWith('/') || ROOT.test(p); }

export function join(...ps: string[]): string {
  const kept = ps.filter((x) => x !== '');
  return kept.length ? normalize(kept.join('/')) : '.';
}

export function resolve(...ps: string[]): string {
  let acc = '';
  for (let i = ps.length - 1; i >= 0 && !isAbsolute(acc); i--) if (ps[i]) acc = acc ? `${ps[i]}/${acc}` : ps[i];
  if (!isAbsolute(acc)) acc = `/${acc}`;
  const n = normalize(acc);
  return n.length > 1 && n.endsWith('/') && n !== '//' ? n.slice(0, -1) : n;
}

export function dirname(p: string): string {
  if (!p) return '.';
  const { root, parts } = split(p);
  if (!parts.length) return root || '.';
  parts.pop();
  return root + parts.join('/') || (root ? root : '.');
}

export function basename(p: string, ext?: string): string {
  const { parts } = split(p);
  const b = parts.length ? parts[parts.length - 1] : '';
  return ext && b.endsWith(ext) && b !== ext ? b.slice(0, -ext.length) : b;
}

export function extname(p: string): string {
  const b = basename(p);
  const i = b.lastIndexOf('.');
  return i <= 0 ? '' : b.slice(i);
}

export function relative(from: string, to: string): string {
  const a = split(resolve(from)), b = split(resolve(to));
  if (a.root !== b.root) return resolve(to);
  let i = 0;
  while (i < a.parts.length && i < b.parts.length && a.parts[i] === b.parts[i]) i++;
  return [...a.parts.slice(i).map(() => '..'), ...b.parts.slice(i)].join('/');
}

export function parse(p: string): { root: string; dir: string; base: string; ext: string; name: string } {
  const base = basename(p), ext = extname(p);
  return { root: split(p).root, dir: dirname(p), base, ext, name: ext ? base.slice(0, -ext.length) : base };
}

export function format(o: { dir?: string; root?: string; base?: string; name?: string; ext?: string }): string {
  const base = o.base ?? `${o.name ?? ''}${o.ext ?? ''}`;
  const dir = o.dir ?? o.root ?? '';
  return dir ? (dir.endsWith('/') ? dir + base : `${dir}/${base}`) : base;
}

export function toNamespacedPath(p: string): string { return p; }

const self = { sep, delimiter, normalize, isAbsolute, join, resolve, dirname, basename, extname, relative, parse, format, toNamespacedPath };
export const posix = self;
export default self;
