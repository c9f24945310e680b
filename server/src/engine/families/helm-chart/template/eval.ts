// A bounded, side-effect-free evaluator of the Go text/template subset Helm charts use, after Go's
// src/text/template/exec.go and funcs.go and Helm's pkg/engine (missingkey=zero, "<no value>" removed from the
// output, include / tpl / required / fail). What it does not compute is an Unknown value with the position of the
// action that produced it and why; an Unknown condition renders nothing for its block and lists the block.
import type { Arm, Define, Expr, Node, ParsedTemplate, Pipe, TemplateProblem } from './parse';
import { parseTemplate } from './parse';
import { CHART_VALUES, GoStruct, TypedInt, Unk, UNORDERED, SHARED, SharedMutation, sharing, type Method, type ParamType, type V, fromJs, goType, isMap, truth } from './values';
import { NotEvaluated, cmpStr, formatV } from './fmt';
import { FUNCS, KNOWN_UNEVALUATED, type FnCtx } from './funcs';
import { metered, chargeShallow, CHARS_PER_STEP } from './cost';

export interface Capabilities { kubeVersion: string; has(apiVersion: string): boolean }
export interface RenderScope {
  values: unknown;
  chart: Record<string, unknown>;
  release?: Record<string, unknown>;
  capabilities: Capabilities;
  templates: Map<string, ParsedTemplate>;
  files?: Map<string, string>;
  /** The chart at the top of the dependency tree: Helm names each file's template `<top>/<path>` (.Template.Name,
   *  `include "<top>/templates/x.yaml"`). Default: chart.Name. */
  topChartName?: string;
}
export interface Segment {
  outStart: number; outEnd: number; path: string; srcStart: number; srcEnd: number; literal: boolean;
  /** For text a `template`/`include`d define produced: where in the define it comes from. */
  origin?: { path: string; srcStart: number; srcEnd: number; literal: boolean };
}
export interface Unknown { path: string; start: number; end: number; reason: string; outStart: number; outEnd: number }
export interface Branch { path: string; id: string; start: number; end: number; cond?: { start: number; end: number }; taken: boolean | 'unknown' }
export interface Rendered { text: string; segments: Segment[]; unknowns: Unknown[]; branches: Branch[]; error?: TemplateProblem }
export interface Budget { steps?: number; depth?: number; outputChars?: number }

export const DEFAULT_BUDGET = { steps: 200_000, depth: 50, outputChars: 2_000_000 };
/** Placeholder printed for an Unknown value: a plain YAML scalar in any context. */
export const UNKNOWN_PLACEHOLDER = '__skewguard_unknown__';
/** Nested evaluation levels (blocks, pipelines, includes together) before the render stops: keeps the JS stack safe. */
const MAX_NEST = 800;

class RenderError extends Error { constructor(readonly problem: TemplateProblem) { super(problem.message); } }
class BreakSignal { constructor(readonly kind: 'break' | 'continue') {} }

interface Out { text: string[]; len: number; segments: Segment[] }
interface Loc { path: string; start: number; end: number }

/** Helm's chart.Metadata fields (templates read them as .Chart.Name …), with Chart.yaml's key for each. */
const CHART_FIELDS: Array<[string, string, V]> = [
  ['Name', 'name', ''], ['Home', 'home', ''], ['Sources', 'sources', null], ['Version', 'version', ''],
  ['Description', 'description', ''], ['Keywords', 'keywords', null], ['Maintainers', 'maintainers', null],
  ['Icon', 'icon', ''], ['APIVersion', 'apiVersion', ''], ['Condition', 'condition', ''], ['Tags', 'tags', ''],
  ['AppVersion', 'appVersion', ''], ['Deprecated', 'deprecated', false], ['Annotations', 'annotations', null],
  ['KubeVersion', 'kubeVersion', ''], ['Dependencies', 'dependencies', null], ['Type', 'type', ''],
];

class Renderer {
  steps = 0;
  nest = 0;
  readonly maxSteps: number; readonly maxDepth: number; readonly maxOut: number;
  readonly unknowns: Unknown[] = [];
  readonly branches: Branch[] = [];
  private readonly branchSeen = new Set<string>();
  readonly defines: Map<string, Define>;
  /** Templates made by tpl while it runs (kept apart from the caller's map, which is never changed). */
  private readonly tplTemplates = new Map<string, ParsedTemplate>();
  out: Out = { text: [], len: 0, segments: [] };
  private written = 0;
  /** Template the top-level render is of (for positions of Unknowns produced inside includes). */
  includeDepth = 0;
  /** The action of the outermost caller while rendering inside an include (positions of unknowns go there). */
  private callerStack: Loc[] = [];

  constructor(readonly scope: RenderScope, budget: Budget | undefined) {
    this.maxSteps = budget?.steps ?? DEFAULT_BUDGET.steps;
    this.maxDepth = budget?.depth ?? DEFAULT_BUDGET.depth;
    this.maxOut = budget?.outputChars ?? DEFAULT_BUDGET.outputChars;
    this.defines = new Map(definesOf(scope.templates));
  }

  /** A define, or a file's own template by its Helm name `<top chart>/<path>`. */
  lookupDefine(name: string): Define | undefined {
    const d = this.defines.get(name);
    if (d) return d;
    const prefix = topName(this.scope) + '/';
    if (!name.startsWith(prefix)) return undefined;
    const t = this.scope.templates.get(name.slice(prefix.length));
    if (!t) return undefined;
    return { name, path: t.path, list: t.root, start: 0, end: t.text.length, action: { start: 0, end: 0 } };
  }

