// The one failure path's first half: an exception anywhere in the handling of a document is logged (with its stack)
// and becomes a skewguard/internal-error diagnostic of that document (publishing.ts reportFailure says it).
import type { Diagnostic } from '../engine/types';
import { docsUrl } from '../engine/rules';
import { internalError, describeFailure } from '../engine/rules/general';
import { connection } from './session';

/**
 * The one failure path: an exception anywhere in the handling of a document is logged (with its stack) and becomes
 * a skewguard/internal-error diagnostic of that document, naming the stage, so a file is never reported clean.
 */
export function internalDiagnostic(stage: string, e: unknown, data?: Record<string, unknown>): Diagnostic {
  return {
    ruleId: internalError.id, severity: 'error', message: describeFailure(stage, e),
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, docsUrl: docsUrl(internalError.id),
    data: { stage, ...data },
  };
}

export function logFailure(stage: string, uri: string, e: unknown): void {
  try {
    connection.console.error(`skewguard: internal error in stage ${stage} for ${uri}: ${(e as Error)?.stack ?? String(e)}`);
  } catch { /* the log itself failed: the diagnostic still says it */ }
}
