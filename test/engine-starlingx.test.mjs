// Engine tests for StarlingX localhost.yml: the real docs examples under several releases, every rule at
// its exact position, positions with CRLF/BOM/tabs/multi-byte text, suppressions, hovers and completion.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const e = require('../dist/engine.js');
const fixtures = path.join(path.dirname(new URL(import.meta.url).pathname), 'fixtures', 'starlingx');

const cfg = (rel, extra = {}) => e.resolveConfig({ cli: { starlingxRelease: rel, ...extra } });
const run = (text, rel = '6.0', file = '/ws/localhost.yml', extra) => e.analyze({ path: file, text, config: cfg(rel, extra) });
/** "rule@line:col" with 1-based line and column, as lsp-lint prints them. */
const brief = (r) => r.diagnostics.map((d) => `${d.ruleId}@${d.range.start.line + 1}:${d.range.start.character + 1}`);

test('docs examples give exactly the expected findings under each release', () => {
  const expected = {
    '5.0': { 'docs-apiserver-extra-args-fragment.yml': ['starlingx/key-not-read@1:1'] },
    '6.0': { 'docs-apiserver-extra-args-fragment.yml': ['starlingx/key-not-read@1:1'] },
    '11.0': {},
    '12.0': {
      'docs-min-bootstrap-duplex.yml': ['starlingx/key-not-read@17:1', 'starlingx/key-not-read@18:1', 'starlingx/key-not-read@19:1'],
      'docs-min-bootstrap-simplex.yml': ['starlingx/key-not-read@15:1', 'starlingx/key-not-read@16:1', 'starlingx/key-not-read@17:1'],
    },
  };
  for (const [rel, byFile] of Object.entries(expected)) {
    for (const f of fs.readdirSync(fixtures).filter((x) => x.startsWith('docs-')).sort()) {
      const r = run(fs.readFileSync(path.join(fixtures, f), 'utf8'), rel, `/ws/${f}`);
      assert.equal(r.family, 'starlingx', `${f} is recognised by content`);
      const want = f === 'docs-private-registry-fragment.yml' ? ['syntax/parse-error@8:4'] : (byFile[f] ?? []);
      assert.deepEqual(brief(r), want, `${rel} ${f}`);
    }
  }
});

test('12.0 names the release that last read a dropped key', () => {
  const r = run(fs.readFileSync(path.join(fixtures, 'docs-min-bootstrap-simplex.yml'), 'utf8'), '12.0');
  assert.match(r.diagnostics[0].message, /"k8s_root_ca_cert" is no longer read from StarlingX 12\.0 \(last read by 11\.0\)/);
  assert.equal(r.diagnostics[0].severity, 'warning');
});

test('the broken docs fragment gives one syntax error at the missing colon, nothing else', () => {
  const r = run(fs.readFileSync(path.join(fixtures, 'docs-private-registry-fragment.yml'), 'utf8'));
  assert.equal(r.diagnostics.length, 1);
  const d = r.diagnostics[0];
  assert.equal(d.ruleId, 'syntax/parse-error');
  assert.equal(d.severity, 'error');
  assert.deepEqual(d.range.start, { line: 7, character: 3 }); // "   docker.elastic.co" lacks its colon
});

test('kubernetes_version with a v prefix: error at the value, fix strips the v and keeps quotes', () => {
  const r = run('system_mode: simplex\nkubernetes_version: "v1.21.3"\n');
  assert.deepEqual(brief(r), ['starlingx/kubernetes-version-v-prefix@2:21']);
  const d = r.diagnostics[0];
  assert.deepEqual(d.range, { start: { line: 1, character: 20 }, end: { line: 1, character: 29 } });
  assert.match(d.message, /\/usr\/local\/kubernetes\/v1\.21\.3, which does not exist/);
  const fix = d.fixes.find((f) => f.preferred);
  assert.equal(fix.edits[0].newText, '"1.21.3"');
});

