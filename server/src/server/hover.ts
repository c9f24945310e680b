// textDocument/hover: a rule's documentation over a finding or a suppression comment (editor-support.ts), else the
// family's hover at the position (engine/language.ts), with what the families' server sides add (family-service.ts
// hoverNote: which bootstrap file set the window when several competed) and an unsaved configuration that would apply.
import type { AnalyzeResult } from '../engine/analyze';
import { hover } from '../engine/language';
import { docsHover } from './editor-support';
import { hoverContents } from './hover-text';
import { viewAt } from './parts';
import { current } from './diagnostics';
import { guarded } from './publishing';
import { connection, ws, services, uriToPath } from './session';

export function registerHover(): void {
  connection.onHover(guarded('hover', null, (p) => {
    const c = current(p.textDocument.uri);
    if (!c) return null;
    const dh = docsHover(c.doc, p.position);
    if (dh) return dh;
    const v = viewAt(c.result, c.doc.getText(), p.position);
    const h = hover(v.result, v.text, v.position);
    return h ? { contents: hoverContents(h.markdown + servicesNote(c.result, uriToPath(p.textDocument.uri)) + unsavedConfigNote(uriToPath(p.textDocument.uri)), ws.rootFor(uriToPath(p.textDocument.uri))), range: h.range && v.back(h.range) } : null;
  }));
}

/** An open .skewguard.yaml or bootstrap file with unsaved changes that would apply to the file: said in its hover (not applied until saved). */
const unsavedConfigNote = (file: string) => { const u = ws.unsavedSaid(file); return u ? `\n\n${u}` : ''; };

/** What the families' server sides add to a hover (FamilyServerService.hoverNote). */
const servicesNote = (r: AnalyzeResult, file: string) => services.map((s) => s.hoverNote?.(r, file) ?? '').join('');
