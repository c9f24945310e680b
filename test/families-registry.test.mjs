// Issue #14: a family is a module. What makes a family (detection, parsing, context, rules, hover, completion,
// facts) lives under server/src/engine/families/<family>/; the core reaches it only through families/registry.ts.
// The family ids themselves (the Family union, the files: values, the docs' titles) come from the registry too.
// Uses the built dist/; `npm test` builds first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';
import { tsSources } from './helpers/sources.mjs';

const src = path.join(repoRoot, 'server/src');
// Every folder under families/ is a family (read from disk, so that a family added is covered without editing this).
const FAMILY_FOLDERS = fs.readdirSync(path.join(src, 'engine/families'), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();


// A family's own places: its folder, the registry that lists it, and its rule files (rules/<family>/).
function isFamilyOwn(rel) {
  return /^server\/src\/engine\/families\/[^/]+\//.test(rel) || rel === 'server/src/engine/families/registry.ts'
    || (/^server\/src\/engine\/rules\/[^/]+\//.test(rel) && !rel.startsWith('server/src/engine/rules/general/'));
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

// A family id written out (a string literal that is one of the registry's ids) outside the family's own places.
// The ids come from the registry, so a family added there is covered without touching this test.
const FAMILY_IDS = [...e.FAMILIES];
const ID_LITERAL = new RegExp(`(['"\`])(${FAMILY_IDS.map((id) => id.replace(/[-]/g, '\\-')).join('|')})\\1`);
// A family's own places, beyond its folder and the registry: its rule files (rules/<family>/, not rules/general/),
// and the build scripts that are one per family by design: its schema module (scripts/schemas/<family>.mjs) and
// the scripts that import its upstream data (scripts/import-*.mjs, scripts/extract-*.mjs).
function isFamilyOwnAnywhere(rel) {
  return /^server\/src\/engine\/families\/[^/]+\//.test(rel) || rel === 'server/src/engine/families/registry.ts'
    || (/^server\/src\/engine\/rules\/[^/]+\//.test(rel) && !rel.startsWith('server/src/engine/rules/general/'))
    || /^scripts\/schemas\/[^/]+\.mjs$/.test(rel) || /^scripts\/(import|extract)-[^/]+\.mjs$/.test(rel);
}
const ID_ALLOWED = [
  // The .skewguard.yaml sections `starlingx:` and `kubernetes:` are the config file's own keys (named like the
  // families): the key paths at which config.ts reports a problem, and "kubernetes" as a component name (above).
  { file: 'server/src/engine/config.ts', line: /path: \['(starlingx|kubernetes|containerd)', / },
  { file: 'server/src/engine/config.ts', line: /name === 'k8s' \|\| name === 'kubernetes'/ },
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
  assert.ok(FAMILY_FOLDERS.length >= 4 && FAMILY_FOLDERS.includes('kata-persist'), FAMILY_FOLDERS.join(', '));
  // One module per folder, each id once: the registry lists as many families as there are folders.
  assert.equal(e.families.length, FAMILY_FOLDERS.length);
  assert.equal(new Set(e.families.map((f) => f.id)).size, e.families.length);
  assert.deepEqual([...e.FAMILIES], e.families.map((f) => f.id));
  for (const f of e.families) assert.ok(typeof f.title === 'string' && f.title.length > 0, `${f.id} has a title`);
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
