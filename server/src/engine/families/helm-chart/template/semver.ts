// Masterminds/semver v3 (what sprig's semverCompare and semver use), after its version.go and constraints.go:
// loose versions (`v` prefix, missing minor/patch), constraints with `||` (or), `,`/space (and), operators
// = != > < >= => <= =< ~ ~> ^, x-ranges (1.2.x, *, missing parts are "dirty"), hyphen ranges `a - b`, and the
// pre-release rule: a version with a pre-release matches a comparator only if the comparator has one (`>=1.19-0`).

export interface SemVer { major: bigint; minor: bigint; patch: bigint; pre: string; meta: string; original: string }

const S = '[\\t\\n\\f\\r ]';
const VERSION_RE = /^v?([0-9]+)(\.[0-9]+)?(\.[0-9]+)?(-([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?(\+([0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*))?$/;
const CV = 'v?([0-9|x|X|\\*]+)(\\.[0-9|x|X|\\*]+)?(\\.[0-9|x|X|\\*]+)?(-([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?(\\+([0-9A-Za-z\\-]+(\\.[0-9A-Za-z\\-]+)*))?';
const OPS = '=||!=|>|<|>=|=>|<=|=<|~|~>|\\^';
const CONSTRAINT_RE = new RegExp(`^${S}*(${OPS})${S}*(${CV})${S}*$`);
const RANGE_RE = new RegExp(`${S}*(${CV})${S}+-${S}+(${CV})${S}*`, 'g');
const FIND_RE = new RegExp(`(${OPS})${S}*(${CV})`, 'g');
const VALID_RE = new RegExp(`^(${S}*(${OPS})${S}*(${CV})${S}*)((?:${S}+|,${S}*)(${OPS})${S}*(${CV})${S}*)*$`);

export function parseVersion(s: string): SemVer | string {
  const m = VERSION_RE.exec(s);
  if (!m) return 'Invalid Semantic Version';
  const num = (x: string | undefined) => (x ? BigInt(x.replace(/^\./, '')) : 0n);
  const pre = m[5] ?? '';
  if (pre) {
    for (const part of pre.split('.')) {
      if (/^[0-9]+$/.test(part) && part.length > 1 && part[0] === '0') return 'Version segment starts with 0';
    }
  }
  return { major: num(m[1]), minor: num(m[2]), patch: num(m[3]), pre, meta: m[8] ?? '', original: s };
}

function cmpPreParts(a: string, b: string): number {
  const an = /^[0-9]+$/.test(a), bn = /^[0-9]+$/.test(b);
  if (an && bn) { const x = BigInt(a), y = BigInt(b); return x < y ? -1 : x > y ? 1 : 0; }
  if (an) return -1;
  if (bn) return 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
function comparePrerelease(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const ap = a.split('.'), bp = b.split('.');
  const n = Math.max(ap.length, bp.length);
  for (let i = 0; i < n; i++) {
    if (i >= ap.length) return -1;
    if (i >= bp.length) return 1;
    const c = cmpPreParts(ap[i], bp[i]);
    if (c !== 0) return c;
  }
  return 0;
}
// SemVer 2.0 precedence as Masterminds/semver orders versions (pre-releases included): a chart constraint's reading, not the
// Kubernetes minor arithmetic of engine/versions.ts.
export function compareSemver(v: SemVer, o: SemVer): number {
  for (const k of ['major', 'minor', 'patch'] as const) {
    if (v[k] !== o[k]) return v[k] < o[k] ? -1 : 1;
  }
  return comparePrerelease(v.pre, o.pre);
}
export function versionString(v: SemVer): string {
  return `${v.major}.${v.minor}.${v.patch}` + (v.pre ? '-' + v.pre : '') + (v.meta ? '+' + v.meta : '');
}

interface Constraint { con: SemVer; op: string; dirty: boolean; minorDirty: boolean; patchDirty: boolean }
const isX = (x: string) => x === 'x' || x === '*' || x === 'X';

function parseConstraint(c: string): Constraint | string {
  if (c.length === 0) return { con: parseVersion('0.0.0') as SemVer, op: '', dirty: true, minorDirty: false, patchDirty: false };
  const m = CONSTRAINT_RE.exec(c);
  if (!m) return `improper constraint: ${c}`;
  const m3 = m[3] ?? '', m4 = m[4] ?? '', m5 = m[5] ?? '', m6 = m[6] ?? '';
  let ver = m[2];
  let dirty = false, minorDirty = false, patchDirty = false;
  if (isX(m3) || m3 === '') { ver = `0.0.0${m6}`; dirty = true; }
  else if (isX(m4.replace(/^\./, '')) || m4 === '') { minorDirty = true; dirty = true; ver = `${m3}.0.0${m6}`; }
  else if (isX(m5.replace(/^\./, '')) || m5 === '') { dirty = true; patchDirty = true; ver = `${m3}${m4}.0${m6}`; }
  const con = parseVersion(ver);
  if (typeof con === 'string') return 'constraint Parser Error';
  return { con, op: m[1], dirty, minorDirty, patchDirty };
}

export type Constraints = Constraint[][];

/** Parsed constraints by text (a chart's helpers compare the same few constraints at every include); never mutated. */
const constraintsMemo = new Map<string, Constraints | string>();
export function parseConstraints(input: string): Constraints | string {
  let hit = constraintsMemo.get(input);
  if (hit === undefined) {
    if (constraintsMemo.size > 4096) constraintsMemo.clear();
    constraintsMemo.set(input, (hit = parseConstraintsOf(input)));
  }
  return hit;
}

function parseConstraintsOf(input: string): Constraints | string {
  let c = input;
  const ranges = [...c.matchAll(RANGE_RE)];
  for (const r of ranges) c = c.replace(r[0], `>= ${r[1]}, <= ${r[11]}`);
  const out: Constraints = [];
  for (const v of c.split('||')) {
    if (!VALID_RE.test(v)) return `improper constraint: ${v}`;
    let cs = [...v.matchAll(FIND_RE)].map((m) => m[0]);
    if (cs.length === 0) cs = [v];
    const and: Constraint[] = [];
    for (const s of cs) {
      const pc = parseConstraint(s);
      if (typeof pc === 'string') return pc;
      and.push(pc);
    }
    out.push(and);
  }
  return out;
}

function check(v: SemVer, c: Constraint): boolean {
  const preBlocked = v.pre !== '' && c.con.pre === '';
  const cmp = () => compareSemver(v, c.con);
  const tilde = () => {
    if (preBlocked) return false;
    if (cmp() < 0) return false;
    if (c.con.major === 0n && c.con.minor === 0n && c.con.patch === 0n && !c.minorDirty && !c.patchDirty) return true;
    if (v.major !== c.con.major) return false;
    if (v.minor !== c.con.minor && !c.minorDirty) return false;
    return true;
  };
  switch (c.op) {
    case '': case '=':
      if (preBlocked) return false;
      if (c.dirty) return tilde();
      return cmp() === 0;
    case '!=':
      if (c.dirty) {
        if (preBlocked) return false;
        if (c.con.major !== v.major) return true;
        if (c.con.minor !== v.minor && !c.minorDirty) return true;
        else if (c.minorDirty) return false;
        else if (c.con.patch !== v.patch && !c.patchDirty) return true;
        else if (c.patchDirty) {
          if (v.pre !== '' || c.con.pre !== '') return comparePrerelease(v.pre, c.con.pre) !== 0;
          return false;
        }
      }
      return cmp() !== 0;
    case '>':
      if (preBlocked) return false;
      if (!c.dirty) return cmp() === 1;
      if (v.major > c.con.major) return true;
      if (v.major < c.con.major) return false;
      if (c.minorDirty) return false;
      if (c.patchDirty) return v.minor > c.con.minor;
      return cmp() === 1;
    case '<':
      if (preBlocked) return false;
      return cmp() < 0;
    case '>=': case '=>':
      if (preBlocked) return false;
      return cmp() >= 0;
    case '<=': case '=<':
      if (preBlocked) return false;
      if (!c.dirty) return cmp() <= 0;
      if (v.major > c.con.major) return false;
      if (v.major === c.con.major && v.minor > c.con.minor && !c.minorDirty) return false;
      return true;
    case '~': case '~>':
      return tilde();
    case '^': {
      if (preBlocked) return false;
      if (cmp() < 0) return false;
      if (c.con.major > 0n || c.minorDirty) return v.major === c.con.major;
      if (c.con.major === 0n && v.major > 0n) return false;
      if (c.con.minor > 0n || c.patchDirty) return v.minor === c.con.minor;
      if (c.con.minor === 0n && v.minor > 0n) return false;
      return c.con.patch === v.patch;
    }
  }
  return false;
}

export function checkConstraints(cs: Constraints, v: SemVer): boolean {
  return cs.some((and) => and.every((c) => check(v, c)));
}

/** sprig's semverCompare: an error string when the constraint or the version does not parse. */
export function semverCompare(constraint: string, version: string): boolean | { error: string } {
  const cs = parseConstraints(constraint);
  if (typeof cs === 'string') return { error: cs };
  const v = parseVersion(version);
  if (typeof v === 'string') return { error: v };
  return checkConstraints(cs, v);
}
