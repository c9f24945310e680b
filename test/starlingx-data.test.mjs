// Real facts the StarlingX data and the generated schemas must keep (see shared/reference/starlingx).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import YAML from 'yaml';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const readJson = (rel) => JSON.parse(fs.readFileSync(path.join(repoRoot, rel), 'utf8'));
const releases = readJson('data/starlingx/releases.json');
const keys = readJson('data/starlingx/keys.json');
const release = (r) => releases.releases.find((x) => x.release === r);
const schemaOf = (r) => readJson(`schemas/starlingx/${r}/localhost.schema.json`);
const compile = (schema) => new Ajv({ allErrors: true, strict: false }).compile(schema);
const schemaReleases = releases.releases.filter((r) => r.hasSchema).map((r) => r.release);

test('releases are ordered 3.0 … 12.0, master last', () => {
  const names = releases.releases.map((r) => r.release);
  assert.deepEqual(names, ['3.0', '4.0', '5.0', '6.0', '7.0', '8.0', '9.0', '10.0', '11.0', '12.0', 'master']);
  assert.equal(releases.asOf, '2026-08-22');
});

test('6.0 ships exactly 1.18.1, 1.19.13, 1.20.9, 1.21.3 with default 1.21.3', () => {
  const r = release('6.0');
  assert.deepEqual(
    r.kubernetes.map((v) => v.version),
    ['1.18.1', '1.19.13', '1.20.9', '1.21.3'],
  );
  assert.equal(r.default, '1.21.3');
  assert.equal(r.upgradeBootstrapVersion, '1.18.1');
  assert.deepEqual(r.kubernetes[1].upgradeFrom, ['1.18.1']);
  assert.equal(r.override, 'supported');
  assert.equal(r.availableRule, 'upgrade-from');
});

test('11.0 default 1.32.2, list 1.29.2 … 1.33.0, kubelet skew 3', () => {
  const r = release('11.0');
  assert.equal(r.default, '1.32.2');
  assert.equal(r.kubernetes[0].version, '1.29.2');
  assert.equal(r.kubernetes.at(-1).version, '1.33.0');
  assert.equal(r.kubeletSkewTolerance, 3);
  assert.equal(r.availableRule, 'upgrade-from+higher');
});

test('release-level rules: override, available rule, skew, hasSchema', () => {
  for (const r of ['3.0', '4.0', '5.0']) {
    assert.equal(release(r).override, 'not-supported', r);
    assert.equal(release(r).availableRule, 'none', r);
  }
  assert.equal(release('9.0').availableRule, 'upgrade-from+higher-if-simplex');
  assert.equal(release('10.0').availableRule, 'upgrade-from+higher-if-simplex');
  assert.equal(release('10.0').kubeletSkewTolerance, null);
  assert.equal(release('master').kubeletSkewTolerance, 3);
  assert.equal(release('3.0').hasSchema, false);
  assert.equal(release('4.0').hasSchema, false);
  assert.deepEqual(schemaReleases, ['5.0', '6.0', '7.0', '8.0', '9.0', '10.0', '11.0', '12.0', 'master']);
  for (const r of releases.releases) {
    assert.ok(r.source && r.source.repo && r.source.path, `${r.release} has a source`);
    for (const v of r.kubernetes) assert.match(v.version, /^\d+\.\d+\.\d+$/, `${r.release} ${v.version} has no leading v`);
  }
  assert.ok(release('master').notes.some((n) => /runtime/.test(n)), 'master notes say the list is built at runtime');
});

test('k8s_root_ca_cert is read by 11.0 and not by 12.0', () => {
  const k = keys.keys.find((x) => x.key === 'k8s_root_ca_cert');
  assert.ok(k.releases.includes('11.0'));
  assert.ok(!k.releases.includes('12.0'));
  assert.ok('k8s_root_ca_cert' in schemaOf('11.0').properties);
  const s12 = schemaOf('12.0');
  assert.ok(!('k8s_root_ca_cert' in s12.properties));
  assert.deepEqual(s12['x-skewguard'].notRead.k8s_root_ca_cert, {
    releases: ['5.0', '6.0', '7.0', '8.0', '9.0', '10.0', '11.0'],
    lastRead: '11.0',
    firstRead: null,
  });
});

test('x-skewguard annotation: family, release, asOf, sorted notRead; firstRead for later keys', () => {
  for (const r of schemaReleases) {
    const x = schemaOf(r)['x-skewguard'];
    assert.equal(x.family, 'starlingx');
    assert.equal(x.release, r);
    assert.equal(x.asOf, releases.asOf);
    const names = Object.keys(x.notRead);
    assert.deepEqual(names, [...names].sort(), `${r} notRead keys sorted`);
  }
  assert.equal(schemaOf('6.0')['x-skewguard'].notRead.banner.firstRead, '9.0');
  assert.equal(schemaOf('6.0')['x-skewguard'].notRead.banner.lastRead, null);
});

test('apiserver_cert_sans is a list in the 6.0 schema', () => {
  assert.equal(keys.keys.find((x) => x.key === 'apiserver_cert_sans').type, 'list');
  assert.equal(schemaOf('6.0').properties.apiserver_cert_sans.type, 'array');
});

