// textDocument/codeAction: each finding's quick fixes (a fix that would remove or rewrite a key under a window nobody
// chose is not preferred and says why: fix-window.ts), the editor's other actions (code-actions.ts: suppress, docs,
// ignore, …), the did-you-mean fixes of a .skewguard.yaml, and fix-all (fix-all.ts: non-overlapping, preferred fixes).
import { CodeActionKind, type CodeAction, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { AnalyzeResult } from '../engine/analyze';
import type { Diagnostic, TextEdit } from '../engine/types';
import { internalError } from '../engine/rules/general';
import { FIX_ALL_KIND } from '../shared/protocol';
import { chooseNonOverlapping, type Span } from './fix-all';
import { defaultWindowReason, fixTouchesKey } from './fix-window';
import { moreActions, type ActionContext } from './code-actions';
import { actionContext } from './editor-support';
import { didYouMeanFixes } from './config-fixes';
import { current } from './diagnostics';
import { guarded, reportFailure, toLsp } from './publishing';
import { connection } from './session';

const sameRange = (a: LspDiagnostic['range'], b: LspDiagnostic['range']) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

/**
 * A diagnostic's fixes; a lazy fix (worked out on first use) that throws is that document's internal error, and
 * the finding is left without fixes: the other findings' fixes are still offered.
 */
function fixesOf(d: Diagnostic, uri: string): NonNullable<Diagnostic['fixes']> {
  try {
    return d.fixes ?? [];
  } catch (e) {
    d.fixes = [];
    reportFailure(uri, `fix (the fix of ${d.ruleId})`, e, { stage: 'fix', rule: d.ruleId });
    return [];
  }
}

export function registerCodeActions(): void {
  connection.onCodeAction(guarded('codeAction', [], (p) => {
    const c = current(p.textDocument.uri);
    if (!c) return [];
    const uri = p.textDocument.uri;
    const only = p.context.only;
    const wantsFixAll = !only || only.some((k) => FIX_ALL_KIND.startsWith(k) || k === CodeActionKind.SourceFixAll || k === CodeActionKind.Source);
    const wantsQuick = !only || only.some((k) => CodeActionKind.QuickFix.startsWith(k) || k === CodeActionKind.QuickFix);
    const actions: CodeAction[] = [];
    const here: ActionContext['here'] = [];
    // Fix-all's edits, worked out once per request (the quick-fix menu asks for both kinds).
    let fixAll: FixAllPlan | undefined;
    const plan = () => (fixAll ??= fixAllPlan(c.result, c.doc, uri));
    const allEdits = () => plan().edits;
    // Under a window nobody chose, a fix that removes or rewrites a key is not fix-all's (fix-window.ts); as a quick fix
    // the user may still pick it, but it is not the preferred one (an editor's auto-fix applies that) and says why.
    const heldReason = defaultWindowReason(c.result);
    if (wantsQuick) {
      for (const d of [...c.result.diagnostics]) {
        const ctxDiag = p.context.diagnostics.find((x) => x.code === d.ruleId && sameRange(x.range, d.range));
        const overlaps = d.range.start.line <= p.range.end.line && d.range.end.line >= p.range.start.line;
        if (!ctxDiag && !overlaps) continue;
        here.push({ d, lsp: ctxDiag ?? toLsp(d) });
        if (!fixesOf(d, uri).length) continue;
        for (const f of fixesOf(d, uri)) {
          const held = !!heldReason && fixTouchesKey(f);
          const title = f.partial ? `${f.title} (partial)` : f.title;
          actions.push({
            title: held ? `${title} (${heldReason!.replace(/;.*/, '')})` : title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [ctxDiag ?? toLsp(d)],
            isPreferred: !!f.preferred && !held,
            edit: { changes: { [uri]: f.edits } },
          });
        }
      }
      for (const a of moreActions(actionContext(c, uri, here, true, allEdits))) actions.push(a);
      for (const a of didYouMeanFixes(uri, c.doc, p.context.diagnostics)) actions.push(a);
    }
    if (wantsFixAll) {
      const { edits, held } = plan();
      const kind = only?.includes(CodeActionKind.SourceFixAll) && !only.includes(FIX_ALL_KIND) ? CodeActionKind.SourceFixAll : FIX_ALL_KIND;
      // What fix-all leaves under a default window is said: in the title, and to lsp-lint in the data (its report says it at each finding).
      const notFixed = held.map((h) => ({ code: h.d.ruleId, range: h.d.range, message: h.d.message, reason: `not fixed: ${h.reason}` }));
      const why = held.length ? `${held.length} not fixed: ${held[0].reason}` : '';
      if (edits.length) {
        actions.push({ title: `Fix all auto-fixable skewguard problems${why ? ` (${why})` : ''}`, kind, edit: { changes: { [uri]: edits } }, ...(held.length ? { data: { notFixed } } : {}) });
      } else if (held.length) {
        actions.push({ title: 'Fix all auto-fixable skewguard problems', kind, disabled: { reason: why }, data: { notFixed } });
      }
    }
    return actions;
  }));
}

/**
 * Internal errors that make fix-all unsafe: a failure before the rules or in suppression (a suppressed finding's fix
 * would be applied). A failing rule or lazy fix does not: the other rules' findings and fixes are complete.
 */
const blocksFixAll = (d: Diagnostic) => d.ruleId === internalError.id && !/^(rule:|fix|facts|publish|hover|completion|codeAction|codeLens|inlayHint)/.test(String(d.data?.stage ?? ''));

export interface FixAllPlan { edits: TextEdit[]; held: Array<{ d: Diagnostic; reason: string }> }

/**
 * Preferred, complete fixes whose edits do not overlap (an earlier diagnostic's fix wins). Nothing for a file
 * that does not parse, or whose analysis failed outside a rule. A fix that removes or rewrites a key is left out
 * (`held`, with why) when the window it was judged against is a default (fix-window.ts).
 */
export function fixAllPlan(result: AnalyzeResult, doc: TextDocument, uri: string): FixAllPlan {
  const diags = result.diagnostics;
  if (diags.some((d) => d.ruleId === 'syntax/parse-error' || blocksFixAll(d))) return { edits: [], held: [] };
  const candidates: Array<Array<Span<LspDiagnostic['range']>>> = [];
  const held: FixAllPlan['held'] = [];
  const reason = defaultWindowReason(result);
  const offset = (p: TextEdit['range']['start']) => doc.offsetAt(p);
  for (const d of [...diags]) {
    const f = fixesOf(d, uri).find((x) => x.preferred && !x.partial);
    if (!f) continue;
    if (reason && fixTouchesKey(f)) { held.push({ d, reason }); continue; }
    candidates.push(f.edits.map((e) => ({ start: offset(e.range.start), end: offset(e.range.end), edit: e })));
  }
  return { edits: chooseNonOverlapping(candidates).map((c) => c.edit), held };
}
