// The CEL validation rules of a CRD schema (x-kubernetes-validations), evaluated against a custom resource the way
// the API server does (k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel): each rule at each value its schema
// node applies to, with `self` that value. The CEL library is @marcbachmann/cel-js (zero dependencies, about 160 KB,
// custom functions, receiver types and macros; the Kubernetes extensions are added here): strings (charAt, replace,
// reverse; the library has the rest), lists (isSorted, sum, min, max, indexOf, lastIndexOf), sets (contains,
// equivalent, intersects), regex (matches, find, findAll: through re2js, RE2's linear-time semantics, as the API
// server's), quantity, url, and isIP / isCIDR. Not supported, and said as not evaluated: every other function (ip(),
// cidr(), format, authorizer …). Transition rules (those naming `oldSelf`) compare an update with the stored object and cannot be judged
// on a file: skipped, as documented. Bounded: a rule of more than 10,000 characters or 10,000 AST nodes is not parsed;
// a rule whose estimated cost (AST nodes × the value's size to the power of its comprehension nesting) is over
// 10,000,000 is not run and is said as not evaluated; a single evaluation that still takes over 200 ms is said so.
import { RE2JS } from 're2js';
import type { CrdSchema } from './crds';

const isObj = (v: unknown): v is Record<string, any> => !!v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Uint8Array);

// ---- Kubernetes quantity (k8s.io/apimachinery/pkg/api/resource), as an exact rational ----
const SUFFIX: Record<string, [bigint, bigint]> = {
  '': [1n, 1n], n: [1n, 10n ** 9n], u: [1n, 10n ** 6n], m: [1n, 1000n], k: [1000n, 1n], M: [10n ** 6n, 1n], G: [10n ** 9n, 1n],
  T: [10n ** 12n, 1n], P: [10n ** 15n, 1n], E: [10n ** 18n, 1n], Ki: [1n << 10n, 1n], Mi: [1n << 20n, 1n], Gi: [1n << 30n, 1n],
  Ti: [1n << 40n, 1n], Pi: [1n << 50n, 1n], Ei: [1n << 60n, 1n],
};
export class Quantity {
  constructor(readonly num: bigint, readonly den: bigint, readonly text: string) {}
  static parse(s: string): Quantity | undefined {
    const m = /^([+-]?)(\d+(?:\.\d*)?|\.\d+)(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E|[eE][+-]?\d+)?$/.exec(s);
    if (!m || s.length > 64) return undefined;
    const [int, frac = ''] = m[2].split('.');
    let num = BigInt((int || '0') + frac) * (m[1] === '-' ? -1n : 1n);
    let den = 10n ** BigInt(frac.length);
    const suf = m[3] ?? '';
    if (/^[eE]/.test(suf)) {
      const e = Number(suf.slice(1));
      if (Math.abs(e) > 100) return undefined;
      if (e >= 0) num *= 10n ** BigInt(e); else den *= 10n ** BigInt(-e);
    } else { num *= SUFFIX[suf][0]; den *= SUFFIX[suf][1]; }
    return new Quantity(num, den, s);
  }
  cmp(o: Quantity): number { const a = this.num * o.den, b = o.num * this.den; return a < b ? -1 : a > b ? 1 : 0; }
}
const quantityOf = (s: string): Quantity => {
  const q = Quantity.parse(s);
  if (!q) throw new Error(`quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$' (${JSON.stringify(s)})`);
  return q;
};

// ---- url (k8s.io/apiserver/pkg/cel/library/urls.go): an absolute URI or an absolute path ----
export class CelUrl { constructor(readonly u: URL | undefined, readonly path: string, readonly raw: string) {} }
function urlOf(s: string): CelUrl | undefined {
  if (s.startsWith('/')) return new CelUrl(undefined, s.split('?')[0], s);
  if (!/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(s)) return undefined;
  try { return new CelUrl(new URL(s), '', s); } catch { return undefined; }
}

