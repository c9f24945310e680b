import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { looseVersionCompare, looseVersionParts, K8S_VERSION_FORMAT, listText, stripV, boundVersion } from '../index';
import { appMetadata } from '../data';
import { windowText } from '../../../window-text';

const isMap = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** What sysinv of the window's release does when an upgrade step leaves the app's range (data enforcement). */
function atUpgrade(ctx: AppContext, target: string): string {
  const en = ctx.enforcementAt(target);
  if (!en) return '';
  const { release, e } = en;
  const k = e.kubeUpgradeStart;
  const src = k.source.replace(/^starlingx\/config /, '').split(' ; ')[0];
  const own = ctx.value.k8s_upgrades;
  const ownText = isMap(own)
    ? `this bundle has k8s_upgrades auto_update ${String(own.auto_update ?? '(not set)')}, timing ${String(own.timing ?? '(not set)')}`
    : 'this bundle has no k8s_upgrades (sysinv reads it as auto_update true, timing post)';
  if (!k.autoUpdates) return `sysinv ${release} rejects system kube-upgrade-start to ${target}: "The installed Application … is incompatible with the new Kubernetes version ${target}." — it does not update applications automatically (${src})`;
  if (!k.blocksAtApi) return `sysinv ${release} starts the upgrade, auto-updates applications to an uploaded bundle with k8s_upgrades timing pre that supports ${target}, and otherwise the upgrade fails in state upgrade-starting-failed; bundles with timing post are applied after kube-upgrade-complete; ${ownText} (${src})`;
  return `sysinv ${release} rejects system kube-upgrade-start to ${target} ("The following apps are incompatible with intermediate/target Kubernetes versions …") unless an uploaded bundle of the app with k8s_upgrades auto_update true supports it: timing pre (updated before the control plane: it must support the current, intermediate and target versions) or post (updated after kube-upgrade-complete: it must support the target); ${ownText} (${src})`;
}

