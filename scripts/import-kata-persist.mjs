#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the Kata Containers persist.json reference
// material in ../shared/reference/kata (relative to the repo root; override with argv[2]) into
//   data/kata/persist.json                       layout eras, one row per JSON field path (which
//                                                releases write / read it, JSON type per release
//                                                range, renames, where a reader needs it), the
//                                                PersistVersion history, the legacy VCStore, era
//                                                markers for inference, sources, notes
//   test/fixtures/kata/persist-examples/**       copy of persist-examples/ (+ SOURCES.md) so the
//                                                tests never read ../shared
// Read from the reference directory: persist-fields-by-release.json (Go struct fields per release
// tag ≥ 1.7.0 — the only machine-readable input), persist-format.md (§1 encoding rules, §2
// CurPersistVersion, §3 legacy store, §4/§5 field meanings, §6 changes), skew-facts.md section C
// (facts 16–18), SOURCES.md, persist-examples/. The facts taken from the Markdown files are written
// below as own-words tables with their section / fact number; sanity checks throw when the text
// they come from is no longer there.
//
// Mapping rules (also written into the output's `legend` / `notes`):
//  * release universe = data/kata/config.json `releases` (127 tags, 1.0.0 … 4.1.0). Ranges are
//    inclusive {from, to} over that list; to null = still true in the newest release (4.1.0).
//  * A field path is the list of JSON keys from the top of the file; "*" stands for any element of
//    an array or any value of a map. JSON key = Go field name unless a json tag renames it;
//    embedded structs are flattened (Go encoding/json).
//  * writtenBy = the releases whose Go struct has the field (encoding/json writes every
//    non-omitempty field, nil slices/maps/pointers as null). readBy = the same releases: the Go
//    runtime decodes persist.json into the same structs, so a release without the field silently
//    drops it and a field missing from the file decodes as the zero value.
//  * Eras = the layout boundaries named by the lead (persist version 1 → 2 in 1.9.0; no bump at
//    2.0, 2.3, 2.4, 3.2, 3.3, 4.0). The structs change at more releases than that (see
//    layoutChanges): such changes stay inside an era and are visible in the per-field ranges.
// Output is deterministic (fixed order, 2-space JSON, trailing newline).
// gen:data after: import-kata.mjs
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import semver from 'semver';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('kata'));
const outFile = path.join(repoRoot, 'data', 'kata', 'persist.json');
const fixturesDir = path.join(repoRoot, 'test', 'fixtures', 'kata', 'persist-examples');

// ---------------------------------------------------------------------------------------------
// helpers

function fail(msg) {
  throw new Error(`import-kata-persist: ${msg}`);
}
const readText = (rel) => fs.readFileSync(path.join(refDir, rel), 'utf8');
const readJson = (rel) => JSON.parse(readText(rel));
const cmpStr = (a, b) => (a < b ? -1 : a > b ? 1 : 0);

const FIELDS_FILE = 'persist-fields-by-release.json';
const FORMAT = 'persist-format.md';
const FACTS = 'skew-facts.md';
const EXAMPLES = 'persist-examples';
const fact = (n) => `${FACTS} #${n}`;
const sec = (n) => `${FORMAT} §${n}`;

const fieldsByRelease = readJson(FIELDS_FILE);
const formatMd = readText(FORMAT);
const factsMd = readText(FACTS);
const sourcesMd = readText('SOURCES.md');
const kataConfig = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8'));

