// Where each `{{` of a YAML (or JSON) text stands, as YAML reads it: inside a scalar (quoted, block, or a plain
// scalar after other text; a comment), where it is text of whatever tool reads the value (Prometheus, Alertmanager,
// Argo, Grafana, Go templates in a ConfigMap) and never an action; or where YAML would read structure (at a line's
// start, at the start of a key's or a sequence item's value, in a flow collection), where it is template syntax.
// Family-neutral: the families decide from this whether a file outside a chart is a template fragment (issue #26).
// One pass over the lines (engine/text.ts LineIndex: \n, \r\n or a lone \r), no YAML parse; every `{{` is looked at once.

import { LineIndex } from '../text';

export interface TemplateScan {
  /** `{{` where YAML reads structure and the action is one a Helm template writes (`.Values`, `include`, `if` …). */
  syntax: number[];
  /** `{{` where YAML reads structure but the action is not Helm's (`{{instance}}`, `{{ $labels.x }}`): YAML rejects or misreads it. */
  bare: number[];
  /** `{{` inside a scalar or a comment: text, never evaluated. */
  text: number[];
}

const NONE: TemplateScan = Object.freeze({ syntax: [], bare: [], text: [] }) as TemplateScan;

/**
 * A Helm action (the one list of them: the scanner below and the Helm family's look at a chart's file both ask it):
 * the chart's objects or the dot, a variable set or `$.`, a keyword or function a chart template writes, a comment,
 * or a trim marker. `{{ $labels.instance }}` (Prometheus), `{{instance}}` (Grafana), `{{inputs.parameters.x}}` (Argo)
 * are not: they read variables or names no Helm template defines. Tried at a `{{`.
 */
