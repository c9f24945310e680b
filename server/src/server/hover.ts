// textDocument/hover: a rule's documentation over a finding or a suppression comment (editor-support.ts), else the
// family's hover at the position (engine/language.ts), with which bootstrap file set the window when several competed.
import type { AnalyzeResult } from '../engine/analyze';
import { hover } from '../engine/language';
import { docsHover } from './editor-support';
import { hoverContents } from './hover-text';
import { viewAt } from './scheduler';
import { current } from './diagnostics';
import { guarded } from './publishing';
import { connection, ws, uriToPath } from './session';

export function registerHover(): void {
  connection.onHover(guarded('hover', null, (p) => {
    const c = current(p.textDocument.uri);
    if (!c) return null;
    const dh = docsHover(c.doc, p.position);
    if (dh) return dh;
    const v = viewAt(c.result, c.doc.getText(), p.position);
    const h = hover(v.result, v.text, v.position);
    return h ? { contents: hoverContents(h.markdown + windowChoiceNote(c.result, uriToPath(p.textDocument.uri)) + unsavedConfigNote(uriToPath(p.textDocument.uri)), ws.rootFor(uriToPath(p.textDocument.uri))), range: h.range && v.back(h.range) } : null;
  }));
}

/** Several bootstrap files competed for the file's Kubernetes window: which one was used, and how to choose (workspace.ts). */
/** An open .skewguard.yaml or bootstrap file with unsaved changes that would apply to the file: said in its hover (not applied until saved). */
const unsavedConfigNote = (file: string) => { const u = ws.unsavedSaid(file); return u ? `\n\n${u}` : ''; };

function windowChoiceNote(r: AnalyzeResult, file: string): string {
  const k = r.config?.kubernetes.source;
  if (!k || k.kind !== 'workspace' || r.windowSource !== k) return '';
  const l = ws.factsFor(file).localhost;
  return l?.note ? `\n\nKubernetes window from ${l.path}: ${l.note}.` : '';
}