  /** Where the render is (the last action charged): what a builtin's charge over the budget is reported at. */
  at: Loc = { path: '', start: 0, end: 0 };
  step(loc: Loc, n = 1): void {
    this.at = loc;
    this.steps += n;
    if (this.steps > this.maxSteps) this.fail(loc, `evaluation budget of ${this.maxSteps} steps exceeded`);
  }
  fail(loc: Loc, message: string): never {
    const at = this.callerStack.length ? this.callerStack[0] : loc;
    throw new RenderError({ path: at.path, start: at.start, end: at.end, message: at === loc ? message : `${message} (in ${loc.path} at offset ${loc.start})` });
  }
  /** Where an Unknown is reported: the action in the top-level template (an include's caller). */
  reportLoc(loc: Loc): Loc { return this.callerStack.length ? this.callerStack[0] : loc; }

  // ---- output ----
  write(s: string, seg: Omit<Segment, 'outStart' | 'outEnd'>, loc: Loc): void {
    if (s.length === 0) return;
    if (this.out.len + s.length > this.maxOut) this.fail(loc, `output larger than ${this.maxOut} characters`);
    if (s.length >= CHARS_PER_STEP) this.step(loc, Math.floor(s.length / CHARS_PER_STEP));
    // text captured by includes counts too: at most 10 times the output cap is written in all
    this.written += s.length;
    if (this.written > 10 * this.maxOut) this.fail(loc, `more than ${10 * this.maxOut} characters written (the output and every include's text)`);
    const start = this.out.len;
    this.out.text.push(s);
    this.out.len += s.length;
    const last = this.out.segments[this.out.segments.length - 1];
    if (last && seg.literal && last.literal && last.path === seg.path && last.srcEnd === seg.srcStart && last.outEnd === start && !last.origin && !seg.origin) {
      last.outEnd = this.out.len; last.srcEnd = seg.srcEnd;
      return;
    }
    const full: Segment = { outStart: start, outEnd: this.out.len, path: seg.path, srcStart: seg.srcStart, srcEnd: seg.srcEnd, literal: seg.literal };
    if (seg.origin) full.origin = seg.origin;
    this.out.segments.push(full);
  }

  unknown(u: Unk, loc: Loc, printed: boolean): void {
    const at = this.reportLoc(loc);
    const outStart = this.out.len;
    if (printed) this.write(UNKNOWN_PLACEHOLDER, { path: at.path, srcStart: at.start, srcEnd: at.end, literal: false }, at);
    this.unknowns.push({ path: at.path, start: at.start, end: at.end, reason: u.reason, outStart, outEnd: this.out.len });
  }

  unk(reason: string, loc: Loc): Unk { const at = this.reportLoc(loc); return new Unk(reason, at.path, at.start, at.end); }

  // ---- execution ----
  execList(t: ParsedTemplate | { path: string; text: string }, list: Node[], dot: V, vars: Array<[string, V]>): void {
    if (++this.nest > MAX_NEST) { this.nest--; this.fail({ path: t.path, start: list[0]?.start ?? 0, end: list[0]?.end ?? 0 }, `nesting deeper than ${MAX_NEST} levels`); }
    try {
      for (const n of list) this.execNode(t, n, dot, vars);
    } finally { this.nest--; }
  }

  execNode(t: { path: string; text: string }, n: Node, dot: V, vars: Array<[string, V]>): void {
    const loc = { path: t.path, start: n.start, end: n.end };
    this.step(loc);
    switch (n.k) {
      case 'text': {
        const at = this.callerStack.length ? this.callerStack[this.callerStack.length - 1] : undefined;
        if (at && this.callerStack.length) {
          const top = this.callerStack[0];
          this.write(t.text.slice(n.start, n.end), { path: top.path, srcStart: top.start, srcEnd: top.end, literal: false, origin: { path: t.path, srcStart: n.start, srcEnd: n.end, literal: true } }, loc);
        } else {
          this.write(t.text.slice(n.start, n.end), { path: t.path, srcStart: n.start, srcEnd: n.end, literal: true }, loc);
        }
        return;
      }
      case 'action': {
        this.lastInclude = undefined;
        const v = this.evalPipe(t, n.pipe, dot, vars, loc);
        if (n.pipe.decl.length) return;
        // the action prints what an include returned, as it is: its text keeps where in the define it comes from
        const lastCmd = n.pipe.cmds[n.pipe.cmds.length - 1].args[0];
        const li = this.lastInclude as { value: string; segments: Segment[] } | undefined;
        const inc = lastCmd.k === 'ident' && lastCmd.name === 'include' && li && li.value === v ? li.segments : undefined;
        this.lastInclude = undefined;
        this.print(v, t, loc, inc);
        return;
      }
      case 'if': case 'with': return this.execIfWith(t, n, dot, vars);
      case 'range': return this.execRange(t, n, dot, vars);
      case 'template': {
        const d = this.lookupDefine(n.name);
        if (!d) this.fail(loc, `template ${JSON.stringify(n.name)} not defined`);
        const data = n.pipe ? this.evalPipe(t, n.pipe, dot, vars, loc) : undefined;
        this.callDefine(d, data, loc, false);
        return;
      }
      case 'break': throw new BreakSignal('break');
      case 'continue': throw new BreakSignal('continue');
    }
  }

