// Diagnostics in: a document checked (its configuration, what the families' server sides add to its input (a chart's
// Helm renders), the analysis, a big file part by
// part through scheduler.ts), debounced per document, its findings published, and for lsp-lint its facts sent first.
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { analyze, type AnalyzeResult } from '../engine/analyze';
import type { ResolvedConfig } from '../engine/config';
import { familyById } from '../engine/families/registry';
import { internalError, invalidConfig } from '../engine/rules/general';
import { docsUrl } from '../engine/rules';
import * as path from 'node:path';
import { LineIndex } from '../engine/text';
import { injectFault } from '../engine/faults';
import { FileFactsNotification, type FileFactsParams } from '../shared/protocol';
import { ignoredFile } from './ignore';
import { Scheduler } from './scheduler';
import { internalDiagnostic, logFailure } from './failures';
import { configFor } from './config-for';
import { servicesInput, serviceFacts } from './family-service';
import { limiter, publish, toLsp } from './publishing';
import {
  FAULTS, connection, documents, init, ws, files, results, pendingFailures, timers, staleDataReported, today,
  uriToPath, isConfigFile, set,
} from './session';

/** Big multi-document files are checked part by part, the edited part first, the rest in the background (scheduler.ts). */
export const scheduler = new Scheduler((uri) => { const d = documents.get(uri); if (d) schedule(d, 0); }, (uri) => limiter.focusOf(uri));

export function validate(doc: TextDocument): void {
  try {
    validateStages(doc);
  } catch (e) {
    // Outside every stage below (it should not happen): the document still gets the reason.
    logFailure('validate', doc.uri, e);
    results.set(doc.uri, { version: doc.version, result: { diagnostics: [internalDiagnostic('validate', e)] } });
    void connection.sendDiagnostics({ uri: doc.uri, version: doc.version, diagnostics: [toLsp(internalDiagnostic('validate', e))] }).catch(() => undefined);
  }
}

export function validateStages(doc: TextDocument): void {
  const file = uriToPath(doc.uri);
  let config: ResolvedConfig | undefined;
  let result: AnalyzeResult;
  try {
    injectFault(FAULTS, 'config');
    config = configFor(file, doc.uri).config;
  } catch (e) {
    logFailure('config', doc.uri, e);
    result = { diagnostics: [internalDiagnostic('config', e)] };
  }
  if (config) {
    try {
      // What the families' server sides add (family-service.ts): a chart's renders, its `helm` fact.
      const h = servicesInput(file, config);
      if (h.pending) {
        // Checked again once the input is made (a chart rendered: the render settles, bounded by its timeout). lsp-lint
        // waits for that; an editor gets the evaluator's reading now and the rendered one when it is there.
        void h.pending.then(() => { const d = documents.get(doc.uri); if (d && d.version === doc.version) schedule(d, 0); });
        if (init.cli) return;
      }
      // In the editor a file the ignore: lists leave out is not checked (lsp-lint asks before it opens walked files).
      if (!init.cli && !isConfigFile(doc.uri) && ignoredFile(ws, file, config)) { results.set(doc.uri, { version: doc.version, result: { diagnostics: [] }, config }); publish(doc.uri, doc.version, []); return; }
      const input = {
        path: file, text: doc.getText(), config, root: ws.rootFor(file), reportStaleData: !staleDataReported, today: today(),
        neighbours: ws.around.lazyFor(file), faults: FAULTS, files, ...h.input,
      };
      // An input a family's server side adds is the whole file's (a chart's renders): the file is analysed whole.
      result = (!init.cli && scheduler.analyze(doc.uri, doc.version, input, !!h.input)) || analyze(input);
      if (h.facts) serviceFacts.set(result, h.facts);
      if (result.staleReported) set.staleDataReported(true);
    } catch (e) {
      logFailure('analyze', doc.uri, e);
      result = { diagnostics: [internalDiagnostic('analyze', e)] };
    }
  }
  for (const d of result!.diagnostics) if (d.ruleId === internalError.id) logFailure(String(d.data?.stage ?? 'analyze'), doc.uri, (d as { error?: unknown }).error ?? d.message);
  if (init.cli && !isConfigFile(doc.uri)) configProblemNote(file, result!);
  const pending = pendingFailures.get(doc.uri);
  if (pending) { pendingFailures.delete(doc.uri); result!.diagnostics = [...pending, ...result!.diagnostics]; }
  results.set(doc.uri, { version: doc.version, result: result!, config });
  // A .skewguard.yaml's diagnostics are its config problems, published by publishConfigProblems.
  if (isConfigFile(doc.uri)) return;
  if (init.reportFacts) {
    let facts: Record<string, unknown> | undefined;
    try {
      injectFault(FAULTS, 'facts');
      facts = factsOf(result!);
    } catch (e) {
      logFailure('facts', doc.uri, e);
      result!.diagnostics.unshift(internalDiagnostic('facts', e));
    }
    void connection.sendNotification(FileFactsNotification, { uri: doc.uri, version: doc.version, family: result!.family ?? null, facts, steps: result!.windowSteps } satisfies FileFactsParams)
      .catch((e) => logFailure('facts', doc.uri, e));
  }
  publish(doc.uri, doc.version, result!.diagnostics);
}

