// Diagnostics out: a finding as an LSP diagnostic (positions, severity, docs link, step data), a document's list sent
// (capped for the editor by publish.ts), a .skewguard.yaml's problems, and the failure path's second half: a failure
// outside the analysis added to the document's findings, and the guard every request handler runs in.
import { DiagnosticSeverity, ResponseError, type Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import { pathToFileURL } from 'node:url';
import type { Diagnostic, Severity } from '../engine/types';
import { LineIndex } from '../engine/text';
import { docsUrl } from '../engine/rules';
import { invalidConfig } from '../engine/rules/general';
import { injectFault } from '../engine/faults';
import { dataWithSteps as withSteps } from '../engine/steps';
import { docHrefFor } from './editor-support';
import { DiagnosticLimiter } from './publish';
import { internalDiagnostic, logFailure } from './failures';
import {
  FAULTS, connection, documents, ws, results, pendingFailures, shutdownRequested, afterShutdown, isConfigFile, uriToPath,
} from './session';

/** More findings than the editor shows (1,000 per file): the most useful are sent (publish.ts); lsp-lint gets all. */
export const limiter = new DiagnosticLimiter(connection);
limiter.listen();
const publishedConfigUris = new Set<string>();

/** A failure outside the analysis of the document's current version: added to its diagnostics and published again. */
export function reportFailure(uri: string, stage: string, e: unknown, data?: Record<string, unknown>): void {
  logFailure(stage, uri, e);
  const r = results.get(uri);
  const d = internalDiagnostic(stage, e, data);
  // Not analysed yet: said with its analysis (a request on a document that is not open has no diagnostics to add to).
  if (!r) { if (documents.get(uri)) pendingFailures.set(uri, [...(pendingFailures.get(uri) ?? []), d]); return; }
  // Once per stage and message (a hover that fails on every move is said once).
  if (r.result.diagnostics.some((x) => x.ruleId === d.ruleId && x.message === d.message)) return;
  r.result.diagnostics.unshift(d);
  if (!isConfigFile(uri)) publish(uri, r.version, r.result.diagnostics);
}

/** Sends a document's diagnostics; one that cannot be converted or sent is replaced by the internal error saying so. */
export function publish(uri: string, version: number | undefined, diagnostics: Diagnostic[]): void {
  const out: LspDiagnostic[] = [];
  let failure: unknown;
  try { injectFault(FAULTS, 'publish'); } catch (e) { failure = e; }
  if (failure === undefined) {
    for (const d of diagnostics) {
      try { out.push(toLsp(d)); } catch (e) { failure ??= e; }
    }
  }
  const fallback = (e: unknown) => {
    logFailure('publish', uri, e);
    const d = toLsp(internalDiagnostic('publish', e));
    // data may be what failed to serialise: leave it out of the fallback.
    return connection.sendDiagnostics({ uri, version, diagnostics: [...out.map((x) => ({ ...x, data: undefined })), d] });
  };
  if (failure !== undefined) { void fallback(failure).catch((e) => logFailure('publish', uri, e)); return; }
  void connection.sendDiagnostics({ uri, version, diagnostics: limiter.cap(uri, version, out) })
    .catch((e) => fallback(e).catch((e2) => logFailure('publish', uri, e2)));
}

export function publishConfigProblems(): void {
  const seen = new Set<string>();
  // An open .skewguard.yaml's problems are its buffer's; every other file's configuration is the saved one (workspace.ts).
  for (const c of ws.shownConfigs(documents.all().map((d) => uriToPath(d.uri)))) {
    const uri = pathToFileURL(c.path).toString();
    seen.add(uri);
    const lines = new LineIndex(c.text);
    void connection.sendDiagnostics({
      uri,
      diagnostics: c.problems.map((p) => toLsp({
        ruleId: invalidConfig.id, severity: 'error', message: p.message, range: lines.range(p.range.start, p.range.end), docsUrl: docsUrl(invalidConfig.id),
      })),
    });
  }
  for (const u of publishedConfigUris) if (!seen.has(u)) void connection.sendDiagnostics({ uri: u, diagnostics: [] });
  publishedConfigUris.clear();
  for (const u of seen) publishedConfigUris.add(u);
}

const SEVERITY: Record<Severity, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error, warning: DiagnosticSeverity.Warning, info: DiagnosticSeverity.Information, hint: DiagnosticSeverity.Hint,
};

export function toLsp(d: Diagnostic): LspDiagnostic {
  // Kept per diagnostic: a big file's unchanged findings are published again after every edit (scheduler.ts). Looked
  // up before anything is made: a closure per finding was 0.9 MB of garbage per keystroke in the 12,000-document bundle.
  const hit = lspOf.get(d);
  if (hit) return hit;
  const lsp: LspDiagnostic = {
    range: d.range, severity: SEVERITY[d.severity], code: d.ruleId, codeDescription: { href: docHrefFor(d) },
    source: 'skewguard', message: d.message, data: withSteps(d),
  };
  lspOf.set(d, lsp);
  return lsp;
}
const lspOf = new WeakMap<Diagnostic, LspDiagnostic>();

/**
 * A request's handler, guarded: after shutdown it is refused (InvalidRequest); an exception is logged, becomes the
 * document's internal-error diagnostic and the request gets the empty answer, so the editor and the server go on.
 */
export function guarded<P extends { textDocument: { uri: string } }, R>(stage: string, empty: R, handler: (p: P) => R): (p: P) => R | ResponseError {
  return (p: P) => {
    if (shutdownRequested) return afterShutdown();
    try {
      injectFault(FAULTS, stage);
      return handler(p);
    } catch (e) {
      reportFailure(p.textDocument.uri, stage, e);
      return empty;
    }
  };
}
