// Helpers for the Kubernetes tests: the engine (dist/engine.js), a window-to-config shortcut,
// diagnostics as "rule @ line:col" (1-based, as lsp-lint prints them) and an LSP text-edit applier.
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const engine = require(path.join(repoRoot, 'dist', 'engine.js'));

/** A resolved config for a Kubernetes window ("1.18..1.21" or "1.25"), plus an optional loaded .skewguard.yaml. */
export const configFor = (kubernetesWindow, loaded) => engine.resolveConfig({ config: loaded, cli: { kubernetesWindow } });

export function analyze(file, text, window, extra = {}) {
  return engine.analyze({ path: file, text, config: configFor(window, extra.loaded), ...extra.input });
}

/** "k8s/removed-api @ 8:13", 1-based line and column. */
export const at = (d) => `${d.ruleId} @ ${d.range.start.line + 1}:${d.range.start.character + 1}`;

/** Sorted by position, then rule id. */
export const findings = (diagnostics) => [...diagnostics]
  .sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character || (a.ruleId < b.ruleId ? -1 : 1))
  .map(at);

/** Offset of an LSP position ({line, character}) in `text` (lines end at \n, \r\n or \r). */
export function offsetAt(text, pos) {
  let line = 0;
  let i = 0;
  while (line < pos.line) {
    const c = text[i];
    if (c === undefined) return text.length;
    i++;
    if (c === '\r' && text[i] === '\n') i++;
    if (c === '\n' || c === '\r') line++;
  }
  return Math.min(i + pos.character, text.length);
}

/** Applies LSP text edits (non-overlapping, all ranges in the original text) to `text`. */
export function applyEdits(text, edits) {
  // From the end backwards; edits at the same position keep their array order in the result, as LSP specifies.
  const spans = edits.map((e, i) => ({ s: offsetAt(text, e.range.start), e: offsetAt(text, e.range.end), t: e.newText, i }));
  spans.sort((a, b) => b.s - a.s || b.e - a.e || b.i - a.i);
  for (let k = 1; k < spans.length; k++) {
    if (spans[k].e > spans[k - 1].s) throw new Error(`overlapping edits at offsets ${spans[k].s}..${spans[k].e} and ${spans[k - 1].s}..${spans[k - 1].e}`);
  }
  let out = text;
  for (const sp of spans) out = out.slice(0, sp.s) + sp.t + out.slice(sp.e);
  return out;
}
