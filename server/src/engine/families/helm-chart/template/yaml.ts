// Helm's toYaml / toJson / fromYaml. toYaml is sigs.k8s.io/yaml.Marshal: encoding/json (sorted keys, float64
// integers as integers), then go-yaml v2 (keys in its natural order, indentless sequences in mappings, the scalar
// styles of its emitter). Output the evaluator cannot reproduce exactly (lines the emitter would fold at 80
// columns, non-printable characters, complex keys) throws NotEvaluated.
import { parse as parseYamlText } from 'yaml';
import { GoStruct, TypedInt, Unk, UNORDERED, type V, fromJs } from './values';
import { charge } from './cost';
import { NotEvaluated, cmpStr, formatFloat, jsonFloat } from './fmt';

// ---- JSON (encoding/json.Marshal) ----
function jsonString(s: string, html: boolean): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"') out += '\\"';
    else if (ch === '\\') out += '\\\\';
    else if (c === 10) out += '\\n';
    else if (c === 13) out += '\\r';
    else if (c === 9) out += '\\t';
    else if (c < 0x20) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (html && (ch === '<' || ch === '>' || ch === '&')) out += '\\u' + c.toString(16).padStart(4, '0');
    else if (c === 0x2028 || c === 0x2029) out += '\\u' + c.toString(16);
    else if (c >= 0xd800 && c < 0xe000) out += '\\ufffd';
    else out += ch;
  }
  return out + '"';
}

interface JsonOpts { html: boolean; indent?: string }

function json(v: V, depth: number, o: JsonOpts = { html: true }, prefix = ''): string {
  charge();
  if (depth > 200) throw new NotEvaluated('toJson of data nested deeper than 200 levels');
  if (v === undefined || v === null) return 'null';
  if (v instanceof Unk) throw new NotEvaluated(v.reason);
  if (v instanceof TypedInt) return v.v.toString();
  switch (typeof v) {
    case 'boolean': return v ? 'true' : 'false';
    case 'string': return jsonString(v, o.html);
    case 'bigint': return v.toString();
    case 'number':
      if (!Number.isFinite(v)) throw new NotEvaluated('json: unsupported value: ' + formatFloat(v));
      return jsonFloat(v);
  }
  const inner = o.indent === undefined ? '' : prefix + o.indent;
  const nl = o.indent === undefined ? '' : '\n';
  const colon = o.indent === undefined ? ':' : ': ';
  if (Array.isArray(v)) {
    if (UNORDERED.has(v) && v.length > 1) throw new NotEvaluated('a list in Go\'s random map order');
    if (v.length === 0) return '[]';
    return '[' + nl + v.map((x) => inner + json(x, depth + 1, o, inner)).join(',' + nl) + nl + prefix + ']';
  }
  if (v instanceof Map) {
    if (v.size === 0) return '{}';
    const keys = [...v.keys()].sort(cmpStr);
    return '{' + nl + keys.map((k) => inner + jsonString(k, o.html) + colon + json(v.get(k), depth + 1, o, inner)).join(',' + nl) + nl + prefix + '}';
  }
  if (v instanceof GoStruct) throw new NotEvaluated(`toJson of a ${v.type} is not evaluated`);
  throw new NotEvaluated('toJson of this value is not evaluated');
}

/** Helm's toJson: json.Marshal (HTML characters escaped). */
export function toJson(v: V): string { return json(v, 0); }
/** sprig toPrettyJson: json.MarshalIndent(v, "", "  "). */
export function toPrettyJson(v: V): string { return json(v, 0, { html: true, indent: '  ' }); }
/** sprig toRawJson: an Encoder without HTML escaping, its final new line trimmed. */
export function toRawJson(v: V): string { return json(v, 0, { html: false }); }

