// The load-time import graph of a TypeScript source tree, read with the TypeScript compiler API (a parse of each
// file, no type checking): an edge for each static `import … from`, side-effect `import '…'` and `export … from`
// between two files of the tree. Left out, since they load nothing: `import type`, `export type`, and an import all
// of whose names are `type` (`import { type A } from`), which the compilers erase. A dynamic import() or require()
// is not a load-time edge. Package and node: imports are not followed.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { tsSources } from './sources.mjs';

const ts = createRequire(import.meta.url)('typescript');

/** The relative specifiers a file imports at load time, in source order. */
export function loadTimeImports(text, fileName = 'x.ts') {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.ES2022, false, ts.ScriptKind.TS);
  const out = [];
  for (const st of sf.statements) {
    if (ts.isImportDeclaration(st)) {
      const c = st.importClause;
      if (c) {
        if (c.isTypeOnly) continue;
        const named = c.namedBindings && ts.isNamedImports(c.namedBindings) ? c.namedBindings.elements : undefined;
        if (!c.name && named && named.length && named.every((e) => e.isTypeOnly)) continue;
      }
      out.push(st.moduleSpecifier.text);
    } else if (ts.isExportDeclaration(st) && st.moduleSpecifier) {
      if (st.isTypeOnly) continue;
      const named = st.exportClause && ts.isNamedExports(st.exportClause) ? st.exportClause.elements : undefined;
      if (named && named.length && named.every((e) => e.isTypeOnly)) continue;
      out.push(st.moduleSpecifier.text);
    } else if (ts.isImportEqualsDeclaration(st) && !st.isTypeOnly && ts.isExternalModuleReference(st.moduleReference)) {
      out.push(st.moduleReference.expression.text);
    }
  }
  return out;
}

/** A relative specifier resolved as the bundler does: x.ts, x/index.ts (undefined: not a file of the tree). */
function resolve(from, spec) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, path.join(base, 'index.ts')]) {
    if (c.endsWith('.ts') && fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  }
  return undefined;
}

/** The graph: file (relative to `root`, forward slashes) → the files it imports at load time. */
export function importGraph(dir, root) {
  const rel = (f) => path.relative(root, f).split(path.sep).join('/');
  const graph = new Map();
  for (const f of tsSources(dir)) {
    const to = new Set();
    for (const spec of loadTimeImports(fs.readFileSync(f, 'utf8'), f)) {
      const r = resolve(f, spec);
      if (r) to.add(rel(r));
    }
    graph.set(rel(f), [...to].sort());
  }
  return graph;
}

/** The strongly connected sets of more than one file, or of one that imports itself (Tarjan), each sorted. */
export function cycleGroups(graph) {
  let index = 0;
  const idx = new Map(), low = new Map(), on = new Set(), stack = [], out = [];
  const visit = (v) => {
    // Iterative: a deep import chain must not overflow the stack.
    const work = [[v, 0]];
    idx.set(v, index); low.set(v, index); index++; stack.push(v); on.add(v);
    while (work.length) {
      const top = work[work.length - 1];
      const [u, i] = top;
      const next = graph.get(u) ?? [];
      if (i < next.length) {
        top[1]++;
        const w = next[i];
        if (!idx.has(w)) { idx.set(w, index); low.set(w, index); index++; stack.push(w); on.add(w); work.push([w, 0]); }
        else if (on.has(w)) low.set(u, Math.min(low.get(u), idx.get(w)));
        continue;
      }
      work.pop();
      if (work.length) { const p = work[work.length - 1][0]; low.set(p, Math.min(low.get(p), low.get(u))); }
      if (low.get(u) === idx.get(u)) {
        const group = [];
        let w;
        do { w = stack.pop(); on.delete(w); group.push(w); } while (w !== u);
        if (group.length > 1 || (graph.get(u) ?? []).includes(u)) out.push(group.sort());
      }
    }
  };
  for (const v of [...graph.keys()].sort()) if (!idx.has(v)) visit(v);
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** One shortest cycle through `start` inside `group` (breadth first), as "a → b → … → a". */
export function shortestCycle(graph, group, start = group[0]) {
  const inGroup = new Set(group);
  const prev = new Map([[start, null]]);
  const queue = [start];
  while (queue.length) {
    const u = queue.shift();
    for (const w of graph.get(u) ?? []) {
      if (!inGroup.has(w)) continue;
      if (w === start) {
        const chain = [u];
        for (let p = prev.get(u); p; p = prev.get(p)) chain.unshift(p);
        return [...chain, start].join(' → ');
      }
      if (!prev.has(w)) { prev.set(w, u); queue.push(w); }
    }
  }
  return undefined;
}

/**
 * Every elementary cycle of the graph (each once, starting at its smallest file), as "a → b → … → a"; at most `cap`
 * (the search stops there and says so with a last entry "…").
 */
export function allCycles(graph, cap = 1000) {
  const out = [];
  for (const group of cycleGroups(graph)) {
    const order = new Map(group.map((f, i) => [f, i]));
    for (const s of group) {
      const path = [s];
      const onPath = new Set([s]);
      const walk = (u) => {
        for (const w of graph.get(u) ?? []) {
          if (out.length >= cap) return;
          if (!order.has(w) || order.get(w) < order.get(s)) continue;
          if (w === s) { out.push([...path, s].join(' → ')); continue; }
          if (onPath.has(w)) continue;
          path.push(w); onPath.add(w);
          walk(w);
          path.pop(); onPath.delete(w);
        }
      };
      walk(s);
    }
  }
  if (out.length >= cap) out.push('…');
  return out.sort();
}
