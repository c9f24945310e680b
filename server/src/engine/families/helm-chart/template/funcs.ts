// Template functions: Go's builtins (text/template funcs.go), the sprig functions charts use (Masterminds/sprig
// functions.go and its helpers) and Helm's own (pkg/engine/funcs.go, engine.go), each with Go's parameter types so
// that a wrong-typed argument fails as it does in Helm. Functions not listed here evaluate to an Unknown.
import { CHART_VALUES, GoStruct, TypedInt, Unk, UNORDERED, mutating, type Method, type ParamType, type V, byteLen, empty, goKind, goType, int64, intOf, isMap, truth, findUnk } from './values';
import { NotEvaluated, cmpStr, formatV, sprint, sprintf, sprintln } from './fmt';
import { semverCompare, parseVersion, versionString } from './semver';
import { charge } from './cost';
import { RE2JS } from 're2js';
import { toYaml, toJson, fromYaml, toPrettyJson, toRawJson, fromJson } from './yaml';
import type { RenderScope } from './eval';
import { nodeCrypto } from '../../../../shared/lazy-node';

/** node:crypto, loaded by the first sha256sum/sha1sum rather than at every server start. */
const createHash = (algorithm: string) => nodeCrypto().createHash(algorithm);

export interface FnCtx {
  fail(msg: string): never;
  unk(reason: string): Unk;
  step(n: number): void;
  maxOut: number;
  include(name: string, data: V): V;
  tpl(text: string, data: V): V;
  scope: RenderScope;
}
export interface Fn { params: ParamType[]; variadic?: ParamType; unkOk?: boolean; fn: (a: V[], c: FnCtx) => V }

/** sprig/Helm functions that exist but are not evaluated (random, time, crypto, network, cluster): an Unknown. */
export const KNOWN_UNEVALUATED = new Set([
  'ago', 'date', 'date_in_zone', 'date_modify', 'dateInZone', 'dateModify', 'duration', 'durationRound', 'htmlDate', 'htmlDateInZone',
  'must_date_modify', 'mustDateModify', 'mustToDate', 'now', 'toDate', 'unixEpoch', 'randAlphaNum', 'randAlpha', 'randAscii',
  'randNumeric', 'randSeededNumeric', 'shuffle', 'randInt', 'randBytes', 'uuidv4', 'bcrypt', 'htpasswd', 'genPrivateKey',
  'derivePassword', 'buildCustomCert', 'genCA', 'genCAWithKey', 'genSelfSignedCert', 'genSelfSignedCertWithKey', 'genSignedCert',
  'genSignedCertWithKey', 'encryptAES', 'decryptAES', 'getHostByName', 'sha1sum', 'sha256sum', 'sha512sum', 'adler32sum', 'toToml', 'fromToml',
  'abbrev', 'abbrevboth', 'untitle', 'nospace', 'initials', 'swapcase', 'snakecase', 'camelcase', 'kebabcase', 'wrap', 'wrapWith',
  'plural', 'toDecimal', 'split', 'splitn', 'until', 'untilStep', 'add1f', 'addf', 'subf', 'divf', 'mulf', 'maxf', 'minf', 'ceil', 'floor',
  'round', 'all', 'any', 'toPrettyJson', 'toRawJson', 'mustToPrettyJson', 'mustToRawJson', 'fromJson', 'mustFromJson', 'fromJsonArray',
  'fromYamlArray', 'toYamlPretty', 'deepCopy', 'mustDeepCopy', 'deepEqual', 'osBase', 'osClean', 'osDir', 'osExt',
  'osIsAbs', 'b64dec', 'b32enc', 'b32dec', 'pluck', 'pick', 'omit', 'merge', 'mergeOverwrite', 'mustMerge', 'mustMergeOverwrite', 'values',
  'mustAppend', 'mustPush', 'mustPrepend', 'mustFirst', 'mustRest', 'mustLast', 'mustInitial', 'mustReverse', 'mustUniq', 'mustWithout',
  'mustHas', 'slice', 'mustSlice', 'concat', 'dig', 'chunk', 'mustChunk', 'mustRegexMatch', 'regexFindAll', 'mustRegexFindAll', 'regexFind',
  'mustRegexFind', 'regexReplaceAll', 'mustRegexReplaceAll', 'regexReplaceAllLiteral', 'mustRegexReplaceAllLiteral', 'regexSplit',
  'mustRegexSplit', 'regexQuoteMeta', 'urlParse', 'urlJoin', 'mustToJson', 'mustToYaml', 'html', 'js', 'urlquery', 'call', 'hello',
  'compact', 'mustCompact', 'without', 'uniq', 'reverse', 'initial', 'rest', 'append', 'push', 'prepend', 'unset', 'toStrings', 'cat',
  'substr', 'trunc', 'repeat', 'join', 'splitList', 'sortAlpha', 'first', 'last', 'has', 'atoi', 'add', 'add1', 'sub', 'div', 'mod', 'mul',
  'max', 'min', 'biggest', 'seq', 'b64enc', 'base', 'dir', 'clean', 'ext', 'isAbs', 'tuple', 'trimall', 'semver',
]);

const str = (v: V) => v as string;

/** sprig strval / toString. */
export function strval(v: V): string {
  if (typeof v === 'string') return v;
  if (v instanceof GoStruct && v.str !== undefined) return v.str;
  return formatV(v === undefined ? null : v);
}