// ---- ip/cidr checks (k8s.io/apiserver/pkg/cel/library/ip.go, cidr.go: isIP, isCIDR): IPv4 without leading zeros,
// IPv6 without a zone, no IPv4-mapped IPv6 ----
const V4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
function ipFamily(s: string): 4 | 6 | undefined {
  if (V4.test(s)) return 4;
  if (!s.includes(':') || s.includes('%') || s.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(s)) return undefined;
  if (/^::ffff:/i.test(s) && s.includes('.')) return undefined;
  try { return new URL(`http://[${s}]/`).hostname ? 6 : undefined; } catch { return undefined; }
}
function isCidr(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const f = ipFamily(s.slice(0, i));
  const bits = s.slice(i + 1);
  return !!f && /^(0|[1-9]\d{0,2})$/.test(bits) && Number(bits) <= (f === 4 ? 32 : 128);
}

class SetsNs {}

/** Function names the environment knows (the library's, its macros, and the extensions below). */
let supported: Set<string> | undefined;
let env: any;

function re2(pattern: string): RE2JS {
  let r = re2Cache.get(pattern);
  if (!r) {
    r = RE2JS.compile(pattern);
    if (re2Cache.size > 512) re2Cache.clear();
    re2Cache.set(pattern, r);
  }
  return r;
}
const re2Cache = new Map<string, RE2JS>();

