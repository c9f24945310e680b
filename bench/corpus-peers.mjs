// Deterministic corpora for the peer comparisons (bench/peers.mjs): a large Kata configuration.toml,
// StarlingX localhost.yml files, small Kata configuration*.toml files, and the 10,000-file mixed
// workspace. Like corpus.mjs, every generator is a pure function of its seed (and of the generated
// schemas it reads from schemas/, which are part of the repository).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng, manifestDoc } from './corpus.mjs';

const ROOT = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** The Kata release and schema the TOML comparisons use (Go runtime). */
export const KATA_RELEASE = '3.32.0';
export const kataSchemaPath = (release = KATA_RELEASE) => path.join(ROOT, 'schemas', 'kata', release, 'configuration.schema.json');

let kataSchemaCache;
function kataSchema() {
  kataSchemaCache ??= JSON.parse(fs.readFileSync(kataSchemaPath(), 'utf8'));
  return kataSchemaCache;
}

const tomlString = (s) => JSON.stringify(s);
const comment = (text, pad = '') => text.split('\n').map((l) => `${pad}#${l ? ` ${l}` : ''}`);

/** A value of the right type for a schema property (its default when it has one). */
function kataValue(r, key, prop, n) {
  if (prop.enum) return tomlString(r.pick(prop.enum.filter((e) => e !== '')) ?? '');
  if (prop.default !== undefined && prop.type !== 'array' && r.chance(0.7)) {
    const d = prop.default;
    if (typeof d === 'string') return tomlString(d);
    if (typeof d === 'boolean' || typeof d === 'number') return String(d);
  }
  switch (prop.type) {
    case 'boolean': return r.chance(0.5) ? 'true' : 'false';
    case 'integer': return String(r.int(0, 4096));
    case 'number': return `${r.int(0, 99)}.${r.int(0, 9)}`;
    case 'array': {
      const items = [];
      for (let i = 0; i < n; i++) items.push(`  ${tomlString(`/opt/kata/${key}/${i.toString(36)}/${r.pick(['bin', 'share', 'libexec'])}/item-${r.int(0, 1e6)}`)},`);
      return items.length ? `[\n${items.join('\n')}\n]` : '[]';
    }
    default: return tomlString(`/opt/kata/${r.pick(['bin', 'share/kata-containers', 'libexec'])}/${key.replace(/_/g, '-')}`);
  }
}

/**
 * A large Kata configuration.toml valid for the Go runtime of KATA_RELEASE: all six hypervisor tables
 * with every key the schema lists, each after its documentation as comments (as the upstream templates
 * are), [agent.kata], [runtime] and [factory]; the string arrays get `arrayItems` entries each (this is
 * what makes the file large). A few values have the wrong type, so both tools have something to report.
 */
export function kataTomlBig({ seed = 31, arrayItems = 200, wrongTypes = 3 } = {}) {
  const r = rng(seed);
  const s = kataSchema();
  const hyp = s.definitions.hypervisor.properties;
  const out = [`# Large Kata Containers ${KATA_RELEASE} configuration (skewguard benchmark, seed ${seed}).`, ''];
  const table = (name, props, bad) => {
    out.push(`[${name}]`);
    const keys = Object.keys(props).sort();
    const badKeys = new Set();
    for (let i = 0; i < bad; i++) badKeys.add(r.pick(keys.filter((k) => ['integer', 'boolean'].includes(props[k].type))));
    for (const k of keys) {
      const p = props[k];
      if (p.description) out.push(...comment(p.description));
      if (badKeys.has(k)) out.push(`${k} = ${p.type === 'integer' ? '"not-a-number"' : '"yes"'}`);
      else out.push(`${k} = ${kataValue(r, k, p, p.type === 'array' ? arrayItems : 0)}`);
      out.push('');
    }
  };
  for (const h of Object.keys(s.properties.hypervisor.properties)) table(`hypervisor.${h}`, hyp, wrongTypes);
  table('agent.kata', s.properties.agent.properties.kata.properties, 1);
  table('runtime', s.properties.runtime.properties, 1);
  table('factory', s.properties.factory.properties, 0);
  return out.join('\n') + '\n';
}

