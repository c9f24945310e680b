// The hover of an operator custom resource's apiVersion (issue #31 item 6): its operator's release timeline for that
// group/version/kind (served, deprecated, served only by the optional CRD set, listed but not served, gone), the window
// and where it came from, and the source of the data.
import type { KubernetesContext, ManifestObject } from './index';
import { operatorObjects } from './operators';
import { releaseStatus, type ReleaseStatus } from '../../components/operator-data';

const said = (s: ReleaseStatus): string => (!s.crd ? 'no such CRD' : !s.present ? 'not listed in the CRD' : !s.served ? 'listed, served: false'
  : s.altOnly ? 'served by the optional CRD set only' : s.deprecated ? 'served, deprecated' : 'served');

export function operatorHover(ctx: KubernetesContext, o: ManifestObject): string | undefined {
  const x = operatorObjects(ctx).find((y) => y.o === o);
  if (!x) return undefined;
  const steps = new Set(x.window?.steps ?? []);
  const rows: Array<{ from: string; to: string; what: string; inWindow: string[] }> = [];
  for (const r of x.data.releases) {
    const s = releaseStatus(x.data, x.crdKey, x.version, r.id);
    const what = `${said(s)}${r.prerelease ? ' (not a release)' : ''}`;
    const last = rows[rows.length - 1];
    if (last && last.what === what) { last.to = r.id; if (steps.has(r.id)) last.inWindow.push(r.id); } else rows.push({ from: r.id, to: r.id, what, inWindow: steps.has(r.id) ? [r.id] : [] });
  }
  const out = [`**${x.operator}** \`${o.apiVersion}\` ${o.kind}`, ''];
  // The verdict for the window right after the title (hovers for people: test/hover-people.test.mjs).
  if (x.window) {
    const bad = x.steps.filter((s) => !s.served), dep = x.steps.filter((s) => s.served && s.deprecated), alt = x.steps.filter((s) => s.served && s.altOnly);
    const parts = [
      bad.length ? `✗ not served at ${bad.map((s) => s.release).join(', ')}` : '',
      dep.length ? `⚠ deprecated at ${dep.map((s) => s.release).join(', ')}` : '',
      alt.length ? `⚠ served only by the optional CRD set at ${alt.map((s) => s.release).join(', ')}` : '',
    ].filter(Boolean);
    out.push(`Window ${x.window.text} (${x.window.source.kind}: ${x.window.source.detail}): ${parts.length ? parts.join('; ') : `✓ served at every release`}.`, '');
  } else {
    out.push(`No ${x.operator} version is known, so this is not checked: set \`kubernetes.components.${x.operator}\` (a release or a window "A..B") or \`--component-versions ${x.operator}=…\`.`, '');
  }
  out.push(`${x.operator} releases:`, '');
  for (const r of rows) out.push(`- ${r.from === r.to ? r.from : `${r.from}..${r.to}`}: ${r.what}${r.inWindow.length ? ` (window: ${r.inWindow.join(', ')})` : ''}`);
  // A release read at its latest patch whose x.y.0 differs (the reference's first-patch checks): said for the window's.
  for (const r of x.data.releases) {
    if (!steps.has(r.id) || !r.firstPatch) continue;
    const mine = r.firstPatch.differences.filter((d) => d.startsWith(`${o.apiVersion} ${o.kind}:`));
    out.push('', `${x.operator} ${r.id} is read at ${r.tag}; ${r.firstPatch.tag} differs${mine.length ? ` for this resource: ${mine.map((d) => d.slice(o.apiVersion.length + o.kind.length + 3)).join('; ')}` : ` in ${r.firstPatch.differences.length} other CRD version(s)`}.`);
  }
  const warn = x.steps.find((s) => s.warning)?.warning;
  if (warn) out.push('', `deprecationWarning: "${warn}"`);
  out.push('', `Source: ${x.data.crds[x.crdKey]?.source ?? x.data.repo}.`);
  return out.join('\n');
}
