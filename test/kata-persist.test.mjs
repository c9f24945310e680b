// Kata persist.json (and the legacy store before it) through the engine, lsp-lint and the language server: the four
// constructed examples of test/fixtures/kata/persist-examples/ (see its README: built from the struct lists, not
// captured) under their own release and eight other windows, mutations of them (a wrong type, an old file under a new
// window, a legacy-store directory, a truncated file, a 20 MB file), the rename fix, PersistVersion, hover, the JSON
// report's facts, recognition, and the real server. Every expected finding was reviewed against
// data/kata/persist.json: the test "every finding on the examples is what the data says" recomputes the dropped fields
// and type clashes from the data with semver, independently of the engine.
// Uses the built dist/ (run `node scripts/build.mjs` first). Writes only to temporary folders.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import semver from 'semver';
import { repoRoot, engine as e, applyEdits } from './helpers/k8s.mjs';
import { LspClient, makeWorkspace, uriOf, serverJs } from './helpers/lsp-client.mjs';

assert.ok(fs.existsSync(serverJs), `${serverJs} is missing: run node scripts/build.mjs first`);

const examples = path.join(repoRoot, 'test', 'fixtures', 'kata', 'persist-examples');
const data = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'persist.json'), 'utf8'));
const RELEASES = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kata', 'config.json'), 'utf8')).releases.map((r) => r.version ?? r);

const SID = '6f2b3c1d8e9a4b5c6d7e8f9012345678abcdef0123456789abcdef0123456789';
const CID = '0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9';
const SANDBOX = `/run/vc/sbs/${SID}/persist.json`;
const CONTAINER = `/run/vc/sbs/${SID}/${CID}/persist.json`;
const FILES = {
  v18: { name: 'v1-runtime-1.8-sandbox.persist.json', path: SANDBOX, own: '1.8' },
  v113: { name: 'v2-runtime-1.13-sandbox.persist.json', path: SANDBOX, own: '1.13' },
  v332: { name: 'v2-kata-3.32-sandbox.persist.json', path: SANDBOX, own: '3.32' },
  c332: { name: 'v2-kata-3.32-container.persist.json', path: CONTAINER, own: '3.32' },
};
const text = (k) => fs.readFileSync(path.join(examples, FILES[k].name), 'utf8');