  print(v: V, t: { path: string }, loc: Loc, inner?: Segment[]): void {
    if (v instanceof Unk) { this.unknown(v, loc, true); return; }
    let s: string;
    if (v === undefined || v === null) s = '<no value>';
    else {
      try { s = formatV(v); } catch (e) {
        if (e instanceof NotEvaluated) { this.unknown(this.unk(e.message, loc), loc, true); return; }
        throw e;
      }
    }
    const at = this.reportLoc(loc);
    if (inner && typeof v === 'string') {
      // the string an include returned, printed as it is: each part keeps where in the define it comes from
      for (const seg of inner) {
        this.write(s.slice(seg.outStart, seg.outEnd), { path: at.path, srcStart: at.start, srcEnd: at.end, literal: false, origin: seg.origin ?? { path: seg.path, srcStart: seg.srcStart, srcEnd: seg.srcEnd, literal: seg.literal } }, loc);
      }
      return;
    }
    const origin = this.callerStack.length ? { path: t.path, srcStart: loc.start, srcEnd: loc.end, literal: false } : undefined;
    this.write(s, { path: at.path, srcStart: at.start, srcEnd: at.end, literal: false, origin }, loc);
  }

  /** The latest include's string and where its text comes from (segments in its define). */
  private lastInclude: { value: string; segments: Segment[] } | undefined;
  private lastCapture: Segment[] | undefined;

  recordBranch(b: Branch): void {
    if (b.path.startsWith('\u0000')) return; // a tpl string's own branches have no place in a file
    const key = b.id + '|' + String(b.taken);
    if (this.branchSeen.has(key)) return;
    this.branchSeen.add(key);
    this.branches.push(b);
  }

  execIfWith(t: { path: string; text: string }, n: Extract<Node, { k: 'if' | 'with' }>, dot: V, vars: Array<[string, V]>): void {
    const armEnd = (i: number) => (i + 1 < n.arms.length ? n.arms[i + 1].action.start : n.endAction.start);
    const mark = vars.length;
    try {
      for (let i = 0; i < n.arms.length; i++) {
        const arm: Arm = n.arms[i];
        const loc = { path: t.path, start: arm.action.start, end: arm.action.end };
        const base = { path: t.path, id: `${t.path}:${arm.action.start}`, start: arm.action.start, end: armEnd(i), cond: arm.cond ? { start: arm.cond.start, end: arm.cond.end } : undefined };
        let v: V = true;
        if (arm.cond) v = this.evalPipe(t, arm.cond, dot, vars, loc);
        if (v instanceof Unk) {
          for (let j = i; j < n.arms.length; j++) {
            const a = n.arms[j];
            this.recordBranch({ path: t.path, id: `${t.path}:${a.action.start}`, start: a.action.start, end: armEnd(j), cond: a.cond ? { start: a.cond.start, end: a.cond.end } : undefined, taken: 'unknown' });
          }
          const at = this.reportLoc({ path: t.path, start: n.start, end: n.end });
          this.unknowns.push({ path: at.path, start: at.start, end: at.end, reason: `the condition ${JSON.stringify(t.text.slice(arm.cond!.start, arm.cond!.end))} cannot be evaluated: ${v.reason}`, outStart: this.out.len, outEnd: this.out.len });
          return;
        }
        const take = truth(v);
        this.recordBranch({ ...base, taken: take });
        if (take) {
          for (let j = i + 1; j < n.arms.length; j++) {
            const a = n.arms[j];
            this.recordBranch({ path: t.path, id: `${t.path}:${a.action.start}`, start: a.action.start, end: armEnd(j), cond: a.cond ? { start: a.cond.start, end: a.cond.end } : undefined, taken: false });
          }
          const newDot = arm.kind === 'with' || arm.kind === 'else-with' ? v : dot;
          this.execList(t, arm.list, newDot, vars);
          return;
        }
      }
    } finally { vars.length = mark; }
  }

  execRange(t: { path: string; text: string }, n: Extract<Node, { k: 'range' }>, dot: V, vars: Array<[string, V]>): void {
    const loc = { path: t.path, start: n.action.start, end: n.action.end };
    const mark = vars.length;
    try {
      const v = this.evalPipe(t, { ...n.pipe, decl: [] }, dot, vars, loc);
      const unknownBlock = (reason: string) => {
        const at = this.reportLoc({ path: t.path, start: n.start, end: n.end });
        this.unknowns.push({ path: at.path, start: at.start, end: at.end, reason, outStart: this.out.len, outEnd: this.out.len });
      };
      if (v instanceof Unk) { unknownBlock(`the range over ${JSON.stringify(t.text.slice(n.pipe.start, n.pipe.end))} cannot be evaluated: ${v.reason}`); return; }
      let items: Array<[V, V]>;
      if (Array.isArray(v)) {
        if (UNORDERED.has(v) && v.length > 1) { unknownBlock('the range is over a list in Go\'s random map order'); return; }
        items = v.map((x, i) => [BigInt(i), x]);
      } else if (isMap(v)) items = [...v.keys()].sort(cmpStr).map((k) => [k, v.get(k)]);
      else if (typeof v === 'bigint' || v instanceof TypedInt) {
        // text/template ranges over an integer from Go 1.24 on; Helm 3.17 (Go 1.23) fails "range can't iterate over 3"
        unknownBlock(`the range over the integer ${formatV(v)} depends on the Go version Helm is built with (Go 1.24 iterates, earlier fails)`);
        return;
      } else if (v === undefined || v === null) items = [];
      else if (v instanceof GoStruct) this.fail(loc, `range can't iterate over ${goType(v)}`);
      else this.fail(loc, `range can't iterate over ${formatV(v)}`);
      if (items.length === 0) {
        if (n.elseList) this.execList(t, n.elseList, dot, vars);
        return;
      }
      for (const [k, x] of items) {
        this.step(loc);
        const m2 = vars.length;
        const assign = (name: string, val: V) => {
          if (!n.pipe.isAssign) { vars.push([name, val]); return; }
          for (let i = vars.length - 1; i >= 0; i--) if (vars[i][0] === name) { vars[i][1] = val; return; }
          this.fail(loc, `undefined variable: ${name}`);
        };
        if (n.pipe.decl.length === 1) assign(n.pipe.decl[0], x);
        else if (n.pipe.decl.length === 2) { assign(n.pipe.decl[0], k); assign(n.pipe.decl[1], x); }
        try {
          this.execList(t, n.list, x, vars);
        } catch (e) {
          if (e instanceof BreakSignal) { if (e.kind === 'break') break; else continue; }
          throw e;
        } finally { vars.length = m2; }
      }
    } finally { vars.length = mark; }
  }

