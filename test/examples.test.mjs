// examples/ holds real files with real findings for `npm run demo`; examples/README.md describes what the
// demo prints. This runs the demo's command (lsp-lint on examples/, JSON output) and checks exactly that.
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
// examples/kata-persist/: /run/vc/sbs/<sandbox-id>/ layouts (constructed, see examples/README.md)
const LEGACY = 'examples/kata-persist/legacy-store-1.x-to-2.0/run/vc/sbs/3c9e1f0a7b2d4c6e8f1a3b5c7d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a';
const LEGACY_CID = '9d8c7b6a5f4e3d2c1b0a99887766554433221100ffeeddccbbaa998877665544';
const ROLLBACK = 'examples/kata-persist/rollback-3.32-to-2.4/run/vc/sbs/6f2b3c1d8e9a4b5c6d7e8f9012345678abcdef0123456789abcdef0123456789';
const SWITCH = 'examples/kata-persist/go-to-runtime-rs-3.32-to-4.1/run/vc/sbs/8e7d6c5b4a39281706f5e4d3c2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a09f';
const ROLLBACK_CID = '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';

function lint(...args) {
  try {
    return { code: 0, stdout: execFileSync(process.execPath, ['bin/lsp-lint.js', ...args], { cwd: repoRoot, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }) };
  } catch (err) {
    return { code: err.status, stdout: err.stdout };
  }
}