test('v-prefixed and unshipped: both rules speak', () => {
  const r = run('kubernetes_version: v1.17.0\n');
  assert.deepEqual(brief(r).sort(), ['starlingx/kubernetes-version-v-prefix@1:21', 'starlingx/unshipped-kubernetes-version@1:21']);
});

test('unshipped version lists what the release ships; fixes: same-minor patch (preferred) and the default', () => {
  const r = run('kubernetes_version: 1.21.1\n');
  const d = r.diagnostics[0];
  assert.equal(d.ruleId, 'starlingx/unshipped-kubernetes-version');
  assert.match(d.message, /does not ship Kubernetes 1\.21\.1; it ships 1\.18\.1, 1\.19\.13, 1\.20\.9, 1\.21\.3 \(default 1\.21\.3\)/);
  assert.deepEqual(d.fixes.map((f) => [f.edits[0].newText, !!f.preferred]), [['1.21.3', true], ['1.21.3', false]]);
  const other = run('kubernetes_version: 1.17.4\n').diagnostics[0];
  assert.deepEqual(other.fixes.map((f) => [f.edits[0].newText, !!f.preferred]), [['1.21.3', false]], 'no same-minor patch: only the default, not preferred');
});

test('11.0 ships 1.29.2 … 1.33.0 with default 1.32.2', () => {
  const r = run('kubernetes_version: 1.21.3\n', '11.0');
  assert.match(r.diagnostics[0].message, /it ships 1\.29\.2, .*1\.33\.0 \(default 1\.32\.2\)/);
  assert.deepEqual(brief(run('kubernetes_version: 1.32.2\n', '11.0')), []);
});

