import type { Rule } from '../../../rules/types';
import type { AppContext } from '../index';
import { releasesText } from '../index';
import { appMetadata } from '../data';
import { sourceIn } from './common';

export const rule: Rule<AppContext> = {
  id: 'stx-app/missing-key',
  family: 'starlingx-app',
  defaultSeverity: 'error',
  title: 'metadata.yaml key that sysinv requires is missing',
  what: 'Reports a key the sysinv validator of a release on the path requires: app_name and app_version (every release), '
    + 'supported_k8s_version and its minimum (10.0+: "Kubernetes supported versions not specified on application metadata file"), '
    + 'and `k8s_upgrades.timing` with `auto_update` (9.0+: each needs the other).',
  why: '`system application-upload` refuses the tarball on those releases; from 10.0 a bundle without a minimum is also skipped when '
    + 'sysinv looks for a bundle to auto-update to.',
  bad: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\n', options: 'StarlingX 12.0' },
  good: { filename: 'metadata.yaml', text: 'app_name: metrics-server\napp_version: 1.0-1\nsupported_k8s_version:\n  minimum: v1.32.2\n', options: 'StarlingX 12.0' },
  fix: 'none',
  sources: ['starlingx/config sysinv/common/app_metadata.py validate_metadata_file at the release tags (data/starlingx/app-metadata.json)'],
  check(ctx, report) {
    const isMap = (v: unknown) => !!v && typeof v === 'object' && !Array.isArray(v);
    for (const spec of appMetadata().keys) {
      const req = ctx.releases.filter((r) => spec.releases[r]?.required);
      if (!req.length) continue;
      const parent = spec.path.slice(0, -1).join('.');
      if (parent) {
        const p = ctx.entry(parent);
        if (!p || !isMap(p.value)) continue; // the parent is missing (reported for it) or not a mapping (invalid-type)
      }
      const e = ctx.entry(spec.key);
      if (e && e.value !== null && e.value !== undefined) continue;
      report({
        message: `${e ? `${spec.key} is empty` : `no ${spec.key}`}: sysinv ${releasesText(req)} require${req.length === 1 ? 's' : ''} it and reject${req.length === 1 ? 's' : ''} the upload (${sourceIn(spec, req)})`,
        range: e ? e.keyRange : parent ? ctx.entry(parent)!.keyRange : ctx.topRange,
        data: { key: spec.key, releases: req },
      });
    }
    // k8s_upgrades.auto_update and .timing: either both or neither (9.0+).
    for (const spec of appMetadata().keys) {
      const other = spec.check.pairedWith;
      if (!other) continue;
      const e = ctx.entry(spec.key);
      if (!e || ctx.entry(other)) continue;
      const rels = ctx.releases.filter((r) => spec.releases[r]);
      if (!rels.length) continue;
      report({
        message: `${spec.key} without ${other}: sysinv ${releasesText(rels)} require${rels.length === 1 ? 's' : ''} both or neither and reject${rels.length === 1 ? 's' : ''} the upload (${sourceIn(spec, rels)})`,
        range: e.keyRange,
        data: { key: other, releases: rels },
      });
    }
  },
};
