#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): writes data/kata/flavour-switch.json, the facts skewguard needs where a
// node switches between the Kata Go runtime and runtime-rs:
//   persist   what each flavour persists for a running sandbox (path, shape) and whether the other flavour can
//             restore it (the "drain before switching" finding, kata-persist/flavour-switch and kata/flavour-switch);
//   kataDeploy how kata-deploy names the runtime of each shim in containerd's config.toml (runtime name, runtime_type,
//             runtime_path, ConfigPath), which shims are runtime-rs, and where its image tag is written (the chain
//             RuntimeClass → containerd runtime → configuration file → flavour, and the Kata window of a repository).
// The facts were read from kata-containers source through the search tool's code corpus (read_file / find_string on
// github.com/kata-containers/kata-containers); the corpus stores these files at commits that are not release tags, so
// each row names the commit (or the corpus excerpt id) it was read at, and says where the tag is not known. Go-side
// facts come from shared/reference/kata/persist-format.md (read at 3.32.0). Nothing is fetched at run time; the
// output is deterministic (2-space JSON, trailing newline).
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('kata'));
const outFile = path.join(repoRoot, 'data', 'kata', 'flavour-switch.json');

// Sanity check: the Go paths below are persist-format.md §1's; fail when that text is gone.
const persistFormat = fs.readFileSync(path.join(refDir, 'persist-format.md'), 'utf8');
for (const needle of ['/run/vc/sbs/<sandbox-id>/persist.json', 'does **not** write this format']) {
  if (!persistFormat.includes(needle)) throw new Error(`persist-format.md no longer says ${needle}`);
}