/** spf13/cast ToInt64E (sprig's toInt64 / toInt; errors become 0). */
function castInt(v: V): bigint {
  if (v === null || v === undefined) return 0n;
  if (typeof v === 'bigint') return v;
  if (v instanceof TypedInt) return v.v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new NotEvaluated('int of a non-finite float is not evaluated');
    return BigInt(Math.trunc(v));
  }
  if (typeof v === 'boolean') return v ? 1n : 0n;
  if (typeof v === 'string') {
    // cast trims a trailing ".0…" zero decimal, then strconv.ParseInt(s, 0, 0); errors give 0
    let s = v;
    const dot = /^([+-]?[0-9]+)\.0*$/.exec(s);
    if (dot) s = dot[1];
    const m = /^([+-]?)(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|0[0-7_]*|[1-9][0-9_]*)$/.exec(s);
    if (!m) return 0n;
    let body = m[2];
    if (body.includes('_')) {
      // Go allows underscores only between digits with a base prefix
      if (!/^0[xXoObB]/.test(body) && body !== '0') return 0n;
      if (/__|_$/.test(body)) return 0n;
      body = body.replace(/_/g, '');
    }
    if (/^0[0-7]+$/.test(body)) body = '0o' + body.slice(1);
    let n: bigint;
    try { n = BigInt(body); } catch { return 0n; }
    if (m[1] === '-') n = -n;
    if (n >= 2n ** 63n || n < -(2n ** 63n)) return 0n;
    return n;
  }
  return 0n;
}

function castFloat(v: V): number {
  if (v === null || v === undefined) return 0;
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  if (v instanceof TypedInt) return Number(v.v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string') {
    const s = v.trim() === v ? v : '';
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) {
      if (/^[+-]?(inf|infinity|nan)$/i.test(s)) throw new NotEvaluated('float64 of Inf/NaN text is not evaluated');
      return 0;
    }
    return Number(s);
  }
  return 0;
}

/** strings.Title: a letter after a separator is title-cased (Go's isSeparator: ASCII other than letters, digits and _;
 *  beyond ASCII, Unicode spaces only). */
function goTitle(s: string): string {
  const isSep = (r: string): boolean => {
    const x = r.codePointAt(0)!;
    if (x <= 0x7f) return !/[0-9A-Za-z_]/.test(r);
    if (/[\p{L}\p{Nd}]/u.test(r)) return false;
    return /\s/u.test(r);
  };
  let prev = ' ';
  let out = '';
  for (const ch of s) {
    if (isSep(prev)) {
      const t = ch.toUpperCase();
      if ([...t].length !== 1) throw new NotEvaluated('title of a letter whose title case is not one character is not evaluated');
      out += t;
    } else out += ch;
    prev = ch;
  }
  return out;
}

