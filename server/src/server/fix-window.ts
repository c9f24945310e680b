// Fix-all (lsp-lint --fix, the editor's Fix all, Fix all in workspace) applies no fix that removes or rewrites a key
// unless the window the finding was judged against was chosen: on the command line, in .skewguard.yaml, in the
// settings or by the workspace's facts (a localhost.yml, kata-deploy's tag). Under a default window (the newest Kata
// release, the newest StarlingX) a key that the releases the user really runs still read would be deleted. Such a fix
// stays a quick fix the user may pick; fix-all leaves it and says why, at the finding.
import type { AnalyzeResult } from '../engine/analyze';
import type { TextEdit } from '../engine/types';
import { stepAxisOf } from '../engine/window-verdict';
import { CONFIG_SECTIONS } from '../engine/config';

/** Why fix-all leaves a result's key-changing fixes alone ("the Kata window is the default 4.1; set kata.window"); undefined: it applies them. */
export function defaultWindowReason(result: AnalyzeResult): string | undefined {
  const src = result.windowSource;
  const steps = result.windowSteps;
  if (!src || src.kind !== 'default' || !steps?.length) return undefined;
  const w = steps.length > 1 ? `${steps[0]}..${steps[steps.length - 1]}` : steps[0];
  const axis = stepAxisOf(result)?.name;
  // A family's own window says what to set (its config section, families/<id>/config.ts).
  const own = CONFIG_SECTIONS.find((c) => c.heldBack?.stepsName === axis)?.heldBack;
  if (own) return own.text(w);
  if (result.config && src === result.config.starlingx.source) return `the StarlingX release is the default ${w}; set starlingx.release`;
  return `the Kubernetes window is the default ${w}; set kubernetes.window or starlingx.release`;
}

/** A key at the start of a line: YAML `key:` (after a list dash), TOML `key =` or `[table]`, JSON `"key":`. */
const KEY_AT_LINE_START = /^[ \t]*(?:-[ \t]+)?(?:\[|(?:"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^\s#"'\-][^\n:=]*?|-[^\s\n:=][^\n:=]*?)[ \t]*(?::(?:[ \t]|$)|=))/;

/**
 * Whether an edit removes or rewrites a key of `text`: its replaced text holds a line that starts with a key, or it
 * replaces a key token itself (what follows it is `:` or `=`). An insertion (an empty range) never does; neither does
 * a change of a value alone.
 */
export function editTouchesKey(text: string, start: number, end: number): boolean {
  if (end <= start) return false;
  const after = text.slice(end, end + 8);
  if (/^["']?[ \t]*(?::(?:[ \t\r\n]|$)|=)/.test(after)) return true;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const removed = text.slice(start, end);
  const lines = removed.split(/\r?\n|\r/);
  // The first line is at a line start only when nothing but indentation (or a list dash) comes before it.
  const firstAtStart = /^[ \t]*(?:-[ \t]+)?$/.test(text.slice(lineStart, start));
  return lines.some((l, i) => (i > 0 || firstAtStart) && KEY_AT_LINE_START.test(i === 0 ? text.slice(lineStart, start) + l : l));
}

/** Whether a fix's edits remove or rewrite a key (offsets by `offsetAt`). */
export function fixTouchesKey(text: string, edits: TextEdit[], offsetAt: (p: TextEdit['range']['start']) => number): boolean {
  return edits.some((e) => editTouchesKey(text, offsetAt(e.range.start), offsetAt(e.range.end)));
}