  /** Runs a define with `data` as dot and `$`; into the output (template) or into a string (include). */
  callDefine(d: Define, data: V, loc: Loc, capture: boolean): string | undefined {
    if (this.includeDepth >= this.maxDepth) this.fail(loc, `template nesting deeper than ${this.maxDepth} levels (define ${JSON.stringify(d.name)}; Helm allows 1000 recursive includes, this evaluator ${this.maxDepth})`);
    const t = this.scope.templates.get(d.path) ?? this.tplTemplates.get(d.path) ?? { path: d.path, text: '' };
    this.includeDepth++;
    const saved = this.out;
    if (capture) this.out = { text: [], len: 0, segments: [] };
    this.callerStack.push(loc);
    try {
      this.execList(t, d.list, data, [['$', data]]);
      if (capture) {
        const s = this.out.text.join('');
        const segs = this.out.segments;
        this.lastCapture = s.length > 0 && segs.length && segs[0].outStart === 0 && segs[segs.length - 1].outEnd === s.length ? segs : undefined;
        return s;
      }
      return undefined;
    } finally {
      this.callerStack.pop();
      this.includeDepth--;
      if (capture) {
        const inner = this.out;
        this.out = saved;
        // output size counts captured text too, so a doubling include cannot grow without bound
        if (inner.len > this.maxOut) this.fail(loc, `output larger than ${this.maxOut} characters`);
      }
    }
  }

  // ---- pipelines ----
  evalPipe(t: { path: string; text: string }, pipe: Pipe, dot: V, vars: Array<[string, V]>, loc: Loc): V {
    if (++this.nest > MAX_NEST) { this.nest--; this.fail(loc, `nesting deeper than ${MAX_NEST} levels`); }
    try {
      let value: V = NO_FINAL;
      for (const cmd of pipe.cmds) {
        this.step(loc);
        value = this.evalCmd(t, cmd.args, dot, vars, value, loc);
        // an interface{} holding nil becomes "no value" (exec.go: "dig down one level")
        if (value === null) value = undefined;
      }
      if (pipe.decl.length) {
        if (pipe.isAssign) {
          for (const name of pipe.decl) {
            let found = false;
            for (let i = vars.length - 1; i >= 0; i--) if (vars[i][0] === name) { vars[i][1] = value; found = true; break; }
            if (!found) this.fail(loc, `undefined variable: ${name}`);
          }
        } else vars.push([pipe.decl[0], value]);
      }
      return value;
    } finally { this.nest--; }
  }

  evalCmd(t: { path: string; text: string }, args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc): V {
    const first = args[0];
    const hasFinal = final !== NO_FINAL;
    switch (first.k) {
      case 'ident': return this.evalFunction(t, first.name, args.slice(1), dot, vars, final, loc);
      case 'field': return this.evalFieldChain(t, dot, dot, first.names, args.slice(1), dot, vars, final, loc, false);
      case 'var': {
        const v = this.lookupVar(first.name, vars, loc);
        if (first.names.length === 0) {
          if (args.length > 1 || hasFinal) this.fail(loc, `can't give argument to non-function ${first.name}`);
          return v;
        }
        return this.evalFieldChain(t, dot, v, first.names, args.slice(1), dot, vars, final, loc, true);
      }
      case 'chain': {
        const base = this.evalArgAny(t, first.node, dot, vars, loc);
        return this.evalFieldChain(t, dot, base === null ? undefined : base, first.names, args.slice(1), dot, vars, final, loc, true);
      }
      case 'pipe': case 'bool': case 'num': case 'str': case 'dot': case 'nil': {
        if (first.k === 'nil') this.fail(loc, 'nil is not a command');
        if (args.length > 1 || hasFinal) this.fail(loc, `can't give argument to non-function ${t.text.slice(first.start, first.end)}`);
        if (first.k === 'pipe') { const v = this.evalPipe(t, first.pipe, dot, vars, loc); return v; }
        if (first.k === 'dot') return dot;
        return this.constant(first, 'any', loc);
      }
    }
  }

  lookupVar(name: string, vars: Array<[string, V]>, loc: Loc): V {
    for (let i = vars.length - 1; i >= 0; i--) if (vars[i][0] === name) return vars[i][1];
    this.fail(loc, `undefined variable: ${name}`);
  }

  constant(e: Expr, type: ParamType, loc: Loc): V {
    switch (e.k) {
      case 'bool':
        if (type !== 'any' && type !== 'bool') this.fail(loc, `expected ${goParam(type)}; found ${e.v}`);
        return e.v;
      case 'str':
        if (type !== 'any' && type !== 'string') this.fail(loc, `expected ${goParam(type)}; found ${JSON.stringify(e.v)}`);
        return e.v;
      case 'num':
        if (e.notEvaluated) return this.unk(e.notEvaluated, loc);
        if (type === 'int' || type === 'int64') { if (!e.isInt) this.fail(loc, `expected integer; found ${e.text}`); return e.int; }
        if (type === 'float') return e.float;
        if (type !== 'any') this.fail(loc, `expected ${goParam(type)}; found ${e.text}`);
        // idealConstant: a float when written with . e E p P (and not a char or hex int), else an int
        if (!e.isChar && !/^[+-]?0[xX]/.test(e.text) && /[.eEpP]/.test(e.text)) return e.float;
        if (!e.isInt) this.fail(loc, `${e.text} overflows int`);
        return e.int;
      case 'nil':
        if (type === 'any' || type === 'map' || type === 'list') return null;
        this.fail(loc, `cannot assign nil to ${goParam(type)}`);
      case 'dot': return undefined;
      default: return undefined;
    }
  }

