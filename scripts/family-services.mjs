// The families' server sides (server/src/server/family-service.ts), collected for the server's bundles: the module
// `skewguard:family-services` lists the server module (server/src/engine/families/<id>/server/index.ts) of each family
// of the registry that has one, in the registry's order. The registry's ids are the built engine's (FAMILIES), so no
// source file lists the families' server modules, and the engine never imports them (the engine library and its
// registry stay free of processes and disk reads). In the web build a module of a family's server folder is replaced
// by its `.web.ts` sibling when there is one (the Helm family's renderer by a stub that never runs Helm).
import fs from 'node:fs';
import path from 'node:path';

export const FAMILY_SERVICES = 'skewguard:family-services';

/** The server modules of the registry's families (ids in the registry's order), absolute paths. */
export function familyServerModules(root, ids) {
  return ids.map((id) => path.join(root, 'server/src/engine/families', id, 'server', 'index.ts')).filter((f) => fs.existsSync(f));
}

/** The source of `skewguard:family-services`. */
export function familyServicesSource(root, ids) {
  const mods = familyServerModules(root, ids);
  return `${mods.map((m, i) => `import { start as start${i} } from ${JSON.stringify(m)};`).join('\n')}
export const familyServices = [${mods.map((_, i) => `{ start: start${i} }`).join(', ')}];
`;
}

/** esbuild plugin: resolves `skewguard:family-services`; with `web`, a family server module's `.web.ts` sibling first. */
export function familyServicesPlugin(root, ids, { web = false } = {}) {
  const families = path.join(root, 'server/src/engine/families');
  return {
    name: 'skewguard-family-services',
    setup(b) {
      b.onResolve({ filter: /^skewguard:family-services$/ }, () => ({ path: 'family-services', namespace: 'skewguard-family-services' }));
      b.onLoad({ filter: /.*/, namespace: 'skewguard-family-services' }, () => ({ contents: familyServicesSource(root, ids), loader: 'js', resolveDir: root }));
      if (!web) return;
      b.onResolve({ filter: /^\.\.?\// }, (a) => {
        const rel = path.relative(families, a.importer).split(path.sep);
        if (rel.length < 3 || rel[0] === '..' || rel[1] !== 'server' || a.importer.endsWith('.web.ts')) return undefined;
        const sibling = `${path.resolve(path.dirname(a.importer), a.path)}.web.ts`;
        return fs.existsSync(sibling) ? { path: sibling } : undefined;
      });
    },
  };
}
