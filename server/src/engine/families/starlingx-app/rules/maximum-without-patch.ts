import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { K8S_VERSION_FORMAT, stripV } from '../index';

export const rule: Rule<AppContext> = {
  id: 'stx-app/maximum-without-patch',
  family: 'starlingx-app',
  defaultSeverity: 'warning',
  title: 'supported_k8s_version.maximum without a patch version',
  what: 'Reports `maximum: v1.29` (major.minor only). sysinv reads major.minor as major.minor.0 (its own message: "v1.27 is equal to '
    + 'v1.27.0"), so the app does not support 1.29.1 or any later 1.29 patch, although the value reads as "all of 1.29".',
  why: 'A StarlingX release ships patch versions (1.29.2, 1.30.6 …): an app with maximum v1.29 blocks the upgrade to 1.29.2 and is '
    + 'not applied on it. Write the last patch you support, e.g. v1.29.2.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.32.2\n  maximum: v1.34\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.32.2\n  maximum: v1.34.1\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/app_metadata.py check_k8s_version_format and format_k8s_version, sysinv/common/kubernetes.py is_kube_version_supported (data/starlingx/app-metadata.json, supported_k8s_version.maximum note)'],
  check(ctx, report) {
    const s = ctx.value.supported_k8s_version as Record<string, unknown> | undefined;
    const v = s && typeof s === 'object' && !Array.isArray(s) ? s.maximum : undefined;
    if (typeof v !== 'string' || !K8S_VERSION_FORMAT.test(stripV(v)) || !/^\d+\.\d+$/.test(stripV(v))) return;
    const minor = stripV(v);
    report({
      message: `maximum ${v} has no patch version: sysinv reads it as ${minor}.0 ("v1.27 is equal to v1.27.0"), so the app does not support ${minor}.1 or any later ${minor} patch; write the last patch the app supports, e.g. v${minor}.N`,
      range: ctx.doc.locate(['supported_k8s_version', 'maximum']).value,
      data: { maximum: v },
    });
  },
};
