// The files skewguard serves, composed from the families' `serves` (families/<id>/family.ts): the folder walk of
// lsp-lint (cli/files.ts), the document selector of the desktop and web clients (client/src/selector.ts) and the
// workspace files the web client reads (client/src/browser.ts). The build puts this table in those bundles
// (`__SKEWGUARD_SERVED__`, scripts/build.mjs), which do not bundle the engine (shared/served.ts reads it).
import { families } from './families/registry';
import type { ServedTable } from '../shared/served';

export function servedTable(): ServedTable {
  const uniq = <T>(xs: T[]) => [...new Set(xs)];
  const files = families.flatMap((f) => f.serves.files);
  const plain = uniq(files.filter((x) => !x.within && !x.parent && !x.name).map((x) => x.ext.toLowerCase()));
  const conditional = files.filter((x) => (x.within || x.parent || x.name) && !plain.includes(x.ext.toLowerCase()));
  const seen = new Set<string>();
  return {
    extensions: plain,
    conditional: conditional.filter((x) => { const k = JSON.stringify(x); return !seen.has(k) && !!seen.add(k); }).map((x) => ({ ext: x.ext.toLowerCase(), ...(x.within ? { within: x.within } : {}), ...(x.parent ? { parent: x.parent } : {}), ...(x.name ? { name: x.name } : {}) })),
    languages: uniq(families.flatMap((f) => f.serves.languages ?? [])),
    patterns: uniq(families.flatMap((f) => f.serves.patterns ?? [])),
  };
}
