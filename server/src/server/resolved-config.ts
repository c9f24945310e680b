// skewguard/resolvedConfig: a file's (or the workspace's) resolved window with where each part came from, how the file
// is read and its facts (the status item, "Show Resolved Window", lsp-lint --print-config); and lsp-lint's part of the
// initialize result (its flags' problems, and the same answer, which spares it a round trip).
import * as path from 'node:path';
import { ResponseError } from 'vscode-languageserver/node';
import { readAsOf, type AnalyzeResult } from '../engine/analyze';
import { describeResolved, checkCliOverrides, CONFIG_SECTIONS, type ResolvedConfig as Resolved } from '../engine/config';
import { LineIndex } from '../engine/text';
import { injectFault } from '../engine/faults';
import { ruleIds } from '../engine/rules';
import { normalizeSettings } from '../shared/settings';
import {
  ResolvedConfigRequest, type InitializationOptions, type ResolvedConfigParams, type ResolvedConfigResult, type CliInitializeResult,
} from '../shared/protocol';
import { ignoredFile } from './ignore';
import { fileStatus } from './window-status';
import { configFor } from './config-for';
import { factsOf } from './diagnostics';
import { reportFailure } from './publishing';
import {
  FAULTS, connection, settings, ws, files, results, docSettings, services, uriToPath, shutdownRequested, afterShutdown,
} from './session';

export function registerResolvedConfig(): void {
  connection.onRequest(ResolvedConfigRequest, (p: ResolvedConfigParams): ResolvedConfigResult | ResponseError => {
    if (shutdownRequested) return afterShutdown();
    return resolvedConfigResult(p);
  });
}

/** lsp-lint's part of the initialize result: its flags' problems, else (when asked) the resolved configuration. */
export function cliInitializeResult(cli: NonNullable<InitializationOptions['cli']>, asked: ResolvedConfigParams | undefined): CliInitializeResult {
  const cliProblems = checkCliOverrides(cli);
  // What the families' server sides read on disk for lsp-lint's options (--kubernetes-openapi), before any file is checked.
  for (const s of services) for (const problem of s.cliOptions?.(cli) ?? []) cliProblems.push(problem);
  if (cliProblems.length || !asked || typeof asked !== 'object') return { cliProblems };
  // A failure here is not the initialize's: lsp-lint then sends skewguard/resolvedConfig, which reports it.
  try { return { cliProblems, resolvedConfig: resolvedConfigResult(asked) }; } catch { return { cliProblems }; }
}

function resolvedConfigResult(p: ResolvedConfigParams): ResolvedConfigResult {
  const file = p.uri ? uriToPath(p.uri) : path.join(ws.roots[0] ?? process.cwd(), '.');
  const target = p.uri ? file : path.join(file, '__workspace__');
  const { config, loaded } = configFor(target, p.uri);
  const r = p.uri ? results.get(p.uri) : undefined;
  const lines = loaded ? new LineIndex(loaded.text) : undefined;
  const resolved = describeResolved(config);
  // The families' server sides' parts (the Helm binary found, how a chart is read: family-service.ts `describe`).
  let readBy: ResolvedConfigResult['readBy'];
  for (const s of services) { const d = s.describe?.(resolved, file, config, !!p.uri); if (d?.readBy && !readBy) readBy = d.readBy; }
  // The root facts' parts it asks for (--print-config: the operator versions the workspace pins, RootIndexProducer.printConfig).
  Object.assign(resolved, ws.around.describe(p.uri ? file : ws.roots[0] ?? process.cwd(), (name) => !!(p as unknown as Record<string, unknown>)[name]));
  // Which family reads the file and why (path, content, files:, modeline): the open document's, else the file's on disk.
  if (p.uri) resolved.readAs = r?.result.readAs ?? readAsOnDisk(file, config) ?? null;
  // Each part nobody chose is marked "(default)" (the status item, --print-config, Show Resolved Window).
  const summary = CONFIG_SECTIONS.map((c) => c.summary?.(config)).filter(Boolean).join(' · ');
  return {
    resolved,
    family: r?.result.family ?? null,
    facts: r ? factsSafe(p.uri!, r.result) : undefined,
    configProblems: (loaded?.problems ?? []).map((pr) => ({ file: loaded!.path, ...lines!.positionAt(pr.range.start), message: pr.message })),
    summary,
    // The status tooltip's window lines, each section's (families/<id>/config.ts `tooltip`): the windows every other
    // is read from (negative order: the StarlingX release, the Kubernetes window) always, then the families' set ones.
    baseWindows: CONFIG_SECTIONS.filter((c) => c.order < 0).flatMap((c) => { const t = c.tooltip?.(config); return t ? [t] : []; }),
    windows: CONFIG_SECTIONS.filter((c) => c.order >= 0).flatMap((c) => { const t = c.tooltip?.(config); return t ? [t] : []; }),
    readBy,
    settingsProblems: normalizeSettings((p.uri && docSettings.get(p.uri)) || settings, ruleIds).problems,
    unsavedConfig: p.uri ? ws.unsavedSaid(file) : undefined,
    ...(p.uri ? fileStatus(r?.result.family, r ? factsSafe(p.uri, r.result) : undefined, config, ignoredFile(ws, file, config), ws.rootFor(file)) : {}),
  };
}

/** How a file not open would be read (--print-config <file>): classified as analyze() does, no rule run. */
function readAsOnDisk(file: string, config: Resolved): AnalyzeResult['readAs'] | { family: null; by: 'none'; why: string } {
  const text = files.read(file);
  if (text === undefined) return { family: null, by: 'none', why: `not read: ${files.unreadable(file) ?? 'no such file'}` };
  return readAsOf({ path: file, text, config, root: ws.rootFor(file), files });
}

function factsSafe(uri: string, r: AnalyzeResult): Record<string, unknown> | undefined {
  try {
    injectFault(FAULTS, 'facts');
    return factsOf(r);
  } catch (e) {
    reportFailure(uri, 'facts', e);
    return undefined;
  }
}