  /** An argument evaluated for a parameter of the given type (Go's evalArg + validateType). */
  evalArg(t: { path: string; text: string }, e: Expr, type: ParamType, dot: V, vars: Array<[string, V]>, loc: Loc): V {
    this.step(loc);
    if (e.k === 'bool' || e.k === 'str' || e.k === 'num' || e.k === 'nil') return this.constant(e, type, loc);
    const v = this.evalArgAny(t, e, dot, vars, loc);
    return this.validate(v, type, loc);
  }

  evalArgAny(t: { path: string; text: string }, e: Expr, dot: V, vars: Array<[string, V]>, loc: Loc): V {
    switch (e.k) {
      case 'dot': return dot;
      case 'nil': return null;
      case 'bool': case 'str': case 'num': return this.constant(e, 'any', loc);
      case 'field': return this.evalFieldChain(t, dot, dot, e.names, [], dot, vars, NO_FINAL, loc, false);
      case 'var': {
        const v = this.lookupVar(e.name, vars, loc);
        return e.names.length ? this.evalFieldChain(t, dot, v, e.names, [], dot, vars, NO_FINAL, loc, true) : v;
      }
      case 'pipe': return this.evalPipe(t, e.pipe, dot, vars, loc);
      case 'chain': {
        const base = this.evalArgAny(t, e.node, dot, vars, loc);
        return this.evalFieldChain(t, dot, base === null ? undefined : base, e.names, [], dot, vars, NO_FINAL, loc, true);
      }
      case 'ident': return this.evalFunction(t, e.name, [], dot, vars, NO_FINAL, loc);
    }
  }

  validate(v: V, type: ParamType, loc: Loc): V {
    if (v instanceof Unk || type === 'any') return v === undefined ? null : v;
    if (v === undefined) {
      // "no value" (a pipeline's nil) becomes the zero value of a type that can be nil (exec.go validateType)
      if (type === 'map' || type === 'list') return null;
      this.fail(loc, `invalid value; expected ${goParam(type)}`);
    }
    // a nil interface{} (a missing key) is not assignable to a typed parameter, maps and slices included
    const ok = (type === 'string' && typeof v === 'string') || ((type === 'int' || type === 'int64') && typeof v === 'bigint')
      || (type === 'float' && typeof v === 'number') || (type === 'bool' && typeof v === 'boolean')
      || (type === 'map' && v instanceof Map) || (type === 'list' && Array.isArray(v));
    if (!ok) this.fail(loc, `wrong type for value; expected ${goParam(type)}; got ${v === null ? 'interface {}' : goType(v)}`);
    return v;
  }

  /** .a.b.c on a receiver; the last name may be a method that takes args (and the piped final value). */
  evalFieldChain(t: { path: string; text: string }, _dot: V, recv: V, names: string[], args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc, _fromVar: boolean): V {
    let cur = recv;
    for (let i = 0; i < names.length; i++) {
      const last = i === names.length - 1;
      cur = this.evalField(t, cur, names[i], last ? args : [], dot, vars, last ? final : NO_FINAL, loc);
    }
    return cur;
  }

  evalField(t: { path: string; text: string }, recv: V, name: string, args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc): V {
    this.step(loc);
    const hasArgs = args.length > 0 || final !== NO_FINAL;
    if (recv instanceof Unk) return recv;
    if (recv === undefined) return undefined; // an invalid receiver gives the zero value (missingkey=zero)
    if (recv === null) this.fail(loc, `nil pointer evaluating interface {}.${name}`);
    if (recv instanceof GoStruct) {
      const m = recv.methods.get(name);
      if (m) return this.callMethod(t, recv, name, m, args, dot, vars, final, loc);
      if (recv.fields.has(name)) {
        if (hasArgs) this.fail(loc, `${name} has arguments but cannot be invoked as function`);
        return recv.fields.get(name);
      }
      this.fail(loc, `can't evaluate field ${name} in type ${recv.type}`);
    }
    if (recv instanceof Map) {
      if (hasArgs) this.fail(loc, `${name} is not a method but has arguments`);
      const v = recv.get(name);
      return v === undefined ? null : v;
    }
    this.fail(loc, `can't evaluate field ${name} in type ${goType(recv)}`);
  }

  callMethod(t: { path: string; text: string }, recv: GoStruct, name: string, m: Method, args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc): V {
    const argv = this.collectArgs(t, `${recv.type}.${name}`, m.params, m.variadic, args, dot, vars, final, loc);
    const u = argv.find((a) => a instanceof Unk);
    if (u) return u;
    try { return m.fn(argv); } catch (e) {
      if (e instanceof NotEvaluated) return this.unk(e.message, loc);
      throw e;
    }
  }

  collectArgs(t: { path: string; text: string }, name: string, params: ParamType[], variadic: ParamType | undefined, args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc): V[] {
    const n = args.length + (final !== NO_FINAL ? 1 : 0);
    if (variadic ? n < params.length : n !== params.length) {
      this.fail(loc, `wrong number of args for ${name}: want ${variadic ? 'at least ' : ''}${params.length} got ${n}`);
    }
    const out: V[] = [];
    for (let i = 0; i < args.length; i++) out.push(this.evalArg(t, args[i], params[i] ?? variadic!, dot, vars, loc));
    if (final !== NO_FINAL) out.push(this.validate(final, params[args.length] ?? variadic!, loc));
    return out;
  }