function goTrimSpace(s: string): string { return s.replace(/^[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+|[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+$/g, ''); }

function goTrim(s: string, cut: string): string {
  if (s === '' || cut === '') return s;
  const set = new Set([...cut]);
  const chars = [...s];
  let a = 0, b = chars.length;
  while (a < b && set.has(chars[a])) a++;
  while (b > a && set.has(chars[b - 1])) b--;
  return chars.slice(a, b).join('');
}

/** Go's ==, <, … of the builtin comparison functions (basic kinds only; int vs float is an error). */
type Kind = 'bool' | 'int' | 'uint' | 'float' | 'string' | 'invalid' | 'other';
function basicKind(v: V): Kind {
  if (v === undefined || v === null) return 'invalid';
  if (v instanceof TypedInt) return v.type === 'uint64' ? 'uint' : 'int';
  switch (typeof v) {
    case 'boolean': return 'bool';
    case 'bigint': return 'int';
    case 'number': return 'float';
    case 'string': return 'string';
  }
  return 'other';
}

function eq(c: FnCtx, a: V, rest: V[]): boolean {
  if (rest.length === 0) c.fail('error calling eq: missing argument for comparison');
  const k1 = basicKind(a);
  for (const b of rest) {
    const k2 = basicKind(b);
    let t = false;
    if ((k1 === 'int' || k1 === 'uint') && (k2 === 'int' || k2 === 'uint')) t = intOf(a) === intOf(b); // Go compares int and uint kinds by value
    else if (k1 !== k2) {
      if (k1 !== 'invalid' && k2 !== 'invalid') c.fail('error calling eq: incompatible types for comparison');
    } else if (k1 === 'invalid') t = true;
    else if (k1 === 'other') {
      if (a instanceof GoStruct || b instanceof GoStruct) throw new NotEvaluated('eq on structs is not evaluated');
      c.fail(`error calling eq: non-comparable type ${formatV(a)}: ${goType(a)}`);
    } else t = a === b;
    if (t) return true;
  }
  return false;
}

function lt(c: FnCtx, name: string, a: V, b: V): boolean {
  const k1 = basicKind(a), k2 = basicKind(b);
  if (k1 === 'invalid' || k1 === 'other' || k2 === 'invalid' || k2 === 'other' || k1 === 'bool' || k2 === 'bool') c.fail(`error calling ${name}: invalid type for comparison`);
  if ((k1 === 'int' || k1 === 'uint') && (k2 === 'int' || k2 === 'uint')) return intOf(a)! < intOf(b)!;
  if (k1 !== k2) c.fail(`error calling ${name}: incompatible types for comparison`);
  if (k1 === 'string') return cmpStr(a as string, b as string) < 0;
  return (a as number) < (b as number);
}

function goIndex(c: FnCtx, item: V, idx: V[]): V {
  let cur: V = item;
  if (cur === undefined || cur === null) c.fail('error calling index: index of untyped nil');
  for (const i of idx) {
    if (cur === undefined || cur === null) c.fail('error calling index: index of nil pointer');
    if (Array.isArray(cur) || typeof cur === 'string') {
      if (UNORDERED.has(cur as V[]) && (cur as V[]).length > 1) throw new NotEvaluated('index into a list in Go\'s random map order');
      const iv = intOf(i);
      if (iv === undefined) return c.fail(`error calling index: cannot index slice/array with type ${goType(i)}`);
      const n = Number(iv);
      const len = typeof cur === 'string' ? byteLen(cur) : cur.length;
      if (n < 0 || n >= len) c.fail(`error calling index: index out of range: ${n}`);
      if (typeof cur === 'string') {
        const b: number = Buffer.from(cur, 'utf8')[n];
        cur = BigInt(b); // a byte (uint8)
        continue;
      }
      cur = cur[n];
      continue;
    }
    if (cur instanceof Map) {
      if (typeof i !== 'string') c.fail(`error calling index: value has type ${goType(i)}; should be string`);
      const v = cur.get(i);
      cur = v === undefined ? null : v;
      continue;
    }
    c.fail(`error calling index: can't index item of type ${goType(cur)}`);
  }
  return cur;
}

function goLen(c: FnCtx, v: V): bigint {
  if (typeof v === 'string') return BigInt(byteLen(v));
  if (Array.isArray(v)) return BigInt(v.length);
  if (v instanceof Map) return BigInt(v.size);
  if (v === null || v === undefined) c.fail('error calling len: len of nil pointer');
  c.fail(`error calling len: len of type ${goType(v)}`);
}

function indent(n: bigint, s: string, c: FnCtx): string {
  if (n < 0n) c.fail('error calling indent: negative Repeat count');
  const pad = ' '.repeat(Number(n > 100000n ? 100000n : n));
  const out = pad + s.split('\n').join('\n' + pad);
  if (out.length > c.maxOut) c.fail(`output larger than ${c.maxOut} characters`);
  return out;
}

/**
 * A pattern compiled by re2js (a JavaScript port of RE2, the engine of Go's regexp, which Helm's sprig uses): Go's
 * syntax and meaning, matched in time linear in the text (no backtracking, so no pattern can take exponential time).
 * Undefined when RE2 refuses the pattern (Go's regexp.MustCompile would fail too: not evaluated).
 */
/** A pattern compiled once (a compile is about 0.1 ms: regexMatch inside a range compiled it per item); undefined: not RE2 syntax. */
function re2(re: string): RE2JS | undefined {
  if (compiled.has(re)) return compiled.get(re);
  let r: RE2JS | undefined;
  try { r = RE2JS.compile(re); } catch { r = undefined; }
  if (compiled.size >= 256) compiled.clear();
  compiled.set(re, r);
  return r;
}
const compiled = new Map<string, RE2JS | undefined>();

function goBase64(s: string): string { return Buffer.from(s, 'utf8').toString('base64'); }

function listOf(c: FnCtx, name: string, v: V): V[] {
  if (Array.isArray(v)) return v;
  c.fail(`error calling ${name}: Cannot find ${name} on type ${goType(v)}`);
}

function semverStruct(v: Exclude<ReturnType<typeof parseVersion>, string>): GoStruct {
  const u = (x: bigint): Method => ({ params: [], fn: () => new TypedInt(x, 'uint64') });
  const s = (x: string): Method => ({ params: [], fn: () => x });
  return new GoStruct('*semver.Version', new Map(), new Map<string, Method>([
    ['Major', u(v.major)], ['Minor', u(v.minor)], ['Patch', u(v.patch)], ['Prerelease', s(v.pre)], ['Metadata', s(v.meta)],
    ['Original', s(v.original)], ['String', s(versionString(v))],
  ]), versionString(v));
}

export const FUNCS: Record<string, Fn> = {
  // ---- Go builtins ----
  not: { params: ['any'], fn: ([a]) => !truth(a) },
  eq: { params: ['any'], variadic: 'any', fn: ([a, ...r], c) => eq(c, a, r) },
  ne: { params: ['any', 'any'], fn: ([a, b], c) => !eq(c, a, [b]) },
  lt: { params: ['any', 'any'], fn: ([a, b], c) => lt(c, 'lt', a, b) },
  le: { params: ['any', 'any'], fn: ([a, b], c) => lt(c, 'le', a, b) || eq(c, a, [b]) },
  gt: { params: ['any', 'any'], fn: ([a, b], c) => !(lt(c, 'gt', a, b) || eq(c, a, [b])) },
  ge: { params: ['any', 'any'], fn: ([a, b], c) => !lt(c, 'ge', a, b) },
  len: { params: ['any'], fn: ([a], c) => goLen(c, a) },
  index: { params: ['any'], variadic: 'any', fn: ([a, ...r], c) => goIndex(c, a, r) },
  print: { params: [], variadic: 'any', fn: (a) => sprint(a) },
  println: { params: [], variadic: 'any', fn: (a) => sprintln(a) },
  printf: { params: ['string'], variadic: 'any', fn: ([f, ...a]) => sprintf(str(f), a) },

  // ---- Helm ----
  include: { params: ['string', 'any'], unkOk: true, fn: ([n, d], c) => (n instanceof Unk ? n : c.include(str(n), d)) },
  tpl: { params: ['string', 'map'], unkOk: true, fn: ([s, d], c) => (s instanceof Unk ? s : c.tpl(str(s), d)) },
  required: { params: ['string', 'any'], fn: ([w, v], c) => { if (v === null || v === undefined || v === '') c.fail(str(w)); return v; } },
  fail: { params: ['string'], fn: ([m], c) => c.fail(str(m)) },
  // What `lookup` returns is the live cluster's object at install or upgrade (`helm template` gets an empty map): not
  // known here, so a branch or a document that depends on it is not decided (never taken as "not found").
  lookup: { params: ['string', 'string', 'string', 'string'], fn: (_a, c) => c.unk('`lookup` is not evaluated: it reads the live cluster at install or upgrade (only a render without a cluster, as `helm template`, gets an empty map)') },
  toYaml: { params: ['any'], fn: ([v]) => toYaml(v) },
  toJson: { params: ['any'], fn: ([v]) => toJson(v) },
  fromYaml: { params: ['string'], fn: ([s]) => fromYaml(str(s)) },

  // ---- sprig: defaults and flow ----
  default: { params: ['any'], variadic: 'any', unkOk: true, fn: ([d, ...g]) => {
    if (g.length === 0) return d;
    if (g[0] instanceof Unk) return g[0];
    if (empty(g[0])) return d;
    return g[0];
  } },
  empty: { params: ['any'], fn: ([v]) => empty(v) },
  coalesce: { params: [], variadic: 'any', unkOk: true, fn: (a) => {
    for (const v of a) { if (v instanceof Unk) return v; if (!empty(v)) return v; }
    return null;
  } },
  ternary: { params: ['any', 'any', 'bool'], unkOk: true, fn: ([a, b, t]) => (t instanceof Unk ? t : t ? a : b) },

  // ---- sprig: strings ----
  quote: { params: [], variadic: 'any', fn: (a) => a.filter((x) => x !== null && x !== undefined).map((x) => goQuoteStr(strval(x))).join(' ') },
  squote: { params: [], variadic: 'any', fn: (a) => a.filter((x) => x !== null && x !== undefined).map((x) => `'${strval(x)}'`).join(' ') },
  trim: { params: ['string'], fn: ([s]) => goTrimSpace(str(s)) },
  trimPrefix: { params: ['string', 'string'], fn: ([a, b]) => (str(b).startsWith(str(a)) ? str(b).slice(str(a).length) : str(b)) },
  trimSuffix: { params: ['string', 'string'], fn: ([a, b]) => (str(a) !== '' && str(b).endsWith(str(a)) ? str(b).slice(0, str(b).length - str(a).length) : str(b)) },
  trimAll: { params: ['string', 'string'], fn: ([a, b]) => goTrim(str(b), str(a)) },
  trimall: { params: ['string', 'string'], fn: ([a, b]) => goTrim(str(b), str(a)) },
  upper: { params: ['string'], fn: ([s]) => goUpper(str(s)) },
  lower: { params: ['string'], fn: ([s]) => goLower(str(s)) },
  title: { params: ['string'], fn: ([s]) => goTitle(str(s)) },
  replace: { params: ['string', 'string', 'string'], fn: ([o, n, s], c) => {
    const out = str(o) === '' ? goReplaceEmpty(str(s), str(n)) : str(s).split(str(o)).join(str(n));
    if (out.length > c.maxOut) c.fail(`output larger than ${c.maxOut} characters`);
    return out;
  } },
  contains: { params: ['string', 'string'], fn: ([sub, s]) => str(s).includes(str(sub)) },
  hasPrefix: { params: ['string', 'string'], fn: ([p, s]) => str(s).startsWith(str(p)) },
  hasSuffix: { params: ['string', 'string'], fn: ([p, s]) => str(s).endsWith(str(p)) },
  indent: { params: ['int', 'string'], fn: ([n, s], c) => indent(n as bigint, str(s), c) },
  nindent: { params: ['int', 'string'], fn: ([n, s], c) => '\n' + indent(n as bigint, str(s), c) },
  toString: { params: ['any'] as ParamType[], fn: ([v]: V[]) => strval(v) } as Fn,
  trunc: { params: ['int', 'string'], fn: ([n, s]) => {
    // sprig trunc slices bytes; only exact on ASCII
    const x = str(s); const c = Number(n as bigint);
    if (/[^\x00-\x7f]/.test(x)) throw new NotEvaluated('trunc of non-ASCII text is not evaluated');
    if (c < 0 && x.length + c > 0) return x.slice(x.length + c);
    if (c >= 0 && x.length > c) return x.slice(0, c);
    return x;
  } },
  repeat: { params: ['int', 'string'], fn: ([n, s], c) => {
    const k = Number(n as bigint);
    if (k < 0) c.fail('error calling repeat: strings: negative Repeat count');
    if (k * str(s).length > c.maxOut) c.fail(`output larger than ${c.maxOut} characters`);
    return str(s).repeat(k);
  } },
  substr: { params: ['int', 'int', 'string'], fn: ([a, b, s]) => {
    const x = str(s);
    if (/[^\x00-\x7f]/.test(x)) throw new NotEvaluated('substr of non-ASCII text is not evaluated');
    const start = Number(a as bigint), end = Number(b as bigint);
    if (start < 0) return x.slice(0, end);
    if (end < 0 || end > x.length) return x.slice(start);
    return x.slice(start, end);
  } },
  cat: { params: [], variadic: 'any', fn: (a) => a.filter((x) => x !== null && x !== undefined).map((x) => formatV(x)).join(' ') },
  b64enc: { params: ['string'], fn: ([s]) => goBase64(str(s)) },
  regexMatch: { params: ['string', 'string'], fn: ([re, s], c) => {
    const r = re2(str(re));
    if (!r) throw new NotEvaluated(`regexMatch with the pattern ${JSON.stringify(str(re))} is not evaluated`);
    if (str(s).length > 10000) throw new NotEvaluated('regexMatch on text over 10,000 characters is not evaluated');
    // Linear: the text times the program's size (at most a step per character per 64 characters of pattern).
    c.step(str(s).length * Math.ceil((str(re).length + 1) / 64));
    return r.matcher(str(s)).find();
  } },
  splitList: { params: ['string', 'string'], fn: ([sep, s]) => (str(sep) === '' ? [...str(s)] : str(s).split(str(sep))) },
  join: { params: ['string', 'any'], fn: ([sep, l]) => {
    if (!Array.isArray(l)) return strval(l);
    if (UNORDERED.has(l) && l.length > 1) throw new NotEvaluated('join of a list in Go\'s random map order');
    return l.filter((x) => x !== null && x !== undefined).map((x) => strval(x)).join(str(sep));
  } },
  sortAlpha: { params: ['any'], fn: ([l]) => {
    if (!Array.isArray(l)) return [strval(l)];
    const out = l.filter((x) => x !== null && x !== undefined).map((x) => strval(x)).sort(cmpStr);
    return out;
  } },

  // ---- sprig: conversions and types ----
  int: { params: ['any'], fn: ([v]) => castInt(v) },
  int64: { params: ['any'], fn: ([v]) => int64(castInt(v)) },
  float64: { params: ['any'], fn: ([v]) => castFloat(v) },
  atoi: { params: ['string'], fn: ([s]) => { const x = str(s); return /^[+-]?[0-9]+$/.test(x) ? BigInt(x) : 0n; } },
  kindIs: { params: ['string', 'any'], fn: ([k, v]) => goKind(v) === str(k) },
  kindOf: { params: ['any'], fn: ([v]) => goKind(v) },
  typeOf: { params: ['any'], fn: ([v]: V[]) => goType(v) },
  // sprig typeIs: the %T of the value is the target; typeIsLike: the value or a pointer to it (`*` + target).
  typeIs: { params: ['string', 'any'], fn: ([t, v]) => goType(v) === str(t) },
  typeIsLike: { params: ['string', 'any'], fn: ([t, v]) => { const ty = goType(v); return ty === str(t) || ty === `*${str(t)}`; } },

  // ---- sprig: numbers (int64 arithmetic, int64 results) ----
  add: { params: [], variadic: 'any', fn: (a) => int64(a.reduce<bigint>((s, x) => BigInt.asIntN(64, s + castInt(x)), 0n)) },
  add1: { params: ['any'], fn: ([a]) => int64(castInt(a) + 1n) },
  sub: { params: ['any', 'any'], fn: ([a, b]) => int64(castInt(a) - castInt(b)) },
  mul: { params: ['any'], variadic: 'any', fn: ([a, ...r]) => int64(r.reduce<bigint>((s, x) => BigInt.asIntN(64, s * castInt(x)), castInt(a))) },
  div: { params: ['any', 'any'], fn: ([a, b], c) => { const d = castInt(b); if (d === 0n) c.fail('error calling div: runtime error: integer divide by zero'); return int64(castInt(a) / d); } },
  mod: { params: ['any', 'any'], fn: ([a, b], c) => { const d = castInt(b); if (d === 0n) c.fail('error calling mod: runtime error: integer divide by zero'); return int64(castInt(a) % d); } },
  max: { params: ['any'], variadic: 'any', fn: ([a, ...r]) => int64(r.reduce<bigint>((m, x) => { const v = castInt(x); return v > m ? v : m; }, castInt(a))) },
  min: { params: ['any'], variadic: 'any', fn: ([a, ...r]) => int64(r.reduce<bigint>((m, x) => { const v = castInt(x); return v < m ? v : m; }, castInt(a))) },

  // ---- sprig: lists and dicts ----
  list: { params: [], variadic: 'any', unkOk: true, fn: (a) => a.slice() },
  tuple: { params: [], variadic: 'any', unkOk: true, fn: (a) => a.slice() },
  dict: { params: [], variadic: 'any', unkOk: true, fn: (a) => {
    const m = new Map<string, V>();
    for (let i = 0; i < a.length; i += 2) {
      if (a[i] instanceof Unk) throw new NotEvaluated((a[i] as Unk).reason);
      m.set(strval(a[i]), i + 1 < a.length ? a[i + 1] : '');
    }
    return m;
  } },
  get: { params: ['map', 'string'], fn: ([d, k]) => { const m = d as Map<string, V> | null; return m && m.has(str(k)) ? m.get(str(k))! : ''; } },
  set: { params: ['map', 'string', 'any'], unkOk: true, fn: ([d, k, v]) => {
    if (d instanceof Unk) return d; if (k instanceof Unk) return k;
    const m = d as Map<string, V> | null;
    if (!m) throw new NotEvaluated('set on a nil map is not evaluated');
    mutating(m); m.set(str(k), v); return m;
  } },
  unset: { params: ['map', 'string'], fn: ([d, k]) => { const m = d as Map<string, V> | null; if (m) mutating(m); m?.delete(str(k)); return m; } },
  hasKey: { params: ['map', 'string'], fn: ([d, k]) => !!(d as Map<string, V> | null)?.has(str(k)) },
  keys: { params: [], variadic: 'map', fn: (ds) => {
    const out: V[] = [];
    for (const d of ds) if (d instanceof Map) for (const k of d.keys()) out.push(k);
    if (out.length > 1) UNORDERED.add(out);
    return out;
  } },
  first: { params: ['any'], fn: ([l], c) => { if (l === null || l === undefined) throw new NotEvaluated('first of nil (sprig panics)'); const x = listOf(c, 'first', l); if (UNORDERED.has(x) && x.length > 1) throw new NotEvaluated('first of a list in Go\'s random map order'); return x.length ? x[0] : null; } },
  last: { params: ['any'], fn: ([l], c) => { if (l === null || l === undefined) throw new NotEvaluated('last of nil (sprig panics)'); const x = listOf(c, 'last', l); if (UNORDERED.has(x) && x.length > 1) throw new NotEvaluated('last of a list in Go\'s random map order'); return x.length ? x[x.length - 1] : null; } },
  has: { params: ['any', 'any'], fn: ([needle, l]) => {
    if (l === null || l === undefined) return false;
    if (!Array.isArray(l)) throw new NotEvaluated('has on a non-list is not evaluated');
    return l.some((x) => deepEq(x, needle));
  } },
  append: { params: ['any', 'any'], unkOk: true, fn: ([l, v], c) => { if (l instanceof Unk) return l; if (l === null) throw new NotEvaluated('push onto nil (sprig panics)'); return [...listOf(c, 'push', l), v]; } },
  push: { params: ['any', 'any'], unkOk: true, fn: ([l, v], c) => { if (l instanceof Unk) return l; if (l === null) throw new NotEvaluated('push onto nil (sprig panics)'); return [...listOf(c, 'push', l), v]; } },
  prepend: { params: ['any', 'any'], unkOk: true, fn: ([l, v], c) => { if (l instanceof Unk) return l; if (l === null) throw new NotEvaluated('prepend onto nil (sprig panics)'); return [v, ...listOf(c, 'prepend', l)]; } },
  uniq: { params: ['any'], fn: ([l], c) => { const x = listOf(c, 'uniq', l); const out: V[] = []; for (const e of x) if (!out.some((o) => deepEq(o, e))) out.push(e); return out; } },

  // ---- sprig: semver ----
  semverCompare: { params: ['string', 'string'], fn: ([con, ver], c) => {
    const r = semverCompare(str(con), str(ver));
    if (typeof r === 'object') return c.fail(`error calling semverCompare: ${r.error}`);
    return r;
  } },
  semver: { params: ['string'], fn: ([s], c) => {
    const v = parseVersion(str(s));
    if (typeof v === 'string') return c.fail(`error calling semver: ${v}`);
    return semverStruct(v);
  } },

  // ---- more sprig: encodings, sums, JSON/YAML variants ----
  fromYamlArray: { params: ['string'], fn: ([s]) => fromYaml(str(s), true) },
  fromJson: { params: ['string'], fn: ([s]) => fromJson(str(s), false) },
  fromJsonArray: { params: ['string'], fn: ([s]) => fromJson(str(s), true) },
  mustToJson: { params: ['any'], fn: ([v]) => toJson(v) },
  mustToYaml: { params: ['any'], fn: ([v]) => toYaml(v) },
  toPrettyJson: { params: ['any'], fn: ([v]) => toPrettyJson(v) },
  mustToPrettyJson: { params: ['any'], fn: ([v]) => toPrettyJson(v) },
  toRawJson: { params: ['any'], fn: ([v]) => toRawJson(v) },
  mustToRawJson: { params: ['any'], fn: ([v]) => toRawJson(v) },
  sha256sum: { params: ['string'], fn: ([s]) => createHash('sha256').update(str(s), 'utf8').digest('hex') },
  sha1sum: { params: ['string'], fn: ([s]) => createHash('sha1').update(str(s), 'utf8').digest('hex') },
  b64dec: { params: ['string'], fn: ([s]) => {
    const x = str(s);
    if (!/^([A-Za-z0-9+/]{4})*([A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(x)) throw new NotEvaluated('b64dec of text that is not padded base64 is not evaluated (sprig returns the error text)');
    const b = Buffer.from(x, 'base64');
    const t = b.toString('utf8');
    if (!Buffer.from(t, 'utf8').equals(b)) throw new NotEvaluated('b64dec to bytes that are not UTF-8 is not evaluated');
    return t;
  } },
  nospace: { params: ['string'], fn: ([s]) => str(s).replace(/[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g, '') },
  toStrings: { params: ['any'], fn: ([l]) => strslice(l) },
  split: { params: ['string', 'string'], fn: ([sep, s]) => {
    const parts = str(sep) === '' ? [...str(s)] : str(s).split(str(sep));
    return new Map<string, V>(parts.map((p, i) => [`_${i}`, p]));
  } },
  until: { params: ['int'], fn: ([n], c) => {
    // sprig: untilStep(0, count, 1), or step -1 for a negative count
    const k = Number(n as bigint);
    if (Math.abs(k) > 100000) c.fail('until: more than 100000 elements exceeds the evaluation budget');
    c.step(Math.abs(k));
    const out: V[] = [];
    if (k >= 0) for (let i = 0; i < k; i++) out.push(BigInt(i));
    else for (let i = 0; i > k; i--) out.push(BigInt(i));
    return out;
  } },
  concat: { params: [], variadic: 'any', fn: (ls, c) => {
    const out: V[] = [];
    for (const l of ls) {
      if (l === null || l === undefined) continue;
      const x = listOf(c, 'concat', l);
      if (out.length + x.length > c.maxOut) c.fail(`a list longer than ${c.maxOut} elements (output cap)`);
      for (const e of x) out.push(e);
    }
    return out;
  } },
  initial: { params: ['any'], fn: ([l], c) => { const x = listOf(c, 'initial', l); return x.slice(0, Math.max(0, x.length - 1)); } },
  rest: { params: ['any'], fn: ([l], c) => listOf(c, 'rest', l).slice(1) },
  reverse: { params: ['any'], fn: ([l], c) => listOf(c, 'reverse', l).slice().reverse() },
  compact: { params: ['any'], fn: ([l], c) => listOf(c, 'compact', l).filter((x) => !empty(x)) },
  without: { params: ['any'], variadic: 'any', fn: ([l, ...omit], c) => listOf(c, 'without', l).filter((x) => !omit.some((o) => deepEq(o, x))) },
  values: { params: ['map'], fn: ([d]) => { const out = [...((d as Map<string, V> | null)?.values() ?? [])]; if (out.length > 1) UNORDERED.add(out); return out; } },
  pick: { params: ['map'], variadic: 'string', fn: ([d, ...ks]) => {
    const m = (d as Map<string, V> | null) ?? new Map<string, V>();
    const out = new Map<string, V>();
    for (const k of ks) if (m.has(str(k))) out.set(str(k), m.get(str(k))!);
    return out;
  } },
  omit: { params: ['map'], variadic: 'string', fn: ([d, ...ks]) => {
    const m = (d as Map<string, V> | null) ?? new Map<string, V>();
    const drop = new Set(ks.map(str));
    return new Map([...m].filter(([k]) => !drop.has(k)));
  } },
  dig: { params: ['any', 'any', 'any'], variadic: 'any', fn: (a, c) => {
    const dict = a[a.length - 1];
    const def = a[a.length - 2];
    const ks = a.slice(0, -2);
    // sprig asserts .(map[string]interface{}): Helm's chartutil.Values (.Values, the top-level data) fails it
    if (!(dict instanceof Map) || CHART_VALUES.has(dict)) return c.fail(`error calling dig: interface conversion: interface {} is ${goType(dict)}, not map[string]interface {}`);
    let cur: Map<string, V> = dict;
    for (let i = 0; i < ks.length; i++) {
      if (typeof ks[i] !== 'string') return c.fail('error calling dig: a key is not a string');
      if (!cur.has(ks[i] as string)) return def;
      const step = cur.get(ks[i] as string)!;
      if (i === ks.length - 1) return step;
      if (!(step instanceof Map)) return c.fail('error calling dig: interface conversion: the value is not a map[string]interface {}');
      cur = step;
    }
    return def;
  } },
  deepCopy: { params: ['any'], fn: ([v]) => deepCopy(v, 0) },
  mustDeepCopy: { params: ['any'], fn: ([v]) => deepCopy(v, 0) },
  merge: { params: ['map'], variadic: 'map', fn: ([dst, ...srcs]) => {
    const d = (dst as Map<string, V> | null);
    if (!d) throw new NotEvaluated('merge into a nil map is not evaluated');
    for (const src of srcs) if (src) mergeInto(d, src as Map<string, V>, 0);
    return d;
  } },
  regexReplaceAll: { params: ['string', 'string', 'string'], fn: ([re, s, repl], c) => regexReplace(c, str(re), str(s), str(repl), false) },
  regexReplaceAllLiteral: { params: ['string', 'string', 'string'], fn: ([re, s, repl], c) => regexReplace(c, str(re), str(s), str(repl), true) },

  // ---- sprig: paths ----
  base: { params: ['string'], fn: ([s]) => { const p = str(s).replace(/\/+$/, ''); if (p === '') return str(s) === '' ? '.' : '/'; return p.slice(p.lastIndexOf('/') + 1); } },
};

// Functions moved from "known, not evaluated" to evaluated above must not be listed twice.
for (const k of Object.keys(FUNCS)) KNOWN_UNEVALUATED.delete(k);

/** sprig strslice: a list's elements as strings, nils dropped; another value as a one-element list. */
function strslice(v: V): V[] {
  if (Array.isArray(v)) return v.filter((x) => x !== null && x !== undefined).map((x) => strval(x));
  if (v === null || v === undefined) return [];
  return [strval(v)];
}

function deepCopy(v: V, depth: number): V {
  charge();
  if (depth > 200) throw new NotEvaluated('deepCopy of data nested deeper than 200 levels');
  if (Array.isArray(v)) return v.map((x) => deepCopy(x, depth + 1));
  if (v instanceof Map) return new Map([...v].map(([k, x]) => [k, deepCopy(x, depth + 1)]));
  if (v instanceof GoStruct) throw new NotEvaluated(`deepCopy of a ${v.type} is not evaluated`);
  return v;
}

/** mergo.Merge without overwrite, as sprig's merge uses it on maps: a key the destination lacks, or holds an empty
 *  value for, takes the source's; maps under the same key merge; other cases keep the destination's. */
function mergeInto(dst: Map<string, V>, src: Map<string, V>, depth: number): void {
  charge(1 + src.size);
  if (depth > 100) throw new NotEvaluated('merge of data nested deeper than 100 levels');
  for (const [k, sv] of src) {
    if (sv instanceof Unk) throw new NotEvaluated(sv.reason);
    if (sv === null || sv === undefined) continue;
    if (sv instanceof GoStruct) throw new NotEvaluated('merge of a struct is not evaluated');
    const has = dst.has(k);
    const dv = dst.get(k);
    if (sv instanceof Map) {
      if (has && dv instanceof Map) { mergeInto(dv, sv, depth + 1); continue; }
      if (has && dv !== null && dv !== undefined) throw new NotEvaluated('merge of a map into a value of another type is not evaluated');
      mutating(dst); dst.set(k, sv);
      continue;
    }
    if (has && dv instanceof Map) throw new NotEvaluated('merge of a value into a map is not evaluated');
    if (!has || empty(dv)) { mutating(dst); dst.set(k, sv); }
  }
}

/** regexp.ReplaceAllString (Go's $name / ${name} expansion) or ReplaceAllLiteralString. */
function regexReplace(c: FnCtx, re: string, s: string, repl: string, literal: boolean): string {
  const r = re2(re);
  if (!r) throw new NotEvaluated(`regexReplaceAll with the pattern ${JSON.stringify(re)} is not evaluated`);
  // Go skips an empty match right after a match; that is not followed here: patterns that can match empty are not evaluated
  if (r.matcher('').matches()) throw new NotEvaluated(`regexReplaceAll with a pattern that matches the empty string is not evaluated`);
  if (s.length > 10000) throw new NotEvaluated('regexReplaceAll on text over 10,000 characters is not evaluated');
  if (/\(\?P?<|\\k</.test(re)) throw new NotEvaluated('named groups in regexReplaceAll are not evaluated');
  c.step(s.length * Math.ceil((re.length + 1) / 64));
  const m = r.matcher(s);
  const groups = r.groupCount();
  let out = '';
  let last = 0;
  while (m.find()) {
    out += s.slice(last, m.start());
    last = m.end();
    out += literal ? repl : repl.replace(/\$(\$|\{([A-Za-z0-9_]+)\}|([A-Za-z0-9_]+))/g, (_x, all: string, braced?: string, bare?: string) => {
      if (all === '$') return '$';
      const name = braced ?? bare!;
      if (!/^[0-9]+$/.test(name)) return '';
      const n = Number(name);
      return n <= groups ? m.group(n) ?? '' : '';
    });
    if (out.length > c.maxOut) c.fail(`output larger than ${c.maxOut} characters`);
    charge();
  }
  out += s.slice(last);
  if (out.length > c.maxOut) c.fail(`output larger than ${c.maxOut} characters`);
  return out;
}

function deepEq(a: V, b: V, depth = 0): boolean {
  charge();
  if (depth > 200) throw new NotEvaluated('comparing data nested deeper than 200 levels');
  if (a === b) return true;
  if ((a === null || a === undefined) && (b === null || b === undefined)) return true;
  if (a instanceof TypedInt || b instanceof TypedInt) return a instanceof TypedInt && b instanceof TypedInt && a.type === b.type && a.v === b.v;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEq(x, b[i], depth + 1));
  if (isMap(a) && isMap(b)) return a.size === b.size && [...a.keys()].every((k) => b.has(k) && deepEq(a.get(k), b.get(k), depth + 1));
  if (findUnk(a) || findUnk(b)) throw new NotEvaluated('comparison with an unknown value');
  return false;
}

/** sprig quote is fmt's %q of the strval: Go's strconv.Quote. */
import { goQuote } from './fmt';
function goQuoteStr(s: string): string { return goQuote(s); }

function goUpper(s: string): string {
  // strings.ToUpper maps each rune on its own; where JavaScript's full case mapping gives several characters
  // (ß → SS), Go's simple mapping differs: not evaluated
  if (/^[\x00-\x7f]*$/.test(s)) return s.toUpperCase();
  let out = '';
  for (const ch of s) { const u = ch.toUpperCase(); if ([...u].length !== 1) throw new NotEvaluated(`upper of ${JSON.stringify(ch)} is not evaluated`); out += u; }
  return out;
}
function goLower(s: string): string {
  if (/^[\x00-\x7f]*$/.test(s)) return s.toLowerCase();
  let out = '';
  for (const ch of s) { const l = ch.toLowerCase(); if ([...l].length !== 1) throw new NotEvaluated(`lower of ${JSON.stringify(ch)} is not evaluated`); out += l; }
  return out;
}
function goReplaceEmpty(s: string, n: string): string {
  // strings.Replace with an empty old string inserts n before each rune and at the end
  return n + [...s].map((ch) => ch + n).join('');
}
