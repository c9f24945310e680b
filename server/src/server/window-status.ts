// What the status item shows for the active file: the window that file is checked against, from its family's facts
// (a Kata configuration shows its Kata window, a manifest its Kubernetes window, a localhost.yml its release and
// Kubernetes path), or nothing for a file skewguard does not check; an ignored file says so.
import { CONFIG_SECTIONS, type ResolvedConfig } from '../engine/config';
import { mark } from '../engine/config-core';
import { describeIgnored } from './ignore';
import type { IgnoreVerdict } from '../engine/ignore';

export interface FileStatus {
  /** The file's window in a few words, e.g. "Kata 3.1.0..3.32.0 (go)"; absent: the file is not checked. */
  fileWindow?: string;
  /** Why the file is not checked (an ignore: list). */
  ignored?: string;
}

export { mark };

export function fileStatus(family: string | null | undefined, facts: Record<string, unknown> | undefined, config: ResolvedConfig, ignored: IgnoreVerdict | undefined, root: string | undefined): FileStatus {
  if (ignored) return { ignored: describeIgnored(ignored, root) };
  if (!family) return {};
  const f = facts ?? {};
  const parts: string[] = [];
  // Each family's window, in its section's words (families/<id>/config.ts), from the facts its family gives.
  for (const c of CONFIG_SECTIONS) {
    const s = c.status?.(f, config, parts);
    for (const x of Array.isArray(s) ? s : s ? [s] : []) parts.push(x);
  }
  // A family whose facts name no window: the window every family's checks start from (a section's statusOtherwise).
  if (!parts.length) {
    const otherwise = CONFIG_SECTIONS.find((c) => c.statusOtherwise)?.statusOtherwise?.(config);
    if (otherwise !== undefined) parts.push(otherwise);
  }
  return { fileWindow: parts.join(' · ') };
}
