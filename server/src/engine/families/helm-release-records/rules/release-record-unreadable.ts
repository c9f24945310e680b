import type { Rule } from '../../../rules/types';
import type { ReleaseRecordsContext } from '../index';
import { releaseText, subjectOf } from '../index';

export const rule: Rule<ReleaseRecordsContext> = {
  id: 'helm/release-record-unreadable',
  family: 'helm-release-records',
  defaultSeverity: 'warning',
  title: 'A Helm release record that is not read, so its release is not checked',
  what: 'Reports, at the record\'s `metadata.name`, a Helm release record whose `release` cannot be decoded: not base64, gzip data that is broken or unpacks to more than 20 MiB (a gzip bomb is refused, not followed) or past the 100 MiB all the records of one file may unpack to, not JSON, no `manifest`; a document of the stored manifest that YAML cannot read; and, as information, an object of the file that is no release record (not checked in a file of records). '
    + 'In the web extension, which does not unpack gzip, each gzipped record is said as not checked there.',
  why: 'Never a silent pass: a record that is not read is a release whose stored APIs are not checked, so the file cannot be called clean. lsp-lint exits 2 for it unless `--allow-unchecked`.',
  bad: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v7\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: deployed\n    version: \"7\"\ndata:\n  release: not-base64!\n", options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v8\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: deployed\n    version: \"8\"\ndata:\n  release: SDRzSUFBQUFBQUFDQTAyUHpXckRNQkNFWDBWc3IvNnBjeXE2dGZRQkFvV2VkRmxabTNhcHRCTFcybUNDMzcwb2FTRzNZWVladnJtQ1lDS3dFRHgwd0hMSllLOVFGWFd0emFVUzgwNEJqZzdtYjF5MHBZa1VBeW8yL2RqZWFLbWNCU3hNdzJsNGh1UG9JS0h3aGFxQ2hiN3ZuVHlaajd3dU0xa1QvS2lVU2tTbE9wYmdoeDFUZElLRlArODcxcFFjZWQ3SGJYTHl3eEtzT2Vmd3puVlppM0tXdHpWOGtUcjV4N0ZPakdrOGJic3Z3VHVwaGVhYm5WaGVOK1NJUHBJMWs1TkgzSmZ1ZHFNV25QKytITDlkQU82SUZ3RUFBQT09\n", options: 'Kubernetes 1.24..1.25' },
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
    if (!ctx.records.length && !ctx.others.length && !ctx.file.errors.length) {
      // Read as records (files:, a modeline) but holding none: said, never a clean pass.
      report({ message: 'no Helm release record in this file (a Secret of type helm.sh/release.v1, or an object labelled owner=helm with data.release): nothing in it is checked', range: { start: 0, end: 0 }, severity: 'info', data: { notChecked: true } });
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