test('older than the default: warning counting the one-minor upgrades', () => {
  const r = run('kubernetes_version: 1.18.1\n');
  assert.deepEqual(brief(r), ['starlingx/kubernetes-version-below-default@1:21']);
  assert.match(r.diagnostics[0].message, /needs 3 one-minor upgrades \(1\.18\.1 → 1\.19\.13 → 1\.20\.9 → 1\.21\.3\)/);
  assert.equal(r.diagnostics[0].severity, 'warning');
  assert.ok(r.diagnostics[0].fixes.every((f) => !f.preferred), 'fix-all must not change a deliberate choice');
  assert.match(run('kubernetes_version: 1.20.9\n').diagnostics[0].message, /needs 1 one-minor upgrade \(/);
});

test('an unquoted number is a type error with a hint to quote it', () => {
  const r = run('kubernetes_version: 1.20\n');
  assert.deepEqual(brief(r), ['starlingx/invalid-type@1:21']);
  assert.match(r.diagnostics[0].message, /must be a string, not the number 1\.2 — unquoted/);
});

test('unknown key with did-you-mean, at the key', () => {
  const r = run('system_mode: simplex\ndns_server:\n  - 8.8.8.8\n');
  assert.deepEqual(brief(r), ['starlingx/unknown-key@2:1']);
  assert.match(r.diagnostics[0].message, /did you mean "dns_servers"\?/);
  assert.deepEqual(r.diagnostics[0].range.end, { line: 1, character: 10 });
  assert.equal(r.diagnostics[0].fixes[0].edits[0].newText, 'dns_servers');
});

test('Ansible connection variables and optional keys are accepted', () => {
  assert.deepEqual(brief(run('ansible_become_pass: x\nansible_ssh_user: sysadmin\napiserver_cert_sans:\n  - a.example\nkubernetes_version: 1.21.3\n')), []);
});

test('values outside what the playbooks accept, wrong types', () => {
  const r = run('system_mode: triplex\ndns_servers: 8.8.8.8\nvirtual_system: maybe\n');
  assert.deepEqual(brief(r), ['starlingx/invalid-value@1:14', 'starlingx/invalid-type@2:14', 'starlingx/invalid-type@3:17']);
  assert.match(r.diagnostics[0].message, /allowed: simplex, duplex, duplex-direct/);
  assert.match(r.diagnostics[1].message, /must be a list, not the string "8\.8\.8\.8"/);
  assert.deepEqual(brief(run('system_mode: Duplex\n')), [], 'the playbook lower-cases system_mode');
  assert.deepEqual(brief(run('dns_servers: [1.1.1.1, 2.2.2.2, 3.3.3.3, 4.4.4.4]\n')), ['starlingx/invalid-value@1:14']);
});

test('docker_registries keys per release: registry.k8s.io only from 8.0', () => {
  const text = 'docker_registries:\n  registry.k8s.io:\n    url: my.registry.io\n';
  const r6 = run(text, '6.0');
  assert.deepEqual(brief(r6), ['starlingx/invalid-value@2:3']);
  assert.match(r6.diagnostics[0].message, /key "registry\.k8s\.io" is not accepted by StarlingX 6\.0; allowed: .*ghcr\.io/);
  assert.deepEqual(brief(run(text, '8.0')), []);
});

test('duplicate keys and a second document are reported', () => {
  assert.deepEqual(brief(run('system_mode: duplex\ndns_servers: [8.8.8.8]\nsystem_mode: simplex\n')), ['syntax/duplicate-key@3:1']);
  assert.deepEqual(brief(run('system_mode: simplex\n---\nsystem_mode: duplex\n')), ['syntax/parse-error@3:1']);
});

test('exact positions with CRLF, a BOM, tabs and multi-byte characters', () => {
  const crlf = '# ünïcödé 🚀\r\nsystem_mode:\tsimplex\r\nadmin_password: "p🚀ss"\r\ndns_servr:\t[ "8.8.8.8" ]  # 🚀\r\nkubernetes_version: "v1.21.3"\r\n';
  const r = run(crlf);
  assert.deepEqual(r.diagnostics.map((d) => [d.ruleId, d.range]), [
    ['starlingx/unknown-key', { start: { line: 3, character: 0 }, end: { line: 3, character: 9 } }],
    ['starlingx/kubernetes-version-v-prefix', { start: { line: 4, character: 20 }, end: { line: 4, character: 29 } }],
  ]);
  // A value after multi-byte characters on the same line: columns are UTF-16 code units.
  const mb = run('admin_password: "🚀"\nsystem_mode: { a: "🚀🚀", b: 1 }\n');
  assert.deepEqual(mb.diagnostics[0].range, { start: { line: 1, character: 13 }, end: { line: 1, character: 32 } });
  // A BOM is one code unit on line 0 when the client keeps it (lsp-lint strips it before sending).
  const bom = run('\uFEFFkubernetes_version: v1.21.3\n');
  assert.deepEqual(bom.diagnostics[0].range.start, { line: 0, character: 21 });
  // Old Mac line ends (CR only) are line breaks too.
  assert.deepEqual(run('system_mode: simplex\rdns_server: [1]\r').diagnostics[0].range.start, { line: 1, character: 0 });
});

test('suppressions: next-line and file level, unused and unknown ones reported', () => {
  const text = [
    '# skewguard-disable-next-line starlingx/unknown-key -- lab only',
    'dns_server: [1.1.1.1]',
    '# skewguard-disable-next-line starlingx/invalid-value',
    'system_mode: simplex',
    '# skewguard-disable-file starlingx/nope',
    'kubernetes_version: v1.21.3 # skewguard-disable-next-line',
    '',
  ].join('\n');
  const r = run(text);
  assert.deepEqual(brief(r), ['skewguard/unused-suppression@3:1', 'skewguard/unused-suppression@5:1', 'starlingx/kubernetes-version-v-prefix@6:21', 'skewguard/unused-suppression@6:29']);
  assert.match(r.diagnostics[1].message, /unknown rule id starlingx\/nope/);
  const removal = r.diagnostics[0].fixes[0].edits[0];
  assert.deepEqual(removal.range, { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } });
  const fileLevel = run('# skewguard-disable-file starlingx/unknown-key\nfoo: 1\nbar: 2\nsystem_mode: simplex\n');
  assert.deepEqual(brief(fileLevel), []);
});