test('npm run demo: lsp-lint examples/ reports the findings examples/README.md describes', () => {
  const { code, stdout } = lint('examples/', '--format', 'json');
  assert.equal(code, 1, 'the examples hold errors, so lsp-lint exits 1');
  // .skewguard.yaml files are walked too; their problems would stop the run (exit 2), so only the rest is listed.
  const reports = JSON.parse(stdout).filter((r) => !/^\.skewguard\.ya?ml$/.test(path.basename(r.filePath)));
  const byFile = Object.fromEntries(reports.map((r) => [
    path.relative(repoRoot, r.filePath).split(path.sep).join('/'),
    r.messages.map((m) => `${m.line}:${m.column} ${m.severity} ${m.ruleId}`),
  ]));
  assert.deepEqual(byFile, {
    // examples/ci/: CI configuration (workflows, GitLab CI, pre-commit), read and passed over: of no family.
    'examples/ci/github/sharded.yml': [],
    'examples/ci/github/skewguard.yml': [],
    'examples/ci/gitlab/.gitlab-ci.yml': [],
    'examples/ci/gitlab/skewguard.gitlab-ci.yml': [],
    'examples/ci/pre-commit/.pre-commit-config.yaml': [],
    // kubectl get secrets -A -l owner=helm: release db's deployed revision 7 stores policy/v1beta1 PodDisruptionBudget (an
    // error at 1.25), its superseded revision 6 too (a rollback target: a warning); release web stores policy/v1.
    'examples/cluster-evidence/helm-releases.yaml': ['15:11 warning helm/release-record-rollback-api', '32:11 error helm/release-record-api'],
    // examples/containerd/: a containerd 1.7 → 2.1 upgrade (window 1.7..2.1 from its .skewguard.yaml); see test/containerd.test.mjs.
    'examples/containerd/upgrade-1.7-to-2.1/etc/containerd/config.toml': [
      '10:3 warning containerd/not-read', // systemd_cgroup: removed in 2.0, the migration's target is not read
      '10:3 warning containerd/deprecated', // systemd_cgroup (io.containerd.deprecation/cri-systemd-cgroup-v1)
      '37:2 warning containerd/kata-runtime', // kata-clh without options.ConfigPath
      '42:3 warning containerd/deprecated', // cni.bin_dir (deprecated in 2.1)
      '45:2 warning containerd/deprecated', // registry.mirrors
      '48:2 warning containerd/not-read', // registry.configs.<host>.tls: dropped in 2.0
      '48:2 warning containerd/deprecated', // registry.configs
    ],
    // The Kata configurations the two Kata runtimes' ConfigPaths name (the node's tree below the example), at the Kata
    // window kata-deploy's image tag sets (4.1.0, deploy/kata-deploy.yaml): kata-qemu's is the Go runtime's and reads
    // dial_timeout; kata-qemu-runtime-rs's (runtime_path …/runtime-rs/bin/…) is runtime-rs's, whose [agent.kata] refuses
    // Go's dial_timeout from 3.29.0 (deny_unknown_fields).
    'examples/containerd/upgrade-1.7-to-2.1/deploy/kata-deploy.yaml': [],
    'examples/containerd/upgrade-1.7-to-2.1/opt/kata/share/defaults/kata-containers/configuration-qemu.toml': [],
    'examples/containerd/upgrade-1.7-to-2.1/opt/kata/share/defaults/kata-containers/runtime-rs/configuration-qemu-runtime-rs.toml': ['14:1 error kata/renamed-option'],
    // kata-fc is not a runtime of the workspace's containerd config (k8s/runtimeclass-handler, cross-file).
    'examples/containerd/upgrade-1.7-to-2.1/manifests/runtimeclasses.yaml': ['18:10 error k8s/runtimeclass-handler'],
    'examples/kata/acrn-edge-3.2-to-3.12/configuration-acrn.toml': ['3:2 error kata/section-not-in-window'],
    'examples/kata/clh-3.2-to-3.32/configuration-clh.toml': [],
    // Go 3.20 → runtime-rs 4.1 (window "3.20 (go)..4.1 (runtime-rs)"): each key the two dialects read differently.
    'examples/kata/go-to-runtime-rs-3.20-to-4.1/configuration-qemu.toml': [
      '4:2 info kata/sandbox-takeover', // drain the node before switching
      '15:1 warning kata/flavour-switch', // seccompsandbox → seccomp_sandbox (fix)
      '19:1 warning kata/flavour-switch', // [factory] enable_template → [hypervisor.qemu.factory] (fix)
      '22:1 error kata/flavour-switch', // dial_timeout: runtime-rs 4.1 [agent.kata] refuses it; one file per flavour
      '30:1 warning kata/flavour-switch', // [runtime] create_container_timeout → [agent.kata] (fix)
    ],
    'examples/kata/gpu-host-3.1-to-3.32/configuration-qemu-tdx.toml': ['13:13 error kata/invalid-value'],
    'examples/kata/gpu-host-3.1-to-3.32/configuration-qemu.toml': ['21:1 warning kata/renamed-option', '22:1 info kata/option-not-in-window'],
    [`${LEGACY}/${LEGACY_CID}/mounts.json`]: ['1:1 error kata-persist/legacy-store'],
    [`${LEGACY}/${LEGACY_CID}/process.json`]: ['2:3 error kata-persist/legacy-store'],
    [`${LEGACY}/${LEGACY_CID}/state.json`]: ['2:3 error kata-persist/legacy-store'],
    [`${LEGACY}/agent.json`]: ['2:3 error kata-persist/legacy-store'],
    [`${LEGACY}/devices.json`]: ['1:1 error kata-persist/legacy-store'],
    [`${LEGACY}/hypervisor.json`]: ['2:3 error kata-persist/legacy-store'],
    [`${LEGACY}/network.json`]: ['2:3 error kata-persist/legacy-store'],
    [`${LEGACY}/state.json`]: ['2:3 error kata-persist/legacy-store'],
    // A Go sandbox under "3.32 (go)..4.1 (runtime-rs)": runtime-rs cannot take it over (kata-persist/sandbox-takeover).
    [`${SWITCH}/persist.json`]: ['2:3 warning kata-persist/sandbox-takeover'],
    [`${ROLLBACK}/${ROLLBACK_CID}/persist.json`]: [],
    [`${ROLLBACK}/persist.json`]: [
      // data/kata/persist.json readBy: the VFIO port modes are read from 3.2.0, NumVCPUsF from 3.3.0. The other fields
      // 2.4.x does not know (EnableVCPUsPinning, PCIeRootPort, IndepIOThreads …) hold zero values here, which is what
      // a reader without them sees anyway, so they are not reported.
      '56:7 warning kata-persist/field-not-read', // Config.HypervisorConfig.ColdPlugVFIO
      '76:7 warning kata-persist/field-not-read', // Config.HypervisorConfig.HotPlugVFIO
      '96:7 warning kata-persist/field-not-read', // Config.HypervisorConfig.NumVCPUsF
      '156:5 warning kata-persist/field-not-read', // HypervisorState.ColdPlugVFIO
      '157:5 warning kata-persist/field-not-read', // HypervisorState.HotPlugVFIO
    ],
    'examples/kustomize/base/deployment.yaml': [],
    'examples/kustomize/base/kustomization.yaml': [],
    'examples/kustomize/kustomization.yaml': [
      '4:1 warning kustomize/deprecated-field', // bases (kustomize 2.1.0)
      '6:1 warning kustomize/deprecated-field', // patchesStrategicMerge (kustomize 5.0.0, kubectl 1.27)
      '8:1 warning kustomize/deprecated-field', // commonLabels (a kustomize v5 release)
      '12:13 error k8s/node-component-skew', // images: kube-proxy v1.25.3 against the 1.29 apiserver
    ],
    'examples/kustomize/replicas.yaml': [],
    // kubeadm's multi-document file (v1beta2) over 1.25..1.28: kubeadm 1.27 no longer reads v1beta2 (#114540).
    'examples/kubernetes/kubeadm/kubeadm-config.yaml': [
      '2:13 error k8s/removed-api', // InitConfiguration
      '10:13 error k8s/removed-api', // ClusterConfiguration
      '12:20 warning k8s/kubeadm-version-mismatch', // v1.24.4 against localhost.yml's 1.25.3
    ],
    'examples/kubernetes/kubeadm/localhost.yml': ['2:21 warning starlingx/kubernetes-version-below-default'],
    'examples/kubernetes/stx6-site/localhost.yml': ['13:21 warning starlingx/kubernetes-version-below-default'],
    'examples/kubernetes/stx6-site/manifests/ingress.yaml': ['3:13 warning k8s/deprecated-api', '8:5 warning k8s/deprecated-annotation'],
    'examples/kubernetes/stx6-skew-site/localhost.yml': ['12:21 warning starlingx/kubernetes-version-below-default'],
    'examples/kubernetes/stx6-skew-site/manifests/calico-node.yaml': [
      '23:18 warning k8s/component-not-validated',
      '26:18 warning k8s/component-not-validated',
      '29:18 warning k8s/component-not-validated',
    ],
    'examples/kubernetes/stx6-skew-site/manifests/kube-proxy.yaml': ['21:18 error k8s/node-component-skew'],
    'examples/kubernetes/stx6-skew-site/static-pods/kube-apiserver.yaml': [],
    'examples/kubernetes/stx6-skew-site/static-pods/kube-controller-manager.yaml': [],
    'examples/kubernetes/stx6-skew-site/static-pods/kube-scheduler.yaml': ['16:14 error k8s/control-plane-skew'],
    'examples/kubernetes/upgrade-1.18-to-1.21/app.yaml': ['36:13 error k8s/api-not-yet-served', '53:13 warning k8s/deprecated-api'],
    'examples/kubernetes/upgrade-1.18-to-1.21/legacy-monitoring.yaml': ['2:13 error k8s/removed-api'],
    'examples/kubernetes/upgrade-1.18-to-1.21/nightly-report.yaml': ['1:13 warning k8s/deprecated-api'],
    // A StarlingX application bundle on the 11.0 -> 12.0 platform upgrade (examples/starlingx-app/README section).
    // The info: run from the repository's root, the workspace holds test/fixtures' deliberately broken charts/*.tgz, which
    // may hold the Flux CRDs (a packaged dependency's CRDs define custom resources): said, not passed over.
    'examples/starlingx-app/metrics-server/fluxcd-manifests/base/helmrepository.yaml': ['1:13 error k8s/flux-api-not-served', '1:13 info k8s/cr-version-not-served'],
    'examples/starlingx-app/metrics-server/fluxcd-manifests/metrics-server/helmrelease.yaml': ['1:13 error k8s/flux-api-not-served', '1:13 info k8s/cr-version-not-served'],
    'examples/starlingx-app/metrics-server/localhost.yml': ['2:21 warning starlingx/kubernetes-version-below-default'],
    'examples/starlingx-app/metrics-server/metadata.yaml': ['11:14 error stx-app/kubernetes-outside-supported'],
    // examples/helm/: charts checked in place at every step (see examples/README.md).
    'examples/helm/cronjob-1.21-to-1.25/Chart.yaml': [],
    'examples/helm/cronjob-1.21-to-1.25/templates/_helpers.tpl': [],
    'examples/helm/cronjob-1.21-to-1.25/templates/configmap.yaml': [],
    'examples/helm/cronjob-1.21-to-1.25/templates/cronjob.yaml': ['1:13 error helm/removed-api'],
    'examples/helm/cronjob-1.21-to-1.25/values.yaml': [],
    // examples/helm/gitops/: the chart's defaults are clean; a HelmRelease's ConfigMap values and an Application's value
    // file turn legacy on: the template's error names both deployments, and each deployment's line sums it up.
    'examples/helm/gitops/argo/reports.yaml': ['1:13 info k8s/cr-version-not-served', '4:9 error helm/deployment-breaks'],
    'examples/helm/gitops/charts/backup/Chart.yaml': [],
    'examples/helm/gitops/charts/backup/templates/cronjob.yaml': ['2:13 error helm/removed-api'],
    'examples/helm/gitops/charts/backup/values-legacy.yaml': [],
    'examples/helm/gitops/charts/backup/values.yaml': [],
    'examples/helm/gitops/flux/backup-values.yaml': [],
    'examples/helm/gitops/flux/backup.yaml': ['2:13 info k8s/cr-version-not-served', '5:9 error helm/deployment-breaks'],
    'examples/helm/gitops/flux/gitrepository.yaml': ['1:13 info k8s/cr-version-not-served'],
    // helmGlobals and helmCharts: no source read dates the kustomize release that first reads them (helmCharts is read by
    // 4.5.7), so the steps whose kustomize the data cannot vouch for are said (1.24: 4.5.4; helmGlobals also 1.25: 4.5.7).
    'examples/helm/gitops/kustomize/kustomization.yaml': ['4:1 info kustomize/field-not-read', '6:1 info kustomize/field-not-read'],
    // examples/helm/scenarios-1.21-to-1.25/: the CronJob is batch/v1beta1 only under ci/legacy-values.yaml (named in the
    // finding); values-prod.yaml (a scenario by helm.valueSets) breaks values.schema.json at two lines.
    'examples/helm/scenarios-1.21-to-1.25/Chart.yaml': [],
    'examples/helm/scenarios-1.21-to-1.25/ci/default-values.yaml': [],
    'examples/helm/scenarios-1.21-to-1.25/ci/legacy-values.yaml': [],
    'examples/helm/scenarios-1.21-to-1.25/templates/_helpers.tpl': [],
    'examples/helm/scenarios-1.21-to-1.25/templates/cronjob.yaml': ['2:13 error helm/removed-api'],
    'examples/helm/scenarios-1.21-to-1.25/values-prod.yaml': ['3:3 error helm/values-schema', '4:3 error helm/values-schema'],
    'examples/helm/scenarios-1.21-to-1.25/values.schema.json': [],
    'examples/helm/scenarios-1.21-to-1.25/values.yaml': [],
    'examples/helm/bitnami-style-1.19-to-1.25/Chart.yaml': ['10:11 error helm/kube-version'],
    'examples/helm/bitnami-style-1.19-to-1.25/charts/common/Chart.yaml': [],
    'examples/helm/bitnami-style-1.19-to-1.25/charts/common/templates/_capabilities.tpl': ['14:1 hint helm/dead-branch', '22:1 hint helm/dead-branch'],
    'examples/helm/bitnami-style-1.19-to-1.25/charts/common/values.yaml': [],
    'examples/helm/bitnami-style-1.19-to-1.25/charts/metrics-0.2.0.tgz': ['1:1 error helm/removed-api'],
    'examples/helm/bitnami-style-1.19-to-1.25/templates/deployment.yaml': [],
    'examples/helm/bitnami-style-1.19-to-1.25/templates/ingress.yaml': ['2:13 error helm/removed-api'],
    'examples/helm/bitnami-style-1.19-to-1.25/templates/pdb.yaml': [],
    'examples/helm/bitnami-style-1.19-to-1.25/values.yaml': [],
    'examples/cluster-evidence/upgrade-1.24-to-1.25/audit-policy.yaml': [],
    'examples/cluster-evidence/upgrade-1.24-to-1.25/audit.log': ['3:1 error k8s/audit-api-not-served', '5:1 warning k8s/audit-api-deprecated', '12:1 error k8s/audit-api-not-served'],
    'examples/cluster-evidence/upgrade-1.24-to-1.25/cluster-metrics.txt': ['51:1 warning k8s/cluster-api-deprecated', '52:1 error k8s/cluster-api-not-served', '53:1 warning k8s/cluster-api-deprecated', '54:1 error k8s/cluster-api-not-served'],
    'examples/starlingx/docs-registry-typo/localhost.yml': ['12:4 error syntax/parse-error'],
    'examples/starlingx/ipv6-duplex-clean/localhost.yml': [],
    'examples/starlingx/stx12-v-prefix/localhost.yml': [
      '17:21 error starlingx/kubernetes-version-v-prefix',
      '21:1 warning starlingx/key-not-read',
      '22:1 warning starlingx/key-not-read',
      '23:1 warning starlingx/key-not-read',
    ],
    'examples/starlingx/stx6-upgrade-lab/localhost.yml': [
      '20:21 warning starlingx/kubernetes-version-below-default',
      '22:1 warning starlingx/key-not-read',
    ],
  });
});