/** Helm's fromJson / fromJsonArray: encoding/json into a map (or a list); numbers float64. */
export function fromJson(s: string, array: boolean): V {
  let data: unknown;
  try { data = JSON.parse(s); } catch { throw new NotEvaluated(`from${array ? 'JsonArray' : 'Json'} of text that does not parse is not evaluated (Helm returns its error text)`); }
  if (array ? !Array.isArray(data) : (data === null || typeof data !== 'object' || Array.isArray(data))) {
    if (!array && data === null) return new Map();
    throw new NotEvaluated(`from${array ? 'JsonArray' : 'Json'} of JSON of another kind is not evaluated`);
  }
  return fromJs(data);
}

// ---- go-yaml v2 ----
/** go-yaml v2's resolve(): what a plain scalar would be read as. */
function resolvesToNonString(s: string): boolean {
  if (s === '' || s === '~' || /^(null|Null|NULL)$/.test(s)) return true;
  if (/^(y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/.test(s)) return true;
  if (/^[-+]?\.(inf|Inf|INF)$/.test(s) || /^\.(nan|NaN|NAN)$/.test(s)) return true;
  const c = s[0];
  if (c === '.') return /^\.[0-9]+([eE][-+]?[0-9]+)?$/.test(s) || /^\.[0-9]*[eE]/.test(s) && !Number.isNaN(Number(s));
  if (c === '+' || c === '-' || (c >= '0' && c <= '9')) {
    if (/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt ].*)?$/.test(s)) {
      if (/^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}$/.test(s)) return true;
      throw new NotEvaluated('toYaml of a timestamp-like string is not reproduced');
    }
    const plain = s.replace(/_/g, '');
    if (/^[-+]?(0[xX][0-9a-fA-F]+|0[oO][0-7]+|0[bB][01]+|0[0-7]*|[1-9][0-9]*)$/.test(plain)) return true;
    if (/^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/.test(plain)) return true;
    if (/^-?0b[01]+$/.test(plain)) return true;
    if (/^[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+(?:\.[0-9_]*)?$/.test(s)) return true; // base 60 float
  }
  return false;
}

const isBreak = (c: string) => c === '\n' || c === '\r' || c === '\u0085' || c === '\u2028' || c === '\u2029';
const isBlankz = (c: string | undefined) => c === undefined || c === ' ' || c === '\t' || isBreak(c) || c === '\0';
function isPrintable(c: string): boolean {
  const x = c.codePointAt(0)!;
  return x === 0x0a || (x >= 0x20 && x <= 0x7e) || (x >= 0xa0 && x <= 0xd7ff) || (x >= 0xe000 && x <= 0xfffd && x !== 0xfeff);
}

interface Analysis { blockPlain: boolean; singleQuoted: boolean; blockAllowed: boolean; multiline: boolean }
/** libyaml / go-yaml v2 yaml_emitter_analyze_scalar. */
function analyze(s: string): Analysis {
  if (s.length === 0) return { blockPlain: true, singleQuoted: true, blockAllowed: false, multiline: false };
  const ch = [...s];
  let blockInd = false, lineBreaks = false, special = false;
  let leadingSpace = false, leadingBreak = false, trailingSpace = false, trailingBreak = false, breakSpace = false, spaceBreak = false;
  let prevSpace = false, prevBreak = false;
  if (s.startsWith('---') || s.startsWith('...')) { blockInd = true; }
  let precededByWs = true;
  let followedByWs = isBlankz(ch[1]);
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i];
    if (i === 0) {
      if ('#,[]{}&*!|>\'"%@`'.includes(c)) { blockInd = true; }
      if (c === '?' || c === ':') { if (followedByWs) blockInd = true; }
      if (c === '-' && followedByWs) { blockInd = true; }
    } else {
            if (c === ':') { if (followedByWs) blockInd = true; }
      if (c === '#' && precededByWs) { blockInd = true; }
    }
    if (!isPrintable(c)) special = true;
    if (isBreak(c)) lineBreaks = true;
    if (c === ' ') {
      if (i === 0) leadingSpace = true;
      if (i === ch.length - 1) trailingSpace = true;
      if (prevBreak) breakSpace = true;
      prevSpace = true; prevBreak = false;
    } else if (isBreak(c)) {
      if (i === 0) leadingBreak = true;
      if (i === ch.length - 1) trailingBreak = true;
      if (prevSpace) spaceBreak = true;
      prevBreak = true; prevSpace = false;
    } else { prevSpace = false; prevBreak = false; }
    precededByWs = isBlankz(c);
    followedByWs = isBlankz(ch[i + 2]);
  }
  let blockPlain = true, singleQuoted = true, blockAllowed = true;
  if (leadingSpace || leadingBreak || trailingSpace || trailingBreak) blockPlain = false;
  if (trailingSpace) blockAllowed = false;
  if (breakSpace) { blockPlain = false; singleQuoted = false; }
  if (spaceBreak || special) { blockPlain = false; singleQuoted = false; blockAllowed = false; }
  if (lineBreaks) blockPlain = false;
  if (blockInd) blockPlain = false;
  return { blockPlain, singleQuoted, blockAllowed, multiline: lineBreaks };
}