const KC = 'github.com/kata-containers/kata-containers';
const out = {
  description: 'Facts for a node that switches between the Kata Containers Go runtime and runtime-rs: what each persists for a running sandbox and whether the other can restore it, and how kata-deploy names each shim\'s containerd runtime. Written by scripts/import-kata-flavour-switch.mjs; each row cites the source and commit it was read at.',
  persist: {
    go: {
      sandboxState: '/run/vc/sbs/<sandbox-id>/persist.json',
      containerState: '/run/vc/sbs/<sandbox-id>/<container-id>/persist.json',
      encoding: 'Go encoding/json, one compact object (PersistVersion, HypervisorState, AgentState, Devices, …)',
      restoredBy: 'the Go shim (containerd-shim-kata-v2 of src/runtime) only: virtcontainers/persist/fs reads this file back into the Go structs',
      source: 'shared/reference/kata/persist-format.md §1 (kc src/runtime/virtcontainers/persist/fs/fs.go at 3.32.0)',
    },
    runtimeRs: {
      sandboxState: '/run/kata/<sandbox-id>/state.json',
      jailed: '<jailer_path>/root/state.json (written there; read back from /run/kata/<sandbox-id>/state.json, the source says "FIXME: handle jailed case")',
      rootless: 'from a later commit the root is build_rootless_path(KATA_PATH)',
      encoding: 'serde_json::to_writer_pretty of SandboxState',
      shape: {
        struct: 'SandboxState',
        fields: {
          sandbox_type: 'the sandbox kind (an enum VIRTCONTAINER / LINUXCONTAINER / WASMCONTAINER at first, a string name later)',
          resource: 'Option<ResourceState> (resource crate resource_persist)',
          hypervisor: 'Option<HypervisorState> (hypervisor crate hypervisor_persist)',
        },
      },
      restoredBy: 'runtime-rs only: RuntimeHandlerManager::cleanup() loads persist::from_disk::<SandboxState>(sandbox id) and fails with "failed to load the sandbox state" when the file is not there',
      sources: [
        `${KC} src/runtime-rs/crates/persist/src/lib.rs at 2f165367e216088bf2fd670d642bd0d3edb06ef5 (PERSIST_FILE "state.json", to_disk/from_disk under kata_types::config::KATA_PATH, jailer_path case)`,
        `${KC} src/runtime-rs/crates/persist/src/lib.rs at 0bbe612f991377fc45c37dca94bbcbe3527b6976 (the same, under build_rootless_path(KATA_PATH))`,
        `${KC} src/libs/kata-types/src/config/mod.rs (KATA_PATH = "/run/kata"; corpus excerpt 766554071)`,
        `${KC} src/runtime-rs/crates/runtimes/virt_container/src/sandbox_persist.rs at 16a205cfddc6b9cbda497f88b2475ae48c8c9bde (SandboxState { sandbox_type, resource, hypervisor })`,
        `${KC} src/runtime-rs/crates/runtimes/src/manager.rs (cleanup: persist::from_disk::<SandboxState>, "failed to load the sandbox state"; corpus excerpts 69704862944, 32486882, 9728151162)`,
      ],
      note: 'An early runtime-rs persist crate (corpus excerpt 31496152884) named the file persist.json under /run/kata; every stored version with to_disk(…, jailer_path) names it state.json. The corpus does not say which release tag each commit is in.',
    },
    takeOver: [
      {
        from: 'go', to: 'runtime-rs', possible: false,
        says: 'a running Go sandbox cannot be taken over by runtime-rs: drain the node before switching',
        why: 'runtime-rs restores a sandbox only from its own /run/kata/<sandbox-id>/state.json (SandboxState); a Go sandbox has /run/vc/sbs/<sandbox-id>/persist.json, which runtime-rs never reads, so its shim cannot clean up or manage the sandbox',
      },
      {
        from: 'runtime-rs', to: 'go', possible: false,
        says: 'a running runtime-rs sandbox cannot be taken over by the Go runtime: drain the node before switching back',
        why: 'the Go runtime restores only /run/vc/sbs/<sandbox-id>/persist.json into its Go structs; runtime-rs writes /run/kata/<sandbox-id>/state.json in another shape',
      },
    ],
  },
  kataDeploy: {
    image: 'quay.io/kata-containers/kata-deploy',
    imageNote: 'kata-deploy\'s DaemonSet (tools/packaging/kata-deploy/kata-deploy/base/kata-deploy.yaml) and its Helm chart (helm-chart/kata-deploy/values.yaml image.reference / image.tag) run the image whose tag is the Kata release it installs',
    runtimeName: 'kata-<shim>',
    runtimeType: 'io.containerd.kata-<shim>.v2',
    runtimePath: { go: '<dest_dir>/bin/containerd-shim-kata-v2', 'runtime-rs': '<dest_dir>/runtime-rs/bin/containerd-shim-kata-v2' },
    configPath: {
      go: '<dest_dir>/share/defaults/kata-containers/configuration-<shim>.toml',
      'runtime-rs': '<dest_dir>/share/defaults/kata-containers/runtime-rs/configuration-<shim>.toml',
      note: 'a later kata-deploy writes drop-in configurations under …/kata-containers[/runtime-rs]/runtimes/<shim>/ (get_kata_containers_config_path)',
    },
    destDir: '/opt/kata',
    rustShims: ['cloud-hypervisor', 'dragonball', 'qemu-runtime-rs', 'qemu-coco-dev-runtime-rs', 'qemu-se-runtime-rs', 'qemu-snp-runtime-rs', 'qemu-tdx-runtime-rs'],
    rustShimsNote: 'an earlier version of the list has only the first five (corpus excerpt 51908224468, a match on the shim name); every other shim is the Go runtime',
    sources: [
      `${KC} tools/packaging/kata-deploy/binary/src/runtime/containerd.rs at 009aa4be788bf324dd763ab7c5b10a4c248bbf77 (configure_containerd_runtime: runtime_name kata-<shim>, runtime_type "io.containerd.<runtime_name>.v2", runtime_path, options.ConfigPath)`,
      `${KC} tools/packaging/kata-deploy/binary/src/utils/system.rs (RUST_SHIMS, is_rust_shim, get_kata_containers_runtime_path, get_kata_containers_config_path; corpus excerpts 11341546327, 11490212264, 51908224468)`,
    ],
  },
  installPaths: [
    '/opt/kata/share/defaults/kata-containers/',
    '/opt/kata/share/defaults/kata-containers/runtime-rs/',
    '/usr/share/defaults/kata-containers/',
    '/etc/kata-containers/',
  ],
  installPathsSource: 'kata-deploy dest_dir /opt/kata (above); packaged installs read /etc/kata-containers/configuration.toml before /usr/share/defaults/kata-containers/configuration.toml (kata-runtime --kata-show-default-config-paths, src/runtime/pkg/katautils)',
};

fs.writeFileSync(outFile, `${JSON.stringify(out, null, 2)}\n`);
console.log(`wrote ${path.relative(repoRoot, outFile)}`);
