// A Kata window whose releases carry their runtime flavour: "3.20 (go)..4.1 (runtime-rs)".
import { kataData, kataWindow, releaseFloor, type Flavour } from './index';
import { compareVersions, parseRange } from '../../../versions';

export const FLAVOURS: readonly Flavour[] = ['go', 'runtime-rs'];

/** A parsed kata.window: its two ends, each with the flavour written after it (if any). */
export interface KataWindowSpec { from: string; to: string; fromFlavour?: Flavour; toFlavour?: Flavour }

/** The first release of runtime-rs (it exists from 3.0.0: data/kata/config.json releasesNote). */
export const RUNTIME_RS_FIRST = '3.0.0';

/** One end: a release (read by versions.ts, as every window's) and the flavour written after it in (), if any. */
function splitEnd(p: string): { v?: string; f?: string } {
  const t = p.trim();
  const open = t.endsWith(')') ? t.lastIndexOf('(') : -1;
  const f = open < 0 ? undefined : t.slice(open + 1, -1).trim();
  if (f !== undefined && /[()]/.test(f)) return {};
  return { v: parseRange(open < 0 ? t : t.slice(0, open))?.from, f };
}

/**
 * Parses "3.20..4.1", "4.1 (runtime-rs)" or "3.20 (go)..4.1 (runtime-rs)". Returns the spec, or the reason it is not
 * one (the message names the value as written, for .skewguard.yaml, the setting and --kata-window alike).
 */
export function parseKataWindowSpec(s: string): KataWindowSpec | { error: string } {
  const text = String(s);
  const parts = text.split('..');
  const example = '"3.2..3.32", or with flavours "3.20 (go)..4.1 (runtime-rs)"';
  if (parts.length > 2) return { error: `kata.window "${text}" has more than one ".."; write a release or a range such as ${example}` };
  const ends: Array<{ v: string; f?: Flavour }> = [];
  for (const p of parts) {
    const { v, f } = splitEnd(p);
    if (!v) return { error: `kata.window "${text}" is not a release or range such as ${example}` };
    if (f !== undefined && !FLAVOURS.includes(f as Flavour)) {
      return { error: `kata.window "${text}": unknown flavour "${f}" after ${v}; a release's flavour is go (the Go runtime) or runtime-rs` };
    }
    ends.push({ v, f: f as Flavour | undefined });
  }
  const [a, b = a] = ends;
  if (ends.length === 2 && !!a.f !== !!b.f) {
    return { error: `kata.window "${text}": give a flavour to both ends or to neither (e.g. "${a.v} (${a.f ?? b.f})..${b.v} (${b.f ?? a.f})")` };
  }
  for (const e of ends) {
    if (e.f === 'runtime-rs' && compareVersions(releaseFloor(e.v), RUNTIME_RS_FIRST) < 0) {
      return { error: `kata.window "${text}": runtime-rs has no release ${e.v} (it exists from ${RUNTIME_RS_FIRST})` };
    }
  }
  return { from: a.v, to: b.v, fromFlavour: a.f, toFlavour: b.f };
}

export const isSpec = (x: KataWindowSpec | { error: string }): x is KataWindowSpec => !('error' in x);

/** Whether the window switches flavour between its ends. */
export const crossesFlavours = (w: KataWindowSpec | undefined): w is KataWindowSpec & { fromFlavour: Flavour; toFlavour: Flavour } =>
  !!w?.fromFlavour && !!w.toFlavour && w.fromFlavour !== w.toFlavour;

/**
 * The releases each flavour of a crossing window is checked at: the first flavour at every release of the window
 * before the releases of its last end (at least the first end's own releases), the second flavour at the last end's
 * releases. "3.20 (go)..4.1 (runtime-rs)": the Go runtime at 3.20.0 … 4.0.0, runtime-rs at 4.1.x.
 */
export function splitCrossing(w: KataWindowSpec & { fromFlavour: Flavour; toFlavour: Flavour }): { before: string[]; after: string[] } {
  const all = kataWindow(w.from, w.to);
  const after = kataWindow(w.to, w.to);
  let before = all.filter((r) => !after.includes(r));
  if (!before.length) before = kataWindow(w.from, w.from).filter((r) => !after.includes(r));
  if (!before.length) before = kataWindow(w.from, w.from);
  return { before, after };
}

/** An error message when a window names no release of the data; undefined when it is fine. */
export function checkKataWindowSpec(s: string): string | undefined {
  const r = parseKataWindowSpec(s);
  if (!isSpec(r)) return r.error;
  if (compareVersions(releaseFloor(r.from), r.to.split('.').length === 2 ? `${r.to}.99999` : r.to) > 0) {
    return `kata.window "${s}": the start ${r.from} is newer than the end ${r.to}; a window goes from the older release to the newer one (a rollback is the same window)`;
  }
  if (!kataWindow(r.from, r.to).length) {
    const rs = kataData().releases;
    return `Kata window "${s}" holds no known release (the data knows ${rs[0]} … ${rs[rs.length - 1]})`;
  }
  if (crossesFlavours(r)) {
    if (!kataWindow(r.to, r.to).length) return `kata.window "${s}": the data has no release ${r.to} for ${r.toFlavour} (it knows ${kataData().releases.slice(-3).join(', ')} …)`;
  }
  return undefined;
}

/** "3.20.0–4.0.0 (Go runtime)": a side of a window as messages write it. */
export const flavourName = (f: Flavour) => (f === 'go' ? 'the Go runtime' : 'runtime-rs');