test('every keys.json row has a source, a type, a category and releases', () => {
  const types = new Set(['string', 'int', 'bool', 'list', 'dict', 'any']);
  const categories = new Set(['defaults', 'user', 'advanced', 'dcmanager', 'secrets', 'ansible']);
  assert.ok(keys.keys.length > 100);
  for (const k of keys.keys) {
    assert.ok(k.source && typeof k.source === 'object', `${k.key} has a source`);
    assert.ok(k.source.path || k.source.reference, `${k.key} source names a file`);
    assert.ok(types.has(k.type), `${k.key} type ${k.type}`);
    assert.ok(categories.has(k.category), `${k.key} category ${k.category}`);
    assert.ok(k.releases.length > 0 && k.releases.every((r) => keys.releases.includes(r)), `${k.key} releases`);
    assert.ok(k.description.length > 10, `${k.key} has a description`);
    for (const v of [...k.validation, ...(k.nested ?? [])]) assert.ok(v.source, `${k.key} rule has a source`);
  }
});

test('every schema compiles with ajv (draft-07, strict:false)', () => {
  for (const r of schemaReleases) {
    const schema = schemaOf(r);
    assert.equal(schema.$id, `https://skewguard.dev/schemas/starlingx/${r}/localhost.schema.json`);
    assert.equal(schema.additionalProperties, false);
    assert.doesNotThrow(() => compile(schema), r);
  }
});

test("each release's own default.yml values validate against its schema", () => {
  for (const r of schemaReleases) {
    const validate = compile(schemaOf(r));
    const defaults = Object.fromEntries(
      keys.keys.filter((k) => k.defaults[r] !== undefined).map((k) => [k.key, k.defaults[r]]),
    );
    assert.ok(Object.keys(defaults).length > 20, r);
    assert.ok(validate(defaults), `${r}: ${JSON.stringify(validate.errors)}`);
  }
});

test('6.0 schema rejects system_mode "triplex" and checks nested values', () => {
  const validate = compile(schemaOf('6.0'));
  assert.equal(validate({ system_mode: 'triplex' }), false);
  assert.ok(validate.errors.some((e) => e.instancePath === '/system_mode' && e.keyword === 'enum'));
  assert.equal(validate({ system_mode: 'duplex' }), true);
  assert.equal(validate({ dns_servers: ['1.1.1.1', '2.2.2.2', '3.3.3.3', '4.4.4.4'] }), false);
  assert.equal(validate({ docker_registries: { 'registry.k8s.io': { url: 'x' } } }), false, 'registry.k8s.io is 8.0+');
  assert.equal(validate({ docker_registries: { 'docker.io': { url: 'x', type: 'harbor' } } }), false);
  assert.equal(validate({ docker_registries: { defaults: { url: 'x', type: 'aws-ecr', secure: false } } }), true);
  assert.equal(validate({ apiserver_oidc: { client_id: 'a' } }), false);
  assert.equal(validate({ apiserver_oidc: {} }), true);
  assert.equal(validate({ password_change: 'yes' }), true, 'Ansible bool strings accepted');
  assert.equal(validate({ no_such_key: 1 }), false, 'unknown keys rejected');
  assert.equal(validate({ kubernetes_version: '1.99.0' }), true, 'kubernetes_version has no enum (engine rule checks it)');
  assert.equal(compile(schemaOf('8.0'))({ docker_registries: { 'registry.k8s.io': { url: 'x' } } }), true);
});

test('kubernetes_version lists the shipped versions without an enum', () => {
  for (const r of schemaReleases) {
    const p = schemaOf(r).properties.kubernetes_version;
    assert.equal(p.type, 'string');
    assert.equal(p.enum, undefined);
    assert.deepEqual(p.examples, release(r).kubernetes.map((v) => v.version));
    assert.match(p.description, /plain X\.Y\.Z without v/);
  }
});

// The docs examples, copied from shared/reference/starlingx/localhost-examples, data only (test/fixtures/starlingx/SOURCES.md).
const examplesDir = path.join(repoRoot, 'test', 'fixtures', 'starlingx');
test('6.0 schema accepts the StarlingX docs example overrides', () => {
  const validate = compile(schemaOf('6.0'));
  for (const f of ['docs-min-bootstrap-simplex.yml', 'docs-min-bootstrap-duplex.yml', 'docs-ipv6-simplex.yml', 'docs-ipv6-duplex.yml']) {
    // Ansible reads YAML 1.1 (PyYAML)
    const doc = YAML.parse(fs.readFileSync(path.join(examplesDir, f), 'utf8'), { version: '1.1' });
    assert.ok(validate(doc), `${f}: ${JSON.stringify(validate.errors)}`);
  }
  // the same minimal example names keys 12.0 no longer reads
  const validate12 = compile(schemaOf('12.0'));
  const doc = YAML.parse(fs.readFileSync(path.join(examplesDir, 'docs-min-bootstrap-simplex.yml'), 'utf8'), { version: '1.1' });
  assert.equal(validate12(doc), false);
  assert.deepEqual(
    validate12.errors.map((e) => e.params.additionalProperty).sort(),
    ['apiserver_cert_sans', 'k8s_root_ca_cert', 'k8s_root_ca_key'],
  );
});