test('the manifests next to a localhost.yml take their Kubernetes window from its upgrade path', () => {
  const { code, stdout } = lint('--print-config', 'examples/kubernetes/stx6-site/manifests/ingress.yaml');
  assert.equal(code, 0);
  const cfg = JSON.parse(stdout);
  assert.equal(cfg.kubernetes.window, '1.18..1.21');
  assert.deepEqual(cfg.kubernetes.versions, ['1.18.1', '1.19.13', '1.20.9', '1.21.3']);
  assert.equal(cfg.kubernetes.source.kind, 'workspace');
  assert.match(cfg.kubernetes.source.detail, /stx6-site\/localhost\.yml/);
});

test('the skew example: a half-upgraded control plane, Calico 3.12 and kube-proxy 1.18 in the 1.19..1.21 window of its localhost.yml', () => {
  const { stdout } = lint('examples/kubernetes/stx6-skew-site/', '--format', 'json');
  const messages = Object.fromEntries(JSON.parse(stdout).map((r) => [path.relative(repoRoot, r.filePath).split(path.sep).join('/'), r.messages.map((m) => m.message)]));
  const calico = 'Calico v3.12.0 is not validated for Kubernetes 1.19, 1.20, 1.21 (upstream lists it for 1.14..1.17; window 1.19..1.21); Calico 3.19 is validated for every version of the window (e.g. v3.19.1)';
  assert.deepEqual(messages['examples/kubernetes/stx6-skew-site/manifests/calico-node.yaml'], [calico, calico, calico]);
  assert.deepEqual(messages['examples/kubernetes/stx6-skew-site/manifests/kube-proxy.yaml'], [
    'kube-proxy v1.18.1 is outside the version-skew policy when the kube-apiserver runs 1.21 (kube-proxy may be at most 2 minors older there); window 1.19..1.21: upgrade kube-proxy with the control plane',
  ]);
  // The scheduler is compared with the kube-apiserver static pod of its own folder, not with the window.
  assert.deepEqual(messages['examples/kubernetes/stx6-skew-site/static-pods/kube-scheduler.yaml'], [
    'kube-scheduler v1.19.13 is outside the version-skew policy: it is 2 minors older than the kube-apiserver in kube-apiserver.yaml (1.21); at most 1 allowed',
  ]);
  const { stdout: cfg } = lint('--print-config', 'examples/kubernetes/stx6-skew-site/manifests/calico-node.yaml');
  assert.deepEqual(JSON.parse(cfg).kubernetes.versions, ['1.19.13', '1.20.9', '1.21.3']);
});

