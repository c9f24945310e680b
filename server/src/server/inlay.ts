// Inlay hints where a version value implies a path (engine/steps.ts inlayHints): after a localhost.yml's
// kubernetes_version, the upgrade path it starts ("→ 1.21.3: 3 upgrades"); after a container image, the steps of the
// window it is validated for.
import { InlayHintKind, type Connection, type InlayHint } from 'vscode-languageserver/node';
import { inlayHints } from '../engine/window-verdict';
import type { WindowFeatureDeps } from './code-lens';
import type { AnalyzeResult } from '../engine/analyze';
import { weakMemoIn } from '../engine/memo';

const inside = (pos: { line: number }, range: { start: { line: number }; end: { line: number } }) => pos.line >= range.start.line && pos.line <= range.end.line;

/** An analysis's hints (the result is the one of its document version: its text does not change). */
const hintsOf = new WeakMap<AnalyzeResult, ReturnType<typeof inlayHints>>();

export function registerInlayHints(connection: Connection, deps: WindowFeatureDeps): void {
  connection.languages.inlayHint.on(deps.guarded('inlayHint', [], (p) => {
    const c = deps.current(p.textDocument.uri);
    if (!c) return [];
    // The file's hints once per analysis: the editor asks again for every scroll, one visible range at a time.
    return weakMemoIn(hintsOf, c.result, () => inlayHints(c.result, c.text)).filter((h) => inside(h.position, p.range)).map((h): InlayHint => ({
      position: h.position, label: h.label, kind: InlayHintKind.Type, paddingLeft: true, tooltip: h.tooltip,
    }));
  }) as Parameters<Connection['languages']['inlayHint']['on']>[0]);
}
