import type { Rule } from '../../../rules/types';
import type { ReleaseRecordsContext } from '../index';
import { releaseText, subjectOf } from '../index';

export const rule: Rule<ReleaseRecordsContext> = {
  id: 'helm/release-record-unreadable',
  family: 'helm-release-records',
  defaultSeverity: 'warning',
  title: 'A Helm release record that is not read, so its release is not checked',
  what: 'Reports, at the record\'s `metadata.name`, a Helm release record whose `release` cannot be decoded: not base64, gzip data that is broken or unpacks to more than 20 MiB (a gzip bomb is refused, not followed), not JSON, no `manifest`; a document of the stored manifest that YAML cannot read; and, as information, an object of the file that is no release record (not checked in a file of records). '
    + 'In the web extension, which does not unpack gzip, each gzipped record is said as not checked there.',
  why: 'Never a silent pass: a record that is not read is a release whose stored APIs are not checked, so the file cannot be called clean. lsp-lint exits 2 for it unless `--allow-unchecked`.',
  bad: { filename: 'helm-releases.yaml', text: '# a Secret of type helm.sh/release.v1 whose data.release is not base64\n', options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'helm-releases.yaml', text: '# the record as kubectl get secret … -o yaml prints it\n', options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['helm/helm pkg/storage/driver/util.go (decodeRelease: base64, gzip magic, JSON)'],
  check(ctx, report) {
    for (const r of ctx.records) {
      const base = { subject: subjectOf(r), release: r.name, namespace: r.namespace ?? null, record: r.objectName, notChecked: true };
      if (!r.decoded.ok) {
        report({
          message: `${releaseText(r)}: record ${r.objectName || '(no name)'} is not checked: ${r.decoded.why}`,
          range: r.range,
          severity: r.decoded.web ? 'info' : undefined,
          data: { ...base, why: r.decoded.why, ...(r.decoded.web ? { web: true } : {}) },
        });
        continue;
      }
      if (r.unread.length) {
        report({
          message: `${releaseText(r)}: ${r.unread.length === 1 ? 'a document' : `${r.unread.length} documents`} of its stored manifest ${r.unread.length === 1 ? 'is' : 'are'} not read, so ${r.unread.length === 1 ? 'its objects are' : 'their objects are'} not checked (${r.unread[0]}${r.unread.length > 1 ? '; …' : ''})`,
          range: r.range,
          data: { ...base, unread: r.unread },
        });
      }
    }
    for (const o of ctx.others) {
      report({
        message: `${o.what} is no Helm release record: in a file of release records it is not checked (keep manifests in files of their own)`,
        range: o.range,
        severity: 'info',
        data: { notChecked: true },
      });
    }
  },
};