  evalFunction(t: { path: string; text: string }, name: string, args: Expr[], dot: V, vars: Array<[string, V]>, final: V, loc: Loc): V {
    this.step(loc);
    if (name === 'and' || name === 'or') {
      if (args.length + (final !== NO_FINAL ? 1 : 0) < 1) this.fail(loc, `wrong number of args for ${name}: want at least 1 got 0`);
      let v: V = undefined;
      for (const a of args) {
        v = this.evalArg(t, a, 'any', dot, vars, loc);
        if (v instanceof Unk) return v;
        if (truth(v) === (name === 'or')) return v;
      }
      if (final !== NO_FINAL) v = final === undefined ? null : final;
      return v;
    }
    const f = Object.hasOwn(FUNCS, name) ? FUNCS[name] : undefined;
    if (!f) {
      const why = KNOWN_UNEVALUATED.has(name) ? `function ${name} is not evaluated` : `function ${name} is not known to the evaluator (Helm fails on a function it does not define)`;
      // evaluate the arguments all the same, so their own problems surface; an Unknown among them is the cause
      for (const a of args) { const v = this.evalArg(t, a, 'any', dot, vars, loc); if (v instanceof Unk) return v; }
      if (final instanceof Unk && final !== NO_FINAL) return final;
      return this.unk(why, loc);
    }
    const argv = this.collectArgs(t, name, f.params, f.variadic, args, dot, vars, final, loc);
    if (!f.unkOk) { const u = argv.find((a) => a instanceof Unk); if (u) return u; }
    const ctx: FnCtx = {
      fail: (msg: string) => this.fail(loc, msg),
      unk: (reason: string) => this.unk(reason, loc),
      step: (n: number) => this.step(loc, n),
      maxOut: this.maxOut,
      include: (tplName: string, data: V) => {
        const d = this.lookupDefine(tplName);
        if (!d) this.fail(loc, `error calling include: template: no template ${JSON.stringify(tplName)} associated with template "gotpl"`);
        const firstUnknown = this.unknowns.length;
        // ExecuteTemplate(…, data): a nil interface{} becomes an invalid dot ("no value")
        const s = this.callDefine(d, data === null ? undefined : data, loc, true)!;
        const segs = this.lastCapture;
        this.lastCapture = undefined;
        this.lastInclude = segs ? { value: s, segments: segs } : undefined;
        // an Unknown inside an include makes its string unknown (its text is not what Helm would produce)
        if (this.unknowns.length > firstUnknown) {
          const u = this.unknowns[firstUnknown];
          this.unknowns.length = firstUnknown;
          return this.unk(`include ${JSON.stringify(tplName)}: ${u.reason}`, loc);
        }
        return s;
      },
      tpl: (text: string, data: V) => this.tpl(t, text, data, loc),
      scope: this.scope,
    };
    let result: V;
    try {
      // The size of the inputs and of the result, at their top level (what is inside is charged as it is walked).
      for (const a of argv) chargeShallow(a);
      result = f.fn(argv, ctx);
      chargeShallow(result);
    } catch (e) {
      if (e instanceof NotEvaluated) return this.unk(e.message, loc);
      throw e;
    }
    // strings held in variables count against the output cap too (a doubling printf in a loop must not grow unbounded)
    if (typeof result === 'string' && result.length > this.maxOut) this.fail(loc, `a value larger than ${this.maxOut} characters (output cap)`);
    if (Array.isArray(result) && result.length > this.maxOut) this.fail(loc, `a list longer than ${this.maxOut} elements (output cap)`);
    return result;
  }

  tpl(t: { path: string }, text: string, data: V, loc: Loc): V {
    const parsed = parseTemplate({ path: t.path, text });
    if (parsed.errors.length) this.fail(loc, `error calling tpl: ${parsed.errors[0].message}`);
    // the tpl string's defines are visible inside it only
    const shadowed = new Map<string, Define | undefined>();
    for (const d of parsed.defines) { if (!shadowed.has(d.name)) shadowed.set(d.name, this.defines.get(d.name)); this.defines.set(d.name, d); }
    const pseudo: Define = { name: '', path: t.path, list: parsed.root, start: loc.start, end: loc.end, action: loc };
    const firstUnknown = this.unknowns.length;
    // the tpl text is a template of its own: its offsets are not the file's
    const key = `\u0000tpl:${this.steps}`;
    this.tplTemplates.set(key, parsed);
    pseudo.path = key;
    for (const d of parsed.defines) d.path = key;
    try {
      const s = this.callDefine(pseudo, data === null ? undefined : data, loc, true)!;
      if (this.unknowns.length > firstUnknown) {
        const u = this.unknowns[firstUnknown];
        this.unknowns.length = firstUnknown;
        return this.unk(`tpl: ${u.reason}`, loc);
      }
      // Helm's tpl removes "<no value>" from its result, as the engine does from a file's
      return s.split('<no value>').join('');
    } finally {
      this.tplTemplates.delete(key);
      for (const [name, d] of shadowed) { if (d) this.defines.set(name, d); else this.defines.delete(name); }
    }
  }
}

const NO_FINAL = new Unk('(no piped value)', '', 0, 0) as V;

function topName(scope: RenderScope): string {
  if (scope.topChartName !== undefined) return scope.topChartName;
  const n = scope.chart.Name ?? scope.chart.name;
  return typeof n === 'string' ? n : '';
}