export function schedule(doc: TextDocument, delay: number): void {
  const t = timers.get(doc.uri);
  if (t) clearTimeout(t);
  if (delay <= 0) { timers.delete(doc.uri); validate(doc); return; }
  timers.set(doc.uri, setTimeout(() => {
    timers.delete(doc.uri);
    const current = documents.get(doc.uri);
    if (current) validate(current);
  }, delay));
}

/** The analysis of the document's current version (re-analysed if a debounced run is pending). */
export function current(uri: string): { doc: TextDocument; result: AnalyzeResult; config?: ResolvedConfig } | undefined {
  const doc = documents.get(uri);
  if (!doc) return undefined;
  let r = results.get(uri);
  if (!r || r.version !== doc.version) { schedule(doc, 0); r = results.get(uri); }
  return r && { doc, result: r.result, config: r.config };
}

/** Per-file facts for --print-config, the JSON report and the status bar. */
export function factsOf(r: AnalyzeResult): Record<string, unknown> | undefined {
  const facts = familyById(r.family)?.facts(r);
  const added = serviceFacts.get(r);
  return added ? { ...facts, ...added } : facts;
}

/**
 * lsp-lint: the .skewguard.yaml that governs a file has problems (the one of the folder lsp-lint runs in stops the run
 * with a usage error before any file is checked; one of a subfolder did not, and its files were checked without its
 * invalid parts, green). Said on every file it governs, as not checked as configured (lsp-lint exits 2 unless
 * --allow-unchecked), as the editor says it on the configuration itself; lsp-lint keeps the first by path of each
 * configuration (cli/main.ts oncePerRun), whatever server checked which file in what order.
 */
function configProblemNote(file: string, result: AnalyzeResult): void {
  const loaded = ws.configFor(file);
  if (!loaded?.problems.length) return;
  const p = loaded.problems[0];
  const at = new LineIndex(loaded.text).positionAt(p.range.start);
  const more = loaded.problems.length > 1 ? ` (and ${loaded.problems.length - 1} more)` : '';
  const rel = path.relative(path.dirname(file), loaded.path) || loaded.path;
  result.diagnostics.unshift({
    ruleId: invalidConfig.id, severity: 'error', docsUrl: docsUrl(invalidConfig.id), range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    message: `not checked as configured: ${rel}, the configuration of this folder, is invalid at ${at.line + 1}:${at.character + 1}: ${p.message}${more}; this file and the others it governs were checked without the invalid settings`,
    data: { notChecked: true, config: loaded.path, problems: loaded.problems.length },
  });
}
