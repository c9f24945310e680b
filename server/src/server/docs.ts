// The rule pages shipped with the server (docs/rules/<rule-id>.md in the package and the .vsix): links to them work
// offline, and the hover on a rule id inside a suppression comment shows the page itself.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { packageRoot } from '../engine/data';
import { ruleIds } from '../engine/rules';
import { findSuppressions } from '../engine/suppress';
import { memoIn } from '../engine/memo';

/** The folder of the packaged rule pages. */
export const docsDir = () => path.join(packageRoot, 'docs', 'rules');

/** The packaged page of a rule, or undefined (an id with no page, a package without docs). */
export function docFile(ruleId: string): string | undefined {
  if (!ruleIds.has(ruleId)) return undefined;
  return memoIn(existing, ruleId, () => {
    const f = path.join(docsDir(), ...ruleId.split('/')) + '.md';
    return fs.existsSync(f) ? f : null;
  }) ?? undefined;
}
const existing = new Map<string, string | null>();

/**
 * The link of a finding's rule (`codeDescription.href`): the packaged page as a file URI when `local` (editors: no
 * network, no "open external website?" prompt), else the web address (lsp-lint's reports are read elsewhere).
 */
export function docHref(ruleId: string, webUrl: string, local: boolean): string {
  if (!local) return webUrl;
  const f = docFile(ruleId);
  // One string per page (the finding keeps it in its LSP form: 7,681 copies for the 12,000-document bundle).
  return f ? memoIn(hrefs, f, () => pathToFileURL(f).toString()) : webUrl;
}
const hrefs = new Map<string, string>();

/** A rule's page as Markdown (its text), or undefined. */
export function docMarkdown(ruleId: string): string | undefined {
  const f = docFile(ruleId);
  if (!f) return undefined;
  try { return fs.readFileSync(f, 'utf8'); } catch { return undefined; }
}

/**
 * The rule id under `offset` when it is inside a suppression comment (`# skewguard-disable-next-line a/b, c/d`), with
 * its offsets; undefined elsewhere.
 */
export function suppressionRuleAt(text: string, offset: number): { ruleId: string; start: number; end: number } | undefined {
  for (const s of findSuppressions(text)) {
    if (offset < s.range.start || offset > s.range.end) continue;
    const comment = text.slice(s.range.start, s.range.end);
    for (const m of comment.matchAll(/[A-Za-z0-9][\w.-]*\/[\w./-]+/g)) {
      const start = s.range.start + m.index!, end = start + m[0].length;
      if (offset >= start && offset <= end && s.ruleIds.includes(m[0])) return { ruleId: m[0], start, end };
    }
  }
  return undefined;
}