test('the Kata examples take their window and flavour from their .skewguard.yaml', () => {
  for (const [dir, file, window] of [
    ['gpu-host-3.1-to-3.32', 'configuration-qemu.toml', '3.1..3.32'],
    ['acrn-edge-3.2-to-3.12', 'configuration-acrn.toml', '3.2..3.12'],
    ['clh-3.2-to-3.32', 'configuration-clh.toml', '3.2..3.32'],
  ]) {
    const { code, stdout } = lint('--print-config', `examples/kata/${dir}/${file}`);
    assert.equal(code, 0);
    const cfg = JSON.parse(stdout);
    assert.equal(cfg.kata.window, window, dir);
    assert.equal(cfg.kata.flavour, 'go', dir);
    assert.equal(cfg.kata.source.kind, 'config', dir);
    assert.match(cfg.kata.source.detail, new RegExp(`${dir}/\\.skewguard\\.yaml`), dir);
  }
});

test('the Kata persist.json examples: windows from their .skewguard.yaml, the eras in the JSON report, copies of the constructed examples', () => {
  for (const [file, window] of [[`${ROLLBACK}/persist.json`, '2.4..3.32'], [`${LEGACY}/state.json`, '1.13..2.0']]) {
    const { code, stdout } = lint('--print-config', file);
    assert.equal(code, 0);
    const cfg = JSON.parse(stdout);
    assert.equal(cfg.kata.window, window, file);
    assert.equal(cfg.kata.source.kind, 'config', file);
  }
  const { stdout } = lint('examples/kata-persist/', '--format', 'json');
  const facts = Object.fromEntries(JSON.parse(stdout).map((r) => [path.relative(repoRoot, r.filePath).split(path.sep).join('/'), r.facts]));
  assert.deepEqual(facts[`${ROLLBACK}/persist.json`], { persistKind: 'sandbox', eras: [{ id: 'v2-3.3', writtenBy: '3.3.0–3.32.0' }], kataWindow: '2.4.0..3.32.0' });
  assert.equal(facts[`${ROLLBACK}/${ROLLBACK_CID}/persist.json`].persistKind, 'container');
  const fixtures = path.join(repoRoot, 'test', 'fixtures', 'kata', 'persist-examples');
  assert.equal(fs.readFileSync(path.join(repoRoot, ROLLBACK, 'persist.json'), 'utf8'), fs.readFileSync(path.join(fixtures, 'v2-kata-3.32-sandbox.persist.json'), 'utf8'));
  assert.equal(fs.readFileSync(path.join(repoRoot, ROLLBACK, ROLLBACK_CID, 'persist.json'), 'utf8'), fs.readFileSync(path.join(fixtures, 'v2-kata-3.32-container.persist.json'), 'utf8'));
  // Under the window the host runs before the upgrade, the legacy store is read: nothing to report.
  const before = lint('--kata-window', '1.11..1.13', '--format', 'json', 'examples/kata-persist/legacy-store-1.x-to-2.0/');
  assert.equal(before.code, 0);
  assert.deepEqual(JSON.parse(before.stdout).flatMap((r) => r.messages), []);
});

test('the examples\' .skewguard.yaml files select the release they claim', () => {
  for (const [dir, release] of [['stx6-upgrade-lab', '6.0'], ['stx12-v-prefix', '12.0']]) {
    const { code, stdout } = lint('--print-config', `examples/starlingx/${dir}/localhost.yml`);
    assert.equal(code, 0);
    const cfg = JSON.parse(stdout);
    assert.equal(cfg.starlingx.release, release, dir);
    assert.equal(cfg.starlingx.source.kind, 'config', dir);
  }
});
