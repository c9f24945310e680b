// Version arithmetic for windows: Kubernetes minors ("1.21"), patch versions ("1.21.3") and ranges ("1.18..1.21").
import { memoIn } from './memo';

export interface Minor { major: number; minor: number }

/** "1.22", "v1.22", "V1.22.3", "0.11" -> { major, minor }; undefined when not a version. */
const minorCache = new Map<string, Minor | undefined>();
export function parseMinor(v: string): Minor | undefined {
  // Called for every comparison of every lifecycle row at every step of a window: each string is parsed once.
  return memoIn(minorCache, v, () => {
    const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(normalizeVersion(v));
    return m ? { major: Number(m[1]), minor: Number(m[2]) } : undefined;
  }, 10000);
}

/** Numeric comparison of two minors (a patch is ignored); throws on a malformed version (a data bug, not user input). */
export function compareMinor(a: string, b: string): number {
  const pa = parseMinor(a);
  const pb = parseMinor(b);
  if (!pa || !pb) throw new Error(`compareMinor: not a version: ${!pa ? a : b}`);
  return pa.major - pb.major || pa.minor - pb.minor;
}

/** The minor a version string starts with, whatever follows ("v1.21.3-amd64" -> "1.21"): image tags, Pluto's rows. */
export function leadingMinor(v: string): string | undefined {
  const m = /^(\d+)\.(\d+)/.exec(normalizeVersion(v));
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}

export function minorOf(v: string): string | undefined {
  const m = parseMinor(v);
  return m ? `${m.major}.${m.minor}` : undefined;
}

/** Parsed versions, memoised: the Kata rules compare the same few release strings millions of times. */
const versionPartsCache = new Map<string, ReadonlyArray<number | string>>();
function versionParts(v: string): ReadonlyArray<number | string> {
  return memoIn(versionPartsCache, v, () => normalizeVersion(v).split(/[.-]/).map((x) => (/^\d+$/.test(x) ? Number(x) : x)), 4096);
}

export function compareVersions(a: string, b: string): number {
  const pa = versionParts(a);
  const pb = versionParts(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? 0, y = pb[i] ?? 0;
    if (x === y) continue;
    if (typeof x === 'number' && typeof y === 'number') return x - y;
    return String(x) < String(y) ? -1 : 1;
  }
  return 0;
}

export interface RangeParse { from: string; to: string }

/** "1.18..1.21" | "1.21" -> {from, to}; undefined when malformed. */
export function parseRange(s: string): RangeParse | undefined {
  const parts = String(s).split('..').map(normalizeVersion);
  if (parts.length > 2 || !parts.every((p) => /^\d+\.\d+(?:\.\d+)?$/.test(p))) return undefined;
  return { from: parts[0], to: parts[1] ?? parts[0] };
}

/** Every Kubernetes minor from..to inclusive ("1.18".."1.21" -> 1.18, 1.19, 1.20, 1.21). */
export function minorsBetween(from: string, to: string): string[] | undefined {
  const a = parseMinor(from), b = parseMinor(to);
  if (!a || !b || a.major !== b.major || a.minor > b.minor) return undefined;
  const out = [];
  for (let m = a.minor; m <= b.minor; m++) out.push(`${a.major}.${m}`);
  return out;
}

export function formatList(xs: string[], conj = 'and'): string {
  if (xs.length <= 1) return xs.join('');
  return `${xs.slice(0, -1).join(', ')} ${conj} ${xs[xs.length - 1]}`;
}

/**
 * The one reading of a version string, wherever it comes from (localhost.yml's kubernetes_version, a window, a flag,
 * a Pluto row, an image tag, a component's version): surrounding whitespace and ONE leading "v" or "V" removed,
 * nothing else changed ("V1.19.13" -> "1.19.13", " v1.25 " -> "1.25", "1.x" stays "1.x" for the caller to reject).
 */
export function normalizeVersion(v: string): string {
  return String(v).trim().replace(/^[vV]/, '');
}
