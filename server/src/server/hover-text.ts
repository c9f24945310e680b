// Hovers for people: the families' hover text, made readable in the editor. The verdict (the window line: ✓ read,
// ⚠ only in the templates, ✗ ignored) comes right after the title, references to skewguard's own data tables
// (`config-options.json options[283]`, `goParserKeys[…]`) are left out (they stay in the data and in lsp-lint
// --format json), absolute paths under the workspace root are written relative to it, and a client without Markdown
// hovers (Neovim's plain text) gets the same text without Markdown marks.
import { MarkupKind, type MarkupContent } from 'vscode-languageserver/node';
import { plainText, hoverMarkdown } from './editor-support';

/** A reference into one of skewguard's own data files: `name.json <field>[…]`. */
const INTERNAL = /\b[\w-]+\.json\s+[\w.]*\[/;
const VERDICT = /^Window\b[^\n]*[✓✗⚠]/;

export function forPeople(markdown: string, root: string | undefined): string {
  let paras = markdown.split(/\n{2,}/);
  paras = paras.flatMap((p) => {
    const m = /^(Sources?:\s*)([\s\S]*)$/.exec(p);
    if (!m) return [p];
    const kept = m[2].split(/;\s+/).filter((s) => !INTERNAL.test(s));
    return kept.length ? [`${m[1]}${kept.join('; ')}`] : [];
  });
  const v = paras.findIndex((p, i) => i > 0 && VERDICT.test(p));
  if (v > 1) paras = [paras[0], paras[v], ...paras.slice(1, v), ...paras.slice(v + 1)];
  let out = paras.join('\n\n');
  if (root) {
    const r = root.replace(/[\\/]+$/, '');
    out = out.split(`${r}/`).join('').split(`${r}\\`).join('');
  }
  return out;
}

export function hoverContents(markdown: string, root: string | undefined): MarkupContent {
  const md = forPeople(markdown, root);
  return hoverMarkdown() ? { kind: MarkupKind.Markdown, value: md } : { kind: MarkupKind.PlainText, value: plainText(md) };
}