/** The defines by name as Helm resolves them, cached per templates map while its entries stay the same. */
const DEFINES_CACHE = new WeakMap<Map<string, ParsedTemplate>, { entries: ParsedTemplate[]; defines: Map<string, Define> }>();
function definesOf(templates: Map<string, ParsedTemplate>): Map<string, Define> {
  const entries = [...templates.values()];
  const hit = DEFINES_CACHE.get(templates);
  if (hit && hit.entries.length === entries.length && hit.entries.every((e, i) => e === entries[i])) return hit.defines;
  // Helm parses subcharts' templates first (deeper paths first), then the parent's, each level in reverse
  // alphabetical order; a later `define` of the same name replaces an earlier one (text/template AddParseTree),
  // unless it is empty.
  const order = entries.slice().sort((a, b) => {
    const ca = a.path.split('/').length, cb = b.path.split('/').length;
    if (ca !== cb) return cb - ca;
    return a.path < b.path ? 1 : a.path > b.path ? -1 : 0;
  });
  const defines = new Map<string, Define>();
  for (const t of order) for (const d of t.defines) if (!defines.has(d.name) || !isEmptyTree(t.text, d.list)) defines.set(d.name, d);
  DEFINES_CACHE.set(templates, { entries, defines });
  return defines;
}

/** text/template IsEmptyTree: only white space text (and comments); such a define does not replace another. */
function isEmptyTree(text: string, list: Node[]): boolean {
  return list.every((n) => n.k === 'text' && text.slice(n.start, n.end).trim() === '');
}

function goParam(type: ParamType): string {
  switch (type) {
    case 'any': return 'interface {}';
    case 'string': return 'string';
    case 'int': return 'int';
    case 'int64': return 'int64';
    case 'float': return 'float64';
    case 'bool': return 'bool';
    case 'map': return 'map[string]interface {}';
    case 'list': return '[]interface {}';
  }
}

function kubeVersionStruct(kv: string): GoStruct {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?/.exec(kv);
  const major = m ? String(BigInt(m[1])) : '';
  const minor = m ? String(BigInt(m[2] ?? '0')) : '';
  const version = kv.startsWith('v') ? kv : 'v' + kv;
  const noArgs = (v: string): Method => ({ params: [], fn: () => v });
  return new GoStruct('chartutil.KubeVersion', new Map<string, V>([['Version', version], ['Major', major], ['Minor', minor]]),
    new Map([['String', noArgs(version)], ['GitVersion', noArgs(version)]]), version);
}

/** Conversions shared by every render of a chart (by the scope's values and chart objects; see values.ts SHARED). */
const sharedConversions = new WeakMap<object, V>();
function markShared(v: V, depth = 0): void {
  if (depth > 200 || !v || typeof v !== 'object') return;
  if (v instanceof Map) { if (SHARED.has(v)) return; SHARED.add(v); for (const x of v.values()) markShared(x, depth + 1); }
  else if (Array.isArray(v)) { if (SHARED.has(v)) return; SHARED.add(v); for (const x of v) markShared(x, depth + 1); }
}
/** fromJs(x), once per object while sharing is on; a fresh copy when a render runs on its own copies. */
function convert(x: unknown): V {
  if (!sharing.on || !x || typeof x !== 'object') return fromJs(x);
  let v = sharedConversions.get(x);
  if (v === undefined) { v = fromJs(x); markShared(v); sharedConversions.set(x, v); }
  return v;
}

/** What topData builds from one object of the scope, shared while sharing is on (the objects are never changed). */
const builtFrom = new WeakMap<object, unknown>();
function shared<T>(of: object, build: () => T): T {
  if (!sharing.on) return build();
  let v = builtFrom.get(of) as T | undefined;
  if (v === undefined) builtFrom.set(of, (v = build()));
  return v;
}

function chartStruct(scope: RenderScope): { chart: GoStruct; name: string } {
  const chartFields = new Map<string, V>();
  for (const [go, yaml, def] of CHART_FIELDS) {
    const given = scope.chart[go] !== undefined ? scope.chart[go] : scope.chart[yaml];
    chartFields.set(go, given === undefined ? def : convert(given));
  }
  const name = typeof chartFields.get('Name') === 'string' ? (chartFields.get('Name') as string) : '';
  // Helm 3.17 passes the chart as struct { chart.Metadata; IsRoot bool } (%T as helm template 3.17.3 prints it)
  chartFields.set('IsRoot', typeof scope.chart.IsRoot === 'boolean' ? scope.chart.IsRoot : true);
  return { chart: new GoStruct('struct { chart.Metadata; IsRoot bool }', chartFields), name };
}

function releaseMap(scope: RenderScope): Map<string, V> {
  const release = new Map<string, V>([
    ['Name', 'release-name'], ['Namespace', 'default'], ['IsUpgrade', false], ['IsInstall', true], ['Revision', 1n], ['Service', 'Helm'],
  ]);
  for (const [k, v] of Object.entries(scope.release ?? {})) release.set(k, typeof v === 'number' && k === 'Revision' && Number.isInteger(v) ? BigInt(v) : fromJs(v));
  if (sharing.on) markShared(release);
  return release;
}

const NO_FILES = {};
function filesStruct(files: Map<string, string> | undefined): GoStruct {
  const filesUnk = (what: string): Method => ({ params: ['string'], fn: () => { throw new NotEvaluated(`\`.Files.${what}\` is not evaluated`); } });
  return new GoStruct('engine.files', new Map(), new Map<string, Method>([
    ['Get', files ? { params: ['string'], fn: ([n]: V[]) => files.get(n as string) ?? '' } : filesUnk('Get')],
    ['Lines', files ? { params: ['string'], fn: ([n]: V[]) => {
      const s = files.get(n as string);
      if (s === undefined || s === '') return [];
      return (s.endsWith('\n') ? s.slice(0, -1) : s).split('\n');
    } } : filesUnk('Lines')],
    ['GetBytes', filesUnk('GetBytes')], ['Glob', filesUnk('Glob')], ['AsConfig', { params: [], fn: () => { throw new NotEvaluated('`.Files.AsConfig` is not evaluated'); } }],
    ['AsSecrets', { params: [], fn: () => { throw new NotEvaluated('`.Files.AsSecrets` is not evaluated'); } }],
  ]));
}

