// Issue #14: a family is a module. What makes a family (detection, parsing, context, rules, hover, completion,
// facts) lives under server/src/engine/families/<family>/; the core reaches it only through families/registry.ts.
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';
import { tsSources } from './helpers/sources.mjs';

const src = path.join(repoRoot, 'server/src');
const FAMILY_FOLDERS = ['starlingx', 'kubernetes', 'kata', 'kata-persist', 'helm'];


// A family's own places: its folder, the registry that lists it, and its rule files (rules/<family>/).
function isFamilyOwn(rel) {
  return /^server\/src\/engine\/families\/[^/]+\//.test(rel) || rel === 'server/src/engine/families/registry.ts'
    || /^server\/src\/engine\/rules\/(starlingx|kubernetes|kata|kata-persist)\//.test(rel);
}

// What names one family: a family id compared, a family's recognisers or context classes, an import of its folder.
const FAMILY_SPECIFIC = [
  /[=!]==\s*['"](starlingx|kubernetes|kata-config|kata-persist|kata)['"]|['"](starlingx|kubernetes|kata-config|kata-persist|kata)['"]\s*[=!]==|case\s+['"](starlingx|kubernetes|kata-config|kata-persist)['"]/,
  /\b(isKataName|isKataConfig|isDropIn|isStarlingxName|isPersistName|isLegacyStoreFile|isPersistContent|persistKind|looksLikeStarlingx|looksLikeHelmTemplate|isManifestLike|isManifestValue|manifestObjects|StarlingxContext|KubernetesContext|KataContext|PersistContext|detectFlavour|resolveKataWindow)\b/,
  /families\/(starlingx|kubernetes|kata|kata-persist)\b/,
];

// Allowed, each for a reason:
const ALLOWED = [
  // The configuration file's `kubernetes.additionalVersions` rows (pluto's format) are parsed by config.ts, the
  // settings schema: the row type lives with the Kubernetes lifecycle rows that consume it.
  { file: 'server/src/engine/config.ts', line: /^import type \{ PlutoRow \} from '\.\/families\/kubernetes';$/ },
  // `components:` names a component, and "kubernetes" (like "k8s") is the Kubernetes version itself, not a family.
  { file: 'server/src/engine/config.ts', line: /name === 'k8s' \|\| name === 'kubernetes'/ },
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

test('no file outside engine/families/<family>/ (and the registry, and a family\'s rule files) names a specific family', () => {
  const hits = violations([...tsSources(src), ...tsSources(path.join(repoRoot, 'client/src'))]);
  assert.deepEqual(hits, [], `family-specific code outside its family's folder:\n${hits.join('\n')}`);
});

test('the scan finds family-specific code where it is not allowed (it can fail)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'families-scan-'));
  try {
    const probes = {
      'a.ts': "if (result.family === 'kata-config') return 1;",
      'b.ts': "import { isStarlingxName } from './engine/families/starlingx';",
      'c.ts': 'export function f(ctx: KubernetesContext) { return ctx; }',
      'd.ts': '// a comment naming isKataName is fine',
    };
    for (const [n, t] of Object.entries(probes)) fs.writeFileSync(path.join(dir, n), t);
    const hits = violations(tsSources(dir)).map((h) => path.basename(h.split(':')[0]));
    assert.deepEqual(hits.sort(), ['a.ts', 'b.ts', 'c.ts']);
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
  const folders = fs.readdirSync(path.join(src, 'engine/families'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
  assert.deepEqual(folders, [...FAMILY_FOLDERS].sort());
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
