import type { Rule } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { findRow } from '../data/lifecycle';
import { what, moveTo, range } from './common';

/**
 * "Served only when enabled": an apiVersion kube-apiserver registers but disables by default (alpha, or beta added
 * from 1.24; data/kubernetes/api-lifecycle.json `offByDefault`) is neither served nor unserved at a step: a default
 * cluster does not serve it, one started with --runtime-config does. Said as a warning naming the steps.
 */
export const rule: Rule<KubernetesContext> = {
  id: 'k8s/api-off-by-default',
  family: 'kubernetes',
  defaultSeverity: 'warning',
  title: 'API served only when enabled',
  what: 'Reports a manifest whose apiVersion kube-apiserver registers but disables by default at the steps of the window that '
    + 'have it: alpha versions always, beta versions added from 1.24 on (KEP-3136), e.g. `resource.k8s.io/v1beta1` (1.32+), '
    + '`storage.k8s.io/v1beta1` VolumeAttributesClass, `networking.k8s.io/v1beta1` IPAddress and ServiceCIDR, '
    + '`admissionregistration.k8s.io/v1beta1` ValidatingAdmissionPolicy. It says at which steps it is served only when that '
    + 'group/version is enabled (`--runtime-config`), and offers the apiVersion a default cluster serves at every step, '
    + 'when there is one. Those steps are neither "served" nor "not served" for the other rules, and Helm\'s '
    + '`.Capabilities.APIVersions` of a step leaves the apiVersion out, as a default cluster\'s discovery does.',
  why: 'A manifest written against a cluster where someone enabled a beta API fails on every other cluster of the same version, '
    + 'and after an upgrade that replaces the control plane with default flags: the API is simply not there.',
  bad: { filename: 'servicecidr.yaml', text: 'apiVersion: networking.k8s.io/v1beta1\nkind: ServiceCIDR\nmetadata:\n  name: extra\nspec:\n  cidrs:\n    - 10.96.100.0/24\n', options: 'Kubernetes 1.33..1.34' },
  good: { filename: 'servicecidr.yaml', text: 'apiVersion: networking.k8s.io/v1\nkind: ServiceCIDR\nmetadata:\n  name: extra\nspec:\n  cidrs:\n    - 10.96.100.0/24\n', options: 'Kubernetes 1.33..1.34' },
  fix: 'partial',
  sources: [
    'kubernetes/kubernetes pkg/controlplane/instance.go DefaultAPIResourceConfigSource (alphaAPIGroupVersionsDisabledByDefault, betaAPIGroupVersionsDisabledByDefault, legacyBetaEnabledByDefaultResources) and instance_test.go TestNoBetaVersionsEnabledByDefault',
    'KEP-3136: beta APIs off by default (1.24)',
    'data/kubernetes/api-lifecycle.json (offByDefault)',
  ],
  check(ctx, report) {
    for (const o of ctx.objects) {
      const row = ctx.row(o);
      if (!row?.offByDefault) continue;
      const served = ctx.steps(row).filter((s) => s.served).map((s) => s.minor);
      if (!served.length) continue; // not served at all: the removed / not-yet-served rules
      const onByDefault = ctx.common(o.kind).filter((a) => a !== o.apiVersion && !findRow(ctx.rows, a, o.kind)?.offByDefault);
      const best = onByDefault[0];
      const advice = best ? `; ${best} is served by default at every step of the window` : '; no apiVersion of the kind is served by default at every step of the window';
      report({
        message: `${what(o)} is served at ${range(served)} only when ${o.apiVersion} is enabled (${row.offByDefault.enable}): ${row.offByDefault.why}${advice}`,
        range: o.apiVersionRange,
        fixes: best ? () => [moveTo(ctx, o, best)] : [],
        data: { servedOnlyWhenEnabledAt: served, enable: row.offByDefault.enable, replacement: best ?? null },
      });
    }
  },
};