function topData(t: ParsedTemplate, scope: RenderScope): Map<string, V> {
  const { chart, name: chartName } = shared(scope.chart, () => chartStruct(scope));
  const release = scope.release ? shared(scope.release, () => releaseMap(scope)) : releaseMap(scope);
  const caps = scope.capabilities;
  const { kubeVersion, apiVersions } = shared(caps, () => ({
    kubeVersion: kubeVersionStruct(caps.kubeVersion),
    apiVersions: new GoStruct('chartutil.VersionSet', new Map(), new Map([
      ['Has', { params: ['string'], fn: ([s]: V[]) => caps.has(s as string) } as Method],
    ])),
  }));
  const helmVersion = new Unk('`.Capabilities.HelmVersion` is not evaluated', t.path, 0, 0);
  const capabilities = new GoStruct('*chartutil.Capabilities', new Map<string, V>([
    ['KubeVersion', kubeVersion], ['APIVersions', apiVersions], ['HelmVersion', helmVersion],
  ]));
  const filesObj = shared(scope.files ?? NO_FILES, () => filesStruct(scope.files));
  const base = t.path.includes('/templates/') ? t.path.slice(0, t.path.lastIndexOf('/templates/') + '/templates'.length) : 'templates';
  const top = topName(scope);
  const prefix = top ? top + '/' : chartName ? chartName + '/' : '';
  const vals = convert(scope.values ?? {});
  const valuesMap = vals instanceof Map ? vals : new Map<string, V>();
  CHART_VALUES.add(valuesMap);
  const data = new Map<string, V>([
    ['Values', valuesMap],
    ['Chart', chart],
    ['Release', release],
    ['Capabilities', capabilities],
    ['Files', filesObj],
    ['Template', new Map<string, V>([['Name', prefix + t.path], ['BasePath', prefix + base]])],
    ['Subcharts', new Unk('`.Subcharts` is not evaluated', t.path, 0, 0)],
  ]);
  CHART_VALUES.add(data);
  return data;
}

/** Removes Helm's "<no value>" from the output (engine.go does so after rendering) and keeps the segments exact. */
function dropNoValue(text: string, segments: Segment[], unknowns: Unknown[]): string {
  if (!text.includes('<no value>')) return text;
  const cuts: number[] = [];
  for (let i = text.indexOf('<no value>'); i !== -1; i = text.indexOf('<no value>', i + 10)) cuts.push(i);
  // cuts are sorted and do not overlap: the shift of an offset is 10 per cut wholly before it, plus the part of a cut it is in
  const map = (o: number) => {
    let lo = 0, hi = cuts.length;
    while (lo < hi) { const mid = (lo + hi) >> 1; if (cuts[mid] < o) lo = mid + 1; else hi = mid; }
    // cuts[0..lo) start before o
    if (lo === 0) return o;
    const last = cuts[lo - 1];
    return o - (lo - 1) * 10 - Math.min(10, o - last);
  };
  const out = text.split('<no value>').join('');
  const kept: Segment[] = [];
  for (const s of segments) {
    const a = map(s.outStart), b = map(s.outEnd);
    if (b > a) kept.push({ ...s, outStart: a, outEnd: b, ...(s.literal && b - a !== s.outEnd - s.outStart ? adjustLiteral(s, text, cuts) : {}) });
  }
  segments.length = 0; for (const k of kept) segments.push(k);
  for (const u of unknowns) { u.outStart = map(u.outStart); u.outEnd = map(u.outEnd); }
  return out;
}
/** A literal segment that contained "<no value>" text of its own loses its exact source mapping: mark it not literal. */
function adjustLiteral(_s: Segment, _text: string, _cuts: number[]): Partial<Segment> { return { literal: false }; }

export function renderTemplate(t: ParsedTemplate, scope: RenderScope, budget?: Budget): Rendered {
  try {
    return renderOnce(t, scope, budget);
  } catch (e) {
    if (!(e instanceof SharedMutation)) throw e;
    // The template changes its values (set, unset, merge): rendered again on copies of its own.
    sharing.on = false;
    try { return renderOnce(t, scope, budget); } finally { sharing.on = true; }
  }
}

function renderOnce(t: ParsedTemplate, scope: RenderScope, budget?: Budget): Rendered {
  const r = new Renderer(scope, budget);
  if (t.errors.length) return { text: '', segments: [], unknowns: [], branches: [], error: t.errors[0] };
  for (const other of scope.templates.values()) {
    if (other.errors.length) return { text: '', segments: [], unknowns: [], branches: [], error: other.errors[0] };
  }
  let error: TemplateProblem | undefined;
  const data = topData(t, scope);
  try {
    // Every builtin's work (nodes walked, characters made) is charged to this render's steps (template/cost.ts).
    metered((n) => r.step(r.at, n), () => r.execList(t, t.root, data, [['$', data]]));
  } catch (e) {
    if (e instanceof RenderError) error = e.problem;
    else if (e instanceof RangeError) error = { path: t.path, start: 0, end: 0, message: 'evaluation too deep (JavaScript stack exhausted)' };
    else throw e;
  }
  const segments = r.out.segments;
  const text = dropNoValue(r.out.text.join(''), segments, r.unknowns);
  return { text, segments, unknowns: r.unknowns, branches: r.branches, error };
}
