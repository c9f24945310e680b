// Issue #14: a family is a module. Issue #30 item 1: a family is one folder, server/src/engine/families/<id>/ named by
// its registry id, holding everything about it: detection, parsing, context, its rules (rules/), its data access
// (data/), hover, completion, facts. The core reaches it only through families/registry.ts; what else still names a
// family is listed below (ALLOWED), each with why, as in ARCHITECTURE.md's table of what is left.
// The family ids themselves (the Family union, the files: values, the docs' titles) come from the registry too.
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';
import { tsSources } from './helpers/sources.mjs';
import { CRONTAB_CRD } from './helpers/crds.mjs';

const src = path.join(repoRoot, 'server/src');
// Every folder under families/ is a family (read from disk, so that a family added is covered without editing this).
const FAMILY_FOLDERS = fs.readdirSync(path.join(src, 'engine/families'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();


// A family's own places: its folder (its rules and data included) and the registry that lists it.
function isFamilyOwn(rel) {
  return /^server\/src\/engine\/families\/[^/]+\//.test(rel) || rel === 'server/src/engine/families/registry.ts';
}
// A path into a family's folder, for every folder under families/ (longest names first: kata-config before kata).
const FAMILY_PATH = new RegExp(`families\\/(${[...FAMILY_FOLDERS].sort((a, b) => b.length - a.length).map((f) => f.replace(/[-]/g, '\\-')).join('|')})(?![\\w-])`);

// What names one family: a family id compared, a family's recognisers or context classes, an import of its folder.
const FAMILY_SPECIFIC = [
  /[=!]==\s*['"](starlingx|kubernetes|kata-config|kata-persist|kata)['"]|['"](starlingx|kubernetes|kata-config|kata-persist|kata)['"]\s*[=!]==|case\s+['"](starlingx|kubernetes|kata-config|kata-persist)['"]/,
  /\b(isKataName|isKataConfig|isDropIn|isStarlingxName|isPersistName|isLegacyStoreFile|isPersistContent|persistKind|looksLikeStarlingx|looksLikeHelmTemplate|isManifestLike|isManifestValue|manifestObjects|StarlingxContext|KubernetesContext|KataContext|PersistContext|detectFlavour|resolveKataWindow)\b/,
  FAMILY_PATH,
];

// Allowed, each for a reason (ARCHITECTURE.md, "What still names a family outside its folder"):
const ALLOWED = [
  // `components:` names a component, and "kubernetes" (like "k8s") is the Kubernetes version itself, not a family: the
  // components' config section (engine/components/config.ts; engine/config.ts names neither since it composes it).
  { file: 'server/src/engine/components/config.ts', line: /name === 'k8s' \|\| name === 'kubernetes'/ },
  // kubernetes.components' defaults are the Kubernetes lifecycle data's componentTargets (Pluto's default targets).
  { file: 'server/src/engine/components/config.ts', line: /^import \{ kubernetesApis \} from '\.\.\/families\/kubernetes\/data\/apis';$/ },
  // …and its editor setting, skewguard.kubernetes.components, is a key of the Kubernetes section's settings type.
  { file: 'server/src/engine/components/config.ts', line: /^declare module '\.\.\/families\/kubernetes\/config' \{$/ },
  // The Flux component (engine/components/, the plug-in point for products inside manifests) reads the Flux
  // versions StarlingX applications ship, which the StarlingX application family's data holds.
  { file: 'server/src/engine/components/flux.ts', line: /from '\.\.\/families\/starlingx-app\/data';$/ },
  // The operator pins (engine/components/operator-pins.ts) read a chart dependency's version range as Helm does: with
  // the Masterminds semver constraints the Helm family's template evaluator implements (one implementation, not two).
  { file: 'server/src/engine/components/operator-pins.ts', line: /from '\.\.\/families\/helm-chart\/template\/semver';$/ },
];

function violations(files) {
  const hits = [];
  for (const file of files) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    if (isFamilyOwn(rel)) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      if (!FAMILY_SPECIFIC.some((re) => re.test(line))) return;
      if (ALLOWED.some((a) => a.file === rel && a.line.test(line.trim()))) return;
      hits.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

test('no file outside engine/families/<id>/ (and the registry, and the listed remainder) names a specific family', () => {
  const hits = violations([...tsSources(src), ...tsSources(path.join(repoRoot, 'client/src'))]);
  assert.deepEqual(hits, [], `family-specific code outside its family's folder:\n${hits.join('\n')}`);
});

// A family id written out (a string literal that is one of the registry's ids) outside the family's own places.
// The ids come from the registry, so a family added there is covered without touching this test.
const FAMILY_IDS = [...e.FAMILIES];
const ID_LITERAL = new RegExp(`(['"\`])(${FAMILY_IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|')})\\1`);
// A family's own places, beyond its folder (its rules and data included) and the registry: the build scripts that
// are one per family by design: its schema module (scripts/schemas/<family>.mjs) and the scripts that import its
// upstream data (scripts/import-*.mjs, scripts/extract-*.mjs).
function isFamilyOwnAnywhere(rel) {
  return /^server\/src\/engine\/families\/[^/]+\//.test(rel) || rel === 'server/src/engine/families/registry.ts'
    || /^scripts\/schemas\/[^/]+\.mjs$/.test(rel) || /^scripts\/(import|extract)-[^/]+\.mjs$/.test(rel);
}
const ID_ALLOWED = [
  // kubernetes.components is the components' key in the Kubernetes section (engine/components/config.ts: within that
  // section, and a wrong component reported at its path), and "kubernetes" is the Kubernetes version itself as a
  // component name (above). engine/config.ts, which composes it, names neither.
  { file: 'server/src/engine/components/config.ts', line: /^\s*within: \{ section: 'kubernetes', after: 'window' \},$/ },
  { file: 'server/src/engine/components/config.ts', line: /path: \['kubernetes', 'components', name\]/ },
  { file: 'server/src/engine/components/config.ts', line: /name === 'k8s' \|\| name === 'kubernetes'/ },
];
function idViolations(files) {
  const hits = [];
  for (const file of files) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    if (isFamilyOwnAnywhere(rel)) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const code = line.replace(/\s\/\/ .*$/, '');
      if (!ID_LITERAL.test(code)) return;
      if (ID_ALLOWED.some((a) => a.file === rel && a.line.test(code))) return;
      hits.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}
const scriptSources = (dir) => fs.readdirSync(dir, { recursive: true }).filter((f) => /\.m?js$/.test(f)).map((f) => path.join(dir, f)).sort();

// Issue #30 item 3: products inside manifests plug in through engine/components/; engine/config.ts composes their
// configuration (kubernetes.components, --component-versions, the component windows) from one hook, the components'
// config section (engine/components/config.ts), as it composes the families' sections, and names none of them.
function componentNamesIn(text) {
  const code = text.split('\n').map((l, i) => [l.replace(/\s\/\/ .*$/, ''), i + 1]).filter(([l]) => !/^\s*(\/\/|\*|\/\*)/.test(l));
  const imports = code.flatMap(([l]) => { const m = /from '\.\/components\/([^']+)'/.exec(l); return m ? [m[1]] : []; });
  // Each component's and operator's name, the operators' and the component modules' code, the defaults' data.
  const names = [...Object.keys(e.knownComponents()), ...e.operatorData.operatorIds(), 'fluxcd', 'COMPONENTS', 'componentVersions', 'componentTargets', 'kubernetesApis', 'ComponentWindowInput', 'checkComponentVersion', 'knownComponents'];
  const named = code.filter(([l]) => /operator/i.test(l) || names.some((n) => new RegExp(`(^|[^\\w-])${n.replace(/[-]/g, '\\-')}(?![\\w-])`).test(l)));
  return { imports, named: named.map(([l, n]) => `engine/config.ts:${n}: ${l.trim()}`) };
}

test('engine/config.ts takes the components through one hook (their config section) and names no component or operator', () => {
  const { imports, named } = componentNamesIn(fs.readFileSync(path.join(src, 'engine/config.ts'), 'utf8'));
  assert.deepEqual(imports, ['config'], 'engine/config.ts imports from engine/components/ only components/config.ts');
  assert.deepEqual(named, [], named.join('\n'));
  // It can fail: lines engine/config.ts had while it held kubernetes.components by hand.
  const old = componentNamesIn([
    "import { checkOperatorSetting, isOperatorId } from './components/operators';",
    "  const componentWindows = Object.fromEntries(COMPONENTS.map((m) => [m.key, m.window({ ...told, version: components[m.id] })]));",
    "  return kubernetesApis().componentTargets ?? {};",
    "  componentVersions?: Record<string, string>;",
  ].join('\n'));
  assert.deepEqual(old.imports, ['operators']);
  assert.equal(old.named.length, 4);
});

test('no file outside a family\'s places (engine core, server, cli, shared, client, scripts) writes out a family id, except the registry', () => {
  assert.ok(FAMILY_IDS.length >= 4 && FAMILY_IDS.includes('kata-config'), FAMILY_IDS.join(', '));
  const files = [...tsSources(src), ...tsSources(path.join(repoRoot, 'client/src')), ...scriptSources(path.join(repoRoot, 'scripts'))];
  assert.ok(files.some((f) => f.endsWith('gen-docs.mjs')) && files.some((f) => f.endsWith('engine/config.ts')) && files.some((f) => f.endsWith('engine/types.ts')));
  const hits = idViolations(files);
  assert.deepEqual(hits, [], `family ids written out of their family's places (derive them from families/registry.ts):\n${hits.join('\n')}`);
});

test('the id scan finds a family id written out where it is not allowed (it can fail)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'families-ids-'));
  try {
    const probes = {
      'union.ts': "export type Family = 'starlingx' | 'kubernetes' | 'kata-config' | 'kata-persist';",
      'list.ts': "export const FAMILIES = ['starlingx', 'kubernetes'];",
      'titles.mjs': "const FAMILY_NAMES = { 'kata-config': 'Kata Containers' };",
      'tmpl.ts': 'const f = `kata-persist`;',
      'comment.ts': "// 'kubernetes' in a comment is fine",
      'longer.ts': "const p = 'data/kubernetes/api-lifecycle.json'; const q = 'kata-configuration';",
    };
    for (const [n, t] of Object.entries(probes)) fs.writeFileSync(path.join(dir, n), t);
    const hits = idViolations(Object.keys(probes).map((n) => path.join(dir, n))).map((h) => path.basename(h.split(':')[0]));
    assert.deepEqual(hits.sort(), ['list.ts', 'titles.mjs', 'tmpl.ts', 'union.ts']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the scan finds family-specific code where it is not allowed (it can fail)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'families-scan-'));
  try {
    const probes = {
      'a.ts': "if (result.family === 'kata-config') return 1;",
      'b.ts': "import { isStarlingxName } from './engine/families/starlingx';",
      'c.ts': 'export function f(ctx: KubernetesContext) { return ctx; }',
      'd.ts': '// a comment naming isKataName is fine',
      'e.ts': "import { servedAt } from '../engine/families/kubernetes/data/served';",
      'f.ts': "import { containerdWindow } from './families/containerd/data';",
      'g.ts': "import { families } from './families/registry';",
    };
    for (const [n, t] of Object.entries(probes)) fs.writeFileSync(path.join(dir, n), t);
    const hits = violations(tsSources(dir)).map((h) => path.basename(h.split(':')[0]));
    assert.deepEqual(hits.sort(), ['a.ts', 'b.ts', 'c.ts', 'e.ts', 'f.ts']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('every family folder has a module, and the registry lists each of them', () => {
  const reg = fs.readFileSync(path.join(src, 'engine/families/registry.ts'), 'utf8');
  for (const f of FAMILY_FOLDERS) {
    assert.ok(fs.existsSync(path.join(src, 'engine/families', f, 'family.ts')), `families/${f}/family.ts`);
    assert.match(reg, new RegExp(`from '\\./${f}/family'`), `registry imports families/${f}/family`);
  }
  assert.ok(FAMILY_FOLDERS.length >= 4 && FAMILY_FOLDERS.includes('kata-persist'), FAMILY_FOLDERS.join(', '));
  // One module per folder, each id once: the registry lists as many families as there are folders.
  assert.equal(e.families.length, FAMILY_FOLDERS.length);
  assert.equal(new Set(e.families.map((f) => f.id)).size, e.families.length);
  assert.deepEqual([...e.FAMILIES], e.families.map((f) => f.id));
  for (const f of e.families) assert.ok(typeof f.title === 'string' && f.title.length > 0, `${f.id} has a title`);
});

test('each family is one folder named by its registry id: no family folder is left in engine/, engine/rules/ or elsewhere (issue #30 item 1)', () => {
  assert.deepEqual(FAMILY_FOLDERS, [...e.FAMILIES].sort(), 'engine/families/<id>/, one per registry id');
  // engine/rules/ holds only the family-neutral plumbing: the registry of rules, their types and the general rules.
  const rules = fs.readdirSync(path.join(src, 'engine/rules')).sort();
  assert.deepEqual(rules, ['general', 'index.ts', 'types.ts']);
  // No folder of the engine's core is named after a family or its old names (kata, helm, k8s); components/ is the
  // plug-in point for products inside manifests (Flux), not a family.
  const core = fs.readdirSync(path.join(src, 'engine'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  assert.deepEqual(core, ['components', 'families', 'parse', 'rules']);
  // Each family's rules live in its own rules/ folder.
  for (const f of e.families) {
    const dir = path.join(src, 'engine/families', f.id, 'rules');
    assert.ok(fs.existsSync(dir), `families/${f.id}/rules/`);
  }
});

test('every family rule is a rule with a check(): none is emitted inline by the core (helm-template, stale-data, window-past-data, legacy-store)', () => {
  const notes = ['k8s/helm-template', 'k8s/stale-data', 'k8s/window-past-data', 'kata-persist/legacy-store'];
  for (const id of notes) assert.ok(e.ruleById(id), id);
  const noCheck = e.allRules.filter((r) => r.family !== 'general' && typeof r.check !== 'function').map((r) => r.id);
  assert.deepEqual(noCheck, []);
  const src2 = fs.readFileSync(path.join(src, 'engine/analyze.ts'), 'utf8');
  for (const name of ['helmTemplate', 'staleData', 'windowPastData', 'legacyStore']) assert.doesNotMatch(src2, new RegExp(`\\b${name}\\b`));
});

test('detection order is unchanged: files: globs, modeline, then name > structure > content > hints, ties to the first listed', () => {
  const fam = (file, text, cli = {}) => e.analyze({ path: file, text, config: e.resolveConfig({ cli }) }).family ?? null;
  const pod = 'apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n';
  // The name wins over the content.
  assert.equal(fam('/w/localhost.yml', pod), 'starlingx');
  assert.equal(fam('/w/persist.json', '{"apiVersion": "v1", "kind": "Pod"}'), 'kata-persist');
  // Structure (apiVersion and kind) over a StarlingX-shaped mapping.
  assert.equal(fam('/w/a.yaml', pod), 'kubernetes');
  assert.equal(fam('/w/a.yaml', `system_mode: simplex\n${pod}`), 'kubernetes');
  assert.equal(fam('/w/a.yaml', 'system_mode: simplex\ndns_servers:\n  - 8.8.8.8\n'), 'starlingx');
  // A modeline names the family, `kata` being kata-config (not a prefix of kata-persist or kata-config taken short).
  assert.equal(fam('/w/a.yaml', `# skewguard: kata\n${pod}`), 'kata-config');
  assert.equal(fam('/w/a.yaml', `# skewguard: kata-persist\n${pod}`), 'kata-persist');
  assert.equal(fam('/w/a.yaml', `# skewguard: starlingx\n${pod}`), 'starlingx');
  // A template is a Helm chart's (rendered alone when no chart is around it), unless a modeline makes it a manifest;
  // other extensions are nobody's.
  assert.equal(fam('/w/t.yaml', 'apiVersion: {{ .Values.v }}\nkind: Ingress\n'), 'helm-chart');
  assert.equal(fam('/w/t.yaml', '# skewguard: kubernetes\napiVersion: {{ .Values.v }}\nkind: Ingress\n'), 'kubernetes');
  assert.equal(fam('/w/templates/pod.yaml', pod), 'helm-chart');
  assert.equal(fam('/w/Chart.yaml', 'apiVersion: v2\nname: web\nversion: 1.0.0\n'), 'helm-chart');
  assert.equal(fam('/w/a.txt', pod), null);
  assert.equal(fam('/w/a.toml', '[hypervisor.qemu]\npath = "/usr/bin/qemu"\n[runtime]\n'), 'kata-config');
});

test('a family\'s workspace facts (kata-deploy\'s tags) are its own producers, which the server walks without naming them', () => {
  const producers = e.families.flatMap((f) => (f.workspaceFactProducers ?? []).map((p) => ({ family: f.id, key: p.key, p })));
  assert.ok(producers.some((x) => x.family === 'kata-config' && x.key === 'kataDeploy'), producers.map((x) => x.key).join(', '));
  // Nothing outside the families' folders names a produced fact's key (the server's walk is generic: registry.ts).
  const hits = [];
  for (const file of tsSources(src)) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    if (isFamilyOwn(rel)) continue;
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      for (const x of producers) if (new RegExp(`\\b${x.key}\\b`).test(line)) hits.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  assert.deepEqual(hits, []);
  // A producer works from what the server gives it: the root's facts, the .skewguard.yaml scope, paths as said.
  const kd = producers.find((x) => x.key === 'kataDeploy').p;
  const chain = { kataDeploy: [{ file: '/w/a/ds.yaml', tag: '3.2.0', line: 1 }, { file: '/w/b/ds.yaml', tag: '3.5.0', line: 1 }] };
  assert.deepEqual(kd.produce({ neighbours: { kataChain: chain }, inScope: (f) => f.startsWith('/w/a/'), relative: (f) => f.slice(3) }), { path: 'a/ds.yaml', tags: ['3.2.0'] });
  assert.equal(kd.produce({ neighbours: { kataChain: chain }, inScope: () => false, relative: (f) => f }), undefined);
});

test('a family\'s facts of a workspace root (containerd runtimes, the node\'s Kata chain) are its own producers, made from the host the server lends', () => {
  const producers = e.families.flatMap((f) => (f.rootFactProducers ?? []).map((p) => ({ family: f.id, key: p.key, p })));
  assert.deepEqual(producers.map((x) => `${x.family}:${x.key}`).sort(), ['containerd:containerdRuntimes', 'containerd:kataChain', 'helm-chart:helmDeployments', 'kubernetes:crds', 'kubernetes:operatorPins']);
  // The server's workspace names none of them: it produces each by the registry's list (server/workspace.ts rootFact).
  for (const file of tsSources(path.join(src, 'server'))) {
    const text = fs.readFileSync(file, 'utf8');
    for (const x of producers) assert.ok(!new RegExp(`\\b${x.key}\\b`).test(text), `${path.relative(repoRoot, file)} names ${x.key}`);
  }
  // A producer reads the disk only through the host: a walk of a made-up tree and texts the host hands out.
  const root = '/node-a';
  const tree = {
    [`${root}/etc/containerd/config.toml`]: 'version = 2\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu]\nruntime_type = "io.containerd.kata-qemu.v2"\n[plugins."io.containerd.grpc.v1.cri".containerd.runtimes.kata-qemu.options]\nConfigPath = "/opt/kata/share/defaults/kata-containers/configuration-qemu.toml"\n',
    [`${root}/opt/kata/share/defaults/kata-containers/configuration-qemu.toml`]: '[hypervisor.qemu]\n',
    [`${root}/deploy/kata-deploy.yaml`]: 'apiVersion: apps/v1\nkind: DaemonSet\nmetadata:\n  name: kata-deploy\nspec:\n  template:\n    spec:\n      containers:\n        - name: kube-kata\n          image: quay.io/kata-containers/kata-deploy:3.5.0\n',
    [`${root}/big/containerd/config.toml`]: 'x'.repeat(600 * 1024),
    [`${root}/big/kata-deploy-values.yaml`]: `image: quay.io/kata-containers/kata-deploy:3.6.0\n${'#'.repeat(600 * 1024)}\n`,
  };
  const reads = [];
  const host = {
    walk: (r, { onFile }) => { for (const p of Object.keys(tree).sort()) if (p.startsWith(r + '/')) onFile(p, path.basename(p)); return { folders: 1, stopped: false, unreadable: [] }; },
    unreadableNote: () => [],
    readSaved: (p, max) => { reads.push([p, max]); return tree[p].length > max ? undefined : tree[p]; },
  };
  Object.assign(host, { stamp: () => '1', ignored: () => false, configOf: () => undefined });
  const chain = producers.find((x) => x.key === 'kataChain').p.produce(root, host);
  assert.deepEqual(chain.runtimes.map((r) => [r.runtime, r.resolved]), [['kata-qemu', [`${root}/opt/kata/share/defaults/kata-containers/configuration-qemu.toml`]]]);
  assert.deepEqual(chain.kataDeploy.map((k) => k.tag), ['3.5.0']);
  // The 600 KiB config is over the chain's 512 KiB bound: not read, and said.
  assert.match(chain.truncated, /big\/containerd\/config\.toml was not read/);
  // A kata-deploy file over the bound: its tags are not known, and said (not a window silently absent).
  assert.match(chain.truncated, /big\/kata-deploy-values\.yaml was not read/);
  const rts = producers.find((x) => x.key === 'containerdRuntimes').p.produce(root, host);
  assert.deepEqual(rts.names, ['kata-qemu']);
  assert.deepEqual(rts.files, ['etc/containerd/config.toml']);
  assert.ok(reads.length > 0 && reads.every(([p]) => p in tree), 'every read through the host');
});

// The root indexes moved out of server/ (the GitOps deployments, the operator pins, the CRDs and custom resources): the
// server's code names none of their words; it builds, updates and describes them by the registry's list
// (server/workspace.ts rootIndex).
const ROOT_INDEX_WORDS = /deploy|operator|\bpins?\b|\bPin[A-Z]\w*|helmRepositories|helm\.repositories|remotes?Of|\.git['"], *['"]config|\.git\/config|crd|customResource|CustomResourceDefinition/i;
function rootIndexWordsIn(files) {
  const hits = [];
  for (const file of files) {
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const code = line.replace(/\s\/\/ .*$/, '');
      if (ROOT_INDEX_WORDS.test(code)) hits.push(`${path.relative(repoRoot, file)}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

test('server/src/server/ names none of the root indexes\' words (deployments, operator pins, CRDs): their owners produce them', () => {
  const files = tsSources(path.join(src, 'server'));
  assert.ok(files.some((f) => f.endsWith('workspace.ts')) && files.some((f) => f.endsWith('watched-files.ts')) && files.some((f) => f.endsWith('resolved-config.ts')));
  assert.deepEqual(rootIndexWordsIn(files), []);
  for (const gone of ['deployment-index.ts', 'operator-pins.ts', 'crd-index.ts']) assert.ok(!fs.existsSync(path.join(src, 'server', gone)), `server/${gone} moved to its owner`);
  // It can fail: lines the server had while it held the indexes.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'root-index-words-'));
  try {
    const probes = {
      'a.ts': '  readonly pins = new OperatorPinIndex((p) => this.readSaved(p), (p) => this.ignoredForCrds(p));',
      'b.ts': '    if (ws.deployments.changed(f)) crds = true;',
      'c.ts': "    resolved.operatorPins = pins.pins.length ? describePins(pins) : 'none found in the workspace';",
      'd.ts': "    const urls = c?.overrides.helmRepositories;",
      'e.ts': "// the operator pins in a comment are fine",
      'f.ts': "const w = walkFolders(root, { maxFolders: 10, onFile: () => {} });",
      'g.ts': "    const git = readTextUpTo(path.join(root, '.git', 'config'), GIT_CONFIG_MAX);",
      'h.ts': "      if (e.name === '.git') continue;",
      'i.ts': "    if (!ws.openTexts.has(f) && ws.crdsChanged(f, undefined)) crds = true;",
      'j.ts': "      customResourceUses: (group: string) => ws.crds.usesFor(root, group, file),",
    };
    for (const [n, t] of Object.entries(probes)) fs.writeFileSync(path.join(dir, n), t);
    assert.deepEqual(rootIndexWordsIn(tsSources(dir)).map((h) => path.basename(h.split(':')[0])).sort(), ['a.ts', 'b.ts', 'c.ts', 'd.ts', 'g.ts', 'i.ts', 'j.ts']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the engine reads no disk: a module that takes the host (WorkspaceHost) imports neither node:fs nor child_process', () => {
  const withHost = tsSources(path.join(src, 'engine')).filter((f) => /\bWorkspaceHost\b/.test(fs.readFileSync(f, 'utf8')) && !f.endsWith(`families${path.sep}types.ts`));
  assert.ok(withHost.length >= 3, withHost.join(', '));
  for (const f of withHost) assert.doesNotMatch(fs.readFileSync(f, 'utf8'), /from ['"](node:)?(fs|fs\/promises|child_process)['"]|require\(['"](node:)?(fs|child_process)/, path.relative(repoRoot, f));
});

/** A made-up workspace the host lends from memory: each read and stamp counted. */
function memoryHost(tree) {
  const reads = [];
  const stamps = new Map(Object.keys(tree).map((p) => [p, 1]));
  const host = {
    reads,
    walk: (r, { onFile }) => { for (const p of Object.keys(tree).sort()) if (p.startsWith(r + '/') && onFile(p, path.basename(p)) === false) break; return { folders: 1, stopped: false, unreadable: [] }; },
    unreadableNote: () => [],
    readSaved: (p, max) => { reads.push(p); return p in tree && tree[p].length <= max ? tree[p] : undefined; },
    stamp: (p) => (p in tree ? String(stamps.get(p)) : undefined),
    ignored: () => false,
    configOf: () => undefined,
    /** The open documents' texts (an index that follows open buffers reads them first). */
    open: new Map(),
    openText(p) { return host.open.get(p); },
    openFiles() { return host.open.keys(); },
    inside: () => true,
    look: (p) => (p in tree ? { kind: 'file', size: tree[p].length, stamp: String(stamps.get(p)) } : { error: 'ENOENT' }),
    readBytes: (p) => (p in tree ? { bytes: Buffer.from(tree[p]) } : { error: 'ENOENT' }),
    /** A save of the file (a new stamp), its text `text` (undefined: deleted). */
    save(p, text) { if (text === undefined) delete tree[p]; else { tree[p] = text; stamps.set(p, (stamps.get(p) ?? 0) + 1); } },
  };
  return host;
}
const rootIndexProducer = (key) => e.families.flatMap((f) => f.rootFactProducers ?? []).find((p) => p.key === key);

test('the operator pins are a root index: built on first use, and a file changed on disk is the only one read again', () => {
  const root = '/ws';
  const chart = 'apiVersion: v2\nname: platform\nversion: 1.0.0\ndependencies:\n  - name: traefik\n    repository: https://traefik.github.io/charts\n    version: 27.0.2\n';
  const host = memoryHost({
    [`${root}/platform/Chart.yaml`]: chart,
    [`${root}/apps/a.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n',
    [`${root}/apps/b.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n',
    [`${root}/README.md`]: '# not YAML\n',
  });
  const p = rootIndexProducer('operatorPins');
  assert.equal(p.printConfig, 'operatorPins');
  const idx = p.index(root, host);
  assert.equal(host.reads.length, 0, 'nothing read until asked');
  assert.equal(idx.changed(`${root}/apps/a.yaml`), false, 'an index not built has nothing to update');
  const ask = idx.fact(`${root}/apps/a.yaml`);
  assert.equal(host.reads.length, 0, 'the fact is asked for only when a rule calls it');
  const first = ask();
  assert.deepEqual(host.reads.sort(), [`${root}/apps/a.yaml`, `${root}/apps/b.yaml`, `${root}/platform/Chart.yaml`]);
  assert.equal(first.self, 'apps/a.yaml');
  assert.deepEqual(first.pins.map((x) => `${x.operator} ${x.version} ${x.file}`), ['traefik 2.11.2 platform/Chart.yaml']);
  // A saved file that pins nothing, before and after: read again alone, and the pins did not change.
  host.reads.length = 0;
  host.save(`${root}/apps/b.yaml`, 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b2\n');
  assert.equal(idx.changed(`${root}/apps/b.yaml`), false);
  assert.deepEqual(host.reads, [`${root}/apps/b.yaml`]);
  // The same stamp (an event for a file not saved again): not read at all.
  host.reads.length = 0;
  assert.equal(idx.changed(`${root}/apps/b.yaml`), false);
  assert.equal(idx.changed(`${root}/README.md`), false);
  assert.deepEqual(host.reads, []);
  // The pin saved at another version: only the chart read again, and the fact changed.
  host.save(`${root}/platform/Chart.yaml`, chart.replace('27.0.2', '28.0.0'));
  assert.equal(idx.changed(`${root}/platform/Chart.yaml`), true);
  assert.deepEqual(host.reads, [`${root}/platform/Chart.yaml`]);
  host.reads.length = 0;
  assert.deepEqual(idx.fact(`${root}/apps/a.yaml`)().pins.map((x) => `${x.operator} ${x.version}`), ['traefik 3.0.0']);
  assert.deepEqual(host.reads, [], 'the facts are gathered from the kept scans');
  // A new file pins too: read alone.
  host.save(`${root}/apps/kustomization.yaml`, 'images:\n  - name: ghcr.io/external-secrets/external-secrets\n    newTag: v0.9.0\n');
  assert.equal(idx.changed(`${root}/apps/kustomization.yaml`), true);
  assert.deepEqual(host.reads, [`${root}/apps/kustomization.yaml`]);
  // Deleted: nothing read, and the pins it held are gone.
  host.reads.length = 0;
  host.save(`${root}/platform/Chart.yaml`, undefined);
  assert.equal(idx.changed(`${root}/platform/Chart.yaml`), true);
  assert.deepEqual(host.reads, []);
  assert.deepEqual(idx.fact(`${root}/x.yaml`)().pins.map((x) => x.operator), ['external-secrets']);
  // The ignore: lists changed: gathered again from the kept scans, with no read.
  host.ignored = (f) => f.endsWith('/kustomization.yaml');
  idx.forgetConfig();
  assert.equal(idx.describe(), 'none found in the workspace');
  assert.deepEqual(host.reads, []);
});

test('the GitOps deployments are a root index: a YAML file changed on disk forgets them, and says so only when they held a deployment', () => {
  const root = '/ws';
  const release = 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: app\n  namespace: apps\nspec:\n  chart:\n    spec:\n      chart: ./charts/app\n      sourceRef:\n        kind: GitRepository\n        name: self\n';
  const host = memoryHost({ [`${root}/charts/app/Chart.yaml`]: 'apiVersion: v2\nname: app\nversion: 1.0.0\n', [`${root}/apps/other.yaml`]: 'a: 1\n' });
  const idx = rootIndexProducer('helmDeployments').index(root, host);
  assert.equal(host.reads.length, 0);
  assert.equal(idx.changed(`${root}/apps/other.yaml`), false, 'not built: nothing to forget');
  idx.fact(`${root}/charts/app/templates/a.yaml`);
  assert.deepEqual(host.reads.sort(), [`${root}/.git/config`, `${root}/apps/other.yaml`, `${root}/charts/app/Chart.yaml`]);
  assert.equal(idx.changed(`${root}/apps/other.yaml`), false, 'no deployment: the open files need no new check');
  host.save(`${root}/flux/app.yaml`, release);
  host.reads.length = 0;
  const facts = idx.fact(`${root}/charts/app/templates/a.yaml`);
  assert.ok(host.reads.includes(`${root}/flux/app.yaml`), 'walked again after the change');
  assert.equal(facts.world.root, root);
  assert.equal(idx.changed(`${root}/apps/other.yaml`), true, 'it held a deployment: the files are checked again');
});

test('the CRDs and custom resources are a root index: open buffers win, an edit that changes no summary changes nothing, a saved file is read alone', () => {
  const root = '/ws';
  const cr = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\n';
  const host = memoryHost({ [`${root}/crds/crontab.yaml`]: CRONTAB_CRD, [`${root}/app/c.yaml`]: cr, [`${root}/app/d.yaml`]: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: d\n' });
  const p = rootIndexProducer('crds');
  assert.deepEqual(p.also, ['customResourceUses']);
  const idx = p.index(root, host);
  assert.equal(idx.edited(`${root}/app/d.yaml`, 'x: 1\n'), false, 'not built: nothing to update');
  assert.equal(host.reads.length, 0);
  const crds = idx.fact(`${root}/app/d.yaml`, 'crds');
  assert.deepEqual(crds.files, ['crds/crontab.yaml']);
  assert.deepEqual(host.reads.sort(), [`${root}/app/c.yaml`, `${root}/app/d.yaml`, `${root}/crds/crontab.yaml`]);
  assert.equal(idx.fact(`${root}/app/d.yaml`, 'crds'), crds, 'the same facts while nothing changed');
  const uses = idx.fact(`${root}/crds/crontab.yaml`, 'customResourceUses');
  assert.deepEqual(uses('stable.example.com').uses.map((u) => u.abs), [`${root}/app/c.yaml`]);
  // An open buffer wins over the disk: a second custom resource in d.yaml's buffer is a use at once; no disk read.
  host.reads.length = 0;
  const buffer = `${cr.replace('name: c', 'name: d')}`;
  host.open.set(`${root}/app/d.yaml`, buffer);
  assert.equal(idx.edited(`${root}/app/d.yaml`, buffer), true);
  assert.deepEqual(uses('stable.example.com').uses.map((u) => u.abs), [`${root}/app/c.yaml`, `${root}/app/d.yaml`]);
  assert.deepEqual(host.reads, [], 'the buffer was handed over');
  // An edit that changes neither its CRD text nor the custom groups it names: nothing changes.
  assert.equal(idx.edited(`${root}/app/d.yaml`, `# a comment\n${buffer}`), false);
  // Saved on disk while open: the buffer still wins (nothing read).
  host.save(`${root}/app/d.yaml`, 'a: 1\n');
  assert.equal(idx.changed(`${root}/app/d.yaml`), false);
  assert.deepEqual(host.reads, []);
  // Closed: the disk's text (read alone) no longer uses the group.
  host.open.delete(`${root}/app/d.yaml`);
  assert.equal(idx.edited(`${root}/app/d.yaml`, undefined, buffer), true);
  assert.deepEqual(host.reads, [`${root}/app/d.yaml`]);
  // The CRD deleted on disk: read alone (it is not there), and the facts no longer hold it.
  host.reads.length = 0;
  host.save(`${root}/crds/crontab.yaml`, undefined);
  assert.equal(idx.changed(`${root}/crds/crontab.yaml`), true);
  assert.deepEqual(host.reads, [`${root}/crds/crontab.yaml`]);
  assert.deepEqual(idx.fact(`${root}/app/c.yaml`, 'crds').files, []);
  // A configuration's kubernetes.crds entry that cannot be read is said at its entry.
  const problems = idx.configProblems(`${root}/.skewguard.yaml`, { kubernetesCrds: ['missing.yaml'] }, () => ({ kubernetes: { crds: ['', 'missing.yaml'] } }));
  assert.deepEqual(problems.map((x) => x.path), [['kubernetes', 'crds', 1]]);
  assert.match(problems[0].message, /^kubernetes\.crds\[0\] "missing\.yaml": cannot be read \(ENOENT\)/);
});

// Issue #30: the client types nothing twice and names no family. Its window picker and status tooltip are derived
// from what the server sends from the families' config sections (skewguard/windowChoices' parts with their choices
// and patterns, skewguard/resolvedConfig's baseWindows, windows and readBy): no family id, no section name, no
// section key ("kubernetes.window", `resolved.kubernetes`, "StarlingX release") is written in client/src, in any case.
// The names come from the registry and the config sections, so a family added there is covered without editing this.
const CLIENT_NAMES = [...new Set([...FAMILY_IDS, ...e.CONFIG_SECTIONS.map((c) => c.section)])].sort((a, b) => b.length - a.length);
const CLIENT_NAME = new RegExp(`(?<![\\w-])(${CLIENT_NAMES.map((n) => n.replace(/[-]/g, '\\-')).join('|')})(?![\\w-])`, 'i');
// Nothing is allowed: the settings whose user-level entries the VS Code client says (`userLevel`, from inspect()) are
// named by the server at initialize (`userLevelSettings`, the config sections' `userLevel`), not in client/src.
const CLIENT_ALLOWED = [];
function clientNameViolations(files) {
  const hits = [];
  for (const file of files) {
    const rel = path.relative(repoRoot, file).split(path.sep).join('/');
    fs.readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const code = line.replace(/\s\/\/ .*$/, '');
      if (!CLIENT_NAME.test(code)) return;
      if (CLIENT_ALLOWED.some((a) => a.file === rel && a.line.test(code.trim()))) return;
      hits.push(`${rel}:${i + 1}: ${line.trim()}`);
    });
  }
  return hits;
}

test('client/src names no family, config section or section key (the picker and the status tooltip come from the sections)', () => {
  assert.ok(CLIENT_NAMES.includes('starlingx') && CLIENT_NAMES.includes('kata') && CLIENT_NAMES.includes('helm'), CLIENT_NAMES.join(', '));
  const files = tsSources(path.join(repoRoot, 'client/src'));
  assert.ok(files.some((f) => f.endsWith('status.ts')) && files.some((f) => f.endsWith('window.ts')));
  const hits = clientNameViolations(files);
  assert.deepEqual(hits, [], `client/src names a family or its configuration (send it from its config section):\n${hits.join('\n')}`);
});

test('the client scan finds a family, a section or a section key written out (it can fail)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'families-client-'));
  try {
    const probes = {
      'resolved.ts': 'const k = r.resolved.kubernetes;',
      'part.ts': "if (which.part === 'starlingx.release') pick();",
      'words.ts': 'md.appendMarkdown(`- StarlingX **${s.release}**`);',
      'helm.ts': 'const h = r.resolved.helm?.readBy;',
      'key.ts': "const w = cfg.get('kata.window');",
      'id.ts': "if (family === 'kata-config') return;",
      'comment.ts': '// the StarlingX release, in a comment, is fine',
      'other.ts': "const part = spec.part; const kataclysm = 'skewguard-window'; const x = 'k8s-ish';",
    };
    for (const [n, t] of Object.entries(probes)) fs.writeFileSync(path.join(dir, n), t);
    const hits = clientNameViolations(Object.keys(probes).map((n) => path.join(dir, n))).map((h) => path.basename(h.split(':')[0]));
    assert.deepEqual(hits.sort(), ['helm.ts', 'id.ts', 'key.ts', 'part.ts', 'resolved.ts', 'words.ts']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

// Issue #30: the core files that were made generic name no family in their code: the window at a glance (the families'
// step names and inlay hints are their own hooks: FamilyModule.stepsName, inlayHints), the engine library's index (what
// a family gives the library is its families/<id>/library.ts, re-exported by the registry), the analysis and its
// input (AnalyzeInput.helmRenders is the Helm family's, by module augmentation), the family module's type and the
// protocol (lsp-lint's Helm options are the Helm section's CliOptions keys), and every module of the language server's
// core (server/src/server/: what a family does there is its server side, families/<id>/server/, behind the hooks of
// server/family-service.ts: Helm rendering, the user's OpenAPI documents, the hover's note). A name is a family id, a config section,
// k8s or stx, written out as a word or as a part of an identifier (helmJobs, k8sCel, starlingxPath, KUBERNETES_VERSION),
// or an import of a family's folder. The names come from the registry and the sections: a family added is covered.
const SERVER_CORE = fs.readdirSync(path.join(src, 'server')).filter((f) => f.endsWith('.ts')).sort().map((f) => `server/${f}`);
const GENERIC_FILES = ['engine/window-verdict.ts', 'engine/index.ts', 'engine/analyze.ts', 'engine/families/types.ts', 'shared/protocol.ts', ...SERVER_CORE];
const GENERIC_WORDS = new Set([...FAMILY_IDS, ...e.CONFIG_SECTIONS.map((c) => c.section).filter((s) => s !== 'components'), 'k8s', 'stx']);
const GENERIC_ALLOWED = [
  // The workspace's bootstrap file (the anchor every file's default window is read from): its facts carry the
  // Kubernetes version it pins (engine/config.ts's WorkspaceFacts). Its names, their order and the words on how to
  // choose among several are its family's (workspaceFacts in the registry), not anchor-files.ts's.
  { file: 'server/workspace.ts', line: /^return Object\.defineProperties\(\{ localhost: \{ .*kubernetesVersion: workspaceFacts\.anchorKubernetesVersion\(text\)/ },
];
/** The family names a line of code has: words and identifier parts (camelCase, SNAKE_CASE, kebab-case runs). */
function familyWordsIn(code) {
  const found = [];
  for (const tok of code.match(/[A-Za-z_$][\w$-]*/g) ?? []) {
    const parts = tok.split(/[_$]|-/).flatMap((p) => (/^[A-Z0-9]+$/.test(p) ? [p] : p.split(/(?=[A-Z])/))).filter(Boolean).map((p) => p.toLowerCase());
    for (let i = 0; i < parts.length; i++) {
      for (let j = i + 1; j <= Math.min(parts.length, i + 3); j++) if (GENERIC_WORDS.has(parts.slice(i, j).join('-'))) found.push(parts.slice(i, j).join('-'));
    }
  }
  return found;
}
function genericViolations(texts) {
  const hits = [];
  for (const [rel, text] of Object.entries(texts)) {
    text.split('\n').forEach((line, i) => {
      if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
      const code = line.replace(/\/\*.*?\*\//g, '').replace(/(^|\s)\/\/ .*$/, '').trim();
      if (!code || GENERIC_ALLOWED.some((a) => a.file === rel && a.line.test(code))) return;
      const named = familyWordsIn(code);
      if (named.length || FAMILY_PATH.test(code)) hits.push(`${rel}:${i + 1}: ${named.join(', ') || 'a family folder'}: ${code}`);
    });
  }
  return hits;
}

test('the core files made generic (window verdicts, the engine index, analyze, the family module type, the protocol, the language server) name no family', () => {
  assert.ok(SERVER_CORE.includes('server/main.ts') && SERVER_CORE.includes('server/family-service.ts') && SERVER_CORE.length >= 40, SERVER_CORE.join(', '));
  assert.ok(GENERIC_WORDS.has('kubernetes') && GENERIC_WORDS.has('helm') && GENERIC_WORDS.has('kata') && GENERIC_WORDS.has('kata-config'), [...GENERIC_WORDS].join(', '));
  const texts = Object.fromEntries(GENERIC_FILES.map((f) => [f, fs.readFileSync(path.join(src, f), 'utf8')]));
  const hits = genericViolations(texts);
  assert.deepEqual(hits, [], `a generic core file names a family (give it a hook on FamilyModule or its config section):\n${hits.join('\n')}`);
  // The allowed lines are still there (else the list is stale).
  for (const a of GENERIC_ALLOWED) assert.ok(texts[a.file].split('\n').some((l) => a.line.test(l.trim())), `${a.file}: ${a.line}`);
});

test('the generic files\' scan finds the lines they had when they named families (it can fail)', () => {
  const old = {
    'engine/window-verdict.ts': [
      "import { componentOf, versionRow, standingAt, type Standing } from './families/kubernetes/data/components';",
      "import { starlingxPath } from './families/starlingx/data';",
      "  name: 'Kubernetes' | NonNullable<FamilyModule['stepsName']>;",
      "const KUBERNETES_VERSION = /^kubernetes_version[ \\t]*:/m;",
      '  const m = isStarlingxResult(result) ? KUBERNETES_VERSION.exec(text) : null;',
      '  const k8s = result.k8s;',
    ],
    'engine/index.ts': [
      "export * as k8sCel from './families/kubernetes/cel';",
      "export { helmEmissions } from './families/registry';",
      "export * as kataChain from './families/kata-config/data/chain';",
    ],
    'engine/analyze.ts': ["import type { ChartRender } from './families/helm-chart/rendered';", '  helmRenders?: ChartRender[];'],
    'engine/families/types.ts': ["import type { NeighbourFacts } from './kubernetes';"],
    'shared/protocol.ts': ["  cli?: Overrides & { configPath?: string; /** Helm processes at a time. */ helmJobs?: number; helmTimeoutMs?: number };", "const f: Family = 'kata-persist';", '  containerdRuntimes: string[];'],
    // The language server's core before the families' server sides (family-service.ts) took them.
    'server/main.ts': ["import { HelmService } from './helm-render';", '  helm.trusted = init.workspaceTrusted === true || init.cli?.helmRender === true;'],
    'server/diagnostics.ts': ['        neighbours: ws.around.lazyFor(file), faults: FAULTS, files, helmRenders: h.renders,'],
    'server/workspace.ts': ["import { openapiEntry } from '../engine/families/kubernetes/config';"],
    'server/config-for.ts': ['  return { ...o, kubernetesOpenapiDocs: ws.settingsOpenapi(file, o.kubernetesOpenapi, user) };'],
    'server/hover.ts': ['  const k = r.config?.kubernetes.source;'],
    // Before the anchor's family gave its order and its words (workspaceFacts.anchorRank, anchorChoiceHint).
    'server/anchor-files.ts': ["  return `x: set kubernetes.window (or starlingx.release) in .skewguard.yaml to choose`;"],
  };
  const hits = genericViolations(Object.fromEntries(Object.entries(old).map(([f, ls]) => [f, ls.join('\n')])));
  assert.equal(hits.length, Object.values(old).flat().length, hits.join('\n'));
  // Words that only contain a name, comments and the allowed lines are not hits.
  const fine = { 'engine/index.ts': "export { families, FAMILIES, familyById } from './families/registry';\n// the Kubernetes window\nconst kataclysm = helmet; /** Helm */ const x = 1;" };
  assert.deepEqual(genericViolations(fine), []);
});

test('a family with steps names what they are versions of (stepsName) and where they come from (stepsSource): the core has no default; inlay hints are the families\' own', () => {
  const unnamed = e.families.filter((f) => typeof f.steps === 'function' && !(typeof f.stepsName === 'string' && f.stepsName.length)).map((f) => f.id);
  assert.deepEqual(unnamed, []);
  // …and where they come from (stepsSource): fix-all holds key-changing fixes back under a default window by it.
  assert.deepEqual(e.families.filter((f) => typeof f.steps === 'function' && typeof f.stepsSource !== 'function').map((f) => f.id), []);
  assert.ok(e.families.filter((f) => typeof f.steps === 'function').length >= 8);
  // The Kubernetes window's families say so themselves, as the Kata and containerd ones name theirs.
  assert.equal(e.familyById('kubernetes').stepsName, 'Kubernetes');
  assert.equal(e.familyById('helm-chart').stepsName, 'Kubernetes');
  assert.deepEqual(e.families.filter((f) => typeof f.inlayHints === 'function').map((f) => f.id).sort(), ['kubernetes', 'starlingx']);
});
