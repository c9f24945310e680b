// The API server's metrics, as `kubectl get --raw /metrics` writes them (the Prometheus text exposition format 0.0.4;
// OpenMetrics' `# EOF` is accepted): read line by line, keeping only the series of apiserver_requested_deprecated_apis
// and counts of the rest. Label values are unescaped as the format says (\\, \", \n); every range is an offset into
// the text the engine was given, so positions are exact whatever the line endings.
import * as path from 'node:path';

export const DEPRECATED_METRIC = 'apiserver_requested_deprecated_apis';

/** One series of the deprecated-API metric, at its line. */
export interface DeprecatedSeries {
  labels: Record<string, string>;
  /** The series' name and labels (not its value). */
  range: { start: number; end: number };
  line: number;
  value: string;
}

export interface MetricsScan {
  lines: number;
  samples: number;
  /** Samples of kube-apiserver's own metrics (apiserver_*): whether the file is an API server's /metrics at all. */
  apiserverSamples: number;
  /** `# TYPE apiserver_requested_deprecated_apis …` was there. */
  deprecatedDeclared: boolean;
  series: DeprecatedSeries[];
  /** Series beyond the bound kept (SERIES_LIMIT): counted, not kept. */
  seriesDropped: number;
  /** Lines that are not the format: how many, the first's place and why. */
  bad: { count: number; first?: { start: number; end: number; line: number; why: string } };
}

/** At most this many series are kept per file (a real API server has a few dozen; a hostile file may have millions). */
export const SERIES_LIMIT = 5000;

const isNameStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 58;
const isNameChar = (c: number) => isNameStart(c) || (c >= 48 && c <= 57);
const isLabelStart = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
const isLabelChar = (c: number) => isLabelStart(c) || (c >= 48 && c <= 57);
const isBlank = (c: number) => c === 32 || c === 9;
const VALUE = /^(?:[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?|[+-]?Inf|NaN)$/;
const TIMESTAMP = /^-?\d+(?:\.\d+)?$/;

/** A quoted string at t[i] (the opening quote), within the line [.., end): its unescaped value and the index after the closing quote. */
function quoted(t: string, i: number, end: number): { value: string; next: number } | string {
  // The usual value has no backslash: one native search for the closing quote.
  const q = t.indexOf('"', i + 1);
  if (q >= 0 && q < end) {
    const plain = t.slice(i + 1, q);
    if (!plain.includes('\\')) return { value: plain, next: q + 1 };
  }
  let out = '';
  let from = i + 1;
  for (let j = i + 1; j < end; j++) {
    const c = t.charCodeAt(j);
    if (c === 92) {
      if (j + 1 >= end) return 'a backslash ends the line inside a quoted value';
      out += t.slice(from, j);
      const n = t[j + 1];
      out += n === 'n' ? '\n' : n === '\\' ? '\\' : n === '"' ? '"' : `\\${n}`;
      j++;
      from = j + 1;
    } else if (c === 34) {
      return { value: out + t.slice(from, j), next: j + 1 };
    }
  }
  return 'a quoted value is not closed on its line';
}

interface Sample { name: string; labels: Record<string, string>; labelCount: number; nameStart: number; labelsEnd: number; value: string }

/** One sample line [s, e) (no line break), or why it is not one. `keep`: whether the labels of a metric are kept. */
function sample(t: string, s: number, e: number, keep: (name: string) => boolean = () => true): Sample | string {
  let i = s;
  let name = '';
  const nameStart = i;
  if (isNameStart(t.charCodeAt(i))) {
    while (i < e && isNameChar(t.charCodeAt(i))) i++;
    name = t.slice(s, i);
  } else if (t.charCodeAt(i) !== 123) return 'a line that is neither a comment nor a sample (`name{labels} value`)';
  while (i < e && isBlank(t.charCodeAt(i))) i++;
  const labels: Record<string, string> = Object.create(null);
  let labelCount = 0;
  const seen: string[] = [];
  if (t.charCodeAt(i) === 123) {
    i++;
    for (;;) {
      while (i < e && isBlank(t.charCodeAt(i))) i++;
      if (i >= e) return 'the label set `{…}` is not closed on its line';
      if (t.charCodeAt(i) === 125) { i++; break; }
      let label: string;
      if (t.charCodeAt(i) === 34) {
        // A quoted name: the metric's own (`{"name", …}`) or a label's (`"label"="value"`).
        const q = quoted(t, i, e);
        if (typeof q === 'string') return q;
        i = q.next;
        while (i < e && isBlank(t.charCodeAt(i))) i++;
        if (t.charCodeAt(i) !== 61) {
          if (name) return `the metric ${name} is named twice`;
          name = q.value;
          if (t.charCodeAt(i) === 44) i++;
          continue;
        }
        label = q.value;
      } else {
        const ls = i;
        if (!isLabelStart(t.charCodeAt(i))) return `a label name is expected at column ${i - s + 1}`;
        while (i < e && isLabelChar(t.charCodeAt(i))) i++;
        label = t.slice(ls, i);
        while (i < e && isBlank(t.charCodeAt(i))) i++;
      }
      if (t.charCodeAt(i) !== 61) return `\`=\` is expected after the label ${label}`;
      i++;
      while (i < e && isBlank(t.charCodeAt(i))) i++;
      if (t.charCodeAt(i) !== 34) return `the value of the label ${label} is not quoted`;
      const v = quoted(t, i, e);
      if (typeof v === 'string') return v;
      if (seen.includes(label)) return `the label ${label} is given twice`;
      if (seen.length < 64) seen.push(label);
      labelCount++;
      if (keep(name)) labels[label] = v.value;
      i = v.next;
      while (i < e && isBlank(t.charCodeAt(i))) i++;
      if (t.charCodeAt(i) === 44) { i++; continue; }
      if (t.charCodeAt(i) === 125) { i++; break; }
      return `\`,\` or \`}\` is expected after the label ${label}`;
    }
  }
  if (!name) return 'a sample without a metric name';
  const labelsEnd = i;
  // The value and the optional timestamp: at most two words.
  while (i < e && isBlank(t.charCodeAt(i))) i++;
  const vs = i;
  while (i < e && !isBlank(t.charCodeAt(i))) i++;
  const value = t.slice(vs, i);
  while (i < e && isBlank(t.charCodeAt(i))) i++;
  const ts = i;
  while (i < e && !isBlank(t.charCodeAt(i))) i++;
  const stamp = t.slice(ts, i);
  while (i < e && isBlank(t.charCodeAt(i))) i++;
  if (!value) return `the sample of ${name} has no value`;
  if (i < e || !VALUE.test(value) || (stamp && !TIMESTAMP.test(stamp))) return `the sample of ${name} does not end in a number (and a timestamp)`;
  return { name, labels, labelCount, nameStart, labelsEnd, value };
}

/** Reads the text line by line (no array of lines: the file may be 20 MB); keeps the deprecated-API series only. */
export function scanMetrics(t: string): MetricsScan {
  const scan: MetricsScan = { lines: 0, samples: 0, apiserverSamples: 0, deprecatedDeclared: false, series: [], seriesDropped: 0, bad: { count: 0 } };
  const n = t.length;
  // Lines end at LF, CRLF or a lone CR, as the editor's line index counts them; without a lone CR the LFs are found natively.
  const loneCr = /\r(?!\n)/.test(t);
  const keep = (name: string) => name === DEPRECATED_METRIC;
  let s = t.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (let line = 0; s <= n; line++) {
    let e: number;
    if (loneCr) { e = s; while (e < n) { const c = t.charCodeAt(e); if (c === 10 || c === 13) break; e++; } } else { e = t.indexOf('\n', s); if (e < 0) e = n; }
    const next = e < n && t.charCodeAt(e) === 13 && t.charCodeAt(e + 1) === 10 ? e + 2 : e + 1;
    if (!loneCr && e > s && t.charCodeAt(e - 1) === 13) e--;
    if (e > s || e < n) scan.lines++;
    let i = s;
    while (i < e && isBlank(t.charCodeAt(i))) i++;
    if (i < e) {
      if (t.charCodeAt(i) === 35) {
        const m = /^#[ \t]+TYPE[ \t]+(\S+)/.exec(t.slice(i, Math.min(e, i + 200)));
        if (m && m[1] === DEPRECATED_METRIC) scan.deprecatedDeclared = true;
      } else {
        const r = sample(t, i, e, keep);
        if (typeof r === 'string') {
          scan.bad.count++;
          scan.bad.first ??= { start: i, end: e, line, why: r };
        } else {
          scan.samples++;
          if (r.name.startsWith('apiserver_')) scan.apiserverSamples++;
          if (r.name === DEPRECATED_METRIC) {
            if (scan.series.length < SERIES_LIMIT) scan.series.push({ labels: r.labels, range: { start: r.nameStart, end: r.labelsEnd }, line, value: r.value });
            else scan.seriesDropped++;
          }
        }
      }
    }
    if (e >= n) break;
    s = next;
  }
  return scan;
}

/** The first line with something on it is a `# HELP`/`# TYPE` line, or a sample with labels (`name{a="b"} 1`). */
function firstLineLooks(head: string): boolean {
  const m = /^[ \t]*(\S[^\r\n]*)/m.exec(head.replace(/^\uFEFF/, ''));
  if (!m) return false;
  const l = m[1];
  if (/^#[ \t]+(HELP|TYPE)[ \t]+[a-zA-Z_:][a-zA-Z0-9_:]*([ \t]|$)/.test(l)) return true;
  const r = sample(l, 0, l.length);
  return typeof r !== 'string' && r.labelCount > 0;
}

const OTHER_FORMATS = new Set(['.yaml', '.yml', '.json', '.toml', '.tpl', '.tgz', '.conf', '.md']);

/** A name the metrics family claims: `*.prom`, or a `.txt` whose name says metrics (cluster-metrics.txt). */
export const isMetricsName = (file: string): boolean => {
  const base = path.basename(file).toLowerCase();
  return base.endsWith('.prom') || (base.endsWith('.txt') && base.includes('metrics'));
};

/** The content is the exposition format: its first line is a HELP/TYPE line or a labelled sample (not another format's file). */
export function isMetricsContent(ext: string, text: string): boolean {
  return !OTHER_FORMATS.has(ext) && firstLineLooks(text.slice(0, 4096));
}