test('rule severities from config, and off', () => {
  const r = run('dns_server: [1]\nsystem_mode: simplex\n', '6.0', undefined, { rules: { 'starlingx/unknown-key': 'error' } });
  assert.equal(r.diagnostics[0].severity, 'error');
  assert.deepEqual(brief(run('dns_server: [1]\nsystem_mode: simplex\n', '6.0', undefined, { rules: { 'starlingx/unknown-key': 'off' } })), []);
});

test('recognition: by name, by content, by modeline, by association; other YAML is left alone', () => {
  const c = cfg('6.0');
  assert.equal(e.analyze({ path: '/w/site/localhost.yml', text: 'foo: 1\n', config: c }).family, 'starlingx');
  assert.equal(e.analyze({ path: '/w/overrides.yml', text: 'system_mode: simplex\ndns_servers: [1.1.1.1]\n', config: c }).family, 'starlingx');
  assert.equal(e.analyze({ path: '/w/x.yml', text: '# skewguard: starlingx\nfoo: 1\n', config: c }).family, 'starlingx');
  const assoc = e.resolveConfig({ cli: { starlingxRelease: '6.0', files: { 'sites/*.yml': 'starlingx' } } });
  assert.equal(e.analyze({ path: '/w/sites/a.yml', root: '/w', text: 'foo: 1\n', config: assoc }).family, 'starlingx');
  const other = e.analyze({ path: '/w/.github/workflows/ci.yml', text: 'on: push\njobs: {}\nbroken: [\n', config: c });
  assert.equal(other.family, undefined);
  assert.deepEqual(other.diagnostics, []);
  assert.equal(e.analyze({ path: '/w/deploy.yaml', text: 'apiVersion: v1\nkind: Pod\nsystem_mode: x\n', config: c }).family, 'kubernetes');
});

test('an Ansible playbook named localhost.yml is not claimed as bootstrap overrides; another top-level list is an error', () => {
  const c = cfg('6.0');
  const playbook = '---\n- hosts: localhost\n  roles:\n  - xenial-java\n- import_playbook: other.yml\n';
  const p = e.analyze({ path: '/w/localhost.yml', text: playbook, config: c });
  assert.equal(p.family, undefined);
  assert.deepEqual(p.diagnostics, []);
  // A list of other things keeps the error: Ansible cannot read it as the variables of bootstrap.
  const list = e.analyze({ path: '/w/localhost.yml', text: '- system_mode: simplex\n- hosts: localhost\n', config: c });
  assert.equal(list.family, 'starlingx');
  assert.deepEqual(brief(list), ['syntax/parse-error@1:1']);
  // Read as bootstrap overrides only when a modeline says so: the error then says what the file is.
  const forced = e.analyze({ path: '/w/localhost.yml', text: `# skewguard: starlingx\n${playbook}`, config: c });
  assert.deepEqual(brief(forced), ['syntax/parse-error@3:1']);
  assert.match(forced.diagnostics[0].message, /Ansible playbook/);
});

test('binary and oversized input is skipped with a message, never a crash', () => {
  const bin = run('system_mode: simplex\n\u0000\u0001\u0002');
  assert.deepEqual(bin.diagnostics.map((d) => [d.ruleId, d.severity]), [['skewguard/skipped-file', 'info']]);
  for (const text of ['', '\n\n', '---\n', '...\n', '[', '{a: }', '- - -', ':', '"unterminated', 'a: *nope\n', 'a: !!binary xx\n', '\t\tkey: x']) {
    assert.doesNotThrow(() => run(text), JSON.stringify(text));
  }
});