export const rule: Rule<AppContext> = {
  id: 'stx-app/kubernetes-outside-supported',
  family: 'starlingx-app',
  defaultSeverity: 'error',
  title: 'Kubernetes version of the window outside the app\'s supported_k8s_version',
  what: 'Checks `supported_k8s_version: {minimum, maximum}` of an application\'s metadata.yaml against every Kubernetes version of the '
    + 'window (from a StarlingX release: its exact patch versions; with `starlingx.upgradeFrom`, every version the cluster runs '
    + 'along the platform upgrade path, e.g. 11.0\'s 1.32.2 and 1.33.0 kept into 12.0 before 1.34.1), comparing them as sysinv does (LooseVersion; `maximum: v1.29` '
    + 'is read as 1.29.0, below 1.29.2; in 8.0 and 9.0, which do not check the format, a bound such as `v1.29.2-rc1` or `v1.29.2.1` is '
    + 'compared component by component, numbers numerically, and one Python cannot order against a version is said as not checked). With a window of minors only, a minor that is partly inside the range is not reported. A version below the minimum or above the maximum is an error at that bound, naming the step and what '
    + 'sysinv of the release does there: application-apply is rejected at the start of the window, and an upgrade step blocks that '
    + 'Kubernetes upgrade (8.0 rejects kube-upgrade-start; 9.0 fails in upgrade-starting-failed; from 10.0 kube-upgrade-start is rejected '
    + 'unless another bundle of the app with `k8s_upgrades` auto_update and timing pre/post supports the target).',
  why: 'An application outside its range is the most common reason a StarlingX Kubernetes upgrade cannot start; finding it in the '
    + 'bundle before the maintenance window is the cheap time to widen the range or ship the bundle that sysinv will update to.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.32.2\n  maximum: v1.33.0\nk8s_upgrades:\n  auto_update: true\n  timing: pre\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.32.2\n  maximum: v1.34.1\nk8s_upgrades:\n  auto_update: true\n  timing: pre\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/kubernetes.py is_kube_version_supported, api/controllers/v1/kube_app.py, api/controllers/v1/kube_upgrade.py, conductor/manager.py at the release tags (data/starlingx/app-metadata.json enforcement)'],
  check(ctx, report) {
    const s = ctx.value.supported_k8s_version;
    // The window's release must be one the data has sysinv's behaviour for (stx-app/release-not-covered says so).
    const en = ctx.enforcement();
    if (!isMap(s) || !en) return;
    // A bound of another form than X.Y[.Z]: from 10.0 sysinv's format check rejects it (stx-app/invalid-value says so);
    // 8.0 and 9.0 have no format check and compare whatever is written with LooseVersion ("v1.29.2-rc1", "v1.29.2.1").
    const formatChecked = (k: 'minimum' | 'maximum') => appMetadata().keys.find((x) => x.key === `supported_k8s_version.${k}`)?.check.format?.includes(en.release) ?? true;
    const bound = (k: 'minimum' | 'maximum') => {
      const v = s[k];
      return typeof v === 'string' && (K8S_VERSION_FORMAT.test(stripV(v)) || !formatChecked(k)) ? v : undefined;
    };
    const min = bound('minimum'), max = bound('maximum');
    if (!min && !max) return;
    const versions = ctx.window.patches ?? ctx.window.minors;
    const exact = !!ctx.window.patches;
    // Versions Python cannot order against a bound (a number against a string: TypeError), per bound.
    const unordered: Record<'minimum' | 'maximum', string[]> = { minimum: [], maximum: [] };
    const cmp = (k: 'minimum' | 'maximum', v: string, b: string) => {
      const c = looseVersionCompare(v, b);
      if (c === undefined && !unordered[k].includes(v)) unordered[k].push(v);
      return c ?? 0;
    };
    // A minor-only window: a minor is outside when every patch of it is (below: X.Y.∞ < minimum; above: X.Y.0 > maximum).
    // Bounds as sysinv reads them (major.minor is major.minor.0). A minor alone (a window without patches) is below only
    // when all its patches are, above only when its .0 is: a minor that is partly inside is not reported (no guess).
    const below = (v: string) => min && cmp('minimum', exact ? v : `${v}.99999`, boundVersion(min)) < 0;
    const above = (v: string) => max && cmp('maximum', exact ? v : `${v}.0`, boundVersion(max)) > 0;
    const range = `${min ?? '(no minimum)'}..${max ?? '(no maximum)'}`;
    for (const k of ['minimum', 'maximum'] as const) {
      const outside = versions.filter((v) => (k === 'minimum' ? below(v) : above(v)));
      if (!outside.length) continue;
      const loc = ctx.doc.locate(['supported_k8s_version', k]);
      const first = outside[0];
      const i = versions.indexOf(first);
      const more = outside.length > 1 ? ` (also ${listText(outside.slice(1))})` : '';
      const note = k === 'maximum' && /^\d+\.\d+$/.test(stripV(max!)) ? `; ${max} is read as ${boundVersion(max!)}, so later ${stripV(max!)} patches are above it` : '';
      // On a platform upgrade path: the release that runs the version (StarlingX 11.0 runs 1.33.0 before 12.0 does).
      const on = ctx.kubeReleases?.get(first);
      const onText = on ? `, on StarlingX ${on} of the upgrade path ${ctx.pathText}` : '';
      const message = i === 0
        ? `Kubernetes ${first}, the start of the window ${ctx.window.minors.length > 1 ? windowText(versions) : first}${onText}, is ${k === 'minimum' ? 'below' : 'above'} this app's supported_k8s_version ${range}${more}: `
          + `application-apply is rejected ("The application … is incompatible with the current Kubernetes version ${first}")${note}`
        : `the Kubernetes upgrade ${versions[i - 1]} → ${first} (step ${i} of ${versions.length - 1} on the window ${versions[0]}..${versions[versions.length - 1]}${onText}) goes ${k === 'minimum' ? 'below' : 'above'} this app's supported_k8s_version ${range}${more}: ${atUpgrade(ctx, first)}${note}`;
      report({ message, range: loc.value, data: { bound: k, value: s[k], outside, window: versions, exact } });
    }
    for (const k of ['minimum', 'maximum'] as const) {
      if (!unordered[k].length) continue;
      const parts = (v: string) => `[${looseVersionParts(v).map((x) => JSON.stringify(x)).join(', ')}]`;
      report({
        message: `not checked: sysinv ${en.release} compares Kubernetes versions with this app's supported_k8s_version ${k} ${String(s[k])} as LooseVersion `
          + `components, ${parts(String(s[k]))} against ${parts(unordered[k][0])} (${listText(unordered[k])}), which Python cannot order (a number against a string raises TypeError); write X.Y.Z`,
        range: ctx.doc.locate(['supported_k8s_version', k]).value,
        severity: 'info',
        data: { bound: k, value: s[k], unordered: unordered[k], notChecked: true },
      });
    }
  },
};