function lint(src, { file = SANDBOX, window } = {}) {
  return e.analyze({ path: file, text: src, config: e.resolveConfig({ cli: window ? { kataWindow: window } : {} }) });
}
/** "line:col severity rule subject", 1-based; the subject is the field path (or PersistVersion), "→ name" when a rename fix is offered. */
const fmt = (d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.ruleId.replace('kata-persist/', '')} ${d.message.split(/[ :]/)[0]}`
  + (d.fixes?.length ? ` → ${d.fixes[0].edits[0].newText.replace(/"/g, '')}` : '');
const findings = (r) => r.diagnostics.map(fmt);
const lineCol = (src, needle, from = 0) => {
  const off = src.indexOf(needle, from);
  assert.ok(off >= 0, needle);
  const before = src.slice(0, off).split('\n');
  return `${before.length}:${before[before.length - 1].length + 1}`;
};

function lspLint(args, cwd = repoRoot) {
  const r = spawnSync(process.execPath, [path.join(repoRoot, 'bin', 'lsp-lint.js'), ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 30, timeout: 300000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
const tmp = (t) => {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-persist-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
};
const write = (file, content) => { fs.mkdirSync(path.dirname(file), { recursive: true }); fs.writeFileSync(file, content); return file; };

// ---------------------------------------------------------------------------------------------
// 1. The constructed examples under their own release and eight windows

// Reviewed against data/kata/persist.json (and recomputed from it by the next test). Notes:
// - The container file's fields are all read by 1.7.0–today (no container era marker applies, DeviceMaps is empty),
//   so it is consistent with every era and clean in every window.
// - Config.Experimental: bool up to 1.9.7, []string from 1.10.0 — the one error of the 1.x files in other windows.
// - Renames with a fix keep the type (CgroupPath ↔ SandboxCgroupPath, VirtiofsdPid ↔ VirtiofsDaemonPid, NetNsPath ↔
//   NetworkID, NumVCPUs ↔ NumVCPUsF when the value is an integer, AgentState {URL} → ProxyState under 1.8); none for
//   BlockIndex ↔ BlockIndexMap (int vs map), HotplugVFIOOnRootBus ↔ Hot/ColdPlugVFIO (bool vs string, and two
//   fields to one), or the 1.13 AgentState {ProxyPid, URL} → ProxyState {Pid, URL} (ProxyPid would be dropped).
// - A PersistVersion 1 file under 2.x and a 2 under 1.8 get the persist-version warning; nothing else does.
const EXPECTED = {
  '1.8': {
    v18: { eras: ["v1-1.7"], findings: [] },
    v113: { eras: ["v2-1.9"], findings: [
      '2:3 warning field-not-read AgentState',
      '4:5 warning field-not-read AgentState.URL',
      '11:5 warning field-not-read Config.ContainerConfigs',
      '13:9 warning field-not-read Config.ContainerConfigs[0].Annotations',
      '16:9 warning field-not-read Config.ContainerConfigs[0].ID',
      '18:9 warning field-not-read Config.ContainerConfigs[0].RootFs',
      '21:5 warning field-not-read Config.DisableGuestSeccomp',
      '23:21 error field-type-mismatch Config.Experimental',
      '54:7 warning field-not-read Config.HypervisorConfig.HypervisorPathList',
      '73:7 warning field-not-read Config.HypervisorConfig.SharedFS',
      '75:7 warning field-not-read Config.HypervisorConfig.VMid',
      '92:7 warning field-not-read Config.NetworkConfig.InterworkingModel',
      '93:7 warning field-not-read Config.NetworkConfig.NetNSPath',
      '144:5 warning field-not-read HypervisorState.BlockIndexMap',
      '162:5 warning field-not-read HypervisorState.Type',
      '164:5 warning field-not-read HypervisorState.VirtiofsdPid',
      '170:9 warning field-not-read Network.Endpoints[0].Veth',
      '171:11 warning field-not-read Network.Endpoints[0].Veth.NetPair',
      '172:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.ID',
      '173:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.Name',
      '174:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface',
      '175:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface.Name',
      '176:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface.HardAddr',
      '179:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.NetInterworkingModel',
      '180:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface',
      '181:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.Addrs',
      '194:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.HardAddr',
      '195:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.Name',
      '205:21 warning persist-version PersistVersion',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '2:3 warning field-not-read AgentState → ProxyState',
      '3:5 warning field-not-read AgentState.URL',
      '8:5 warning field-not-read Config.ContainerConfigs',
      '10:9 warning field-not-read Config.ContainerConfigs[0].Annotations',
      '14:9 warning field-not-read Config.ContainerConfigs[0].ID',
      '15:9 warning field-not-read Config.ContainerConfigs[0].Resources',
      '26:9 warning field-not-read Config.ContainerConfigs[1].Annotations',
      '30:9 warning field-not-read Config.ContainerConfigs[1].ID',
      '31:9 warning field-not-read Config.ContainerConfigs[1].Resources',
      '42:5 warning field-not-read Config.DisableGuestSeccomp',
      '56:7 warning field-not-read Config.HypervisorConfig.ColdPlugVFIO',
      '65:7 warning field-not-read Config.HypervisorConfig.EnableAnnotations',
      '76:7 warning field-not-read Config.HypervisorConfig.HotPlugVFIO',
      '80:7 warning field-not-read Config.HypervisorConfig.HypervisorPathList',
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
      '102:7 warning field-not-read Config.HypervisorConfig.SharedFS',
      '104:7 warning field-not-read Config.HypervisorConfig.VMid',
      '107:7 warning field-not-read Config.HypervisorConfig.VirtioFSCache',
      '109:7 warning field-not-read Config.HypervisorConfig.VirtioFSDaemon',
      '110:7 warning field-not-read Config.HypervisorConfig.VirtioFSDaemonList',
      '113:7 warning field-not-read Config.HypervisorConfig.VirtioFSExtraArgs',
      '123:7 warning field-not-read Config.NetworkConfig.InterworkingModel',
      '125:7 warning field-not-read Config.NetworkConfig.NetworkID',
      '128:5 warning field-not-read Config.SandboxCgroupOnly',
      '142:5 warning field-not-read HypervisorState.BlockIndexMap',
      '156:5 warning field-not-read HypervisorState.ColdPlugVFIO',
      '157:5 warning field-not-read HypervisorState.HotPlugVFIO',
      '167:5 warning field-not-read HypervisorState.Type',
      '169:5 warning field-not-read HypervisorState.VirtiofsDaemonPid',
      '175:9 warning field-not-read Network.Endpoints[0].Veth',
      '176:11 warning field-not-read Network.Endpoints[0].Veth.NetPair',
      '177:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.ID',
      '178:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.Name',
      '179:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface',
      '180:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface.Name',
      '181:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.TAPIface.HardAddr',
      '184:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.NetInterworkingModel',
      '185:13 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface',
      '186:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.Addrs',
      '199:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.HardAddr',
      '200:15 warning field-not-read Network.Endpoints[0].Veth.NetPair.VirtIface.Name',
      '207:5 warning field-not-read Network.NetworkID → NetNsPath',
      '210:21 warning persist-version PersistVersion',
      '211:3 warning field-not-read SandboxCgroupPath → CgroupPath',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '1.13': {
    v18: { eras: ["v1-1.7"], findings: [
      '5:21 error field-type-mismatch Config.Experimental',
      '53:5 warning field-not-read Config.NetworkModel',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [] },
    v332: { eras: ["v2-3.3"], findings: [
      '56:7 warning field-not-read Config.HypervisorConfig.ColdPlugVFIO',
      '76:7 warning field-not-read Config.HypervisorConfig.HotPlugVFIO',
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
      '125:7 warning field-not-read Config.NetworkConfig.NetworkID → NetNSPath',
      '156:5 warning field-not-read HypervisorState.ColdPlugVFIO',
      '157:5 warning field-not-read HypervisorState.HotPlugVFIO',
      '169:5 warning field-not-read HypervisorState.VirtiofsDaemonPid → VirtiofsdPid',
      '207:5 warning field-not-read Network.NetworkID → NetNsPath',
      '211:3 warning field-not-read SandboxCgroupPath → CgroupPath',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '2.0': {
    v18: { eras: ["v1-1.7"], findings: [
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '9:5 warning field-not-read Config.AgentType',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '56:7 warning field-not-read Config.HypervisorConfig.ColdPlugVFIO',
      '76:7 warning field-not-read Config.HypervisorConfig.HotPlugVFIO',
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
      '125:7 warning field-not-read Config.NetworkConfig.NetworkID → NetNSPath',
      '156:5 warning field-not-read HypervisorState.ColdPlugVFIO',
      '157:5 warning field-not-read HypervisorState.HotPlugVFIO',
      '169:5 warning field-not-read HypervisorState.VirtiofsDaemonPid → VirtiofsdPid',
      '207:5 warning field-not-read Network.NetworkID → NetNsPath',
      '211:3 warning field-not-read SandboxCgroupPath → CgroupPath',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '2.3..2.4': {
    v18: { eras: ["v1-1.7"], findings: [
      '2:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '60:5 warning field-not-read Config.ShimType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '101:5 warning field-not-read Network.NetNsPath',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '6:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '9:5 warning field-not-read Config.AgentType',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '93:7 warning field-not-read Config.NetworkConfig.NetNSPath',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '103:5 warning field-not-read Config.ShimType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
      '164:5 warning field-not-read HypervisorState.VirtiofsdPid',
      '202:5 warning field-not-read Network.NetNsPath',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '56:7 warning field-not-read Config.HypervisorConfig.ColdPlugVFIO',
      '76:7 warning field-not-read Config.HypervisorConfig.HotPlugVFIO',
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
      '125:7 warning field-not-read Config.NetworkConfig.NetworkID',
      '156:5 warning field-not-read HypervisorState.ColdPlugVFIO',
      '157:5 warning field-not-read HypervisorState.HotPlugVFIO',
      '169:5 warning field-not-read HypervisorState.VirtiofsDaemonPid',
      '207:5 warning field-not-read Network.NetworkID',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '3.2': {
    v18: { eras: ["v1-1.7"], findings: [
      '2:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '60:5 warning field-not-read Config.ShimType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '101:5 warning field-not-read Network.NetNsPath → NetworkID',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '6:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '9:5 warning field-not-read Config.AgentType',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '93:7 warning field-not-read Config.NetworkConfig.NetNSPath → NetworkID',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '103:5 warning field-not-read Config.ShimType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
      '164:5 warning field-not-read HypervisorState.VirtiofsdPid → VirtiofsDaemonPid',
      '202:5 warning field-not-read Network.NetNsPath → NetworkID',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '3.32': {
    v18: { eras: ["v1-1.7"], findings: [
      '2:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '43:7 warning field-not-read Config.HypervisorConfig.NumVCPUs → NumVCPUsF',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '60:5 warning field-not-read Config.ShimType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '101:5 warning field-not-read Network.NetNsPath → NetworkID',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '6:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '9:5 warning field-not-read Config.AgentType',
      '70:7 warning field-not-read Config.HypervisorConfig.NumVCPUs → NumVCPUsF',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '93:7 warning field-not-read Config.NetworkConfig.NetNSPath → NetworkID',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '103:5 warning field-not-read Config.ShimType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
      '164:5 warning field-not-read HypervisorState.VirtiofsdPid → VirtiofsDaemonPid',
      '202:5 warning field-not-read Network.NetNsPath → NetworkID',
    ] },
    v332: { eras: ["v2-3.3"], findings: [] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '3.2..4.1': {
    v18: { eras: ["v1-1.7"], findings: [
      '2:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '43:7 warning field-not-read Config.HypervisorConfig.NumVCPUs',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '60:5 warning field-not-read Config.ShimType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '101:5 warning field-not-read Network.NetNsPath → NetworkID',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '6:3 warning field-not-read CgroupPath → SandboxCgroupPath',
      '9:5 warning field-not-read Config.AgentType',
      '70:7 warning field-not-read Config.HypervisorConfig.NumVCPUs',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '93:7 warning field-not-read Config.NetworkConfig.NetNSPath → NetworkID',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '103:5 warning field-not-read Config.ShimType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
      '164:5 warning field-not-read HypervisorState.VirtiofsdPid → VirtiofsDaemonPid',
      '202:5 warning field-not-read Network.NetNsPath → NetworkID',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
  '1.13..2.0': {
    v18: { eras: ["v1-1.7"], findings: [
      '4:5 warning field-not-read Config.AgentType',
      '5:21 error field-type-mismatch Config.Experimental',
      '53:5 warning field-not-read Config.NetworkModel',
      '54:5 warning field-not-read Config.ProxyConfig',
      '56:7 warning field-not-read Config.ProxyConfig.Path',
      '58:5 warning field-not-read Config.ProxyType',
      '73:5 warning field-not-read HypervisorState.BlockIndex',
      '93:9 warning field-not-read Network.Endpoints[0].ID',
      '95:9 warning field-not-read Network.Endpoints[0].Name',
      '99:5 warning field-not-read Network.InterworkingModel',
      '104:21 warning persist-version PersistVersion',
      '105:3 warning field-not-read ProxyState',
      '106:5 warning field-not-read ProxyState.Pid',
      '107:5 warning field-not-read ProxyState.URL',
    ] },
    v113: { eras: ["v2-1.9"], findings: [
      '9:5 warning field-not-read Config.AgentType',
      '74:7 warning field-not-read Config.HypervisorConfig.UseVSock',
      '96:5 warning field-not-read Config.ProxyConfig',
      '100:5 warning field-not-read Config.ProxyType',
      '109:7 warning field-not-read Config.KataAgentConfig.UseVSock',
    ] },
    v332: { eras: ["v2-3.3"], findings: [
      '56:7 warning field-not-read Config.HypervisorConfig.ColdPlugVFIO',
      '76:7 warning field-not-read Config.HypervisorConfig.HotPlugVFIO',
      '96:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs',
      '125:7 warning field-not-read Config.NetworkConfig.NetworkID → NetNSPath',
      '156:5 warning field-not-read HypervisorState.ColdPlugVFIO',
      '157:5 warning field-not-read HypervisorState.HotPlugVFIO',
      '169:5 warning field-not-read HypervisorState.VirtiofsDaemonPid → VirtiofsdPid',
      '207:5 warning field-not-read Network.NetworkID → NetNsPath',
      '211:3 warning field-not-read SandboxCgroupPath → CgroupPath',
    ] },
    c332: { eras: ["v1-1.7","v2-1.9","v2-2.0","v2-2.3","v2-2.4","v2-3.2","v2-3.3","v2-4.0"], findings: [] },
  },
};

const WINDOWS = Object.keys(EXPECTED);

test('each example is clean under its own release', () => {
  for (const [k, f] of Object.entries(FILES)) {
    const r = lint(text(k), { file: f.path, window: f.own });
    assert.deepEqual(findings(r), [], `${f.name} under ${f.own}`);
    assert.equal(r.family, 'kata-persist');
  }
  assert.deepEqual(lint(text('v18'), { window: '1.8' }).persist.eras(), ['v1-1.7']);
  assert.deepEqual(lint(text('v113'), { window: '1.13' }).persist.eras(), ['v2-1.9']);
  assert.deepEqual(lint(text('v332'), { window: '3.32' }).persist.eras(), ['v2-3.3']);
  assert.equal(lint(text('c332'), { file: CONTAINER, window: '3.32' }).persist.kind, 'container');
});

for (const w of WINDOWS) {
  test(`the examples under the window ${w}: exact era and findings`, () => {
    for (const [k, f] of Object.entries(FILES)) {
      const r = lint(text(k), { file: f.path, window: w });
      assert.deepEqual(r.persist.eras(), EXPECTED[w][k].eras, `${f.name} eras`);
      assert.deepEqual(findings(r), EXPECTED[w][k].findings, `${f.name} under ${w}`);
    }
  });
}

/** Releases of a window as the CLI reads it: "1.8" is every 1.8.x, "2.3..2.4" every 2.3.x and 2.4.x. */
function releasesOf(w) {
  const [a, b = a] = w.split('..');
  const lo = a.split('.').length === 2 ? `${a}.0` : a;
  const hi = b.split('.').length === 2 ? `${b}.999` : b;
  return RELEASES.filter((r) => semver.gte(r, lo) && semver.lte(r, hi));
}
const inRel = (g, r) => semver.gte(r, g.from) && (g.to === null || semver.lte(r, g.to));
const jsonType = (v) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v);
/** Concrete [path, value] pairs of a data path pattern ('*' = every array element or map value). */
function expand(doc, pattern) {
  let cur = [[[], doc]];
  for (const seg of pattern) {
    const next = [];
    for (const [p, v] of cur) {
      if (seg === '*') {
        if (Array.isArray(v)) v.forEach((x, i) => next.push([[...p, i], x]));
        else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) next.push([[...p, k], x]);
      } else if (v && typeof v === 'object' && !Array.isArray(v) && Object.hasOwn(v, seg)) next.push([[...p, seg], v[seg]]);
    }
    cur = next;
  }
  return cur;
}
const dotted = (p) => p.map((s) => (typeof s === 'number' ? `[${s}]` : s)).join('.').replace(/\.\[/g, '[');

test('every finding on the examples is what the data says (dropped fields and type clashes recomputed with semver)', () => {
  let checked = 0;
  for (const w of WINDOWS) {
    const win = releasesOf(w);
    for (const [k, f] of Object.entries(FILES)) {
      const kind = k === 'c332' ? 'container' : 'sandbox';
      const doc = JSON.parse(text(k));
      const opaque = data.fields.filter((x) => x.file === kind && x.types.every((t) => t.opaque)).map((x) => `${x.path.join('.')}.`);
      const want = [];
      for (const row of data.fields.filter((x) => x.file === kind && !opaque.some((o) => x.path.join('.').startsWith(o)))) {
        for (const [p, v] of expand(doc, row.path)) {
          const dropped = win.filter((r) => !row.readBy.some((g) => inRel(g, r)));
          // A zero value is what a reader without the field sees anyway: not reported.
          const zero = v === null || v === 0 || v === '' || v === false || (typeof v === 'object' && Object.keys(v).length === 0);
          if (dropped.length && !zero) want.push(`not read ${dotted(p)} by ${dropped.join(',')}`);
          const clash = win.filter((r) => !dropped.includes(r)).filter((r) => {
            const t = row.types.find((x) => inRel(x, r));
            const a = jsonType(v);
            return t && a !== 'null' && a !== t.type && !(t.type === 'number' && a === 'integer');
          });
          if (clash.length) want.push(`type ${dotted(p)} in ${clash.join(',')}`);
        }
      }
      const r = lint(text(k), { file: f.path, window: w });
      assert.deepEqual(r.persist.window, win, w);
      const got = r.diagnostics.flatMap((d) => (d.ruleId === 'kata-persist/field-not-read' ? [`not read ${d.message.split(' ')[0]} by ${d.data.droppedBy.join(',')}`]
        : d.ruleId === 'kata-persist/field-type-mismatch' ? [`type ${d.message.split(' ')[0]} in ${d.data.failsIn.join(',')}`] : []));
      assert.deepEqual(got.sort(), want.sort(), `${f.name} under ${w}`);
      checked += got.length;
    }
  }
  assert.ok(checked > 150, `${checked} findings checked`);
});

test('the messages say what is lost, where, and why', () => {
  // A 3.32 sandbox rolled back to 2.3: the virtiofsd pid (VirtiofsDaemonPid from 2.4.0) is not seen by 2.3.x.
  const back = lint(text('v332'), { window: '2.3..2.4' });
  const pid = back.diagnostics.find((d) => d.message.startsWith('HypervisorState.VirtiofsDaemonPid '));
  assert.equal(pid.message, 'HypervisorState.VirtiofsDaemonPid is dropped on read by 2.3.0–2.3.3 (read by 2.4.0–today): the virtiofsd pid (reader sees 0); (inferred) the daemon is not stopped: leaked after a rollback');
  assert.deepEqual(pid.data.droppedBy, ['2.3.0', '2.3.1', '2.3.2', '2.3.3']);
  assert.equal(pid.fixes.length, 0, '2.4.x does not read VirtiofsdPid: no rename');
  // The same file under 1.13 gets the rename to the name 1.13 reads.
  const old = lint(text('v332'), { window: '1.13' }).diagnostics.find((d) => d.message.startsWith('HypervisorState.VirtiofsDaemonPid '));
  assert.match(old.message, /; every release of the window reads it as VirtiofsdPid$/);
  assert.deepEqual(old.fixes.map((x) => x.title), ['Rename to VirtiofsdPid']);
  // Netns path after an upgrade past 2.4, VFIO port mode on a rollback to 3.1, the type clash.
  const up = lint(text('v113'), { window: '3.2..4.1' }).diagnostics;
  assert.match(up.find((d) => d.message.startsWith('Network.NetNsPath ')).message, /dropped on read by 3\.2\.0–4\.1\.0 \(read by 1\.7\.0–2\.3\.3\): the netns path: "a 2\.3 runtime reading a 2\.4 file sees empty NetNsPath".*; every release of the window reads it as NetworkID$/);
  // The example's ProxyPid is 0 (no proxy), which a reader without the field sees anyway; a live proxy pid is lost.
  assert.equal(up.find((d) => d.message.startsWith('AgentState.ProxyPid ')), undefined);
  const proxied = lint(text('v113').replace('"ProxyPid": 0', '"ProxyPid": 4242'), { window: '3.2..4.1' }).diagnostics;
  assert.match(proxied.find((d) => d.message.startsWith('AgentState.ProxyPid ')).message, /a kata-proxy process is leaked/);
  const vfio = lint(text('v332'), { window: '3.1' }).diagnostics.find((d) => d.message.startsWith('HypervisorState.HotPlugVFIO '));
  assert.match(vfio.message, /dropped on read by 3\.1\.0–3\.1\.3 \(read by 3\.2\.0–today\): the VFIO port mode: "a 3\.1 runtime reading a 3\.2 file loses the VFIO port mode"/);
  assert.deepEqual(vfio.fixes, [], 'HotplugVFIOOnRootBus is a bool: renaming a port-mode string to it would not decode');
  const typ = lint(text('v18'), { window: '2.0' }).diagnostics.find((d) => d.ruleId === 'kata-persist/field-type-mismatch');
  assert.equal(typ.message, 'Config.Experimental is a boolean, but 2.0.0–2.0.4 decode it as array: the runtime cannot load this state there');
  assert.equal(typ.severity, 'error');
});

// ---------------------------------------------------------------------------------------------
// 2. Mutations

test('a field of the wrong type: kata-persist/field-type-mismatch error at the value', () => {
  const src = text('v332').replace('"Pid": 73015,', '"Pid": "73015",');
  assert.notEqual(src, text('v332'));
  const r = lint(src, { window: '3.32' });
  assert.deepEqual(findings(r), ['166:12 error field-type-mismatch HypervisorState.Pid']);
  assert.equal(lineCol(src, '"73015"'), '166:12');
  assert.equal(r.diagnostics[0].message, 'HypervisorState.Pid is a string, but 3.32.0 decodes it as integer: the runtime cannot load this state there');
  const d = r.diagnostics[0];
  assert.equal(d.range.end.character - d.range.start.character, '"73015"'.length, 'the range is the value');
  // null decodes into any Go type (the zero value stays): never a mismatch.
  assert.deepEqual(findings(lint(text('v332').replace('"Pid": 73015,', '"Pid": null,'), { window: '3.32' })), []);
  // A float where 3.2.0 wants a uint32 (NumVCPUs) and 3.3.0+ a float32 (NumVCPUsF).
  const f = text('v18').replace('"NumVCPUs": 1,', '"NumVCPUs": 1.5,');
  assert.deepEqual(findings(lint(f, { window: '1.8' })), [`${lineCol(f, '1.5')} error field-type-mismatch Config.HypervisorConfig.NumVCPUs`]);
});

test('a 1.x-era file under a 2.x window: the type clash, the lost proxy state, the version warning', () => {
  const r = lint(text('v18'), { window: '2.0..2.2' });
  assert.deepEqual(r.persist.eras(), ['v1-1.7']);
  const by = (id) => r.diagnostics.filter((d) => d.ruleId === id);
  assert.deepEqual(by('kata-persist/field-type-mismatch').map(fmt), ['5:21 error field-type-mismatch Config.Experimental']);
  assert.deepEqual(by('kata-persist/persist-version').map(fmt), ['104:21 warning persist-version PersistVersion']);
  const proxy = r.diagnostics.find((d) => d.message.startsWith('ProxyState.Pid '));
  assert.match(proxy.message, /dropped on read by 2\.0\.0–2\.2\.3 \(read by 1\.7\.0–1\.8\.5\): the proxy pid; \(inferred\) the proxy process is leaked/);
  // CgroupPath is still read by 2.0–2.2; BlockIndex (int) never gets the rename to BlockIndexMap (a map).
  assert.ok(!r.diagnostics.some((d) => d.message.startsWith('CgroupPath ')));
  const block = r.diagnostics.find((d) => d.message.startsWith('HypervisorState.BlockIndex '));
  assert.deepEqual(block.fixes, []);
  assert.equal(r.diagnostics.filter((d) => d.severity === 'error').length, 1);
});

test('a legacy-store directory: every file gets kata-persist/legacy-store from 2.0, none under 1.11..1.13', (t) => {
  const root = tmp(t);
  const base = JSON.parse(text('v18'));
  const sbs = path.join(root, 'run', 'vc', 'sbs', SID);
  const legacy = {
    [`run/vc/sbs/${SID}/state.json`]: { state: 'running' },
    [`run/vc/sbs/${SID}/devices.json`]: [],
    [`run/vc/sbs/${SID}/hypervisor.json`]: base.HypervisorState,
    [`run/vc/sbs/${SID}/agent.json`]: base.ProxyState,
    [`run/vc/sbs/${SID}/network.json`]: base.Network,
    [`run/vc/sbs/${SID}/${CID}/state.json`]: { state: 'running' },
    [`run/vc/sbs/${SID}/${CID}/mounts.json`]: [],
    [`run/vc/sbs/${SID}/${CID}/process.json`]: { Pid: 41300 },
    [`var/lib/vc/sbs/${SID}/config.json`]: { HypervisorType: 'qemu' },
  };
  for (const [rel, v] of Object.entries(legacy)) write(path.join(root, rel), `${JSON.stringify(v, null, 2)}\n`);
  // Not a sandbox layout: same names elsewhere (runc's state dir and a containerd bundle are named by a 64-hex id).
  write(path.join(root, 'random', 'state.json'), '{"state": "running"}\n');
  write(path.join(root, 'run', 'runc', 'k8s.io', CID, 'state.json'), '{"id": "x", "init_process_pid": 1}\n');
  write(path.join(root, 'run', 'containerd', 'io.containerd.runtime.v2.task', 'k8s.io', CID, 'config.json'), '{"ociVersion": "1.0.2"}\n');
  assert.ok(fs.existsSync(path.join(sbs, 'state.json')));

  const run = (w) => {
    const r = lspLint(['--kata-window', w, '-f', 'json', root]);
    assert.ok(r.code === 0 || r.code === 1, r.stderr);
    return { code: r.code, byFile: Object.fromEntries(JSON.parse(r.stdout).map((x) => [path.relative(root, x.filePath).split(path.sep).join('/'), { family: x.family, messages: x.messages }])) };
  };
  const notAnalysed = { family: null, messages: [] };
  for (const w of ['2.0', '1.13..2.0', '2.0..3.32']) {
    const { code, byFile } = run(w);
    assert.equal(code, 1, w);
    for (const rel of Object.keys(legacy)) {
      const m = byFile[rel].messages;
      // At the first key (2:3), or at the start of a file without one (an empty list).
      assert.deepEqual(m.map((x) => `${x.line}:${x.column} ${x.severity} ${x.ruleId}`), [`${Array.isArray(legacy[rel]) ? '1:1' : '2:3'} error kata-persist/legacy-store`], `${rel} under ${w}`);
      assert.match(m[0].message, new RegExp(`^legacy store file ${path.basename(rel).replace('.', '\\.')}: 2\\.0\\.0–.* read only persist\\.json \\(A 2\\.x runtime cannot read a 1\\.x \\(pre-1\\.11\\) legacy-store sandbox\\.\\); stop the sandbox before the upgrade`));
    }
    assert.deepEqual(byFile['random/state.json'], notAnalysed);
    assert.deepEqual(byFile[`run/runc/k8s.io/${CID}/state.json`], notAnalysed);
    assert.deepEqual(byFile[`run/containerd/io.containerd.runtime.v2.task/k8s.io/${CID}/config.json`], notAnalysed);
  }
  assert.match(run('1.13..2.0').byFile[`run/vc/sbs/${SID}/state.json`].messages[0].message, /: 2\.0\.0–2\.0\.4 read only persist\.json/);
  const { code, byFile } = run('1.11..1.13');
  assert.equal(code, 0);
  for (const rel of Object.keys(legacy)) assert.deepEqual(byFile[rel], { family: 'kata-persist', messages: [] }, rel);
});

test('a truncated persist.json: one syntax/parse-error at the end, no crash', () => {
  const full = text('v332');
  // Cut after a complete line (a write interrupted between two values) and in the middle of a string.
  const atLine = full.slice(0, full.indexOf('\n', full.length / 2) + 1);
  const r = lint(atLine, { window: '3.32' });
  const end = atLine.split('\n');
  assert.deepEqual(findings(r), [`${end.length}:1 error syntax/parse-error JSON`]);
  assert.match(r.diagnostics[0].message, /^JSON syntax error: unexpected end of the file/);
  assert.equal(r.persist, undefined);
  const mid = full.slice(0, full.indexOf('"HypervisorType"') + 8);
  const m = lint(mid, { window: '3.32' });
  assert.deepEqual(findings(m), ['119:5 error syntax/parse-error JSON'], 'at the string the file ends in');
  assert.match(m.diagnostics[0].message, /unterminated string/);
  assert.equal(m.diagnostics[0].range.start.line, mid.split('\n').length - 1, 'on the last line');
  assert.deepEqual(findings(lint('', { window: '3.32' })), ['1:1 error syntax/parse-error JSON']);
});

test('a 20 MB persist.json (26 000 block devices): checked, no crash; its time is printed', { timeout: 600000 }, (t) => {
  const base = JSON.parse(text('v332'));
  const dev = (i) => ({
    AttachCount: 1, BlockDrive: { DevNo: '', File: `/dev/mapper/vol-${i}`, Format: 'raw', ID: `drive-${i}`, Index: i, MmioAddr: '', NvdimmID: '', PCIPath: { slots: [2, i % 32] }, Pmem: false, ReadOnly: false, SCSIAddr: '', ShareRW: false, Swap: false, VirtPath: '/dev/vda' },
    ColdPlug: false, DevType: 'b', DriverOptions: { 'block-driver': 'virtio-blk' }, ID: `drive-${i.toString(16).padStart(20, '0')}`, Major: 8, Minor: i % 256, RefCount: 1, Type: 'block',
  });
  base.Devices = [dev(99999)];
  const one = JSON.stringify(base, null, 2).length;
  base.Devices = [dev(99999), dev(99999)];
  const per = JSON.stringify(base, null, 2).length - one; // one element's share of the file
  const n = Math.floor((20e6 - one) / per);
  base.Devices = Array.from({ length: n }, (_, i) => dev(i));
  const big = `${JSON.stringify(base, null, 2)}\n`;
  assert.ok(big.length > 19e6 && big.length <= 20 * 1024 * 1024, `${big.length} bytes`);

  let t0 = performance.now();
  const clean = lint(big, { window: '3.32' });
  t.diagnostic(`20 MB persist.json (${n} devices, ${big.length} bytes), window 3.32: ${Math.round(performance.now() - t0)} ms`);
  assert.deepEqual(findings(clean), []);
  assert.deepEqual(clean.persist.eras(), ['v2-3.3']);

  // 2.0..3.32: each device's PCIPath is dropped by 2.0.x; its ReadOnly / ShareRW / Swap (2.5.0+) are false, the zero
  // value a reader without them sees anyway, so they are not reported.
  t0 = performance.now();
  const wide = lint(big, { window: '2.0..3.32' });
  t.diagnostic(`same file, window 2.0..3.32: ${Math.round(performance.now() - t0)} ms, ${wide.diagnostics.length} findings`);
  const baseline = lint(text('v332'), { window: '2.0..3.32' }).diagnostics.length;
  assert.equal(wide.diagnostics.length, baseline + n);
  const last = wide.diagnostics.filter((d) => d.message.startsWith(`Devices[${n - 1}].`)).map((d) => d.message.split(' ')[0]);
  assert.deepEqual(last.sort(), ['PCIPath'].map((x) => `Devices[${n - 1}].BlockDrive.${x}`));

  // And through lsp-lint, as CI would run it.
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-persist-big-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const file = write(path.join(dir, 'run', 'vc', 'sbs', SID, 'persist.json'), big);
  t0 = performance.now();
  const r = lspLint(['--kata-window', '3.32', '-f', 'json', file]);
  t.diagnostic(`lsp-lint on it, window 3.32: ${Math.round(performance.now() - t0)} ms`);
  assert.equal(r.code, 0, r.stderr);
  const [rep] = JSON.parse(r.stdout);
  assert.deepEqual(rep.messages, []);
  assert.deepEqual(rep.facts.eras, [{ id: 'v2-3.3', writtenBy: '3.3.0–3.32.0' }]);
});

// ---------------------------------------------------------------------------------------------
// 3. The rename fix

/** The 1.13 example moved to the v2-2.3 layout with the data alone: fields the era lacks removed, renames applied, fields it always writes added (zero values). */
function era23() {
  const doc = JSON.parse(text('v113'));
  const fieldsOf = (id) => new Map(data.eras.find((x) => x.id === id).fields.filter((f) => f.file === 'sandbox').map((f) => [f.path.join('.'), f]));
  const from = fieldsOf('v2-1.9');
  const to = fieldsOf('v2-2.3');
  const parents = (p) => expand(doc, p.slice(0, -1)).map(([, v]) => v).filter((v) => v && typeof v === 'object' && !Array.isArray(v));
  for (const r of data.renames.filter((x) => x.file === 'sandbox' && from.has(x.from.join('.')) && !to.has(x.from.join('.')) && to.has(x.to.join('.')))) {
    for (const o of parents(r.from)) if (Object.hasOwn(o, r.from.at(-1))) { o[r.to.at(-1)] = o[r.from.at(-1)]; delete o[r.from.at(-1)]; }
  }
  for (const k of from.keys()) if (!to.has(k)) for (const o of parents(k.split('.'))) delete o[k.split('.').at(-1)];
  const zero = { string: '', integer: 0, number: 0, boolean: false, object: {}, array: null };
  for (const [k, f] of to) {
    if (from.has(k) || !f.alwaysWritten) continue;
    const t = data.fields.find((x) => x.file === 'sandbox' && x.path.join('.') === k).types.find((x) => inRel(x, '2.3.0'));
    for (const o of parents(f.path)) if (!Object.hasOwn(o, f.path.at(-1))) o[f.path.at(-1)] = t.nullable ? null : zero[t.type];
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

test('rename fix: a 2.3-era file (SandboxCgroupPath) under 2.0..2.2 gets the rename to CgroupPath, and no fix invents state', () => {
  const src = era23();
  const own = lint(src, { window: '2.3' });
  assert.deepEqual(own.persist.eras(), ['v2-2.3']);
  assert.deepEqual(findings(own), [], 'the constructed 2.3 file is clean under 2.3');
  const r = lint(src, { window: '2.0..2.2' });
  // EntropySourceList, SGXEPCSize, SandboxBindMounts, PCIPath and OverheadCgroupPath are also unknown to 2.0–2.2, but
  // this file holds their zero values, which is what those readers see anyway: only the cgroup path is lost.
  assert.deepEqual(findings(r), [
    `${lineCol(src, '"SandboxCgroupPath"')} warning field-not-read SandboxCgroupPath → CgroupPath`,
  ]);
  const nonZero = lint(src.replace(/"OverheadCgroupPath": ""/, '"OverheadCgroupPath": "/kubepods/kata_overhead"'), { window: '2.0..2.2' });
  assert.ok(findings(nonZero).includes(`${lineCol(src, '"OverheadCgroupPath"')} warning field-not-read OverheadCgroupPath`), 'a value that is not zero is reported');
  const ren = r.diagnostics.find((d) => d.fixes.length);
  assert.equal(ren.message, 'SandboxCgroupPath is dropped on read by 2.0.0–2.2.3 (read by 2.3.0–today): the sandbox cgroup path; (inferred) the reader cannot find the sandbox cgroup to update or remove it; every release of the window reads it as CgroupPath');
  assert.deepEqual(ren.fixes.map((f) => [f.title, f.preferred]), [['Rename to CgroupPath', true]]);
  assert.deepEqual(ren.fixes[0].edits, [{ range: ren.range, newText: '"CgroupPath"' }], 'only the key changes');
  const fixed = applyEdits(src, ren.fixes[0].edits);
  const before = JSON.parse(src);
  const after = JSON.parse(fixed);
  assert.equal(after.CgroupPath, before.SandboxCgroupPath);
  assert.ok(!('SandboxCgroupPath' in after));
  const r2 = lint(fixed, { window: '2.0..2.2' });
  assert.deepEqual(findings(r2), findings(r).filter((x) => !x.includes('SandboxCgroupPath')), 'the rest stays, at the same places');
  assert.ok(r2.diagnostics.every((d) => (d.fixes ?? []).length === 0), 'what remains has no fix: OverheadCgroupPath, PCIPath … have no field in 2.0–2.2 to carry them');
  // Go's decoder in 2.0.x–2.2.x finds its cgroup path now: every release of the window reads the renamed field.
  const cg = data.fields.find((f) => f.file === 'sandbox' && f.path.join('.') === 'CgroupPath');
  assert.ok(releasesOf('2.0..2.2').every((rel) => cg.readBy.some((g) => inRel(g, rel))));

  // The smallest such file: after the fix, every release of the window reads all of it.
  const small = '{\n  "PersistVersion": 2,\n  "SandboxCgroupPath": "/kubepods/kata_0123",\n  "State": "running"\n}\n';
  const s = lint(small, { window: '2.0..2.2' });
  assert.deepEqual(findings(s), ['2:3 warning missing-field Config', '3:3 warning field-not-read SandboxCgroupPath → CgroupPath']);
  assert.deepEqual(s.diagnostics[0].fixes ?? [], [], 'Config is missing: no fix');
  const sf = applyEdits(small, s.diagnostics[1].fixes[0].edits);
  assert.equal(sf, small.replace('SandboxCgroupPath', 'CgroupPath'));
  const s2 = lint(sf, { window: '2.0..2.2' });
  assert.deepEqual(findings(s2), ['2:3 warning missing-field Config']);
  assert.deepEqual(s2.diagnostics[0].fixes ?? [], [], 'a missing field never gets a fix: the value is not there to restore');
  assert.match(s2.diagnostics[0].message, /^Config is missing, but 2\.0\.0–2\.2\.3 need it: loadSandboxConfig restores the sandbox configuration from Config/);
});

test('rename fix in the other direction, and no fix where the renamed value would not decode or would collide', () => {
  // 2.0-era name under 2.3..3.32: CgroupPath → SandboxCgroupPath.
  const r = lint('{\n  "PersistVersion": 2,\n  "Config": {},\n  "CgroupPath": "/kata_0123"\n}\n', { window: '2.3..3.32' });
  assert.deepEqual(findings(r), ['4:3 warning field-not-read CgroupPath → SandboxCgroupPath']);
  // The file already has the other name: a rename would make a duplicate key.
  const both = lint('{\n  "PersistVersion": 2,\n  "Config": {},\n  "CgroupPath": "/a",\n  "SandboxCgroupPath": "/b"\n}\n', { window: '2.3..3.32' });
  assert.deepEqual(findings(both), ['4:3 warning field-not-read CgroupPath']);
  // A fractional NumVCPUsF cannot become NumVCPUs (uint32) for 3.2.0; an integral one can.
  const cfg = (v) => `{\n  "PersistVersion": 2,\n  "Config": {\n    "HypervisorConfig": {\n      "NumVCPUsF": ${v}\n    }\n  }\n}\n`;
  assert.deepEqual(findings(lint(cfg('1.5'), { window: '3.2' })), ['5:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF']);
  assert.deepEqual(findings(lint(cfg('2'), { window: '3.2' })), ['5:7 warning field-not-read Config.HypervisorConfig.NumVCPUsF → NumVCPUs']);
  // Every fix offered on the examples in every window renames a key and nothing else.
  for (const w of WINDOWS) for (const [k, f] of Object.entries(FILES)) {
    const src = text(k);
    for (const d of lint(src, { file: f.path, window: w }).diagnostics) {
      for (const fix of d.fixes ?? []) {
        assert.equal(fix.edits.length, 1);
        assert.deepEqual(fix.edits[0].range, d.range, 'the edit replaces the key the finding is on');
        assert.match(fix.edits[0].newText, /^"[A-Za-z]+"$/);
        const out = JSON.parse(applyEdits(src, fix.edits));
        assert.equal(JSON.stringify(out).length - JSON.stringify(JSON.parse(src)).length, fix.edits[0].newText.length - (d.range.end.character - d.range.start.character));
      }
    }
  }
});

// ---------------------------------------------------------------------------------------------
// 4. PersistVersion

test('PersistVersion: missing (warning), 3 (error), 1 under a 2.x window (warning: the loader does not check it)', () => {
  const doc = (pv) => `{\n  "Config": {},\n${pv === undefined ? '' : `  "PersistVersion": ${pv},\n`}  "State": "running"\n}\n`;
  const missing = lint(doc(undefined), { window: '2.0..3.32' });
  assert.deepEqual(findings(missing), ['2:3 warning persist-version PersistVersion']);
  assert.equal(missing.diagnostics[0].message, "PersistVersion is missing: every sandbox persist.json written by the window's releases carries 2");
  const three = lint(doc(3), { window: '2.0..3.32' });
  assert.deepEqual(findings(three), ['3:21 error persist-version PersistVersion']);
  assert.equal(three.diagnostics[0].message, 'PersistVersion 3 is not a version any Kata release writes (1, 2)');
  const one = lint(doc(1), { window: '2.4..2.5' });
  assert.deepEqual(findings(one), ['3:21 warning persist-version PersistVersion']);
  assert.equal(one.diagnostics[0].message, 'PersistVersion 1: 2.4.0–2.5.2 write 2. The loader does not check the number (and keeps it on restore), so this file was created by an older runtime: check its layout era');
  // A 2 read by 1.8.x (a rollback) was written by a newer runtime.
  assert.match(lint(doc(2), { window: '1.8' }).diagnostics[0].message, /^PersistVersion 2: 1\.8\.0–1\.8\.5 write 1\. .* created by a newer runtime/);
  assert.deepEqual(findings(lint(doc(2), { window: '2.0..3.32' })), []);
  // Container files carry no version.
  assert.ok(!lint(text('c332'), { file: CONTAINER, window: '2.0..3.32' }).diagnostics.some((d) => d.ruleId === 'kata-persist/persist-version'));
});

// ---------------------------------------------------------------------------------------------
// 5. Hover and the JSON report's facts

test('hover: the first key shows the eras and the window; a field shows writers, readers, renames and the window line', () => {
  const src = text('v113');
  const r = lint(src, { window: '2.0..3.32' });
  const first = e.hover(r, src, { line: 1, character: 4 });
  assert.deepEqual(first.range, { start: { line: 1, character: 2 }, end: { line: 1, character: 14 } });
  assert.match(first.markdown, /^\*\*Kata sandbox persist\.json\*\* — layout era: v2-1\.9 \(written by 1\.9\.0–1\.13\.0\)\n\nWindow 2\.0\.0\.\.3\.32\.0 \(cli: command line\)\./);
  assert.match(first.markdown, /\*\*AgentState\*\* — /);
  assert.match(first.markdown, /Renamed from `ProxyState` in 1\.9\.0\./);
  const [l, c] = lineCol(src, '"VirtiofsdPid"').split(':').map(Number);
  const h = e.hover(r, src, { line: l - 1, character: c + 2 });
  assert.equal(h.markdown.split('\n\nSource:')[0], [
    '**HypervisorState.VirtiofsdPid** — virtiofsd pid (1.9.0–2.3.x; renamed VirtiofsDaemonPid in 2.4.0)',
    '',
    'Written by 1.9.0–2.3.3; read by 1.9.0–2.3.3.',
    'Type: integer (1.9.0–2.3.3).',
    'Renamed to `HypervisorState.VirtiofsDaemonPid` in 2.4.0.',
    '',
    '✗ dropped on read by 2.4.0–3.32.0: the virtiofsd pid (reader sees 0); (inferred) the daemon is not stopped: leaked after the upgrade/rollback',
  ].join('\n'));
  assert.deepEqual(h.range, { start: { line: l - 1, character: c - 1 }, end: { line: l - 1, character: c - 1 + '"VirtiofsdPid"'.length } });
  const [pl, pc] = lineCol(src, '"Pid": 52310').split(':').map(Number);
  assert.match(e.hover(r, src, { line: pl - 1, character: pc }).markdown, /^\*\*HypervisorState\.Pid\*\* — VMM pid\n\nWritten by 1\.7\.0–today; read by 1\.7\.0–today\.[\s\S]*✓ read by every release of the window 2\.0\.0\.\.3\.32\.0/);
  assert.equal(e.hover(r, src, { line: 0, character: 0 }), undefined, 'the opening brace is no key');
});

test('lsp-lint -f json: per-file facts (persistKind, eras, window)', (t) => {
  const root = tmp(t);
  write(path.join(root, 'run', 'vc', 'sbs', SID, 'persist.json'), text('v113'));
  write(path.join(root, 'run', 'vc', 'sbs', SID, CID, 'persist.json'), text('c332'));
  write(path.join(root, 'backup', 'sandbox-state.json'), text('v332'));
  const r = lspLint(['--kata-window', '3.2..3.32', '-f', 'json', root]);
  assert.equal(r.code, 0, r.stderr);
  const facts = Object.fromEntries(JSON.parse(r.stdout).map((x) => [path.relative(root, x.filePath).split(path.sep).join('/'), [x.family, x.facts, x.messages.length]]));
  assert.deepEqual(facts[`run/vc/sbs/${SID}/persist.json`], ['kata-persist', { persistKind: 'sandbox', eras: [{ id: 'v2-1.9', writtenBy: '1.9.0–1.13.0' }], kataWindow: '3.2.0..3.32.0' }, lint(text('v113'), { window: '3.2..3.32' }).diagnostics.length]);
  assert.deepEqual(facts[`run/vc/sbs/${SID}/${CID}/persist.json`][1].persistKind, 'container');
  assert.equal(facts[`run/vc/sbs/${SID}/${CID}/persist.json`][1].eras.length, data.eras.length);
  assert.deepEqual(facts['backup/sandbox-state.json'].slice(0, 2), ['kata-persist', { persistKind: 'sandbox', eras: [{ id: 'v2-3.3', writtenBy: '3.3.0–3.32.0' }], kataWindow: '3.2.0..3.32.0' }]);
});

// ---------------------------------------------------------------------------------------------
// 6. Recognition

test('recognition: persist.json by name anywhere, sandbox state by content, container files, and what is left alone', () => {
  const kind = (file, src) => { const r = lint(src, { file, window: '3.32' }); return [r.family ?? null, r.persist?.kind ?? null]; };
  assert.deepEqual(kind('/home/me/debug/persist.json', text('v332')), ['kata-persist', 'sandbox']);
  assert.deepEqual(kind('C:/triage/sbs-copy/persist.json', text('v18')), ['kata-persist', 'sandbox']);
  // By content under another name: the keys are sorted (AgentState … Config first), so PersistVersion is far from the top.
  assert.ok(text('v332').indexOf('"PersistVersion"') > 4000);
  assert.deepEqual(kind('/home/me/debug/sandbox-state.json', text('v332')), ['kata-persist', 'sandbox']);
  assert.deepEqual(kind('/home/me/debug/state-1.13.json', text('v113')), ['kata-persist', 'sandbox']);
  assert.deepEqual(kind(CONTAINER, text('c332')), ['kata-persist', 'container']);
  assert.deepEqual(kind('/home/me/debug/container/persist.json', text('c332')), ['kata-persist', 'container']);
  // Other JSON is not analysed, even when it mentions a persist key somewhere inside.
  assert.deepEqual(kind('/home/me/app/package.json', '{\n  "name": "app",\n  "version": "1.0.0",\n  "dependencies": { "left-pad": "^1.3.0" }\n}\n'), [null, null]);
  assert.deepEqual(kind('/home/me/app/tsconfig.json', '{\n  "compilerOptions": { "strict": true, "target": "ES2022" }\n}\n'), [null, null]);
  const schemaLike = `{\n  "title": "notes",\n  "padding": "${'x'.repeat(5000)}",\n  "properties": { "PersistVersion": { "type": "integer" } }\n}\n`;
  assert.deepEqual(kind('/home/me/app/schema.json', schemaLike), [null, null]);
  // Legacy store names count only inside /…/vc/sbs/<id>/.
  assert.deepEqual(kind(`/run/vc/sbs/${SID}/state.json`, '{"state": "running"}'), ['kata-persist', null]);
  assert.deepEqual(kind(`/run/vc/sbs/${SID}/${CID}/state.json`, '{"state": "running"}'), ['kata-persist', null]);
  assert.deepEqual(kind('/home/me/app/state.json', '{"state": "running"}'), [null, null]);
  assert.deepEqual(kind(`/home/me/${SID}/state.json`, '{"state": "running"}'), [null, null]);
  assert.deepEqual(kind(`/run/runc/k8s.io/${CID}/state.json`, '{"id": "x"}'), [null, null]);
  assert.deepEqual(kind(`/run/containerd/io.containerd.runtime.v2.task/k8s.io/${CID}/config.json`, '{"ociVersion": "1.0.2"}'), [null, null]);
});

// ---------------------------------------------------------------------------------------------
// 7. Through the real language server

test('the language server: diagnostics, hover, and the rename code action applied with didChange', async (t) => {
  const root = makeWorkspace({ '.skewguard.yaml': 'kata: { window: "2.0..2.2" }\n' });
  const client = new LspClient(root);
  t.after(() => { client.kill(); fs.rmSync(root, { recursive: true, force: true }); });
  await client.initialize();
  const file = path.join(root, 'run', 'vc', 'sbs', SID, 'persist.json');
  const u = uriOf(file);
  const src = era23();
  const p = await client.open(u, src, 1, 'json');
  const codes = (x) => x.diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} ${d.severity} ${d.code}`);
  assert.deepEqual(codes(p), lint(src, { file, window: '2.0..2.2' }).diagnostics.map((d) => `${d.range.start.line + 1}:${d.range.start.character + 1} 2 ${d.ruleId}`));
  assert.equal(p.diagnostics.length, 1, 'only the cgroup path holds a value the window loses');
  const diag = p.diagnostics.find((d) => d.message.startsWith('SandboxCgroupPath '));
  assert.equal(diag.source, 'skewguard');
  assert.ok(diag.codeDescription.href.endsWith('/docs/rules/kata-persist/field-not-read.md'));

  const h = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: diag.range.start.line, character: diag.range.start.character + 3 } });
  assert.equal(h.contents.kind, 'markdown');
  assert.match(h.contents.value, /^\*\*SandboxCgroupPath\*\*/);
  assert.match(h.contents.value, /Renamed from `CgroupPath` in 2\.3\.0\./);
  assert.match(h.contents.value, /✗ dropped on read by 2\.0\.0–2\.2\.3/);
  const top = await client.request('textDocument/hover', { textDocument: { uri: u }, position: { line: 1, character: 4 } });
  assert.match(top.contents.value, /layout era: v2-2\.3 \(written by 2\.3\.0–2\.3\.3\)/);
  assert.match(top.contents.value, /Window 2\.0\.0\.\.2\.2\.3 \(config: .*\.skewguard\.yaml\)/);

  const actions = await client.request('textDocument/codeAction', { textDocument: { uri: u }, range: diag.range, context: { diagnostics: [diag] } });
  const fix = actions.find((a) => a.title === 'Rename to CgroupPath');
  assert.equal(fix.kind, 'quickfix');
  assert.deepEqual(fix.edit.changes[u], [{ range: diag.range, newText: '"CgroupPath"' }]);
  const p2 = await client.change(u, 2, fix.edit.changes[u].map((x) => ({ range: x.range, text: x.newText })));
  assert.equal(p2.diagnostics.length, 0, 'after the rename every release of the window reads all that the file holds');
  assert.ok(JSON.parse(applyEdits(src, fix.edit.changes[u])).CgroupPath.length > 0);
});