function doubleQuoted(s: string): string {
  let out = '"';
  for (const c of s) {
    const x = c.codePointAt(0)!;
    if (c === '"') out += '\\"';
    else if (c === '\\') out += '\\\\';
    else if (isPrintable(c) && c !== '\n') out += c;
    else if (x === 0) out += '\\0';
    else if (x === 7) out += '\\a';
    else if (x === 8) out += '\\b';
    else if (x === 9) out += '\\t';
    else if (x === 10) out += '\\n';
    else if (x === 11) out += '\\v';
    else if (x === 12) out += '\\f';
    else if (x === 13) out += '\\r';
    else if (x === 27) out += '\\e';
    else if (x === 0x85) out += '\\N';
    else if (x === 0xa0) out += '\\_';
    else if (x === 0x2028) out += '\\L';
    else if (x === 0x2029) out += '\\P';
    else if (x <= 0xff) out += '\\x' + x.toString(16).toUpperCase().padStart(2, '0');
    else if (x <= 0xffff) out += '\\u' + x.toString(16).toUpperCase().padStart(4, '0');
    else out += '\\U' + x.toString(16).toUpperCase().padStart(8, '0');
  }
  return out + '"';
}

/** A scalar string at `column` (where it starts) and block `indent` (of its parent), or lines for a literal block. */
function yamlString(s: string, indent: number, column: number, isKey: boolean): string {
  const a = analyze(s);
  const nonStr = resolvesToNonString(s);
  let style: 'plain' | 'single' | 'double' | 'literal';
  if (s.includes('\n')) style = 'literal';
  else if (!nonStr) style = 'plain';
  else style = 'double';
  if (style === 'plain' && !a.blockPlain) style = 'single';
  if (style === 'plain' && s.length === 0 && isKey) style = 'single';
  if (style === 'single' && !a.singleQuoted) style = 'double';
  if (style === 'literal' && (!a.blockAllowed || isKey)) style = 'double';
  if (isKey && (a.multiline || Buffer.byteLength(s, 'utf8') > 128)) throw new NotEvaluated('toYaml of a complex mapping key is not reproduced');
  if (style === 'literal') {
    // |, |- or |+ with an indentation indicator when the text starts with a space or break
    let header = '|';
    if (s[0] === ' ' || isBreak(s[0])) header += '2';
    if (!isBreak(s[s.length - 1])) header += '-';
    else if (s.length >= 2 && isBreak(s[s.length - 2])) throw new NotEvaluated('toYaml of a string ending in several line breaks is not reproduced');
    if (/[\r\u0085\u2028\u2029]/.test(s)) throw new NotEvaluated('toYaml of a string with CR or Unicode line breaks is not reproduced');
    // the block's lines are indented 2 past their parent (2 for a string on its own, as Helm prints it)
    const pad = ' '.repeat(Math.max(indent, 0) + 2);
    const body = s.endsWith('\n') ? s.slice(0, -1) : s;
    const lines = body.split('\n');
    return header + '\n' + lines.map((l) => (l === '' ? '' : pad + l)).join('\n');
  }
  const text = style === 'plain' ? s : style === 'single' ? "'" + s.replace(/'/g, "''") + "'" : doubleQuoted(s);
  if (isKey) return text;
  if (style === 'plain') return foldPlain([...text], column, Math.max(indent, 0) + 2);
  return foldQuoted([...text], column, Math.max(indent, 0) + 2, style === 'double');
}

/** yaml_emitter_write_plain_scalar with best_width 80: a single space met past column 80, not followed by
 *  another space, becomes a line break and the continuation's indentation. */
function foldPlain(ch: string[], column: number, contIndent: number): string {
  let out = '';
  let col = column;
  let spaces = false;
  for (let i = 0; i < ch.length; i++) {
    const c = ch[i];
    if (c === ' ') {
      if (!spaces && col > 80 && ch[i + 1] !== ' ') {
        out += '\n' + ' '.repeat(contIndent);
        col = contIndent;
      } else { out += c; col++; }
      spaces = true;
    } else { out += c; col++; spaces = false; }
  }
  return out;
}

/** yaml_emitter_write_single_quoted / double_quoted with best_width 80: a single space past column 80 that is not
 *  the first or last character becomes a line break and the indentation (single-quoted: only when no space follows;
 *  double-quoted: a following space is kept by a backslash at the start of the next line). `ch` includes the quotes. */
function foldQuoted(ch: string[], column: number, contIndent: number, double: boolean): string {
  const first = 1, last = ch.length - 2;
  let out = ch[0];
  let col = column + 1;
  let spaces = false;
  for (let k = 1; k < ch.length; k++) {
    const c = ch[k];
    if (c === ' ' && k <= last) {
      if (!spaces && col > 80 && k !== first && k !== last && (double || ch[k + 1] !== ' ')) {
        out += '\n' + ' '.repeat(contIndent);
        col = contIndent;
        if (double && ch[k + 1] === ' ') { out += '\\'; col++; }
      } else { out += c; col++; }
      spaces = true;
    } else { out += c; col++; spaces = false; }
  }
  return out;
}

/** go-yaml v2 keyList.Less (sorter.go) for string keys: a non-letter sorts before a letter, digit runs from the
 *  first difference compare as numbers (with its leading-zero rule), then by run length, then by rune. */
function keyLess(a: string, b: string): number {
  const ar = [...a], br = [...b];
  const isLetter = (c: string) => /\p{L}/u.test(c);
  const isDigit = (c: string | undefined) => c !== undefined && /\p{Nd}/u.test(c);
  const dv = (c: string) => BigInt.asIntN(64, BigInt((c.codePointAt(0)! - 48)));
  for (let i = 0; i < ar.length && i < br.length; i++) {
    if (ar[i] === br[i]) continue;
    const al = isLetter(ar[i]), bl = isLetter(br[i]);
    if (al && bl) return ar[i].codePointAt(0)! < br[i].codePointAt(0)! ? -1 : 1;
    if (al || bl) return bl ? -1 : 1;
    let an = 0n, bn = 0n;
    if (ar[i] === '0' || br[i] === '0') {
      for (let j = i - 1; j >= 0 && isDigit(ar[j]); j--) if (ar[j] !== '0') { an = 1n; bn = 1n; break; }
    }
    let ai = i, bi = i;
    for (; ai < ar.length && isDigit(ar[ai]); ai++) an = BigInt.asIntN(64, an * 10n + dv(ar[ai]));
    for (; bi < br.length && isDigit(br[bi]); bi++) bn = BigInt.asIntN(64, bn * 10n + dv(br[bi]));
    if (an !== bn) return an < bn ? -1 : 1;
    if (ai !== bi) return ai < bi ? -1 : 1;
    return ar[i].codePointAt(0)! < br[i].codePointAt(0)! ? -1 : 1;
  }
  return ar.length - br.length;
}

/** The JSON round trip turns float64 integers into ints and re-reads numbers as go-yaml would. */
function yamlNumber(v: number | bigint): string {
  if (typeof v === 'bigint') return v.toString();
  if (!Number.isFinite(v)) throw new NotEvaluated('json: unsupported value');
  const j = jsonFloat(v);
  if (/^-?[0-9]+$/.test(j)) return j; // json "3" → yaml int 3
  return formatFloat(Number(j));
}

function emit(v: V, indent: number, depth: number, out: string[], column: number): void {
  charge();
  // writes the value; the caller has written the key or "- " (at column) already
  if (depth > 200) throw new NotEvaluated('toYaml of data nested deeper than 200 levels');
  if (v instanceof Unk) throw new NotEvaluated(v.reason);
  if (v === null || v === undefined) { out.push('null'); return; }
  if (typeof v === 'boolean') { out.push(v ? 'true' : 'false'); return; }
  if (typeof v === 'number' || typeof v === 'bigint') { out.push(yamlNumber(v)); return; }
  if (v instanceof TypedInt) { out.push(v.v.toString()); return; }
  if (typeof v === 'string') { out.push(yamlString(v, indent, column, false)); return; }
  if (v instanceof GoStruct) throw new NotEvaluated(`toYaml of a ${v.type} is not evaluated`);
  if (Array.isArray(v)) {
    if (v.length === 0) { out.push('[]'); return; }
    if (UNORDERED.has(v) && v.length > 1) throw new NotEvaluated('a list in Go\'s random map order');
    throw new Error('list emitted through emitBlock');
  }
  if (v.size === 0) { out.push('{}'); return; }
  throw new Error('map emitted through emitBlock');
}

/** A block collection at `indent`; `inline` when its first line continues a "- " already written. */
function emitBlock(v: V[] | Map<string, V>, indent: number, depth: number, lines: string[], firstPrefix: string | undefined): void {
  charge(Array.isArray(v) ? v.length : v.size);
  if (depth > 200) throw new NotEvaluated('toYaml of data nested deeper than 200 levels');
  const pad = ' '.repeat(indent);
  let first = true;
  const start = () => { const p = first && firstPrefix !== undefined ? firstPrefix : pad; first = false; return p; };
  if (Array.isArray(v)) {
    if (UNORDERED.has(v) && v.length > 1) throw new NotEvaluated('a list in Go\'s random map order');
    for (const x of v) {
      const p = start() + '- ';
      if (isBlock(x)) emitBlock(x as V[] | Map<string, V>, indent + 2, depth + 1, lines, p);
      else { const o: string[] = []; emit(x, indent, depth + 1, o, p.length); pushValue(lines, p, o[0]); }
    }
    return;
  }
  const keys = [...v.keys()].sort(keyLess);
  for (const k of keys) {
    const x = v.get(k)!;
    const p = start();
    const key = yamlString(k, indent, p.length, true);
    if (isBlock(x)) {
      lines.push(p + key + ':');
      // go-yaml v2: sequences in a mapping are not indented
      if (Array.isArray(x)) emitBlock(x, indent, depth + 1, lines, undefined);
      else emitBlock(x as Map<string, V>, indent + 2, depth + 1, lines, undefined);
    } else {
      const o: string[] = [];
      emit(x, indent, depth + 1, o, p.length + key.length + 2);
      pushValue(lines, p + key + ':', o[0], ' ');
    }
  }
}

function pushValue(lines: string[], prefix: string, text: string, sep = ''): void {
  // literal blocks come with their lines
  const nl = text.indexOf('\n');
  if (nl === -1) { lines.push(prefix + sep + text); return; }
  lines.push(prefix + sep + text.slice(0, nl));
  for (const l of text.slice(nl + 1).split('\n')) lines.push(l);
}

function isBlock(x: V): boolean {
  return (Array.isArray(x) && x.length > 0) || (x instanceof Map && x.size > 0);
}

/** Helm's toYaml: the YAML document without its final new line. */
export function toYaml(v: V): string {
  json(v, 0); // what json.Marshal rejects, toYaml rejects (Helm then prints "")
  if (isBlock(v)) {
    const lines: string[] = [];
    emitBlock(v as V[] | Map<string, V>, 0, 0, lines, undefined);
    return lines.join('\n');
  }
  const o: string[] = [];
  emit(v, -2, 0, o, 0);
  return o[0];
}

/** Whether a parsed value holds itself (an alias inside its anchor's node): walked with the path's nodes, bounded by the nodes. */
function holdsItself(root: unknown): boolean {
  const onPath = new Set<object>();
  const done = new Set<object>();
  const visit = (x: unknown): boolean => {
    if (x === null || typeof x !== 'object' || done.has(x)) return false;
    if (onPath.has(x)) return true;
    onPath.add(x);
    const kids = x instanceof Map ? [...x.values()] : Array.isArray(x) ? x : x instanceof Set || x instanceof Date || x instanceof Uint8Array ? [] : Object.values(x);
    for (const k of kids) if (visit(k)) return true;
    onPath.delete(x);
    done.add(x);
    return false;
  };
  return visit(root);
}

/** Helm's fromYaml: sigs.k8s.io/yaml.Unmarshal into a map (YAML 1.1 scalars, numbers as float64). */
export function fromYaml(s: string, array = false): V {
  let data: unknown;
  try {
    data = parseYamlText(s, { version: '1.1', maxAliasCount: 100, uniqueKeys: false, merge: true, mapAsMap: true });
  } catch {
    throw new NotEvaluated('fromYaml of text that does not parse is not evaluated (Helm returns a map with an Error key)');
  }
  if (data === null || data === undefined) return array ? [] : new Map();
  if (holdsItself(data)) throw new NotEvaluated(`fromYaml${array ? 'Array' : ''} of YAML whose alias is inside the node its anchor names (a cycle) is not evaluated (Helm: "anchor value contains itself")`);
  const isMapping = data instanceof Map || (typeof data === 'object' && !Array.isArray(data) && !(data instanceof Date) && !(data instanceof Set) && !(data instanceof Uint8Array));
  if (array ? !Array.isArray(data) : !isMapping) {
    // Helm returns the decoding error in the result: {"Error": …} (fromYaml) or ["…"] (fromYamlArray)
    const kind = Array.isArray(data) ? 'array' : isMapping ? 'object' : typeof data === 'string' ? 'string' : typeof data === 'boolean' ? 'bool'
      : typeof data === 'number' || typeof data === 'bigint' ? 'number' : undefined;
    if (!kind) throw new NotEvaluated(`fromYaml${array ? 'Array' : ''} of YAML of another kind is not evaluated`);
    const msg = `error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type ${array ? '[]interface {}' : 'map[string]interface {}'}`;
    return array ? [msg] : new Map<string, V>([['Error', msg]]);
  }
  const toFloat = (x: unknown, d: number): unknown => {
    if (d > 200) throw new NotEvaluated('fromYaml of data nested deeper than 200 levels');
    if (typeof x === 'bigint') return Number(x);
    if (x instanceof Date) throw new NotEvaluated('fromYaml of a timestamp is not evaluated');
    if (x instanceof Uint8Array) throw new NotEvaluated('fromYaml of binary data is not evaluated');
    if (Array.isArray(x)) return x.map((e) => toFloat(e, d + 1));
    if (x instanceof Set) throw new NotEvaluated('fromYaml of a set is not evaluated');
    if (x instanceof Map) {
      // sigs.k8s.io/yaml turns string, integer and boolean keys into JSON's string keys; other keys are not evaluated
      const m = new Map<string, V>();
      for (const [k, e] of x) {
        let key: string;
        if (typeof k === 'string') key = k;
        else if (typeof k === 'bigint') key = String(k);
        else if (typeof k === 'number' && Number.isFinite(k)) key = formatFloat(k);
        else if (typeof k === 'boolean') key = k ? 'true' : 'false';
        else throw new NotEvaluated('fromYaml of a mapping key that is not a string, integer or boolean is not evaluated');
        m.set(key, fromJs(toFloat(e, d + 1)));
      }
      return m;
    }
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, e]) => [k, toFloat(e, d + 1)]));
    return x;
  };
  return fromJs(toFloat(data, 0));
}
