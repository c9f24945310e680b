// Hover and completion over an application's metadata.yaml: what each key means and what sysinv does with it per release.
import type { Position } from '../../types';
import type { AnalyzeResult } from '../../analyze';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex } from '../../text';
import { appMetadata } from './data';
import type { AppContext } from './index';

export function appHover(ctx: AppContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const e = [...ctx.entries()].reverse().find((x) => off >= x.keyRange.start && off <= x.keyRange.end);
  if (!e) return undefined;
  const range = lines.range(e.keyRange.start, e.keyRange.end);
  if (!e.spec) return { markdown: `**${e.name}** — not a key sysinv reads in any release (ignored).`, range };
  const out = [`**${e.name}** — StarlingX application metadata.yaml`, '', e.spec.meaning, '', `Type: ${e.spec.type}.`, '', '| release | sysinv | source |', '|---|---|---|'];
  for (const r of appMetadata().releases) {
    const x = e.spec.releases[r];
    const mark = ctx.releases.includes(r) ? ` **(on the path)**` : '';
    out.push(x ? `| ${r}${mark} | ${x.rule}${x.required ? ' (required)' : ''} | ${x.source ?? ''} |` : `| ${r}${mark} | not read | |`);
  }
  for (const n of e.spec.notes) out.push('', n);
  return { markdown: out.join('\n'), range };
}

/** The keys of the mapping the cursor is in (top level, upgrades, k8s_upgrades …) that the file does not have yet. */
export function appComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  if (!result.app) return [];
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const m = /^(\s*)([A-Za-z0-9_]*)$/.exec(before);
  if (!m) return [];
  const indent = m[1].length;
  // The parent keys: the nearest lines above with less indentation.
  const parents: string[] = [];
  let want = indent;
  for (let l = pos.line - 1; l >= 0 && want > 0; l--) {
    const t = lines.lineText(l);
    const k = /^(\s*)([A-Za-z0-9_]+)\s*:\s*(#.*)?$/.exec(t);
    if (!t.trim() || /^\s*#/.test(t)) continue;
    const ind = /^\s*/.exec(t)![0].length;
    if (ind < want) {
      if (!k) return [];
      parents.unshift(k[2]);
      want = ind;
    }
  }
  const parent = parents.join('.');
  const rels = result.app.releases;
  const present = new Set(result.app.entries().filter((e) => e.path.slice(0, -1).join('.') === parent).map((e) => e.path[e.path.length - 1]));
  const lineStart = lines.lineStart(pos.line);
  return appMetadata().keys
    .filter((k) => k.path.slice(0, -1).join('.') === parent && !present.has(k.path[k.path.length - 1]))
    .filter((k) => !rels.length || rels.some((r) => k.releases[r]))
    .map((k) => {
      const name = k.path[k.path.length - 1];
      const notAll = rels.filter((r) => !k.releases[r]);
      return {
        label: name, kind: 'property' as const,
        detail: `${k.type}${notAll.length ? ` — not read by ${notAll.join(', ')}` : ''}`,
        documentation: k.meaning, insertText: `${name}: `,
        replace: { start: lineStart + indent, end: lineStart + before.length },
        sortText: `${notAll.length ? 1 : 0}${name}`,
      };
    });
}