test('hover on kubernetes_version shows the states after install and the upgrade path', () => {
  const text = 'system_mode: simplex\nkubernetes_version: 1.18.1\n';
  const r = run(text);
  const h = e.hover(r, text, { line: 1, character: 3 });
  assert.match(h.markdown, /\| 1\.18\.1 \| active \|/);
  assert.match(h.markdown, /\| 1\.19\.13 \| available \|/);
  assert.match(h.markdown, /\| 1\.20\.9 \| unavailable \|/);
  assert.match(h.markdown, /1\.18\.1 → 1\.19\.13 → 1\.20\.9 → 1\.21\.3 \(3 upgrades\)/);
  assert.deepEqual(h.range, { start: { line: 1, character: 0 }, end: { line: 1, character: 18 } });
  // 11.0: every higher version is available from the installed one.
  const t11 = 'kubernetes_version: 1.29.2\n';
  const h11 = e.hover(run(t11, '11.0'), t11, { line: 0, character: 22 });
  assert.doesNotMatch(h11.markdown, /\| 1\.33\.0 \| unavailable/);
  assert.match(h11.markdown, /\| 1\.33\.0 \| available/);
});

test('hover on another key shows its description and default for the release', () => {
  const text = 'system_mode: simplex\n';
  const h = e.hover(run(text), text, { line: 0, character: 2 });
  assert.match(h.markdown, /\*\*system_mode\*\*/);
  assert.match(h.markdown, /default: `"simplex"`/);
  assert.equal(e.hover(run(text), text, { line: 5, character: 0 }), undefined);
});

test('3.0 and 4.0: not checked (no key list), kubernetes_version not read, no v-prefix advice', () => {
  const text = 'system_mode: simplx\nkubernetes_version: v1.99.0\n';
  for (const rel of ['3.0', '4.0']) {
    const r = run(text, rel);
    assert.deepEqual(brief(r), ['starlingx/release-not-covered@1:1', 'starlingx/key-not-read@2:1'], rel);
    assert.match(r.diagnostics[0].message, new RegExp(`not checked against StarlingX ${rel.replace('.', '\\.')}`));
    assert.match(r.diagnostics[1].message, /kubeadm template/);
    const h = e.hover(r, text, { line: 1, character: 3 });
    assert.doesNotMatch(h.markdown, /usr\/local\/kubernetes/, rel);
    // Whether the release reads system_mode is not known: not said to be "not read".
    const hs = e.hover(r, text, { line: 0, character: 2 });
    assert.doesNotMatch(hs.markdown, /Not read by/);
    assert.match(hs.markdown, /not known/);
  }
  assert.match(e.hover(run(text, '6.0'), text, { line: 1, character: 3 }).markdown, /usr\/local\/kubernetes/);
});

test('completion of kubernetes_version values and of keys', () => {
  const text = 'system_mode: simplex\nkubernetes_version: \n';
  const items = e.complete(run(text), text, { line: 1, character: 20 });
  assert.deepEqual(items.map((i) => i.label), ['1.21.3', '1.20.9', '1.19.13', '1.18.1']);
  assert.equal(items.find((i) => i.preselect).label, '1.21.3');
  const keys = e.complete(run('system_mode: simplex\ndns_\n'), 'system_mode: simplex\ndns_\n', { line: 1, character: 4 });
  assert.ok(keys.some((i) => i.label === 'dns_servers'));
  assert.ok(!keys.some((i) => i.label === 'system_mode'), 'keys already present are not offered');
});

test('__proto__, constructor and toString are plain keys: reported as unknown, nothing polluted, no internal error', () => {
  const text = '__proto__:\n  polluted: 1\nconstructor: x\ntoString: y\nsystem_mode: simplex\n';
  const r = run(text);
  assert.deepEqual(brief(r), ['starlingx/unknown-key@1:1', 'starlingx/unknown-key@3:1', 'starlingx/unknown-key@4:1']);
  assert.equal({}.polluted, undefined);
  assert.equal(e.hover(r, text, { line: 2, character: 2 }), undefined, 'no documentation for a key no release reads');
  assert.match(e.hover(r, text, { line: 4, character: 2 }).markdown, /system_mode/);
});
