import type { Rule } from '../../../rules/types';
import type { ReleaseRecordsContext } from '../index';
import { blocked, recordFinding, releaseText, stepsText, storesText } from './common';

export const rule: Rule<ReleaseRecordsContext> = {
  id: 'helm/release-record-api',
  family: 'helm-release-records',
  defaultSeverity: 'error',
  title: 'A deployed Helm release stores an API that a step of the window does not serve',
  what: 'Reads each Helm release record (`kubectl get secrets -A -l owner=helm -o yaml` or `-o json`: Secrets of type `helm.sh/release.v1`, or ConfigMaps labelled `owner=helm`), decodes it (base64, base64 for a Secret, gzip, JSON) and checks the objects of the stored `manifest` of each release\'s deployed revision with the Kubernetes API lifecycle data at every step of the Kubernetes window. '
    + 'An object whose apiVersion/kind a step does not serve is reported at the record\'s `metadata.name`, naming the release, its revision, chart and namespace, the objects and the steps.',
  why: 'Helm keeps the rendered manifest of every release in its record. `helm upgrade` and `helm rollback` first build the objects of the deployed revision\'s manifest against the cluster; once the cluster no longer serves one of their API versions that fails ("unable to build kubernetes objects from current release manifest"), whatever the new chart says, until the record is rewritten (helm-mapkubeapis). The manifests in the repository may be fixed already: the record is what the cluster keeps.',
  bad: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v7\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: deployed\n    version: \"7\"\ndata:\n  release: SDRzSUFBQUFBQUFDQTAyUHpXckVNQXlFWDhXbzEvdzBleW40MXRJSFdDajA1SXNjYTF0Uld6YXhFZ2hMM3IxNHQ0VzlpUkV6ODgwVkJCT0JoZUNoQTVaTEJudUZxcWhyYlNxVm1IY0tjSFF3ZitPaTdadElNYUJpdXgvZEd5MlZzNENGYVRnTnozQWNIU1FVdmxCVnNORDN2Wk1uODVIWFpTWnJnaCtWVW9tb1ZNY1MvTEJqaWs2dzhPYzl4NXFTSTgvN3VFMmVGQ2NuUHl6Qm1uTU83MXlYdFNobmVWdkRGNm1UZnlicnhKZ0cxUXI2RXJ5VFdtaSt5WW5sZFVPTzZDTlpNemw1Wkg3cGJsdHF3Zmx2MFBFTDJBd3loeHdCQUFBPQ==\n", options: 'Kubernetes 1.24..1.25' },
  good: { filename: 'helm-release.yaml', text: "apiVersion: v1\nkind: Secret\ntype: helm.sh/release.v1\nmetadata:\n  name: sh.helm.release.v1.db.v8\n  namespace: db\n  labels:\n    name: db\n    owner: helm\n    status: deployed\n    version: \"8\"\ndata:\n  release: SDRzSUFBQUFBQUFDQTAyUHpXckRNQkNFWDBWc3IvNnBjeXE2dGZRQkFvV2VkRmxabTNhcHRCTFcybUNDMzcwb2FTRzNZWVladnJtQ1lDS3dFRHgwd0hMSllLOVFGWFd0emFVUzgwNEJqZzdtYjF5MHBZa1VBeW8yL2RqZWFLbWNCU3hNdzJsNGh1UG9JS0h3aGFxQ2hiN3ZuVHlaajd3dU0xa1QvS2lVU2tTbE9wYmdoeDFUZElLRlArODcxcFFjZWQ3SGJYTHl3eEtzT2Vmd3puVlppM0tXdHpWOGtUcjV4N0ZPakdrOGJic3Z3VHVwaGVhYm5WaGVOK1NJUHBJMWs1TkgzSmZ1ZHFNV25QKytITDlkQU82SUZ3RUFBQT09\n", options: 'Kubernetes 1.24..1.25' },
  fix: 'none',
  sources: ['helm/helm pkg/storage/driver (secrets.go, cfgmaps.go, util.go: the record format)', 'helm/helm#7219', 'helm/helm-mapkubeapis', 'data/kubernetes/api-lifecycle.json'],
  check(ctx, report) {
    for (const r of ctx.records) {
      if (!r.current) continue;
      const b = blocked(r, ctx.minors);
      if (!b) continue;
      const at = stepsText(b.steps, ctx.minors);
      report(recordFinding(r, b, `${releaseText(r)} ${storesText(b.objects)}: at ${at} \`helm upgrade\` and \`helm rollback\` of this release fail `
        + `(Helm cannot build the objects of its stored manifest) until the record is migrated (helm-mapkubeapis)`));
    }
  },
};