function celEnv(): any {
  if (env) return env;
  // Loaded on first use: a workspace without CEL rules never loads the library.
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { Environment } = require('@marcbachmann/cel-js') as typeof import('@marcbachmann/cel-js');
  const e = new Environment({ unlistedVariablesAreDyn: true, enableOptionalTypes: true, homogeneousAggregateLiterals: false, limits: { maxAstNodes: 10000, maxDepth: 128, maxListElements: 1000, maxMapEntries: 1000, maxCallArguments: 32 } });
  const lt = (a: any, b: any) => (a < b ? -1 : a > b ? 1 : 0);
  // strings
  e.registerFunction('string.charAt(int): string', (s: string, i: bigint) => { if (i < 0n || i > BigInt(s.length)) throw new Error('index out of range'); return s.charAt(Number(i)); });
  e.registerFunction('string.replace(string, string): string', (s: string, a: string, b: string) => s.split(a).join(b));
  e.registerFunction('string.replace(string, string, int): string', (s: string, a: string, b: string, n: bigint) => {
    if (n < 0n) return s.split(a).join(b);
    let out = s, from = 0;
    for (let k = 0n; k < n; k++) { const i = out.indexOf(a, from); if (i < 0) break; out = out.slice(0, i) + b + out.slice(i + a.length); from = i + b.length; }
    return out;
  });
  e.registerFunction('string.reverse(): string', (s: string) => [...s].reverse().join(''));
  e.registerFunction('string.re2Matches(string): bool', (s: string, p: string) => re2(p).matcher(s).find());
  e.registerFunction('string.find(string): string', (s: string, p: string) => { const m = re2(p).matcher(s); return m.find() ? m.group() ?? '' : ''; });
  const findAll = (s: string, p: string, n: bigint) => {
    const out: string[] = [];
    const m = re2(p).matcher(s);
    while ((n < 0n || BigInt(out.length) < n) && m.find()) { out.push(m.group() ?? ''); if (out.length > 10000) break; }
    return out;
  };
  e.registerFunction('string.findAll(string): list<string>', (s: string, p: string) => findAll(s, p, -1n));
  e.registerFunction('string.findAll(string, int): list<string>', findAll);
  // lists
  e.registerFunction('list.isSorted(): bool', (l: any[]) => l.every((x, i) => i === 0 || lt(l[i - 1], x) <= 0));
  e.registerFunction('list.sum(): dyn', (l: any[]) => (l.length && typeof l[0] !== 'bigint' ? l.reduce((a, b) => a + Number(b), 0) : l.reduce((a, b) => a + BigInt(b), 0n)));
  e.registerFunction('list.min(): dyn', (l: any[]) => { if (!l.length) throw new Error('min called on an empty list'); return l.reduce((a, b) => (lt(b, a) < 0 ? b : a)); });
  e.registerFunction('list.max(): dyn', (l: any[]) => { if (!l.length) throw new Error('max called on an empty list'); return l.reduce((a, b) => (lt(b, a) > 0 ? b : a)); });
  const same = (a: unknown, b: unknown) => (typeof a === 'bigint' || typeof b === 'bigint' ? typeof a === typeof b && a === b : JSON.stringify(a) === JSON.stringify(b));
  e.registerFunction('list.indexOf(dyn): int', (l: any[], x: unknown) => BigInt(l.findIndex((y) => same(y, x))));
  e.registerFunction('list.lastIndexOf(dyn): int', (l: any[], x: unknown) => { for (let i = l.length - 1; i >= 0; i--) if (same(l[i], x)) return BigInt(i); return -1n; });
  // sets
  e.registerType('kubernetes.Sets', SetsNs);
  e.registerConstant('sets', 'kubernetes.Sets', new SetsNs());
  e.registerFunction('kubernetes.Sets.contains(list, list): bool', (_: SetsNs, a: any[], b: any[]) => b.every((x) => a.some((y) => same(x, y))));
  e.registerFunction('kubernetes.Sets.equivalent(list, list): bool', (_: SetsNs, a: any[], b: any[]) => b.every((x) => a.some((y) => same(x, y))) && a.every((x) => b.some((y) => same(x, y))));
  e.registerFunction('kubernetes.Sets.intersects(list, list): bool', (_: SetsNs, a: any[], b: any[]) => b.some((x) => a.some((y) => same(x, y))));
  // quantity
  e.registerType('kubernetes.Quantity', Quantity);
  e.registerFunction('quantity(string): kubernetes.Quantity', quantityOf);
  e.registerFunction('isQuantity(string): bool', (s: string) => !!Quantity.parse(s));
  e.registerFunction('kubernetes.Quantity.isLessThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) < 0);
  e.registerFunction('kubernetes.Quantity.isGreaterThan(kubernetes.Quantity): bool', (a: Quantity, b: Quantity) => a.cmp(b) > 0);
  e.registerFunction('kubernetes.Quantity.compareTo(kubernetes.Quantity): int', (a: Quantity, b: Quantity) => BigInt(a.cmp(b)));
  e.registerFunction('kubernetes.Quantity.sign(): int', (a: Quantity) => BigInt(a.num < 0n ? -1 : a.num > 0n ? 1 : 0));
  e.registerFunction('kubernetes.Quantity.isInteger(): bool', (a: Quantity) => a.num % a.den === 0n);
  e.registerFunction('kubernetes.Quantity.asInteger(): int', (a: Quantity) => { if (a.num % a.den !== 0n) throw new Error('cannot convert value to integer'); return a.num / a.den; });
  e.registerFunction('kubernetes.Quantity.asApproximateFloat(): double', (a: Quantity) => Number(a.num) / Number(a.den));
  e.registerFunction('kubernetes.Quantity.add(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => new Quantity(a.num * b.den + b.num * a.den, a.den * b.den, ''));
  e.registerFunction('kubernetes.Quantity.sub(kubernetes.Quantity): kubernetes.Quantity', (a: Quantity, b: Quantity) => new Quantity(a.num * b.den - b.num * a.den, a.den * b.den, ''));
  // url
  e.registerType('kubernetes.URL', CelUrl);
  e.registerFunction('url(string): kubernetes.URL', (s: string) => { const u = urlOf(s); if (!u) throw new Error(`URL parse error during conversion from string: ${s}`); return u; });
  e.registerFunction('isURL(string): bool', (s: string) => !!urlOf(s));
  e.registerFunction('kubernetes.URL.getScheme(): string', (u: CelUrl) => (u.u ? u.u.protocol.replace(/:$/, '') : ''));
  e.registerFunction('kubernetes.URL.getHost(): string', (u: CelUrl) => (u.u ? u.u.host : ''));
  e.registerFunction('kubernetes.URL.getHostname(): string', (u: CelUrl) => (u.u ? u.u.hostname.replace(/^\[|\]$/g, '') : ''));
  e.registerFunction('kubernetes.URL.getPort(): string', (u: CelUrl) => (u.u ? u.u.port : ''));
  e.registerFunction('kubernetes.URL.getEscapedPath(): string', (u: CelUrl) => (u.u ? u.u.pathname : u.path));
  e.registerFunction('kubernetes.URL.getQuery(): map<string, list<string>>', (u: CelUrl) => {
    const out: Record<string, string[]> = {};
    const q = u.u ? u.u.searchParams : new URLSearchParams(u.raw.split('?')[1] ?? '');
    for (const [k, v] of q) (out[k] ??= []).push(v);
    return out;
  });
  // ip / cidr: the checks only (ip(), cidr() and their methods are not supported: said as not evaluated)
  e.registerFunction('isIP(string): bool', (s: string) => ipFamily(s) !== undefined);
  e.registerFunction('isCIDR(string): bool', isCidr);
  supported = new Set(e.getDefinitions().functions.map((f: { name: string }) => f.name));
  supported.delete('re2Matches');
  supported.add('matches');
  env = e;
  return e;
}

/** `.matches(` outside string literals renamed to the RE2 one (the library's own uses JavaScript's backtracking RegExp). */
function rewriteMatches(src: string): string {
  let out = '';
  let i = 0;
  while (i < src.length) {
    const c = src[i];
    if (c === '"' || c === "'") {
      const triple = src.startsWith(c.repeat(3), i);
      const q = triple ? c.repeat(3) : c;
      const raw = i > 0 && /[rR]/.test(src[i - 1]);
      let j = i + q.length;
      while (j < src.length && !src.startsWith(q, j)) j += !raw && src[j] === '\\' ? 2 : 1;
      out += src.slice(i, j + q.length);
      i = j + q.length;
      continue;
    }
    const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(src.slice(i, i + 64));
    if (m) {
      const before = out.replace(/\s+$/, '');
      out += m[0] === 'matches' && before.endsWith('.') && /^\s*\(/.test(src.slice(i + m[0].length)) ? 're2Matches' : m[0];
      i += m[0].length;
      continue;
    }
    out += c;
    i++;
  }
  return out;
}

export type PreparedRule =
  | { kind: 'transition' }
  | { kind: 'unsupported'; names: string[] }
  | { kind: 'invalid'; why: string }
  | { kind: 'ok'; run: (ctx: Record<string, unknown>) => unknown; nodes: number; depth: number };

const COMPREHENSIONS = new Set(['all', 'exists', 'exists_one', 'map', 'filter']);
const prepared = new Map<string, PreparedRule>();

/** A rule's text parsed once (bounded cache): transition rule, functions not supported, or ready to run. */
export function prepareRule(rule: string): PreparedRule {
  let p = prepared.get(rule);
  if (p) return p;
  p = prepare(rule);
  if (prepared.size > 2048) prepared.clear();
  prepared.set(rule, p);
  return p;
}

function prepare(rule: string): PreparedRule {
  if (rule.length > 10000) return { kind: 'invalid', why: 'the rule is over 10,000 characters' };
  const e = celEnv();
  let parsed: any;
  try { parsed = e.parse(rewriteMatches(rule)); } catch (err) { return { kind: 'invalid', why: `it does not parse here (${String((err as Error).message).split('\n')[0]})` }; }
  const names = new Set<string>();
  let transition = false, nodes = 0, depth = 0;
  // The AST: {op, args}; calls are {op: 'call', args: [name, [args]]} and {op: 'rcall', args: [name, receiver, [args]]}.
  const stack: Array<{ n: unknown; d: number }> = [{ n: parsed.ast, d: 0 }];
  while (stack.length) {
    const { n, d } = stack.pop()!;
    if (Array.isArray(n)) { for (const x of n) stack.push({ n: x, d }); continue; }
    if (!n || typeof n !== 'object') continue;
    const node = n as { op?: string; args?: unknown };
    nodes++;
    if (node.op === 'id' && node.args === 'oldSelf') transition = true;
    let dd = d;
    if ((node.op === 'call' || node.op === 'rcall') && Array.isArray(node.args) && typeof node.args[0] === 'string') {
      const name = node.args[0] === 're2Matches' ? 'matches' : node.args[0];
      if (!supported!.has(name)) names.add(name);
      if (node.op === 'rcall' && COMPREHENSIONS.has(name)) { dd = d + 1; depth = Math.max(depth, dd); }
      stack.push({ n: node.args.slice(1), d: dd });
      continue;
    }
    if (node.args !== undefined && typeof node.args === 'object') stack.push({ n: node.args, d });
  }
  if (transition) return { kind: 'transition' };
  if (names.size) return { kind: 'unsupported', names: [...names].sort() };
  return { kind: 'ok', run: (ctx) => parsed(ctx), nodes, depth };
}

/** A CR value as CEL sees it: integers are int (bigint) unless the schema says number; absent properties that have a
 *  schema default are given it (structural defaulting). Bounded by `budget`. */
export function celValue(v: unknown, s: CrdSchema | undefined, budget: { n: number }): unknown {
  budget.n--;
  if (budget.n < 0) throw new RangeError('value too large');
  if (typeof v === 'number') return s?.type === 'number' || !Number.isInteger(v) ? v : BigInt(v);
  if (Array.isArray(v)) {
    const items = isObj(s?.items) ? s!.items as CrdSchema : undefined;
    return v.map((x) => celValue(x, items, budget));
  }
  if (isObj(v)) {
    const out: Record<string, unknown> = {};
    const props = isObj(s?.properties) ? s!.properties as Record<string, CrdSchema> : undefined;
    const ap = isObj(s?.additionalProperties) ? s!.additionalProperties as CrdSchema : undefined;
    for (const [k, x] of Object.entries(v)) out[k] = celValue(x, props?.[k] ?? ap, budget);
    // The API server applies the schema's defaults before it validates: an absent property with a default is there.
    if (props) for (const [k, ps] of Object.entries(props)) if (!(k in out) && isObj(ps) && ps.default !== undefined) out[k] = celValue(JSON.parse(JSON.stringify(ps.default)), ps, budget);
    return out;
  }
  return v;
}

/** Values in a JSON value (for the cost estimate), counted up to `cap`. */
export function sizeOf(v: unknown, cap = 1_000_000): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length && n < cap) {
    const x = stack.pop();
    n++;
    if (Array.isArray(x)) for (const y of x) stack.push(y);
    else if (isObj(x)) for (const y of Object.values(x)) stack.push(y);
  }
  return n;
}

export const COST_LIMIT = 10_000_000;
export const SLOW_MS = 200;

export type RuleOutcome =
  | { kind: 'pass' }
  | { kind: 'fail'; message: string }
  | { kind: 'error'; why: string }
  | { kind: 'too-costly'; cost: number }
  | { kind: 'slow'; ms: number; failed?: string };

/** One prepared rule against one value (`self`, already a CEL value of `size` values). */
export function runRule(p: Extract<PreparedRule, { kind: 'ok' }>, rule: { rule: string; message?: unknown; messageExpression?: unknown }, self: unknown, size: number): RuleOutcome {
  const cost = p.nodes * Math.pow(Math.max(1, size), p.depth);
  if (cost > COST_LIMIT) return { kind: 'too-costly', cost };
  const t0 = Date.now();
  let r: unknown;
  try { r = p.run({ self }); } catch (err) { return { kind: 'error', why: String((err as Error).message).split('\n')[0] }; }
  const ms = Date.now() - t0;
  if (r !== true && r !== false) return { kind: 'error', why: `the rule gave ${typeof r === 'bigint' ? 'an int' : typeof r}, not a bool` };
  let failed: string | undefined;
  if (r === false) failed = messageOf(rule, self);
  if (ms > SLOW_MS) return { kind: 'slow', ms, failed };
  return failed === undefined ? { kind: 'pass' } : { kind: 'fail', message: failed };
}

/** The rule's message: messageExpression when it evaluates to a string, else message, else "failed rule: <rule>". */
function messageOf(rule: { rule: string; message?: unknown; messageExpression?: unknown }, self: unknown): string {
  if (typeof rule.messageExpression === 'string') {
    const p = prepareRule(rule.messageExpression);
    if (p.kind === 'ok') {
      try { const m = p.run({ self }); if (typeof m === 'string' && m.trim()) return m; } catch { /* the API server then uses message */ }
    }
  }
  if (typeof rule.message === 'string' && rule.message.trim()) return rule.message;
  return `failed rule: ${rule.rule}`;
}
