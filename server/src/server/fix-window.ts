// Fix-all (lsp-lint --fix, the editor's Fix all, Fix all in workspace) applies no fix that removes or rewrites a key
// unless the window the finding was judged against was chosen: on the command line, in .skewguard.yaml, in the
// settings or by the workspace's facts (a localhost.yml, kata-deploy's tag). Under a default window (the newest Kata
// release, the newest StarlingX) a key that the releases the user really runs still read would be deleted. Such a fix
// stays a quick fix the user may pick; fix-all leaves it and says why, at the finding. Which fixes remove or rewrite a
// key is declared by the rules that build them (Fix.destructive).
import type { AnalyzeResult } from '../engine/analyze';
import type { Fix } from '../engine/types';
import { stepAxisOf } from '../engine/window-verdict';
import { CONFIG_SECTIONS } from '../engine/config';
import { windowText } from '../engine/window-text';

/** Why fix-all leaves a result's key-changing fixes alone ("the Kata window is the default 4.1; set kata.window"); undefined: it applies them. */
export function defaultWindowReason(result: AnalyzeResult): string | undefined {
  const src = result.windowSource;
  const steps = result.windowSteps;
  if (!src || src.kind !== 'default' || !steps?.length) return undefined;
  const w = windowText(steps);
  const axis = stepAxisOf(result)?.name;
  // A family's own window says what to set (its config section, families/<id>/config.ts).
  const own = (axis !== undefined ? CONFIG_SECTIONS.find((c) => c.heldBack?.stepsName === axis)?.heldBack : undefined)
    ?? (result.config ? CONFIG_SECTIONS.find((c) => c.heldBack?.source && c.heldBack.source(result.config!) === src)?.heldBack : undefined)
    ?? CONFIG_SECTIONS.find((c) => c.heldBack?.otherwise)?.heldBack;
  return own?.text(w);
}

/**
 * Whether fix-all holds a fix back under a default window: it removes or rewrites a key, as the rule that built it
 * declares (Fix.destructive, from the YamlEditor's record of what it did). A fix that does not say is held: nothing
 * destructive under a window nobody chose. (This was a guess from the edits' text, which missed a key deleted from a
 * one-line JSON object or a flow mapping, and a TOML key renamed by an insertion.)
 */
export function fixTouchesKey(fix: Pick<Fix, 'destructive'>): boolean {
  return fix.destructive !== false;
}
