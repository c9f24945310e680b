// The engine's FileAccess over the disk, for tests (the language server has its own, with the open documents over it).
import fs from 'node:fs';
import path from 'node:path';

export function fsAccess(overlay = new Map()) {
  return {
    read(p) { if (overlay.has(p)) return overlay.get(p); try { return fs.readFileSync(p, 'utf8').replace(/^\uFEFF/, ''); } catch { return undefined; } },
    readBytes(p) { try { return fs.readFileSync(p); } catch { return undefined; } },
    list(d) {
      try { return fs.readdirSync(d, { withFileTypes: true }).filter((e) => e.isFile() || e.isDirectory()).map((e) => ({ name: e.name, dir: e.isDirectory() })).sort((a, b) => (a.name < b.name ? -1 : 1)); } catch { return undefined; }
    },
  };
}

/** Every file under `dir` (sorted, relative, `/`-separated). */
export function filesUnder(dir) {
  const out = [];
  const walk = (d, rel) => { for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) { const r = rel ? `${rel}/${e.name}` : e.name; if (e.isDirectory()) walk(path.join(d, e.name), r); else out.push(r); } };
  walk(dir, '');
  return out;
}