/** A small Kata configuration-<hypervisor>.toml (20–60 keys), sometimes with a wrong type or an unknown key. */
export function kataTomlSmall(r, n) {
  const s = kataSchema();
  const hyps = ['qemu', 'clh', 'firecracker', 'stratovirt'];
  const h = r.pick(hyps);
  const hyp = s.definitions.hypervisor.properties;
  const keys = Object.keys(hyp).filter((k) => hyp[k].type !== 'array');
  const out = [`# Kata host ${n}: ${h} runtime class (skewguard benchmark).`, '', `[hypervisor.${h}]`];
  const chosen = new Set();
  for (let i = r.int(12, 40); i > 0; i--) chosen.add(r.pick(keys));
  for (const k of [...chosen].sort()) {
    if (r.chance(0.05) && hyp[k].type === 'integer') out.push(`${k} = "${r.int(1, 9)}"`);
    else out.push(`${k} = ${kataValue(r, k, hyp[k], 0)}`);
  }
  if (r.chance(0.3)) out.push(`valid_hypervisor_paths = [${tomlString(`/opt/kata/bin/${h}`)}]`);
  if (r.chance(0.1)) out.push('hotplug_vfio_on_root_bus = true');
  if (r.chance(0.1)) out.push(`${r.pick(['default_vcpu', 'enable_iommu_pltform', 'kernel_param'])} = 1`);
  out.push('', '[agent.kata]', `dial_timeout = ${r.int(10, 90)}`);
  if (r.chance(0.5)) out.push(`enable_debug = ${r.chance(0.5)}`);
  out.push('', '[runtime]', `internetworking_model = ${tomlString(r.pick(['tcfilter', 'macvtap', 'none']))}`,
    `sandbox_cgroup_only = ${r.chance(0.5)}`, `enable_pprof = ${r.chance(0.2)}`);
  return `${out.join('\n')}\n`;
}

/** A StarlingX localhost.yml (bootstrap overrides), 15–45 lines, in the style of the docs' examples. */
export function localhostYml(r, n) {
  const oct = r.int(0, 255);
  const out = [`# Bootstrap overrides for site ${n} (skewguard benchmark).`, `system_mode: ${r.pick(['simplex', 'duplex', 'duplex-direct'])}`, '',
    'dns_servers:', '  - 8.8.8.8', ...(r.chance(0.5) ? ['  - 8.8.4.4'] : []), '',
    `external_oam_subnet: 198.51.${oct}.0/24`, `external_oam_gateway_address: 198.51.${oct}.1`, `external_oam_floating_address: 198.51.${oct}.2`];
  if (r.chance(0.5)) out.push(`external_oam_node_0_address: 198.51.${oct}.3`, `external_oam_node_1_address: 198.51.${oct}.4`);
  out.push('', 'admin_username: admin', 'admin_password: <admin-password>', 'ansible_become_pass: <sysadmin-password>');
  // kubernetes_version: shipped by 6.0, below its default, v-prefixed or not shipped at all.
  const kv = r.pick(['1.21.3', '1.21.3', '1.18.1', '1.19.13', 'v1.21.3', '1.22.5', null]);
  if (kv) out.push('', `kubernetes_version: ${kv}`);
  if (r.chance(0.3)) out.push('', 'apiserver_extra_args:', '  default-not-ready-toleration-seconds: "35"', `  event-ttl: "${r.int(1, 48)}h"`);
  if (r.chance(0.3)) {
    out.push('', 'docker_registries:');
    for (const reg of ['k8s.gcr.io', 'gcr.io', 'quay.io', 'docker.io'].slice(0, r.int(1, 4))) out.push(`  ${reg}:`, `    url: registry-${n}.example:9001/${reg}`);
  }
  if (r.chance(0.2)) out.push('', `management_subnet: 192.168.${r.int(200, 210)}.0/24`, 'management_dynamic_address_allocation: true');
  if (r.chance(0.1)) out.push(`${r.pick(['dns_server', 'external_oam_subnett', 'managment_subnet'])}: 10.0.0.1`);
  if (r.chance(0.2)) out.push('', 'k8s_root_ca_cert: /home/sysadmin/k8s-root-ca.pem', 'k8s_root_ca_key: /home/sysadmin/k8s-root-ca-key.pem');
  return `${out.join('\n')}\n`;
}

/**
 * The mixed workspace: `count` files, about 70 % Kubernetes manifests (1–4 documents), 15 % localhost.yml
 * and 15 % Kata configuration-*.toml, in folders of 50. [{ name, text, kind: 'manifest'|'localhost'|'kata' }]
 */
export function mixedFiles(count, { seed = 1234 } = {}) {
  const r = rng(seed);
  const files = [];
  for (let f = 0; f < count; f++) {
    const dir = `group${String(Math.floor(f / 50)).padStart(3, '0')}`;
    const x = r.next();
    if (x < 0.7) {
      const parts = [];
      for (let d = r.int(1, 4); d > 0; d--) parts.push(manifestDoc(r, f * 10 + d).join('\n') + '\n');
      files.push({ kind: 'manifest', name: `${dir}/manifests/m-${String(f).padStart(5, '0')}.yaml`, text: parts.join('---\n') });
    } else if (x < 0.85) {
      files.push({ kind: 'localhost', name: `${dir}/site-${String(f).padStart(5, '0')}/localhost.yml`, text: localhostYml(r, f) });
    } else {
      const t = kataTomlSmall(r, f);
      const h = /\[hypervisor\.(\w+)\]/.exec(t)[1];
      files.push({ kind: 'kata', name: `${dir}/kata-${String(f).padStart(5, '0')}/configuration-${h}.toml`, text: t });
    }
  }
  return files;
}