/** the Markdown statements this importer relies on (own-words summaries are below) */
const MUST_SAY = [
  [FORMAT, /^## 2\. CurPersistVersion history/m],
  [FORMAT, /\| \*\*1\*\* \| 1\.7\.0 – 1\.8\.x \|/],
  [FORMAT, /\| \*\*2\*\* \| 1\.9\.0 – 1\.13\.0, and every kc tag 2\.0\.0 … 4\.1\.0 \|/],
  [FORMAT, /only set when zero/],
  [FORMAT, /Nothing in the loaders reads the number to branch or refuse/],
  [FORMAT, /^## 3\. Newstore vs\. legacy store/m],
  [FORMAT, /newstore moved out of experimental and became the default/],
  [FORMAT, /A 2\.x runtime cannot read a 1\.x \(pre-1\.11\) legacy-store sandbox\./],
  [FORMAT, /\| State \| `state\.json` \|/],
  [FORMAT, /^## 6\. Format changes by release/m],
  [FORMAT, /a 2\.3 runtime reading a 2\.4 file sees empty `NetNsPath`/],
  [FORMAT, /a 3\.1 runtime reading a 3\.2 file loses the VFIO port mode/],
  [FORMAT, /used by loadSandboxConfig/],
  [FORMAT, /"sandbox container id required"/],
  [FORMAT, /written as `\{\}`/],
  [FACTS, /^16\. `CurPersistVersion` = 1/m],
  [FACTS, /^17\. The loader does not check the version/m],
  [FACTS, /^18\. Legacy VCStore/m],
];
for (const [file, re] of MUST_SAY) {
  const text = file === FORMAT ? formatMd : factsMd;
  if (!re.test(text) && !re.test(text.replace(/[ \t]*\n[ \t]*(?=\S)/g, ' '))) fail(`${file} no longer says ${re}`);
}
const upstream = {};
for (const m of sourcesMd.matchAll(/^\| (\d+\.\d+\.\d+) \| (kc|runtime) \| ([^|]+) \| ([0-9a-f]{40}) \|$/gm)) upstream[m[1]] = m[4];

// ---------------------------------------------------------------------------------------------
// releases

const releases = kataConfig.releases;
if (releases.length !== 127) fail(`data/kata/config.json: expected 127 releases, got ${releases.length}`);
const NEWEST = releases.at(-1);
const idx = new Map(releases.map((r, i) => [r, i]));
const ix = (r) => idx.get(r) ?? fail(`unknown release ${r}`);
const structs = fieldsByRelease.structsByRelease;
const persistReleases = Object.keys(structs).sort(semver.compare);
for (const r of persistReleases) ix(r);
const FIRST_PERSIST = persistReleases[0];
if (FIRST_PERSIST !== '1.7.0') fail(`first persist release is ${FIRST_PERSIST}`);
const expectPersist = releases.slice(ix(FIRST_PERSIST));
if (JSON.stringify(expectPersist) !== JSON.stringify(persistReleases)) fail('structsByRelease does not cover every release from 1.7.0');
const openEnd = (r) => (r === NEWEST ? null : r);
/** sorted release list -> [{from,to}] contiguous runs over the release universe */
function rangesOf(list) {
  const sorted = [...new Set(list)].sort((a, b) => ix(a) - ix(b));
  const out = [];
  for (const r of sorted) {
    const last = out.at(-1);
    if (last && ix(r) === ix(last._to) + 1) last._to = r;
    else out.push({ from: r, _to: r });
  }
  return out.map((x) => ({ from: x.from, to: openEnd(x._to) }));
}
const inRange = (g, r) => ix(r) >= ix(g.from) && ix(r) <= (g.to === null ? releases.length - 1 : ix(g.to));
const rangesText = (rs) => rs.map((g) => (g.to === null ? `${g.from}+` : g.from === g.to ? g.from : `${g.from}–${g.to}`)).join(', ');
const lastOfMinor = (mm) => releases.filter((r) => r.startsWith(`${mm}.`)).at(-1) ?? fail(`no ${mm}.x release`);

// ---------------------------------------------------------------------------------------------
// Go types -> JSON

/** "T json:name,omitempty" -> {goType, key?, omitempty} */
function parseDecl(decl) {
  const m = /^(\S+)(?: json:(.*))?$/.exec(decl) ?? fail(`cannot parse ${decl}`);
  const tag = m[2] ?? null;
  const [name, ...opts] = tag === null ? [''] : tag.split(',');
  return { goType: m[1], tagName: name || null, omitempty: opts.includes('omitempty') };
}
const SCALARS = {
  bool: 'boolean',
  string: 'string',
  int: 'integer',
  int64: 'integer',
  uint: 'integer',
  uint32: 'integer',
  uint64: 'integer',
  float32: 'number',
  'time.Time': 'string', // RFC 3339 (§1)
  'os.FileMode': 'integer', // unsigned, with Go mode-type bits (§1)
  PCIePort: 'string',
  'config.PCIePort': 'string',
  DeviceType: 'string',
  VFIODeviceType: 'integer', // enum 0..3 (§1)
};
const UNSIGNED = new Set(['uint', 'uint32', 'uint64', 'os.FileMode']);
/** types written as JSON objects whose inside the material does not break down */
const OPAQUE = {
  'vcTypes.PciPath': { type: 'object', note: 'only unexported fields and no JSON marshaller: always written as {} (persist-format.md §1)' },
  'specs.LinuxResources': { type: 'object', note: 'OCI runtime-spec LinuxResources (lower-case OCI keys)' },
  'configs.Cgroup': { type: 'object', note: 'runc cgroup config, normally null' },
  'netlink.Addr': { type: 'object', note: 'vishvananda/netlink Addr: IP, Mask (base64), Label, Flags, Scope, Peer, Broadcast, PreferedLft, ValidLft (persist-format.md §1, netlink of runtime 1.13.0)' },
  'struct{}': { type: 'object', note: 'empty struct, written as {}' },
};
/** resolve a Go type of release r -> node */
function resolve(goType, r) {
  const S = structs[r];
  if (goType.startsWith('*')) return { ...resolve(goType.slice(1), r), pointer: true };
  if (SCALARS[goType]) return { kind: 'scalar', type: SCALARS[goType], unsigned: UNSIGNED.has(goType) };
  if (OPAQUE[goType]) return { kind: 'opaque', type: OPAQUE[goType].type, opaque: goType };
  let m = /^\[\](.+)$/.exec(goType);
  if (m) return { kind: 'array', elem: resolve(m[1], r) };
  m = /^map\[([^\]]+)\](.+)$/.exec(goType);
  if (m) return { kind: 'map', keyType: m[1], elem: resolve(m[2], r) };
  const bare = goType.replace(/^(hv|dev|config)\./, '');
  if (S[bare]) return { kind: 'struct', struct: bare };
  return fail(`${r}: unmapped Go type ${goType}`);
}
/** JSON description of a node: {type, nullable, items?, values?} */
function jsonOf(node, omitempty) {
  const nullable = !omitempty && (node.pointer || node.kind === 'array' || node.kind === 'map' || (node.kind === 'opaque' && node.pointer)) ? true : undefined;
  const elemType = (e) => (e.kind === 'scalar' || e.kind === 'opaque' ? e.type : 'object');
  if (node.kind === 'array') return { type: 'array', items: elemType(node.elem), nullable };
  if (node.kind === 'map') return { type: 'object', values: elemType(node.elem), nullable };
  if (node.kind === 'struct') return { type: 'object', nullable };
  return { type: node.type, nullable, unsigned: node.unsigned || undefined };
}

/** all field paths of release r: Map<key, info> */
function pathsOf(r) {
  const S = structs[r];
  const out = new Map();
  function walkStruct(file, prefix, structName, chain) {
    const fields = S[structName] ?? fail(`${r}: no struct ${structName}`);
    for (const [goName, decl] of Object.entries(fields)) {
      if (goName.startsWith('<embedded>')) {
        if (decl !== 'embedded') fail(`${r}: odd embedded ${structName}.${goName}`);
        walkStruct(file, prefix, goName.slice('<embedded>'.length), chain);
        continue;
      }
      const { goType, tagName, omitempty } = parseDecl(decl);
      const key = tagName ?? goName;
      const node = resolve(goType, r);
      const p = [...prefix, key];
      const id = `${file}|${p.join('\u0000')}`;
      if (out.has(id)) fail(`${r}: duplicate path ${p.join('.')}`);
      out.set(id, { file, path: p, key, owner: structName, goName, goType, omitempty, node, json: jsonOf(node, omitempty) });
      descend(file, p, node, [...chain, `${structName}.${goName}`]);
    }
  }
  function descend(file, p, node, chain) {
    if (node.kind === 'struct') walkStruct(file, p, node.struct, chain);
    else if ((node.kind === 'array' || node.kind === 'map') && node.elem.kind === 'struct') walkStruct(file, [...p, '*'], node.elem.struct, chain);
  }
  walkStruct('sandbox', [], 'SandboxState', []);
  walkStruct('container', [], 'ContainerState', []);
  return out;
}

// ---------------------------------------------------------------------------------------------
// meanings (persist-format.md §1, §4, §5 in our words; "" = the material gives no meaning) and
// what a reader loses when it lacks the field. INFERRED consequences are marked "(inferred)".

const M = {
  // §4 SandboxState
  'SandboxState.PersistVersion': ['CurPersistVersion of the release that CREATED the sandbox (kept on restore); informational, never checked by the loader', ''],
  'SandboxState.State': ['sandbox state: "ready", "running", "paused", "stopped" ("" before the first start)', ''],
  'SandboxState.SandboxContainer': ['sandbox id (= the directory name); saving fails with "sandbox container id required" when empty', ''],
  'SandboxState.CgroupPath': ['sandbox cgroup path (1.x, 2.0–2.2; replaced by SandboxCgroupPath in 2.3.0)', 'the sandbox cgroup path; (inferred) the reader cannot find the sandbox cgroup to update or remove it'],
  'SandboxState.SandboxCgroupPath': ['sandbox cgroup path (2.3.0+, replaced CgroupPath)', 'the sandbox cgroup path; (inferred) the reader cannot find the sandbox cgroup to update or remove it'],
  'SandboxState.OverheadCgroupPath': ['cgroup for the VMM overhead when sandbox_cgroup_only=false (2.3.0+)', 'the overhead cgroup path; (inferred) that cgroup is not cleaned up'],
  'SandboxState.CgroupPaths': ['per-subsystem cgroup paths (1.11.0+); not filled by the 3.x dump code, usually null', ''],
  'SandboxState.GuestMemoryBlockSizeMB': ['guest memory block size from the agent (GetGuestDetails)', ''],
  'SandboxState.GuestMemoryHotplugProbe': ['guest memory hotplug probe support from the agent (GetGuestDetails)', ''],
  'SandboxState.Devices': ['sandbox-level device manager state', 'the device manager state (refcounts, attach counts, drives); (inferred) devices cannot be detached/cleaned up correctly'],
  'SandboxState.HypervisorState': ['hypervisor (VMM) state', ''],
  'SandboxState.AgentState': ['agent connection state (1.9.0+, replaced ProxyState)', 'the agent URL; (inferred) the runtime cannot reconnect to the agent of the running VM'],
  'SandboxState.ProxyState': ['kata-proxy state (1.7–1.8; replaced by AgentState in 1.9.0)', 'the proxy pid and agent URL; (inferred) the runtime cannot reconnect to the agent'],
  'SandboxState.Network': ['network state of the sandbox', ''],
  'SandboxState.Config': ['snapshot of the sandbox configuration, used by loadSandboxConfig', ''],
  'ProxyState.Pid': ['kata-proxy pid (1.7–1.8)', 'the proxy pid; (inferred) the proxy process is leaked'],
  'ProxyState.URL': ['agent URL via kata-proxy (1.7–1.8)', 'the agent URL; (inferred) the runtime cannot reconnect to the agent'],
  'AgentState.URL': ['agent URL, e.g. vsock://<cid>:1024 or hvsock://<path>', 'the agent URL; (inferred) the runtime cannot reconnect to the agent'],
  'AgentState.ProxyPid': ['kata-proxy pid (1.9.0–1.13.0; removed in 2.0.0)', 'the proxy pid; (inferred) a kata-proxy process is leaked'],
  // HypervisorState
  'HypervisorState.Pid': ['VMM pid', ''],
  'HypervisorState.Type': ['hypervisor type ("qemu", "firecracker", "clh", "dragonball", ...) (1.9.0+)', ''],
  'HypervisorState.UUID': ['VM UUID', ''],
  'HypervisorState.APISocket': ['VMM API socket (clh) (1.11.0+)', 'the VMM API socket path; (inferred) the runtime cannot talk to the Cloud Hypervisor API'],
  'HypervisorState.BlockIndex': ['next block drive index (1.7–1.10; replaced by BlockIndexMap in 1.11.0)', 'the used drive indices; (inferred) drive indices may be reused'],
  'HypervisorState.BlockIndexMap': ['used drive indices, object of decimal-string keys with {} values (1.11.0+)', 'the used drive indices; (inferred) drive indices may be reused'],
  'HypervisorState.Bridges': ['PCI/PCIe bridges of the VM', ''],
  'HypervisorState.HotpluggedVCPUs': ['hot-plugged vCPUs', 'the hot-plugged vCPU list; (inferred) vCPU accounting is wrong'],
  'HypervisorState.HotpluggedMemory': ['hot-plugged memory in MiB', 'the hot-plugged memory; (inferred) memory accounting is wrong'],
  'HypervisorState.VirtiofsdPid': ['virtiofsd pid (1.9.0–2.3.x; renamed VirtiofsDaemonPid in 2.4.0)', 'the virtiofsd pid (reader sees 0); (inferred) the daemon is not stopped: leaked after the upgrade/rollback'],
  'HypervisorState.VirtiofsDaemonPid': ['virtiofsd pid (2.4.0+, was VirtiofsdPid)', 'the virtiofsd pid (reader sees 0); (inferred) the daemon is not stopped: leaked after a rollback'],
  'HypervisorState.HotplugVFIOOnRootBus': ['hot-plug VFIO devices on the root bus (≤ 3.1.x; replaced by HotPlugVFIO/ColdPlugVFIO in 3.2.0)', 'the VFIO hot-plug mode'],
  'HypervisorState.HotPlugVFIO': ['VFIO hot-plug port: "root-port", "switch-port", "bridge-port", "no-port" (3.2.0+)', 'the VFIO port mode: "a 3.1 runtime reading a 3.2 file loses the VFIO port mode" (persist-format.md §6)'],
  'HypervisorState.ColdPlugVFIO': ['VFIO cold-plug port: "root-port", "switch-port", "bridge-port", "no-port" (3.2.0+)', 'the VFIO port mode: "a 3.1 runtime reading a 3.2 file loses the VFIO port mode" (persist-format.md §6)'],
  'HypervisorState.PCIeRootPort': ['number of PCIe root ports (int 1.11.0–3.1.x, removed 3.2.0, uint32 again 3.6.0+)', 'the PCIe root-port count'],
  'HypervisorState.PCIeSwitchPort': ['number of PCIe switch ports (3.6.0+)', 'the PCIe switch-port count'],
  'Bridge.DeviceAddr': ['device address → device id, object with decimal-string keys', 'which slots of the bridge are taken'],
  'Bridge.Type': ['bridge type ("pci"/"pcie")', ''],
  'Bridge.ID': ['bridge id', ''],
  'Bridge.Addr': ['bridge address', ''],
  'Bridge.ParentID': ['parent bridge id (4.0.0+)', 'the bridge topology (parent); (inferred) nested bridges are misread'],
  'Bridge.ParentAddr': ['parent bridge address (4.0.0+)', 'the bridge topology (parent address)'],
  'CPUDevice.ID': ['vCPU id', ''],
  // NetworkInfo and endpoints
  'NetworkInfo.NetNsPath': ['network namespace path (≤ 2.3.x; renamed NetworkID in 2.4.0)', 'the netns path: "a 2.3 runtime reading a 2.4 file sees empty NetNsPath" (persist-format.md §6); (inferred) the network cannot be torn down'],
  'NetworkInfo.NetworkID': ['network namespace path (2.4.0+, was NetNsPath)', 'the netns path; (inferred) the network cannot be torn down'],
  'NetworkInfo.NetNsCreated': ['whether the runtime created the netns (≤ 2.3.x; renamed NetworkCreated in 2.4.0)', 'whether the runtime owns the netns; (inferred) a created netns is not removed'],
  'NetworkInfo.NetworkCreated': ['whether the runtime created the netns (2.4.0+, was NetNsCreated)', 'whether the runtime owns the netns; (inferred) a created netns is not removed'],
  'NetworkInfo.NetmonPID': ['netmon pid (≤ 2.3.x; netmon removed in 2.4.0)', 'the netmon pid; (inferred) a netmon process is leaked'],
  'NetworkInfo.InterworkingModel': ['network interworking model (1.7–1.8)', ''],
  'NetworkInfo.Endpoints': ['network endpoints', 'the endpoints; (inferred) interfaces are not removed'],
  'NetworkEndpoint.Type': ['endpoint type: "virtual" (veth), "physical", "vhost-user", "macvlan", "macvtap", "tap", "tuntap", "ipvlan", "vfio"', ''],
  'NetworkEndpoint.ID': ['endpoint id (1.7–1.8)', ''],
  'NetworkEndpoint.Name': ['endpoint name (1.7–1.8)', ''],
  'NetworkEndpoint.Index': ['endpoint index (1.7–1.8)', ''],
  'NetworkEndpoint.Physical': ['physical endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Veth': ['veth endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.VhostUser': ['vhost-user endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.BridgedMacvlan': ['macvlan endpoint (1.9.0–2.3.x; renamed Macvlan in 2.4.0) (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Macvlan': ['macvlan endpoint (2.4.0+, was BridgedMacvlan) (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Macvtap': ['macvtap endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Tap': ['tap endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.IPVlan': ['ipvlan endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Tuntap': ['tuntap endpoint (omitempty)', 'the endpoint details'],
  'NetworkEndpoint.Vfio': ['vfio endpoint (3.10.0+, omitempty)', 'the endpoint details'],
  'PhysicalEndpoint.BDF': ['PCI BDF of the physical NIC', ''],
  'PhysicalEndpoint.Driver': ['host driver of the physical NIC', ''],
  'PhysicalEndpoint.VendorDeviceID': ['vendor/device id of the physical NIC', ''],
  'VethEndpoint.NetPair': ['interface pair (tap + VM interface)', ''],
  'BridgedMacvlanEndpoint.NetPair': ['interface pair', ''],
  'MacvlanEndpoint.NetPair': ['interface pair', ''],
  'IPVlanEndpoint.NetPair': ['interface pair', ''],
  'VhostUserEndpoint.IfaceName': ['interface name', ''],
  'VhostUserEndpoint.PCIAddr': ['guest PCI address as a string (1.9–1.12.x, 2.0.x)', ''],
  'VhostUserEndpoint.PCIPath': ['guest PCI path; always written as {} (1.13.0, 2.1.0+)', 'nothing: the value is always written as {}'],
  'MacvtapEndpoint.PCIAddr': ['guest PCI address as a string (1.9–1.12.x, 2.0.x)', ''],
  'MacvtapEndpoint.PCIPath': ['guest PCI path; always written as {} (1.13.0, 2.1.0+)', 'nothing: the value is always written as {}'],
  'TapEndpoint.TapInterface': ['tap interface', ''],
  'TuntapEndpoint.TuntapInterface': ['tuntap interface', ''],
  'VfioEndpoint.IfaceName': ['interface name', ''],
  'TapInterface.ID': ['interface pair id', ''],
  'TapInterface.Name': ['interface pair name', ''],
  'TapInterface.TAPIface': ['host tap interface', ''],
  'TuntapInterface.Name': ['tuntap name', ''],
  'TuntapInterface.TAPIface': ['host tap interface', ''],
  'NetworkInterfacePair.VirtIface': ['VM-side interface', ''],
  'NetworkInterfacePair.NetInterworkingModel': ['interworking model: 0 default, 1 macvtap, 2 tcfilter, 3 none', ''],
  'NetworkInterface.Name': ['interface name', ''],
  'NetworkInterface.HardAddr': ['MAC address', ''],
  'NetworkInterface.Addrs': ['netlink addresses (IP, Mask base64, Label, Flags, Scope, Peer, Broadcast, PreferedLft, ValidLft)', ''],
  // devices
  'DeviceState.ID': ['device id', ''],
  'DeviceState.Type': ['device type ("block", "vfio", "vhost-user-blk-pci", ...)', ''],
  'DeviceState.DevType': ['"b" or "c"', ''],
  'DeviceState.RefCount': ['reference count', 'the reference count; (inferred) the device may be detached while in use or never'],
  'DeviceState.AttachCount': ['attach count', 'the attach count; (inferred) the device may be detached while in use or never'],
  'DeviceState.Major': ['major number', ''],
  'DeviceState.Minor': ['minor number', ''],
  'DeviceState.ColdPlug': ['device was cold-plugged (1.11.2+)', 'the cold-plug flag; (inferred) a cold-plugged device may be hot-unplugged'],
  'DeviceState.DriverOptions': ['driver options', ''],
  'DeviceState.BlockDrive': ['block drive (omitempty)', 'the block drive'],
  'DeviceState.VFIODevs': ['VFIO devices (omitempty)', 'the VFIO devices'],
  'DeviceState.VhostUserDev': ['vhost-user device (omitempty)', 'the vhost-user device'],
  'BlockDrive.File': ['backing file/device', ''],
  'BlockDrive.Format': ['image format', ''],
  'BlockDrive.ID': ['drive id', ''],
  'BlockDrive.Index': ['drive index', ''],
  'BlockDrive.MmioAddr': ['MMIO address', ''],
  'BlockDrive.PCIAddr': ['guest PCI address as a string (1.7–1.12.x and 2.0.x)', 'the guest PCI address of the drive'],
  'BlockDrive.PCIPath': ['guest PCI path; always written as {} (1.13.0, 2.1.0+)', 'nothing: the value is always written as {}'],
  'BlockDrive.SCSIAddr': ['SCSI address', ''],
  'BlockDrive.NvdimmID': ['NVDIMM id', ''],
  'BlockDrive.VirtPath': ['path inside the VM', ''],
  'BlockDrive.DevNo': ['CCW device number (1.9.0+)', ''],
  'BlockDrive.Pmem': ['persistent memory drive (1.11.0+)', ''],
  'BlockDrive.ShareRW': ['shared read-write (2.5.0+)', ''],
  'BlockDrive.ReadOnly': ['read-only (2.5.0+)', ''],
  'BlockDrive.Swap': ['swap drive (2.5.0+)', ''],
  'BlockDrive.DiscardUnmap': ['discard/unmap (4.0.0+)', ''],
  'VFIODev.ID': ['VFIO device id', ''],
  'VFIODev.Type': ['VFIO device type (integer: 0 error, 1 normal PCI, 2 mediated PCI, 3 mediated AP)', ''],
  'VFIODev.BDF': ['host PCI BDF', ''],
  'VFIODev.SysfsDev': ['sysfs path', ''],
  'VFIODev.DevfsDev': ['devfs path (3.15.0+)', ''],
  'VFIODev.VendorID': ['vendor id (2.5.0+)', ''],
  'VFIODev.DeviceID': ['device id (2.5.0+)', ''],
  'VFIODev.Class': ['PCI class (2.5.0+)', ''],
  'VFIODev.Bus': ['bus (2.5.0+)', ''],
  'VFIODev.GuestPciPath': ['guest PCI path; always written as {} (2.5.0+)', 'nothing: the value is always written as {}'],
  'VFIODev.IsPCIe': ['PCIe device (2.5.0+)', ''],
  'VFIODev.NUMANode': ['NUMA node (3.32.0+)', ''],
  'VFIODev.APDevices': ['AP devices (3.2.0+)', ''],
  'VFIODev.Port': ['PCIe port type (3.2.0+)', 'the port the device is attached to'],
  'VFIODev.Rank': ['rank (3.2.0–3.5.x)', ''],
  'VFIODev.HostPath': ['host path (3.6.0+)', ''],
  'VhostUserDeviceAttrs.DevID': ['device id', ''],
  'VhostUserDeviceAttrs.SocketPath': ['vhost-user socket path', ''],
  'VhostUserDeviceAttrs.Type': ['device type', ''],
  'VhostUserDeviceAttrs.MacAddress': ['MAC address (net devices)', ''],
  'VhostUserDeviceAttrs.PCIAddr': ['guest PCI address as a string (1.11–1.12.x, 2.0.x)', ''],
  'VhostUserDeviceAttrs.PCIPath': ['guest PCI path; always written as {} (1.13.0, 2.1.0+)', 'nothing: the value is always written as {}'],
  'VhostUserDeviceAttrs.Index': ['index (1.11.0+)', ''],
  'VhostUserDeviceAttrs.Tag': ['virtio-fs tag (2.5.0+)', ''],
  'VhostUserDeviceAttrs.Cache': ['virtio-fs cache mode (2.5.0+)', ''],
  'VhostUserDeviceAttrs.CacheSize': ['virtio-fs cache size (2.5.0+)', ''],
  'VhostUserDeviceAttrs.QueueSize': ['queue size (3.1.0+)', ''],
  'VhostUserDeviceAttrs.ReconnectTime': ['reconnect time (3.1.0+)', ''],
  // SandboxConfig
  'SandboxConfig.HypervisorType': ['hypervisor type', ''],
  'SandboxConfig.HypervisorConfig': ['hypervisor configuration (Go names of the configuration.toml hypervisor options)', ''],
  'SandboxConfig.KataAgentConfig': ['agent configuration (omitempty)', ''],
  'SandboxConfig.KataShimConfig': ['kata-shim configuration {Path, Debug} (pointer, may be null, from 1.10.0)', ''],
  'SandboxConfig.NetworkConfig': ['network configuration (empty object until 1.9.x)', ''],
  'SandboxConfig.ShmSize': ['/dev/shm size', ''],
  'SandboxConfig.SharePidNs': ['share the PID namespace', ''],
  'SandboxConfig.Stateful': ['stateful sandbox', ''],
  'SandboxConfig.SystemdCgroup': ['systemd cgroup driver', ''],
  'SandboxConfig.SandboxCgroupOnly': ['sandbox_cgroup_only (1.10.0+)', ''],
  'SandboxConfig.DisableGuestSeccomp': ['disable_guest_seccomp (1.10.0+)', ''],
  'SandboxConfig.EnableVCPUsPinning': ['enable_vcpus_pinning (3.1.0+)', ''],
  'SandboxConfig.GuestSeLinuxLabel': ['guest SELinux label (3.1.0+)', ''],
  'SandboxConfig.Experimental': ['experimental features: bool until 1.9.x, array of feature names from 1.10.0', ''],
  'SandboxConfig.SandboxBindMounts': ['sandbox bind mounts (2.1.1+)', ''],
  'SandboxConfig.ContainerConfigs': ['container configurations {ID, Annotations, RootFs, Resources} (1.10.0+)', ''],
  'SandboxConfig.Cgroups': ['runc cgroup config (json key "cgroups", normally null) (1.11.0+)', ''],
  'SandboxConfig.AgentType': ['agent type (1.x only)', ''],
  'SandboxConfig.ProxyType': ['proxy type (1.x only)', ''],
  'SandboxConfig.ProxyConfig': ['proxy configuration {Path, Debug} (1.x only)', ''],
  'SandboxConfig.ShimType': ['shim type (until 2.0.x)', ''],
  'SandboxConfig.EnableAgentPidNs': ['enable_agent_pidns (1.12–1.13)', ''],
  'SandboxConfig.HyperstartConfig': ['hyperstart agent sockets (1.7–1.9, omitempty)', ''],
  'SandboxConfig.NetworkModel': ['network model (1.7–1.9)', ''],
  'KataAgentConfig.LongLiveConn': ['keep a long-lived agent connection', ''],
  'KataAgentConfig.UseVSock': ['use vsock for the agent (1.x only)', ''],
  'NetworkConfig.NetNSPath': ['netns path (1.10.0–2.3.x; renamed NetworkID in 2.4.0)', 'the configured netns path'],
  'NetworkConfig.NetworkID': ['netns path (2.4.0+, was NetNSPath)', 'the configured netns path'],
  'NetworkConfig.NetNsCreated': ['netns created by the runtime (1.10.0–2.3.x; renamed NetworkCreated in 2.4.0)', 'whether the runtime owns the netns'],
  'NetworkConfig.NetworkCreated': ['netns created by the runtime (2.4.0+, was NetNsCreated)', 'whether the runtime owns the netns'],
  'NetworkConfig.DisableNewNetNs': ['disable_new_netns (1.10.0–2.3.x; renamed DisableNewNetwork in 2.4.0)', 'the disable_new_netns setting'],
  'NetworkConfig.DisableNewNetwork': ['disable_new_netns (2.4.0+, was DisableNewNetNs)', 'the disable_new_netns setting'],
  'NetworkConfig.InterworkingModel': ['interworking model: 0 default, 1 macvtap, 2 tcfilter, 3 none (1.10.0+)', ''],
  'ContainerConfig.ID': ['container id', ''],
  'ContainerConfig.Annotations': ['container annotations', ''],
  'ContainerConfig.RootFs': ['container rootfs', ''],
  'ContainerConfig.Resources': ['OCI LinuxResources (lower-case OCI keys)', ''],
  'ShimConfig.Path': ['kata-shim path', ''],
  'ShimConfig.Debug': ['kata-shim debug', ''],
  'ProxyConfig.Path': ['kata-proxy path', ''],
  'ProxyConfig.Debug': ['kata-proxy debug', ''],
  'HyperstartConfig.SockCtlName': ['hyperstart control socket', ''],
  'HyperstartConfig.SockTtyName': ['hyperstart tty socket', ''],
  'Asset.Custom': ['custom asset (json key "bool")', ''],
  'Asset.Path': ['asset path (json key "path")', ''],
  'Param.Key': ['parameter key', ''],
  'Param.Value': ['parameter value', ''],
  'HypervisorConfig.NumVCPUs': ['default vCPUs, uint32 (≤ 3.2.x; replaced by NumVCPUsF in 3.3.0)', 'the vCPU count of the configuration snapshot (reader sees 0)'],
  'HypervisorConfig.NumVCPUsF': ['default vCPUs, float32 (3.3.0+, fractional vCPUs; was NumVCPUs)', 'the vCPU count of the configuration snapshot (reader sees 0)'],
  'HypervisorConfig.HotplugVFIOOnRootBus': ['hotplug_vfio_on_root_bus (≤ 3.1.x)', 'the VFIO hot-plug setting'],
  'HypervisorConfig.HotPlugVFIO': ['hot_plug_vfio port (3.2.0+)', 'the VFIO port mode of the configuration snapshot'],
  'HypervisorConfig.ColdPlugVFIO': ['cold_plug_vfio port (3.2.0+)', 'the VFIO port mode of the configuration snapshot'],
  'HypervisorConfig.PCIeRootPort': ['pcie_root_port (1.11.0–3.1.x, 3.6.0+)', ''],
  'HypervisorConfig.PCIeSwitchPort': ['pcie_switch_port (3.6.0+)', ''],
  'HypervisorConfig.MemOffset': ['memory_offset (uint32, uint64 since 2.2.0)', ''],
  // §5 ContainerState
  'ContainerState.State': ['container state: "ready", "running", "paused", "stopped"', ''],
  'ContainerState.CgroupPath': ['container cgroup path', 'the container cgroup path'],
  'ContainerState.BundlePath': ['OCI bundle directory', 'the bundle path'],
  'ContainerState.Rootfs': ['block-device rootfs info (empty strings for a shared-fs rootfs)', ''],
  'ContainerState.Process': ['container process {StartTime, Token, Pid}', ''],
  'ContainerState.DeviceMaps': ['device mappings', ''],
  'ContainerState.Mounts': ['mounts', 'the mount list; (inferred) shared mounts are not cleaned up'],
  'RootfsState.BlockDeviceID': ['rootfs block device id', ''],
  'RootfsState.FsType': ['rootfs filesystem type', ''],
  'Process.StartTime': ['process start time, RFC 3339 UTC', ''],
  'Process.Token': ['process token (2.x+: the exec id; the container id for the init process)', ''],
  'Process.Pid': ['process pid (1.x: the kata-shim pid; 2.x+: -1)', ''],
  'DeviceMap.ID': ['device id', ''],
  'DeviceMap.ContainerPath': ['path in the container', ''],
  'DeviceMap.FileMode': ['os.FileMode as an unsigned integer (with Go mode-type bits)', ''],
  'DeviceMap.UID': ['uid', ''],
  'DeviceMap.GID': ['gid', ''],
  'DeviceMap.Shared': ['shared device (3.28.0+)', ''],
  'Mount.Source': ['mount source', ''],
  'Mount.Destination': ['mount destination', ''],
  'Mount.Type': ['mount type', ''],
  'Mount.HostPath': ['host path of the shared mount', ''],
  'Mount.BlockDeviceID': ['block device id', ''],
  'Mount.Options': ['mount options', ''],
  'Mount.ReadOnly': ['read-only', ''],
};
const usedMeanings = new Set();
function meaningOf(info) {
  const k = `${info.owner}.${info.goName}`;
  const hit = M[k];
  if (hit) usedMeanings.add(k);
  let meaning = hit?.[0] || '';
  if (!meaning) {
    if (info.owner === 'HypervisorConfig') meaning = `hypervisor option ${info.goName} of the configuration snapshot (Go name of a configuration.toml hypervisor option)`;
    else meaning = `${info.owner}.${info.goName}: not described further in the material`;
  }
  const zero = info.json.nullable ? 'null' : { string: '""', integer: '0', number: '0', boolean: 'false', object: '{}', array: '[]' }[info.json.type];
  const lost = hit?.[1] || `the ${info.key} value (reader sees ${zero})`;
  return { meaning, lostOnRead: lost, meaningFrom: hit?.[0] ? 'material' : 'generic' };
}

// ---------------------------------------------------------------------------------------------
// collect rows

const perRelease = new Map(persistReleases.map((r) => [r, pathsOf(r)]));
const rowsById = new Map();
for (const r of persistReleases) {
  for (const [id, info] of perRelease.get(r)) {
    if (!rowsById.has(id)) rowsById.set(id, { id, file: info.file, path: info.path, key: info.key, byRelease: new Map() });
    rowsById.get(id).byRelease.set(r, info);
  }
}
const sortRows = (a, b) => cmpStr(a.file === 'sandbox' ? '0' : '1', b.file === 'sandbox' ? '0' : '1') || cmpStr(a.path.join('.'), b.path.join('.'));
const rowList = [...rowsById.values()].sort(sortRows);

const sigOf = (info) => JSON.stringify([info.json, info.goType, info.omitempty]);

// renames (persist-format.md §4/§6, in our words), checked against the struct data below
const RENAMES = [
  { file: 'sandbox', from: ['ProxyState'], to: ['AgentState'], in: '1.9.0', source: `${sec(4)} (AgentState: "1.7–1.8: instead a top-level ProxyState {Pid, URL}"); ${sec(6)} 1.9.0` },
  { file: 'sandbox', from: ['ProxyState', 'Pid'], to: ['AgentState', 'ProxyPid'], in: '1.9.0', source: `${sec(6)} 1.9.0 ("ProxyState→AgentState {ProxyPid, URL}")` },
  { file: 'sandbox', from: ['ProxyState', 'URL'], to: ['AgentState', 'URL'], in: '1.9.0', source: `${sec(6)} 1.9.0` },
  { file: 'sandbox', from: ['HypervisorState', 'BlockIndex'], to: ['HypervisorState', 'BlockIndexMap'], in: '1.11.0', note: 'int → object (map of used indices): not a 1:1 value mapping', source: `${sec(6)} 1.11.0` },
  { file: 'sandbox', from: ['CgroupPath'], to: ['SandboxCgroupPath'], in: '2.3.0', note: 'OverheadCgroupPath added at the same time', source: `${sec(4)} ("replaced 1.x/2.0–2.2 CgroupPath"); ${sec(6)} 2.3.0; ${fact(17)}` },
  { file: 'sandbox', from: ['HypervisorState', 'VirtiofsdPid'], to: ['HypervisorState', 'VirtiofsDaemonPid'], in: '2.4.0', source: `${sec(4)}; ${sec(6)} 2.4.0; ${fact(17)}` },
  { file: 'sandbox', from: ['Network', 'NetNsPath'], to: ['Network', 'NetworkID'], in: '2.4.0', source: `${sec(4)} (NetworkInfo); ${sec(6)} 2.4.0` },
  { file: 'sandbox', from: ['Network', 'NetNsCreated'], to: ['Network', 'NetworkCreated'], in: '2.4.0', source: `${sec(6)} 2.4.0` },
  { file: 'sandbox', from: ['Config', 'NetworkConfig', 'NetNSPath'], to: ['Config', 'NetworkConfig', 'NetworkID'], in: '2.4.0', source: `${sec(6)} 2.4.0 ("NetworkConfig renamed likewise")` },
  { file: 'sandbox', from: ['Config', 'NetworkConfig', 'NetNsCreated'], to: ['Config', 'NetworkConfig', 'NetworkCreated'], in: '2.4.0', source: `${sec(6)} 2.4.0` },
  { file: 'sandbox', from: ['Config', 'NetworkConfig', 'DisableNewNetNs'], to: ['Config', 'NetworkConfig', 'DisableNewNetwork'], in: '2.4.0', source: `${sec(6)} 2.4.0` },
  { file: 'sandbox', from: ['Network', 'Endpoints', '*', 'BridgedMacvlan'], to: ['Network', 'Endpoints', '*', 'Macvlan'], in: '2.4.0', subtree: true, source: `${sec(4)} ("Macvlan {NetPair} (2.4.0+, was BridgedMacvlan)"); ${sec(6)} 2.4.0` },
  ...[
    ['Devices', '*', 'BlockDrive'],
    ['Devices', '*', 'VhostUserDev'],
    ['Network', 'Endpoints', '*', 'Macvtap'],
    ['Network', 'Endpoints', '*', 'VhostUser'],
  ].flatMap((p) => [
    { file: 'sandbox', from: [...p, 'PCIAddr'], to: [...p, 'PCIPath'], in: '1.13.0', note: 'string → {} (PciPath has no JSON marshaller: the address is no longer recorded)', source: `${sec(6)} 1.13.0; ${sec(1)}` },
    { file: 'sandbox', from: [...p, 'PCIPath'], to: [...p, 'PCIAddr'], in: '2.0.0', note: '2.0.x branched before the 1.13 change: in release order PCIPath goes back to PCIAddr', source: `${sec(6)} 2.0.0` },
    { file: 'sandbox', from: [...p, 'PCIAddr'], to: [...p, 'PCIPath'], in: '2.1.0', note: 'string → {} again', source: `${sec(6)} 2.1.0` },
  ]),
  ...[['HypervisorState'], ['Config', 'HypervisorConfig']].flatMap((p) =>
    ['HotPlugVFIO', 'ColdPlugVFIO'].map((n) => ({
      file: 'sandbox',
      from: [...p, 'HotplugVFIOOnRootBus'],
      to: [...p, n],
      in: '3.2.0',
      note: 'bool → PCIePort string (replacement, not a 1:1 rename; the material gives no value mapping for persist.json)',
      source: `${sec(4)} ("replaced bool HotplugVFIOOnRootBus"); ${sec(6)} 3.2.0; ${fact(17)}`,
    })),
  ),
  { file: 'sandbox', from: ['Config', 'HypervisorConfig', 'NumVCPUs'], to: ['Config', 'HypervisorConfig', 'NumVCPUsF'], in: '3.3.0', note: 'uint32 → float32', source: `${sec(4)} ("NumVCPUsF (float32, 3.3.0+; was NumVCPUs uint32)"); ${sec(6)} 3.3.0; ${fact(17)}` },
];
const rowAt = (file, p) => rowsById.get(`${file}|${p.join('\u0000')}`);
const prevPersist = (r) => persistReleases[persistReleases.indexOf(r) - 1];
const renames = [];
for (const rn of RENAMES) {
  const pairs = [[rn.from, rn.to]];
  if (rn.subtree) {
    for (const row of rowList) {
      if (row.file === rn.file && row.path.length > rn.from.length && rn.from.every((s, i) => row.path[i] === s)) pairs.push([row.path, [...rn.to, ...row.path.slice(rn.from.length)]]);
    }
  }
  for (const [from, to] of pairs) {
    const a = rowAt(rn.file, from) ?? fail(`rename: no field ${from.join('.')}`);
    const b = rowAt(rn.file, to) ?? fail(`rename: no field ${to.join('.')}`);
    const prev = prevPersist(rn.in);
    if (!a.byRelease.has(prev) || a.byRelease.has(rn.in) || b.byRelease.has(prev) || !b.byRelease.has(rn.in)) {
      fail(`rename ${from.join('.')} → ${to.join('.')} in ${rn.in} does not match the struct data`);
    }
    renames.push({ file: rn.file, from, to, in: rn.in, ...(rn.note ? { note: rn.note } : {}), source: `${rn.source}; checked against ${FIELDS_FILE} (${prev} / ${rn.in})` });
  }
}

// reader requirements the material states (everything else: silent, zero value when missing)
const REQUIRED = [
  {
    file: 'sandbox',
    path: ['Config'],
    entries: [
      {
        from: '1.10.0',
        to: null,
        what: 'loadSandboxConfig restores the sandbox configuration from Config',
        note: '1.10.0–1.10.x only with the experimental newstore; 1.11.0–1.13.0 fall back to the legacy store (config.json) for sandboxes without it; 2.0.0+ have no fallback. What a reader does with a missing/zero Config is not stated in the material.',
        source: `${sec(3)} (1.10.0: configuration also stored in newstore, runtime commit 7943dd95; 1.11.0 fallback); ${sec(4)} ("used by loadSandboxConfig")`,
      },
    ],
  },
];

// notes per field (where the material is silent or contradicts itself)
const FIELD_NOTES = {
  'sandbox|PersistVersion':
    'Informational only: no loader reads it (runtime 1.13.0 / kc 3.32.0 persist.go). It records the CREATOR: a restored sandbox keeps its version (dumpVersion sets it only when zero), so PersistVersion 1 can sit in a file last written by a 1.9+ runtime.',
  'sandbox|SandboxContainer': 'Writer-side requirement only: saving fails with "sandbox container id required" when empty (persist-format.md §1, fs.go). The material does not say whether a reader needs it.',
  'sandbox|Config':
    'The struct has Config from 1.7.0, but persist-format.md §3 says the configuration is stored in newstore only from 1.10.0 (runtime commit 7943dd95): what 1.7.0–1.9.x write into Config is not stated (the constructed 1.8 example fills it). Contradiction left open.',
  'sandbox|CgroupPaths': 'Not filled by the 3.x dump code, usually null (persist-format.md §4).',
  'sandbox|HypervisorState|PCIeRootPort': 'Removed in 3.2.0 and re-added in 3.6.0 (int before, uint32 after): a gap, not a rename.',
  'sandbox|Config|HypervisorConfig|PCIeRootPort': 'Removed in 3.2.0 and re-added in 3.6.0: a gap, not a rename.',
  'sandbox|Config|Experimental': 'bool until 1.9.x, array of feature names (nullable) from 1.10.0: a 1.9 reader cannot decode an array and vice versa — the material does not say whether such a decode error aborts the load.',
  'container|Process|Pid': 'persist-format.md §5: 2.x+ writes -1 (buildProcessFromExecID, read at kc 3.32.0); 1.x wrote the kata-shim pid.',
};
const fieldNote = (row) => FIELD_NOTES[`${row.file}|${row.path.join('|')}`];

const UPSTREAM_FILE = (owner, r) => {
  const one = semver.lt(r, '2.0.0');
  if (['HypervisorState', 'Bridge', 'CPUDevice'].includes(owner) && !one && semver.gte(r, '2.4.0')) return 'kc src/runtime/pkg/hypervisors/hypervisor_state.go';
  if (['DeviceState', 'BlockDrive', 'VFIODev', 'VhostUserDeviceAttrs'].includes(owner) && !one && semver.gte(r, '2.5.0')) return 'kc src/runtime/pkg/device/config/config.go';
  return one ? 'runtime virtcontainers/persist/api/*.go' : 'kc src/runtime/virtcontainers/persist/api/*.go';
};

const fields = [];
for (const row of rowList) {
  const present = [...row.byRelease.keys()];
  const writtenBy = rangesOf(present);
  // types: runs of identical (json, goType, omitempty)
  const types = [];
  for (const r of persistReleases) {
    const info = row.byRelease.get(r);
    const last = types.at(-1);
    if (!info) {
      if (last) last.closed = true;
      continue;
    }
    if (last && !last.closed && last.sig === sigOf(info)) last._to = r;
    else types.push({ sig: sigOf(info), info, from: r, _to: r });
  }
  const newest = row.byRelease.get(present.at(-1));
  const { meaning, lostOnRead, meaningFrom } = meaningOf(newest);
  const owners = [...new Set([...row.byRelease.values()].map((i) => `${i.owner}.${i.goName}`))];
  const rowRenames = renames.filter((x) => x.file === row.file && (x.from.join('.') === row.path.join('.') || x.to.join('.') === row.path.join('.'))).map(({ from, to, in: inn }) => ({ from, to, in: inn }));
  const req = REQUIRED.find((q) => q.file === row.file && q.path.join('.') === row.path.join('.'));
  const note = fieldNote(row);
  const files = [...new Set(present.map((r) => UPSTREAM_FILE(row.byRelease.get(r).owner, r)))];
  fields.push({
    file: row.file,
    path: row.path,
    name: row.key,
    goField: owners.length === 1 ? owners[0] : owners,
    writtenBy,
    readBy: writtenBy,
    types: types.map((t) => {
      const j = t.info.json;
      return {
        type: j.type,
        ...(j.items ? { items: j.items } : {}),
        ...(j.values ? { values: j.values } : {}),
        ...(j.nullable ? { nullable: true } : {}),
        ...(j.unsigned ? { unsigned: true } : {}),
        ...(t.info.omitempty ? { omitempty: true } : {}),
        goType: t.info.goType,
        ...(t.info.node.opaque ? { opaque: OPAQUE[t.info.node.opaque].note } : {}),
        from: t.from,
        to: openEnd(t._to),
      };
    }),
    renames: rowRenames,
    required: req ? req.entries : [],
    meaning,
    meaningFrom,
    lostOnRead,
    ...(note ? { note } : {}),
    source: `${FIELDS_FILE} structsByRelease ${owners.join(' / ')} (${rangesText(writtenBy)}; upstream ${files.join(', ')})${M[owners[0]]?.[0] ? `; meaning: ${row.file === 'container' ? sec(5) : sec(4)}` : ''}`,
  });
}
for (const k of Object.keys(M)) if (!usedMeanings.has(k)) fail(`meaning for ${k} matches no field`);

// ---------------------------------------------------------------------------------------------
// facts that must hold (the lead's brief and skew-facts section C)

const fieldRow = (file, ...p) => fields.find((f) => f.file === file && f.path.join('.') === p.join('.')) ?? fail(`no field ${p.join('.')}`);
const firstWritten = (f) => f.writtenBy[0].from;
if (firstWritten(fieldRow('sandbox', 'HypervisorState', 'VirtiofsDaemonPid')) !== '2.4.0') fail('VirtiofsDaemonPid not first written in 2.4.0');
if (firstWritten(fieldRow('sandbox', 'Config', 'HypervisorConfig', 'NumVCPUsF')) !== '3.3.0') fail('NumVCPUsF not from 3.3.0');
if (firstWritten(fieldRow('sandbox', 'SandboxCgroupPath')) !== '2.3.0') fail('SandboxCgroupPath not from 2.3.0');
if (firstWritten(fieldRow('sandbox', 'HypervisorState', 'HotPlugVFIO')) !== '3.2.0') fail('HotPlugVFIO not from 3.2.0');
if (firstWritten(fieldRow('sandbox', 'AgentState')) !== '1.9.0') fail('AgentState not from 1.9.0');

// ---------------------------------------------------------------------------------------------
// layout changes between consecutive releases (derived)

const layoutChanges = [];
for (let i = 1; i < persistReleases.length; i++) {
  const r = persistReleases[i];
  const a = perRelease.get(persistReleases[i - 1]);
  const b = perRelease.get(r);
  const strp = (info) => ({ file: info.file, path: info.path });
  const added = [...b.keys()].filter((k) => !a.has(k)).map((k) => strp(b.get(k)));
  const removed = [...a.keys()].filter((k) => !b.has(k)).map((k) => strp(a.get(k)));
  const retyped = [...b.keys()]
    .filter((k) => a.has(k) && sigOf(a.get(k)) !== sigOf(b.get(k)))
    .map((k) => {
      const [x, y] = [a.get(k).json, b.get(k).json];
      return { ...strp(b.get(k)), fromGoType: a.get(k).goType, toGoType: b.get(k).goType, jsonChanged: JSON.stringify(x) !== JSON.stringify(y), jsonTypeChanged: x.type !== y.type || x.items !== y.items || x.values !== y.values || !!x.nullable !== !!y.nullable };
    });
  if (added.length || removed.length || retyped.length) layoutChanges.push({ in: r, after: persistReleases[i - 1], added, removed, retyped });
}
const breaking = (c) => c.removed.length > 0 || c.retyped.some((x) => x.jsonTypeChanged);
const materialChangeReleases = Object.keys(fieldsByRelease.changesByRelease).sort(semver.compare);
const derivedChangeReleases = layoutChanges.map((c) => c.in);
const onlyMaterial = materialChangeReleases.filter((r) => !derivedChangeReleases.includes(r));
const onlyDerived = derivedChangeReleases.filter((r) => !materialChangeReleases.includes(r));

// ---------------------------------------------------------------------------------------------
// eras

const ERAS = [
  { start: '1.7.0', persistVersion: 1, summary: 'persist package introduced, CurPersistVersion 1 (runtime commit e14ffb40 "persist: baseline persist data format"): top-level ProxyState, HypervisorState.BlockIndex, untyped network endpoints', source: `${sec(2)}; ${sec(6)} 1.7.0; ${fact(16)}` },
  { start: '1.9.0', persistVersion: 2, summary: 'CurPersistVersion 2 (runtime commit 0075bf85): ProxyState → AgentState {ProxyPid, URL}; HypervisorState Type + VirtiofsdPid; typed NetworkEndpoint members', source: `${sec(2)}; ${sec(6)} 1.9.0; ${fact(16)}` },
  { start: '2.0.0', persistVersion: 2, summary: 'kata-containers 2.0 (no bump): AgentState.ProxyPid and proxy/agent-type fields removed, UseVSock removed, PCIPath back to PCIAddr (2.0.x branched before the 1.13 change)', source: `${sec(6)} 2.0.0` },
  { start: '2.3.0', persistVersion: 2, summary: 'no bump: CgroupPath → SandboxCgroupPath + OverheadCgroupPath', source: `${sec(6)} 2.3.0; ${fact(17)}` },
  { start: '2.4.0', persistVersion: 2, summary: 'no bump: NetworkInfo/NetworkConfig NetNs* → Network*, BridgedMacvlan → Macvlan, VirtiofsdPid → VirtiofsDaemonPid, NetmonPID removed', source: `${sec(6)} 2.4.0; ${fact(17)}` },
  { start: '3.2.0', persistVersion: 2, summary: 'no bump: HotplugVFIOOnRootBus + PCIeRootPort → HotPlugVFIO / ColdPlugVFIO (HypervisorState and Config.HypervisorConfig)', source: `${sec(6)} 3.2.0; ${fact(17)}` },
  { start: '3.3.0', persistVersion: 2, summary: 'no bump: Config.HypervisorConfig NumVCPUs (uint32) → NumVCPUsF (float32)', source: `${sec(6)} 3.3.0; ${fact(17)}` },
  { start: '4.0.0', persistVersion: 2, summary: 'no bump: BlockDrive DiscardUnmap; Bridge ParentID, ParentAddr', source: `${sec(6)} 4.0.0` },
];
const eraStarts = new Set(ERAS.map((e) => e.start));
const eraId = (e) => `v${e.persistVersion}-${e.start.split('.').slice(0, 2).join('.')}`;
const eraReleases = ERAS.map((e, i) => persistReleases.filter((r) => semver.gte(r, e.start) && (i + 1 === ERAS.length || semver.lt(r, ERAS[i + 1].start))));
const NEWSTORE_DEFAULT = '1.11.0';
const eras = ERAS.map((e, i) => {
  const rs = eraReleases[i];
  const id = eraId(e);
  const change = layoutChanges.find((c) => c.in === e.start);
  if (i > 0 && !change) fail(`era ${id}: the struct data shows no change at ${e.start}`);
  const eraFields = [];
  for (const f of fields) {
    const row = rowAt(f.file, f.path);
    const inEra = rs.filter((r) => row.byRelease.has(r));
    if (!inEra.length) continue;
    const infos = inEra.map((r) => row.byRelease.get(r));
    const typesIn = [...new Set(infos.map((x) => x.json.type))];
    const items = [...new Set(infos.map((x) => x.json.items).filter(Boolean))];
    const values = [...new Set(infos.map((x) => x.json.values).filter(Boolean))];
    const nullable = infos.some((x) => x.json.nullable);
    const omitempty = infos.every((x) => x.omitempty);
    const always = inEra.length === rs.length && infos.every((x) => !x.omitempty);
    eraFields.push({
      file: f.file,
      path: f.path,
      name: f.name,
      type: typesIn.length === 1 ? typesIn[0] : typesIn,
      ...(items.length ? { items: items.length === 1 ? items[0] : items } : {}),
      ...(values.length ? { values: values.length === 1 ? values[0] : values } : {}),
      ...(nullable ? { nullable: true } : {}),
      ...(infos.some((x) => x.json.unsigned) && infos.every((x) => x.json.unsigned) ? { unsigned: true } : {}),
      ...(omitempty ? { omitempty: true } : {}),
      ...(inEra.length < rs.length ? { inEra: rangesOf(inEra) } : {}),
      alwaysWritten: always,
      meaning: f.meaning,
      lostOnRead: f.lostOnRead,
    });
  }
  const newstore = [];
  const exp = rs.filter((r) => semver.lt(r, NEWSTORE_DEFAULT));
  const def = rs.filter((r) => semver.gte(r, NEWSTORE_DEFAULT));
  if (exp.length) newstore.push({ ...rangesOf(exp)[0], condition: 'only with the experimental feature "newstore" enabled; otherwise the legacy store is used' });
  if (def.length) newstore.push({ ...rangesOf(def)[0], condition: 'default' });
  return {
    id,
    persistVersion: e.persistVersion,
    writtenBy: { from: rs[0], to: openEnd(rs.at(-1)) },
    releases: rs,
    writtenWhen: newstore,
    files: ['sandbox persist.json', 'container persist.json'],
    locations: { sandbox: '/run/vc/sbs/<sandbox-id>/persist.json', container: '/run/vc/sbs/<sandbox-id>/<container-id>/persist.json' },
    summary: e.summary,
    ...(change ? { changedAt: { added: change.added.length, removed: change.removed.length, retyped: change.retyped.length } } : {}),
    changesInside: layoutChanges.filter((c) => rs.includes(c.in) && c.in !== e.start).map((c) => c.in),
    fields: eraFields,
    source: `${e.source}; fields: ${FIELDS_FILE} structsByRelease ${rs[0]}…${rs.at(-1)}`,
  };
});

// ---------------------------------------------------------------------------------------------
// era markers (derived): which eras can contain a field / must contain it when its parent exists

const allEraIds = eras.map((e) => e.id);
const eraMarkers = [];
for (const f of fields) {
  const present = eras.filter((e) => e.fields.some((x) => x.file === f.file && x.path.join('.') === f.path.join('.')));
  const presentIds = present.map((e) => e.id);
  const absentRulesOut = present.filter((e) => e.fields.find((x) => x.file === f.file && x.path.join('.') === f.path.join('.')).alwaysWritten).map((e) => e.id);
  // JSON type per era, when it differs between eras
  const typeByEra = present.map((e) => {
    const x = e.fields.find((y) => y.file === f.file && y.path.join('.') === f.path.join('.'));
    return { era: e.id, type: x.type };
  });
  const distinctTypes = [...new Set(typeByEra.map((t) => JSON.stringify(t.type)))];
  const informativePresence = presentIds.length < allEraIds.length;
  const informativeAbsence = absentRulesOut.length > 0 && absentRulesOut.length < allEraIds.length && informativePresence;
  if (!informativePresence && distinctTypes.length < 2) continue;
  const w = f.writtenBy;
  eraMarkers.push({
    kind: 'presence',
    file: f.file,
    path: f.path,
    name: f.name,
    presentIn: presentIds,
    pins: rangesText(w),
    ...(informativeAbsence ? { absentRulesOut } : {}),
    ...(distinctTypes.length > 1
      ? {
          byType: distinctTypes.map((t) => ({ type: JSON.parse(t), eras: typeByEra.filter((x) => JSON.stringify(x.type) === t).map((x) => x.era) })),
        }
      : {}),
    writtenBy: w,
    source: 'derived from fields[].writtenBy / eras[].fields',
  });
}
// value markers stated in the material (they pin the CREATOR or a writer generation, not the layout)
const valueMarkers = [
  { kind: 'value', file: 'sandbox', path: ['PersistVersion'], value: 1, createdBy: { from: '1.7.0', to: lastOfMinor('1.8') }, note: 'pins the release that CREATED the sandbox, not the last writer (dumpVersion keeps it on restore)', source: `${sec(2)}; ${fact(16)}` },
  { kind: 'value', file: 'sandbox', path: ['PersistVersion'], value: 2, createdBy: { from: '1.9.0', to: null }, note: 'pins the creator only: every release from 1.9.0 to 4.1.0 writes 2', source: `${sec(2)}; ${fact(16)}` },
  { kind: 'value', file: 'container', path: ['Process', 'Pid'], value: -1, writtenBy: { from: '2.0.0', to: null }, note: 'persist-format.md §5 says "in 2.x+" but cites only kc 3.32.0 (kata_agent.go buildProcessFromExecID); 1.x wrote the kata-shim pid. 2.0.0 as the start is the material\'s wording, not checked per release.', source: sec(5) },
];

// ---------------------------------------------------------------------------------------------
// PersistVersion and legacy store (own words; persist-format.md §2/§3, skew-facts 16–18)

const persistVersion = {
  values: [
    { value: null, from: releases[0], to: lastOfMinor('1.6'), note: 'no persist package (virtcontainers/persist/api absent in runtime tags ≤ 1.6.x): no persist.json' },
    { value: 1, from: '1.7.0', to: lastOfMinor('1.8'), source: `${sec(2)} (runtime commit e14ffb40; version.go = 1 at 1.7.0, 1.8.0); ${fact(16)}` },
    { value: 2, from: '1.9.0', to: null, source: `${sec(2)} (runtime commit 0075bf85, first tags 1.9.0-alpha1 / 1.9.0; kc version.go still 2 at 2.0.0, 2.5.2, 3.0.0, 3.2.0, 3.10.0, 3.20.0, 3.32.0, 4.1.0); ${fact(16)}` },
  ],
  checkedByLoader: false,
  checkedByLoaderSource: `${sec(2)} (runtime 1.13.0 virtcontainers/persist.go, kc 3.32.0 src/runtime/virtcontainers/persist.go); ${fact(17)}`,
  keptOnRestore: true,
  keptOnRestoreSource: `${sec(2)} (persist.go dumpVersion: only set when zero)`,
  onlyIn: 'sandbox persist.json (SandboxState.PersistVersion); container files carry no version',
  identifiesLayout: false,
  note: 'The layout changed without a bump at 2.0, 2.3, 2.4, 3.2, 3.3, 4.0 (and, per field, at more releases: layoutChanges). PersistVersion 2 therefore does not identify a schema; the writer\'s release does. The material checked version.go = 1 only at 1.7.0 and 1.8.0, and = 2 at the kc tags listed: values in between are the material\'s "1.7.0 – 1.8.x" / "every kc tag" ranges.',
};

const legacyStore = {
  description: 'Legacy VCStore (runtime ≤ 1.13.0, virtcontainers/store/): one JSON file per item instead of persist.json.',
  files: [
    { file: 'config.json', item: 'Configuration', root: '/var/lib/vc/sbs/<sandbox-id>/ (containers: .../<container-id>/)' },
    { file: 'state.json', item: 'State', root: '/run/vc/sbs/<sandbox-id>/ (containers: .../<container-id>/)' },
    { file: 'network.json', item: 'Network', root: '/run/vc/sbs/<sandbox-id>/' },
    { file: 'hypervisor.json', item: 'Hypervisor', root: '/run/vc/sbs/<sandbox-id>/' },
    { file: 'agent.json', item: 'Agent', root: '/run/vc/sbs/<sandbox-id>/' },
    { file: 'process.json', item: 'Process', root: '/run/vc/sbs/<sandbox-id>/<container-id>/' },
    { file: 'lock', item: 'Lock', root: '/run/vc/sbs/<sandbox-id>/' },
    { file: 'mounts.json', item: 'Mounts', root: '/run/vc/sbs/<sandbox-id>/<container-id>/' },
    { file: 'devices.json', item: 'Devices / DeviceIDs', root: '/run/vc/sbs/<sandbox-id>/ (sandbox device manager; container device ids)' },
    { file: 'uuid.json', item: 'UUID', root: '/var/lib/vc/uuid/' },
  ],
  filesSource: `${sec(3)} (runtime 1.13.0 virtcontainers/store/filesystem_backend.go, vc.go)`,
  writtenBy: [
    { from: releases[0], to: '1.10.8', note: 'the default store; from 1.7.0 persist.json instead only with the experimental "newstore" feature (1.9.0: hypervisor.json, agent.json, network.json folded into persist.json under newstore)' },
    { from: NEWSTORE_DEFAULT, to: '1.13.0', note: 'newstore is the default from 1.11.0; whether 1.11–1.13 still WRITE legacy files is not stated (commit 290339da "keep oldstore for compatibility" is described as a read fallback)' },
  ],
  readBy: [
    { from: releases[0], to: '1.10.8', note: 'primary store (unless newstore is enabled, 1.7.0+)' },
    { from: NEWSTORE_DEFAULT, to: '1.13.0', note: 'fallback only: a 1.11+ runtime first tries persist.json, then the legacy store (loadSandboxConfigFromOldStore, context flag useOldStore) for sandboxes created by older runtimes' },
  ],
  notReadFrom: '2.0.0',
  notReadFromSource: `${sec(3)} (kc commit 5200ac0678 "runtime: remove old store", 2 Jul 2020; first tags 2.0.0-rc0/2.0.0; src/runtime/virtcontainers/store/ absent in 2.0.0); ${fact(18)}`,
  upgradeFailure: {
    statement: 'A 2.x runtime cannot read a 1.x (pre-1.11) legacy-store sandbox.',
    message: null,
    note: 'The material quotes no error message for this case.',
    source: sec(3),
  },
  note: 'The file list is the 1.13.0 layout; the material does not give the store\'s history before 1.13.0 (writtenBy from 1.0.0 assumes the legacy store is the only store before the persist package of 1.7.0). 1.10.8 = the last 1.10.x release in the universe.',
};
if (lastOfMinor('1.10') !== '1.10.8') fail('1.10.x last release changed');

// ---------------------------------------------------------------------------------------------
// output

const out = {
  description:
    'Kata Containers Go-runtime persist.json (sandbox state /run/vc/sbs/<sandbox-id>/persist.json and per-container state /run/vc/sbs/<sandbox-id>/<container-id>/persist.json): layout eras, every JSON field path with the releases that write and read it, the PersistVersion history, the legacy VCStore and era markers. runtime-rs does not write this format. Generated by scripts/import-kata-persist.mjs from shared/reference/kata (see sourcesRead); do not edit by hand.',
  asOf: NEWEST,
  asOfNote: `Same as data/kata/config.json: the newest release the material covers (${NEWEST}${upstream[NEWEST] ? `, commit ${upstream[NEWEST]}` : ''}).`,
  legend: {
    releases: 'the release universe is data/kata/config.json `releases` (127 tags); persist.json exists from 1.7.0 (persistReleases)',
    'from/to': 'inclusive release tags of that universe; to null = still true in the newest release (asOf)',
    file: '"sandbox" = SandboxState (the sandbox persist.json), "container" = ContainerState (a container persist.json)',
    path: 'JSON keys from the top of the file; "*" = any element of an array or any value of a map (JSON key = Go field name unless a json tag renames it; embedded structs flattened)',
    'fields[].writtenBy': 'releases whose Go struct has the field: encoding/json writes every non-omitempty field (nil slice/map/pointer as null)',
    'fields[].readBy': 'the same releases: the loader decodes into the same structs with encoding/json, so a release without the field drops it silently and a missing field is the zero value',
    'fields[].types': 'JSON type per release range (+ items/values for arrays/maps, nullable, unsigned, omitempty = absent when empty/nil, goType, opaque = a foreign type kept as a whole)',
    'fields[].required': 'where the material says a reader needs the field (reader releases); empty = the material does not say (missing → zero value)',
    'fields[].meaningFrom': 'material = persist-format.md §4/§5 in our words; generic = the material gives no meaning beyond the Go name',
    'fields[].lostOnRead': 'what a release without the field loses when it reads a file that has it; "(inferred)" marks consequences the material does not state',
    'eras[].fields[].alwaysWritten': 'every release of the era writes the key whenever its parent object is written (non-omitempty): its absence rules the era out',
    'eras[].fields[].inEra': 'only part of the era writes the field (ranges); omitted = the whole era',
    eraMarkers: 'kind presence: a field only some eras can contain (presentIn), absentRulesOut = eras that always write it when the parent object exists, byType = JSON type per era when it differs; kind value: a value the material ties to releases',
    layoutChanges: 'derived from the struct data: every release whose JSON layout differs from the previous release (semver order; 2.0.x branched before 1.13.0); retyped[].jsonChanged = the JSON description differs (incl. signedness), jsonTypeChanged = the JSON type/nullability differs',
  },
  sourcesRead: [
    { name: FIELDS_FILE, copy: `shared/reference/kata/${FIELDS_FILE}`, note: fieldsByRelease.description },
    { name: FORMAT, copy: `shared/reference/kata/${FORMAT}`, note: 'hand-written from the upstream Go sources; used: §1 encoding rules, §2 CurPersistVersion, §3 legacy store, §4/§5 meanings, §6 changes' },
    { name: FACTS, copy: `shared/reference/kata/${FACTS}`, note: 'used: section C, facts 16–18' },
    { name: EXAMPLES, copy: `shared/reference/kata/${EXAMPLES}/`, note: 'CONSTRUCTED examples, copied to test/fixtures/kata/persist-examples/' },
  ],
  persistReleases,
  eras,
  fields,
  renames,
  persistVersion,
  legacyStore,
  eraMarkers: [...eraMarkers, ...valueMarkers],
  layoutChanges,
  notes: [
    `Eras follow the lead's boundaries (1.9.0 bump; 2.0, 2.3, 2.4, 3.2, 3.3, 4.0 without bump). The struct data changes at ${derivedChangeReleases.length} releases (${derivedChangeReleases.join(', ')}); the non-boundary ones stay inside their era and show in the per-field ranges (eras[].changesInside, eras[].fields[].inEra). ` +
      `Boundaries that only ADD fields: ${layoutChanges.filter((c) => eraStarts.has(c.in) && !breaking(c)).map((c) => c.in).join(', ') || 'none'}. ` +
      `Non-boundary releases that REMOVE/RENAME a field or change its JSON type: ${layoutChanges.filter((c) => !eraStarts.has(c.in) && breaking(c)).map((c) => `${c.in} (${[...c.retyped.filter((x) => x.jsonTypeChanged).map((x) => `~${x.path.join('.')}`), ...c.removed.map((x) => `-${x.path.join('.')}`)].slice(0, 3).join(' ')}${c.removed.length + c.retyped.filter((x) => x.jsonTypeChanged).length > 3 ? ' …' : ''})`).join('; ')}. ` +
      'The material itself (persist-format.md §6, skew-facts #17) names 2.3.0, 2.4.0, 3.2.0, 3.3.0 as the no-bump renames; it does not single out 2.0 or 4.0.',
    onlyMaterial.length || onlyDerived.length
      ? `persist-fields-by-release.json changesByRelease lists changes at ${materialChangeReleases.join(', ')}; the layout derived from structsByRelease changes at ${derivedChangeReleases.join(', ')}${onlyMaterial.length ? ` (only in changesByRelease: ${onlyMaterial.join(', ')} — Go-type-only or unreachable-struct changes)` : ''}${onlyDerived.length ? ` (only derived: ${onlyDerived.join(', ')})` : ''}.`
      : 'persist-fields-by-release.json changesByRelease and the layout derived from structsByRelease change at the same releases.',
    'persist.json is written by 1.7.0–1.10.x only with the experimental "newstore" feature enabled; from 1.11.0 it is the default (persist-format.md §3).',
    'readBy = writtenBy for every field: the material does not break down which decoded fields the restore code actually uses (e.g. CgroupPaths is decoded but usually null).',
    'Process.Pid = -1 in the container file and the PCIPath {} encoding are stated for the versions the material read (kc 3.32.0, runtime 1.13.0); other releases are assumed alike.',
    'The material names no persist.json decode error for a type change (Experimental bool → array in 1.10.0, BlockIndex → BlockIndexMap): encoding/json would fail on a JSON type mismatch, but whether the runtime aborts the load is not stated.',
    'The constructed examples are not captures; their README names the layout (release) of each file but lists no expected findings.',
  ],
};
fs.mkdirSync(path.dirname(outFile), { recursive: true });
fs.writeFileSync(outFile, JSON.stringify(out, null, 2) + '\n');
console.log(
  `wrote ${path.relative(repoRoot, outFile)}: ${eras.length} eras, ${fields.length} fields (${fields.filter((f) => f.file === 'sandbox').length} sandbox, ${fields.filter((f) => f.file === 'container').length} container), ${renames.length} renames, ${out.eraMarkers.length} era markers, ${layoutChanges.length} layout changes`,
);

// ---------------------------------------------------------------------------------------------
// fixtures: verbatim copy of persist-examples/ + SOURCES.md

const exDir = path.join(refDir, EXAMPLES);
fs.rmSync(fixturesDir, { recursive: true, force: true });
fs.mkdirSync(fixturesDir, { recursive: true });
const copied = [];
for (const name of fs.readdirSync(exDir).sort()) {
  const abs = path.join(exDir, name);
  if (!fs.statSync(abs).isFile()) fail(`${EXAMPLES}/${name} is not a file`);
  fs.writeFileSync(path.join(fixturesDir, name), fs.readFileSync(abs));
  copied.push({ name, bytes: fs.statSync(abs).size });
}
const EXPECTED_ERA = {
  'v1-runtime-1.8-sandbox.persist.json': ['sandbox', 'v1-1.7', 'runtime 1.7.x–1.8.x'],
  'v2-runtime-1.13-sandbox.persist.json': ['sandbox', 'v2-1.9', 'runtime 1.13.0'],
  'v2-kata-3.32-sandbox.persist.json': ['sandbox', 'v2-3.3', 'kata-containers 3.32.0 (valid for 3.6.0–3.32.x)'],
  'v2-kata-3.32-container.persist.json': ['container', 'v2-3.3', 'kata-containers 3.32.0 ContainerState'],
};
for (const c of copied) if (c.name.endsWith('.json') && !EXPECTED_ERA[c.name]) fail(`no expected era for ${c.name}`);
const md = `# Sources — Kata Containers persist.json examples

Every file here except this SOURCES.md is a byte-identical copy of
\`shared/reference/kata/persist-examples/\` (written by \`node scripts/import-kata-persist.mjs\`; do
not edit by hand). The examples are **CONSTRUCTED, not captured** from a running system: the
reference material generated them with \`tools/kata/make_persist_examples.py\` from the struct
field lists in \`persist-fields-by-release.json\` (see \`README.md\` here, copied verbatim).

| file | bytes | kind | era (data/kata/persist.json) | layout per README.md |
|---|---|---|---|---|
${copied.map((c) => (EXPECTED_ERA[c.name] ? `| \`${c.name}\` | ${c.bytes} | ${EXPECTED_ERA[c.name][0]} | \`${EXPECTED_ERA[c.name][1]}\` | ${EXPECTED_ERA[c.name][2]} |` : `| \`${c.name}\` | ${c.bytes} | — | — | — |`)).join('\n')}

The era column maps README.md's release to the eras of \`data/kata/persist.json\`; the README lists
no expected findings. Used by \`test/kata-persist-data.test.mjs\`.
`;
fs.writeFileSync(path.join(fixturesDir, 'SOURCES.md'), md);
console.log(`copied ${copied.length} files to ${path.relative(repoRoot, fixturesDir)}`);
