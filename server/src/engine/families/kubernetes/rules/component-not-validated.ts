import type { Rule } from '../../../rules/types';
import type { KubernetesContext, ContainerImage } from '../index';
import { versionRow, standingAt, componentsData, type Component, type ComponentVersion } from '../data/components';
import { compareVersions } from '../../../versions';
import { range } from './common';

export const rule: Rule<KubernetesContext> = {
  id: 'k8s/component-not-validated',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'Component image not validated for some Kubernetes version in the window',
  what: 'Reports a container image of a networking component (Calico, and the others where upstream publishes a matrix) '
    + 'whose version upstream does not validate or document for some Kubernetes version of the window — an error where '
    + 'upstream documents an incompatibility — with a fix to a tag validated across the whole window, or, when none is, '
    + 'the step at which the component must change.',
  why: 'A CNI that is not validated for the version the control plane just moved to fails in ways that look like '
    + 'network outages. StarlingX changes Calico, Multus and the SR-IOV device plugin together with Kubernetes for this '
    + 'reason (6.0: Calico 3.12 on 1.18, 3.19.1 from 1.19).',
  bad: { filename: 'calico-node.yaml', text: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: calico-node\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: calico-node\n  template:\n    metadata:\n      labels:\n        k8s-app: calico-node\n    spec:\n      containers:\n        - name: calico-node\n          image: docker.io/calico/node:v3.12.0\n', options: 'Kubernetes 1.19..1.21' },
  good: { filename: 'calico-node.yaml', text: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: calico-node\n  namespace: kube-system\nspec:\n  selector:\n    matchLabels:\n      k8s-app: calico-node\n  template:\n    metadata:\n      labels:\n        k8s-app: calico-node\n    spec:\n      containers:\n        - name: calico-node\n          image: docker.io/calico/node:v3.19.1\n', options: 'Kubernetes 1.19..1.21' },
  fix: 'suggestion',
  sources: ['data/kubernetes/components.json (Calico requirements pages per release; StarlingX system-images.yml per Kubernetes version)'],
  check(ctx, report) {
    for (const img of ctx.images()) {
      const c = img.component;
      if (!c || c.versionIsKubernetes || !img.ref.tag || !c.versions.length || c.upstreamMatrix === 'none') continue;
      const row = versionRow(c, img.ref.tag);
      if (!row) continue;
      const standing = ctx.minors.map((m) => ({ minor: m, s: standingAt(row, m) }));
      const bad = standing.filter((x) => x.s === 'unlisted' || x.s === 'incompatible');
      if (!bad.length) continue;
      const incompatible = bad.filter((x) => x.s === 'incompatible').map((x) => x.minor);
      const ok = (v: ComponentVersion) => ctx.minors.every((m) => ['validated', 'documented'].includes(standingAt(v, m)));
      const candidates = c.versions.filter(ok).sort((a, b) => compareVersions(a.version, b.version));
      const target = candidates.find((v) => compareVersions(v.version, row.version) > 0) ?? candidates[candidates.length - 1];
      const listed = [...row.kubernetes.validated, ...row.kubernetes.documented];
      let advice: string;
      const fixes = [];
      if (target) {
        const tag = tagFor(c, target, img.ref.tag);
        advice = `${c.name} ${target.version} is validated for every version of the window${tag ? ` (e.g. ${tag})` : ''}`;
        // A digest pins the old image whatever the tag says: the fix replaces tag and digest together.
        if (tag) fixes.push({ title: `Use ${c.name} ${tag}${img.ref.digest ? ` (drops the digest of ${img.ref.tag})` : ''}`, edits: [{ range: tagRange(img), newText: tag }], destructive: false });
      } else {
        advice = splitAdvice(ctx.minors, c, row, ctx.starlingxRelease);
      }
      report({
        message: `${c.name} ${img.ref.tag} is ${incompatible.length ? `incompatible with Kubernetes ${range(incompatible)}` : `not validated for Kubernetes ${bad.map((x) => x.minor).join(', ')}`} `
          + `(upstream lists it for ${listed.length ? range(listed) : 'no Kubernetes version'}; window ${ctx.windowText}); ${advice}`,
        range: img.range,
        severity: incompatible.length ? 'error' : undefined,
        fixes,
        data: { component: c.id, version: row.version, notValidatedFor: bad.map((x) => x.minor), incompatibleWith: incompatible, target: target?.version ?? null },
      });
    }
  },
};

/** Where the tag (and the digest after it, if any) sits inside the image reference. */
function tagRange(img: ContainerImage) {
  const src = img.text;
  const at = src.indexOf('@');
  const body = at >= 0 ? src.slice(0, at) : src;
  const colon = body.lastIndexOf(':');
  const quote = img.range.end - img.range.start > src.length ? 1 : 0;
  const start = img.range.start + quote + colon + 1;
  return { start, end: start + (at >= 0 ? src.length - colon - 1 : img.ref.tag?.length ?? 0) };
}

/** A concrete tag for a version row: one StarlingX ships, else the release tag upstream cites, in the file's style. */
function tagFor(c: Component, v: ComponentVersion, current: string): string | undefined {
  const shipped = componentsData().starlingx.networking.map((n) => n.components[c.id]).filter((x) => x && new RegExp(v.match).test(x));
  const cited = v.evidence.map((e) => e.source?.tag).filter((t): t is string => !!t && new RegExp(v.match).test(t));
  const tag = shipped.sort(compareVersions).pop() ?? cited.sort(compareVersions).pop();
  if (!tag) return undefined;
  const plain = tag.replace(/^v/, '');
  return current.startsWith('v') ? `v${plain}` : plain;
}

/**
 * No version covers the window: a plan of the fewest changes, keeping the file's own version wherever it is
 * validated, naming the step at which the component must change (as StarlingX does at 1.19).
 */
function splitAdvice(minors: string[], c: Component, row: ComponentVersion, release?: string): string {
  const ok = (v: ComponentVersion, m: string) => ['validated', 'documented'].includes(standingAt(v, m));
  // Fewest changes first; among those, the plan that keeps the file's own version for the most steps (so a
  // version validated for the later steps is not swapped out and back); then the longest first stretch; then
  // the version nearest to the file's.
  type Plan = { segs: Array<{ v: ComponentVersion; from: number; to: number }>; kept: number };
  const dist = (v: ComponentVersion) => Math.abs(c.versions.indexOf(v) - c.versions.indexOf(row));
  const order = [...c.versions].sort((a, b) => dist(a) - dist(b) || c.versions.indexOf(a) - c.versions.indexOf(b));
  const memo = new Map<number, Plan>();
  const best = (i: number): Plan => {
    if (i >= minors.length) return { segs: [], kept: 0 };
    const hit = memo.get(i);
    if (hit) return hit;
    let out: Plan | undefined;
    for (const v of order) {
      for (let n = 1; i + n <= minors.length && ok(v, minors[i + n - 1]); n++) {
        const rest = best(i + n);
        const cand: Plan = { segs: [{ v, from: i, to: i + n - 1 }, ...rest.segs], kept: rest.kept + (v === row ? n : 0) };
        const outLen = out ? out.segs[0].to - out.segs[0].from + 1 : 0;
        if (!out || cand.segs.length < out.segs.length
          || (cand.segs.length === out.segs.length && (cand.kept > out.kept || (cand.kept === out.kept && n > outLen)))) out = cand;
      }
    }
    out ??= best(i + 1); // nothing is validated for minors[i]
    memo.set(i, out);
    return out;
  };
  const plan = best(0).segs.map((p) => ({ v: p.v, from: minors[p.from], to: minors[p.to] }));
  const covered = new Set(plan.flatMap((p) => minors.slice(minors.indexOf(p.from), minors.indexOf(p.to) + 1)));
  const uncovered = minors.filter((m) => !covered.has(m));
  const steps = plan.map((p, k) => `${c.name} ${p.v.version} for ${p.from === p.to ? p.from : `${p.from}..${p.to}`}${k ? ` (change it at the step to ${p.from})` : ''}`);
  const stx = componentsData().starlingx.networking.filter((n) => n.release === release && minors.includes(n.kubernetesMinor) && n.components[c.id]);
  const stxNote = stx.length ? `; StarlingX ${release} ships ${stx.map((n) => `${n.components[c.id]} on ${n.kubernetesMinor}`).join(', ')}` : '';
  return `no ${c.name} version is validated for the whole window`
    + (steps.length ? `: ${steps.join(', then ')}` : '')
    + (uncovered.length ? `; none is validated for ${uncovered.join(', ')}` : '')
    + stxNote;
}