const HELM_ACTION = /^\{\{-?\s*(?:\.|\$\.|\$[A-Za-z_]\w*\s*:?=|(?:if|else|end|range|with|define|template|include|block|toYaml|toJson|tpl|default|required|quote|squote|printf|nindent|indent|lookup|fail|trim|trunc|lower|upper|list|dict|get|hasKey|empty|not|and|or|eq|ne)\b|\/\*|-\s)/;

/** Whether the `{{` at `at` opens a Helm action (HELM_ACTION). */
const helmActionAt = (text: string, at: number): boolean => HELM_ACTION.test(text.slice(at, at + 80));

/** Whether any `{{` of the text, wherever it stands, opens a Helm action (a helper's or a chart template's text). */
export function hasHelmAction(text: string): boolean {
  for (let at = text.indexOf('{{'); at >= 0; at = text.indexOf('{{', at + 2)) if (helmActionAt(text, at)) return true;
  return false;
}

let memoText: string | undefined;
let memoScan: TemplateScan = NONE;

/** Forgets the text scanTemplates remembers (analyze() when done: a closed 12 MB file's text stayed alive with it). */
export function forgetTemplateScan(): void { memoText = undefined; memoScan = NONE; }

/** Where the `{{` of `text` stand (see TemplateScan). Remembers the last text asked (detect and analyze ask in turn). */
export function scanTemplates(text: string): TemplateScan {
  if (text === memoText) return memoScan;
  const scan = text.indexOf('{{') < 0 ? NONE : scanAll(text);
  memoText = text;
  memoScan = scan;
  return scan;
}

/** The first `{{` of the scan that is template syntax, or -1. */
export function firstSyntax(text: string): number {
  const s = scanTemplates(text).syntax;
  return s.length ? s[0] : -1;
}

/**
 * The text with its `{{ … }}` actions taken out, offsets kept: a line of nothing but actions becomes blank (as
 * `{{- if … }}` lines render to nothing), any other action becomes a run of `_` (a value it stands for), line
 * breaks inside an action kept.
 */
export function withoutActions(text: string): string {
  const blankLines = text.replace(/^[ \t]*(?:\{\{[\s\S]*?\}\}[ \t]*)+(?=\r?$)/gm, (m) => m.replace(/[^\r\n]/g, ' '));
  return blankLines.replace(/\{\{[\s\S]*?\}\}/g, (m) => m.replace(/[^\r\n]/g, '_'));
}

const isSpace = (c: number) => c === 32 || c === 9;
/** `,` `]` `}` end a plain scalar in a flow collection (a line break ends the line). */
const FLOW_END = new Set([44, 93, 125]);

function scanAll(text: string): TemplateScan {
  const out: TemplateScan = { syntax: [], bare: [], text: [] };
  // Context carried from line to line.
  let blockIndent = -1; // in a block scalar: the indentation its content must exceed
  let plainIndent = -1; // after a plain scalar value: the indentation its continuation lines exceed
  let openCol = -1; // after a key (or `- `) whose value starts on a later line: the key's column
  let lineParent = -1; // the line starts that value: the column its continuation lines exceed
  let quote = 0; // in a multi-line quoted scalar: its quote character
  // Lines as the editor and the YAML reader see them: \n, \r\n or a lone \r ends one.
  const lines = new LineIndex(text);
  let lineStart = 0;
  // The next `{{` and the `}}` after an action, each searched forward only once (no rescans of a long text).
  let nextOpen = text.indexOf('{{');
  let closeFrom = -1;
  let closeRes = -1;
  const closeAfter = (p: number): number => {
    if (closeFrom < 0 || p < closeFrom || (closeRes >= 0 && closeRes < p)) { closeFrom = p; closeRes = text.indexOf('}}', p); }
    return closeRes;
  };
  // The line being read: its end (before its line break), whether it holds a `{{`, its indentation.
  let e = 0;
  let lineHas = false;
  let indent = 0;
  const textIn = (from: number, end: number) => { if (lineHas) for (let k = from; k + 1 < end; k++) if (text.charCodeAt(k) === 123 && text.charCodeAt(k + 1) === 123) { out.text.push(k); k++; } };
  const textUpTo = (end: number) => textIn(lineStart, end);
  for (let line = 0; line < lines.lineCount; line++) {
    lineStart = lines.lineStart(line);
    e = lines.lineEnd(line);
    if (nextOpen >= 0 && nextOpen < lineStart) nextOpen = text.indexOf('{{', lineStart);
    lineHas = nextOpen >= 0 && nextOpen < e;
    // A BOM before the first line is no part of it.
    const bom = lineStart === 0 && text.charCodeAt(0) === 0xfeff ? 1 : 0;
    let i = lineStart + bom;
    while (i < e && isSpace(text.charCodeAt(i))) i++;
    indent = i - lineStart - bom;
    const blank = i >= e || text.charCodeAt(i) === 35 /* # */;

    if (quote) {
      const close = quoteEnd(text, i, e, quote);
      if (close < 0) { textUpTo(e); continue; }
      textUpTo(close);
      quote = 0;
      rest(close + 1, indent);
      continue;
    }
    if (blockIndent >= 0) {
      if (i >= e || indent > blockIndent) { textUpTo(e); continue; }
      blockIndent = -1;
    }
    if (plainIndent >= 0) {
      if (!blank && indent > plainIndent && !/^(?:-[ \t]|[^:#]*:(?:[ \t]|$))/.test(text.slice(i, e))) { textUpTo(e); continue; }
      if (!blank) plainIndent = -1;
    }
    if (blank) { textUpTo(e); continue; }
    // Document markers.
    lineParent = openCol >= 0 && indent > openCol ? openCol : -1;
    openCol = -1;
    if (indent === 0 && (text.startsWith('---', i) || text.startsWith('...', i)) && (i + 3 >= e || isSpace(text.charCodeAt(i + 3)))) {
      rest(i + 3, 0);
      continue;
    }
    node(i, indent);
  }
  return out;

  /** A node starts at `p` (a line's content, or a value after `key:`/`- `); `col` is the column of its parent. */
  function node(p: number, col: number, isValue = false): void {
    // A key's value cannot be a key on the same line; a sequence item's can.
    let keyAllowed = !isValue;
    // Sequence markers.
    while (p < e && text.charCodeAt(p) === 45 /* - */ && (p + 1 >= e || isSpace(text.charCodeAt(p + 1)))) {
      col = p - lineStart;
      p++;
      while (p < e && isSpace(text.charCodeAt(p))) p++;
      isValue = true;
      keyAllowed = true;
    }
    // Anchors and tags before the node.
    while (p < e && (text.charCodeAt(p) === 38 /* & */ || text.charCodeAt(p) === 33 /* ! */)) {
      while (p < e && !isSpace(text.charCodeAt(p))) p++;
      while (p < e && isSpace(text.charCodeAt(p))) p++;
    }
    // Nothing (or a comment) after `key:` or `- `: the value starts on a later line.
    if (p >= e) { if (isValue) openCol = col; return; }
    const c = text.charCodeAt(p);
    if (c === 35 /* # */) { textIn(p, e); if (isValue) openCol = col; return; }
    if (c === 123 && text.charCodeAt(p + 1) === 123) {
      // `{{` where YAML reads a node: template syntax, or a flow mapping YAML takes it for.
      (helmActionAt(text, p) ? out.syntax : out.bare).push(p);
      const close = closeAfter(p + 2);
      const after = close >= 0 && close < e ? close + 2 : e;
      rest(after, col, true);
      return;
    }
    if (c === 34 || c === 39) {
      const close = quoteEnd(text, p + 1, e, c);
      if (close < 0) { textIn(p, e); quote = c; return; }
      textIn(p, close);
      rest(close + 1, col, false, p - lineStart);
      return;
    }
    if (c === 124 /* | */ || c === 62 /* > */) {
      blockIndent = col;
      textIn(p, e);
      return;
    }
    if (c === 123 || c === 91) { flow(p + 1); return; }
    // A plain scalar, or a plain key: the key ends at `: ` (or `:` at the line's end), outside of its text.
    const key = keyAllowed ? plainKeyEnd(p) : -1;
    if (key >= 0) {
      textIn(p, key);
      let v = key + 1;
      while (v < e && isSpace(text.charCodeAt(v))) v++;
      if (v < e) node(v, p - lineStart, true); else openCol = p - lineStart;
      return;
    }
    // A plain scalar value: every `{{` in it is text; the lines after it continue it when indented more than its
    // key (a value on the key's line, or on the lines after `key:`: then its later lines may be indented less than
    // its first, as YAML reads them).
    textIn(p, e);
    plainIndent = isValue ? col : lineParent >= 0 ? lineParent : indent - 1;
  }

  /** After a quoted scalar or an action on the line: a `:` makes it a key, whose value follows. */
  function rest(p: number, col: number, _action = false, keyCol = col): void {
    while (p < e && isSpace(text.charCodeAt(p))) p++;
    if (p < e && text.charCodeAt(p) === 58 /* : */ && (p + 1 >= e || isSpace(text.charCodeAt(p + 1)))) {
      let v = p + 1;
      while (v < e && isSpace(text.charCodeAt(v))) v++;
      if (v < e) node(v, keyCol, true); else openCol = keyCol;
      return;
    }
    // Whatever else is on the line (text after an action, a comment): a `{{` there is after other text.
    if (p < e && text.charCodeAt(p) === 44 /* , */) { flow(p + 1); return; }
    textIn(p, e);
  }

  /** Inside a flow collection (or JSON): `{{` in a string is text; right after `[`, `{`, `,` or `: ` it is a node. */
  function flow(p: number): void {
    while (p < e) {
      const c = text.charCodeAt(p);
      if (c === 34 || c === 39) {
        const close = quoteEnd(text, p + 1, e, c);
        if (close < 0) { textIn(p, e); quote = c; return; }
        textIn(p, close);
        p = close + 1;
        continue;
      }
      if (c === 123 && text.charCodeAt(p + 1) === 123) {
        (helmActionAt(text, p) ? out.syntax : out.bare).push(p);
        const close = closeAfter(p + 2);
        p = close >= 0 && close < e ? close + 2 : e;
        continue;
      }
      if (c === 35 && p > lineStart && isSpace(text.charCodeAt(p - 1))) { textIn(p, e); return; }
      if (c === 123 || c === 91 || c === 44 || c === 58 || isSpace(c) || c === 93 || c === 125) { p++; continue; }
      // A plain scalar in the flow: up to the next indicator; a `{{` in it is text.
      let q = p;
      while (q < e && !FLOW_END.has(text.charCodeAt(q)) && !(text.charCodeAt(q) === 58 && (q + 1 >= e || isSpace(text.charCodeAt(q + 1))))) q++;
      textIn(p, q);
      p = q > p ? q : p + 1;
    }
  }

  /** The `:` that ends a plain key starting at `p` on this line, or -1 (a plain scalar). */
  function plainKeyEnd(p: number): number {
    for (let k = p; k < e; k++) {
      const c = text.charCodeAt(k);
      if (c === 58 && (k + 1 >= e || isSpace(text.charCodeAt(k + 1)))) return k;
      if (c === 35 && k > p && isSpace(text.charCodeAt(k - 1))) return -1;
    }
    return -1;
  }
}

/** The closing quote of a scalar whose text starts at `p`, on the line (before `e`), or -1. */
function quoteEnd(text: string, p: number, e: number, q: number): number {
  for (let k = p; k < e; k++) {
    const c = text.charCodeAt(k);
    if (q === 34 && c === 92 /* \ */) { k++; continue; }
    if (c === q) {
      if (q === 39 && text.charCodeAt(k + 1) === 39) { k++; continue; }
      return k;
    }
  }
  return -1;
}
