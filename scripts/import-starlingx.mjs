#!/usr/bin/env node
// One-off importer (run by hand, NOT by CI): turns the StarlingX reference material in
// ../shared/reference/starlingx (relative to the repo root; override with argv[2]) into the
// committed data files
//   data/starlingx/releases.json  one row per StarlingX release (Kubernetes versions, rules)
//   data/starlingx/keys.json      one row per localhost.yml key that any release reads
// Output is deterministic: fixed key order, 2-space JSON, trailing newline.
// Anything silent or contradictory in the material is written into `notes` / `note` fields
// instead of being guessed. Sanity checks throw, so a changed reference fails loudly.
import fs from 'node:fs';
import { referenceOf } from './lib/reference.mjs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import YAML from 'yaml';
import { normalizeKubernetesVersion } from './lib/kubernetes-version.mjs';
import { releaseRanges as sharedReleaseRanges } from './schemas/common.mjs';

const repoRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const refDir = path.resolve(process.argv[2] ?? referenceOf('starlingx'));
const outDir = path.join(repoRoot, 'data', 'starlingx');

const PLAYBOOKS_REPO = 'starlingx/ansible-playbooks';
const DEFAULTS_PATH = 'playbookconfig/src/playbooks/host_vars/bootstrap/default.yml';

// ---------------------------------------------------------------------------------------------
// helpers

function fail(msg) {
  throw new Error(`import-starlingx: ${msg}`);
}
function readText(rel) {
  return fs.readFileSync(path.join(refDir, rel), 'utf8');
}
function readJson(rel) {
  return JSON.parse(readText(rel));
}
/** "6.0.0" -> "6.0", "master" / "master (13.0 development)" -> "master" */
function releaseOf(tagOrName) {
  if (/^master\b/.test(tagOrName)) return 'master';
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(tagOrName);
  if (!m) fail(`cannot read a release from "${tagOrName}"`);
  return `${m[1]}.${m[2]}`;
}
function compareReleases(a, b) {
  if (a === b) return 0;
  if (a === 'master') return 1;
  if (b === 'master') return -1;
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}
function stripV(v) {
  return normalizeKubernetesVersion(String(v));
}
function compareVersions(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if (pa[i] !== pb[i]) return pa[i] - pb[i];
  return 0;
}
/** Ansible parses YAML with PyYAML (YAML 1.1: yes/no/on/off are booleans). */
function parseYaml11(src) {
  return YAML.parse(src, { version: '1.1' });
}
function typeOfValue(v) {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return 'list';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int' : 'any';
  if (typeof v === 'string') return 'string';
  if (typeof v === 'object') return 'dict';
  return 'any';
}
function writeJson(file, value) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(value, null, 2) + '\n');
  console.log(`wrote ${path.relative(repoRoot, file)}`);
}
function sortedUnique(list, cmp) {
  return [...new Set(list)].sort(cmp);
}

// ---------------------------------------------------------------------------------------------
// SOURCES.md: as-of date and the bootstrap-defaults provenance table

const sourcesMd = readText('SOURCES.md');
const asOfMatch = /read on (\d{4}-\d{2}-\d{2})/.exec(sourcesMd);
if (!asOfMatch) fail('SOURCES.md: no "read on YYYY-MM-DD" date');
const asOf = asOfMatch[1];

/** release -> { repo, path, tag, commit, commitDate, blob, file } */
const defaultsFiles = new Map();
for (const m of sourcesMd.matchAll(
  /^\| ((?:stx-[\d.]+|master-[0-9a-f]+)\.yml) \| (\S+) \| ([0-9a-f]{40}) \| (\d{4}-\d{2}-\d{2}) \| ([0-9a-f]{40}) \|$/gm,
)) {
  const [, file, tag, commit, commitDate, blob] = m;
  defaultsFiles.set(releaseOf(tag), {
    repo: PLAYBOOKS_REPO,
    path: DEFAULTS_PATH,
    tag,
    commit,
    commitDate,
    blob,
    file: `bootstrap-defaults/${file}`,
  });
}
const filesOnDisk = fs.readdirSync(path.join(refDir, 'bootstrap-defaults')).filter((f) => f.endsWith('.yml'));
for (const f of filesOnDisk) {
  if (![...defaultsFiles.values()].some((d) => d.file === `bootstrap-defaults/${f}`)) {
    fail(`bootstrap-defaults/${f} is not in the SOURCES.md table`);
  }
}
for (const d of defaultsFiles.values()) {
  if (!filesOnDisk.includes(path.basename(d.file))) fail(`${d.file} listed in SOURCES.md but missing`);
}

const branchHeadMatch = /for 5\.0\s+the branch head \(([0-9a-f]{40}), (\d{4}-\d{2}-\d{2})\) is later than\s+tag 5\.0\.0/.exec(sourcesMd);
const branchHeadNote = branchHeadMatch
  ? `bootstrap defaults are from tag 5.0.0; the r/stx.5.0 branch head (${branchHeadMatch[1]}, ${branchHeadMatch[2]}) is later than the tag and was not used`
  : null;

// ---------------------------------------------------------------------------------------------
// kubernetes-version-override.md: per-tag load-images-information/vars/k8s-v* directories

/** release -> [{ version, symlinkTo }] */
// localhost.yml keys a release reads but replaces before they take effect: setting them does nothing there.
const KEYS_REPLACED = [
  {
    key: 'kubernetes_version',
    releases: ['3.0', '4.0'],
    // The release's own words from kube-versions.json (user_override_of_kubernetes_version), checked in buildRelease.
    why: (row) => `the Kubernetes version is the one in the kubeadm template (roles/common/files/kubeadm.yaml.erb), which the load-images-information role writes over it (kube-versions.json: "${row.user_override_of_kubernetes_version}")`,
    source: 'starlingx/ansible-playbooks 3.0.0, 4.0.0 playbookconfig/src/playbooks/roles/common/files/kubeadm.yaml.erb, roles/common/load-images-information/tasks/main.yml; shared reference starlingx/kubernetes-version-override.md ("3.0 – 5.0: no real override"), kube-versions.json (user_override_of_kubernetes_version)',
  },
  {
    key: 'kubernetes_version',
    releases: ['5.0'],
    why: 'the load-images-information role replaces it, in bootstrap/restore/backup modes, with the version parsed from the kubeadm template (kubeadm.yaml.erb kubernetesVersion: v1.18.1)',
    source: 'starlingx/ansible-playbooks 5.0.0 (15b6674c19fb282b7c72740f489e7940a9ca4ae9) playbookconfig/src/playbooks/roles/common/load-images-information/tasks/main.yml, roles/common/files/kubeadm.yaml.erb; shared reference starlingx/kubernetes-version-override.md ("3.0 – 5.0: no real override"), kube-versions.json (5.0 override effectively not supported)',
  },
  {
    key: 'cluster_host_floating_address',
    releases: ['6.0', '7.0', '8.0'],
    why: 'it is read only on the platform-data migration path (roles/common/upgrade-k8s-networking), and there include_vars of the overrides file that sysinv-utils create-host-overrides writes from the platform database replaces it before use',
    source: 'starlingx/ansible-playbooks 6.0.0 (fb822e0a83892feb52aa4aaa70f8038dbb8183a8) playbookconfig/src/playbooks/roles/common/upgrade-k8s-networking/tasks/main.yml:62 (the only read in 6.0–8.0, optional-keys.json source_earliest); the same file at master (0b27b6fcf2087d0cf70469a7b624f04c9f30fce5, read through the search tool) creates /tmp/upgrade_overrides.yaml with sysinv-utils create-host-overrides and include_vars it before cluster_host_floating_address.split(",") is used; sysinv writes cluster_host_floating_address from the cluster-host address pool',
  },
];
const playbookImageVars = new Map();
{
  const md = readText('kubernetes-version-override.md');
  for (const m of md.matchAll(/^\s*\| (\d+\.\d+\.\d+|master) \| (v[^|]+?) \|$/gm)) {
    const rows = [];
    for (const token of m[2].split(/,\s*/)) {
      const [lhs, rhs] = token.split('→');
      for (const v of lhs.split('/')) {
        if (!/^v\d+\.\d+\.\d+$/.test(v.trim())) fail(`kubernetes-version-override.md: bad token "${token}"`);
        rows.push({ version: stripV(v.trim()), symlinkTo: rhs ? stripV(rhs.trim()) : null });
      }
    }
    rows.sort((a, b) => compareVersions(a.version, b.version));
    playbookImageVars.set(releaseOf(m[1]), rows);
  }
  if (playbookImageVars.size < 9) fail('kubernetes-version-override.md: k8s-v* table not found');
}

// ---------------------------------------------------------------------------------------------
// kube-upgrade-facts.md: rules that are prose only. The mapping is written here, and the prose
// is checked for the sentences it is based on, so a changed reference fails loudly.

const facts = readText('kube-upgrade-facts.md').replace(/\s+/g, ' ');
for (const needle of [
  'in 3.0–5.0 there was no `available` step',
  '9.0 and 10.0: only when the system mode is AIO-SX (simplex)',
  '11.0 and later: for every system mode',
  'Constant `KUBELET_MINOR_SKEW_TOLERANCE = 3` (tags 11.0.0, 12.0.0, master)',
]) {
  if (!facts.includes(needle)) fail(`kube-upgrade-facts.md no longer says: ${needle}`);
}
function availableRuleOf(release) {
  if (['3.0', '4.0', '5.0'].includes(release)) return 'none';
  if (['6.0', '7.0', '8.0'].includes(release)) return 'upgrade-from';
  if (['9.0', '10.0'].includes(release)) return 'upgrade-from+higher-if-simplex';
  return 'upgrade-from+higher';
}
function kubeletSkewToleranceOf(release) {
  return ['11.0', '12.0', 'master'].includes(release) ? 3 : null;
}

// ---------------------------------------------------------------------------------------------
// releases.json

const kubeVersions = readJson('kube-versions.json');

function buildRelease(r) {
  const release = releaseOf(r.starlingx);
  const notes = [];
  const tag = r.source.tag ?? null;

  for (const v of r.versions) {
    for (const f of ['downgrade_to', 'applied_patches', 'available_patches']) {
      if (v[f] && v[f].length) notes.push(`${v.version} has a non-empty ${f}: ${v[f].join(', ')}`);
    }
  }
  const kubernetes = r.versions.map((v) => ({
    version: stripV(v.version),
    upgradeFrom: v.upgrade_from.map(stripV).sort(compareVersions),
  }));
  const sorted = [...kubernetes].sort((a, b) => compareVersions(a.version, b.version));
  if (sorted.some((v, i) => v !== kubernetes[i])) notes.push('kube-versions.json lists the versions out of order; sorted here');
  const listed = new Set(sorted.map((v) => v.version));
  for (const v of sorted) {
    const outside = v.upgradeFrom.filter((u) => !listed.has(u));
    const alreadyNoted = outside.length && r.note && outside.every((u) => r.note.includes(`v${u} `));
    if (outside.length && !alreadyNoted) {
      notes.push(
        `${v.version} may be upgraded to from ${outside.join(', ')}, which ${outside.length > 1 ? 'are' : 'is'} not in this release's own list (a version of an earlier release)`,
      );
    }
  }

  const def = stripV(r.fresh_install_default);
  if (!listed.has(def)) notes.push(`fresh-install default ${def} is not in the version list`);
  const newest = sorted[sorted.length - 1].version;
  if (def !== newest) notes.push(`fresh-install default ${def} is not the newest shipped version (${newest})`);

  let defaultSource = r.fresh_install_default_source;
  if (typeof defaultSource === 'string') defaultSource = { basis: defaultSource };
  const declared = defaultSource?.keys?.fresh_install_k8s_version;
  if (declared !== undefined && declared !== def) {
    notes.push(`fresh_install_k8s_version ${declared} differs from fresh_install_default ${def}`);
  }
  const upgradeBootstrapVersion = r.upgrade_bootstrap_version ? stripV(r.upgrade_bootstrap_version) : null;
  const declaredUpgrade = defaultSource?.keys?.upgrade_k8s_version;
  if (declaredUpgrade !== undefined && declaredUpgrade !== upgradeBootstrapVersion) {
    notes.push(`upgrade_k8s_version ${declaredUpgrade} differs from upgrade_bootstrap_version ${upgradeBootstrapVersion}`);
  }

  let override;
  let overrideNote;
  if (r.user_override_of_kubernetes_version !== undefined) {
    const text = r.user_override_of_kubernetes_version;
    override = /not supported/i.test(text) ? 'not-supported' : 'supported';
    overrideNote = text;
  } else {
    override = 'supported';
    overrideNote =
      'kube-versions.json records no restriction for this release. Per kubernetes-version-override.md: write plain X.Y.Z (no leading v), ' +
      "one of this release's shipped versions; the only explicit playbook check is that on restore it must equal the backup's version.";
  }

  const imageVars = playbookImageVars.get(release) ?? null;
  if (imageVars) {
    const dirs = new Set(imageVars.map((d) => d.version));
    const missing = sorted.map((v) => v.version).filter((v) => !dirs.has(v));
    const extra = imageVars.map((d) => d.version).filter((v) => !listed.has(v));
    if (missing.length) {
      notes.push(
        `sysinv lists ${missing.join(', ')} but the ${release} playbooks have no load-images-information/vars/k8s-v* directory for ${missing.length > 1 ? 'them' : 'it'}, so bootstrapping with kubernetes_version set to ${missing.length > 1 ? 'one of them' : 'it'} is expected to fail (kubernetes-version-override.md)`,
      );
    }
    if (extra.length) notes.push(`the playbooks have k8s-v* directories for ${extra.join(', ')}, which sysinv does not list`);
  }

  if (r.derived) {
    notes.push(
      `version list is not literal in the code (${r.sysinv_list_kind}); kube-versions.json derived it by applying this release's rule to the packaged kubernetes directories`,
    );
  }
  const lastHardcoded = r.source.last_hardcoded_list_before_change;
  if (lastHardcoded) {
    notes.push(
      `the last hard-coded list before the change (${lastHardcoded.commit}) was ${lastHardcoded.versions.map(stripV).join(', ')}`,
    );
  }
  if (r.note) notes.push(`kube-versions.json: ${r.note}`);
  if (release === 'master') {
    const m = /^master \((.+)\)$/.exec(r.starlingx);
    if (m) notes.push(`master is the ${m[1]} branch; its data can change at any commit`);
  }
  if (release === '5.0') {
    notes.push(
      'kube-versions.json says the override is only "effectively" unsupported, while optional-keys.json lists kubernetes_version as read by 5.0.0: the playbook reads the key, but load-images-information overwrites it with the kubeadm template version in bootstrap/restore/backup modes',
    );
  }
  if (availableRuleOf(release) === 'none') {
    notes.push('no "available" state in this release: kube-version-list only shows active/partial/unavailable');
  }
  if (release === '5.0' && branchHeadNote) notes.push(`SOURCES.md: ${branchHeadNote}`);

  const defaults = defaultsFiles.get(release) ?? null;
  const keysReplaced = KEYS_REPLACED.filter((k) => k.releases.includes(release)).map(({ releases: _r, why, ...k }) => {
    if (typeof why !== 'function') return { key: k.key, why, source: k.source };
    if (!/not supported/i.test(r.user_override_of_kubernetes_version ?? '')) fail(`kube-versions.json ${release}: the kubernetes_version override is no longer "not supported"`);
    return { key: k.key, why: why(r), source: k.source };
  });
  return {
    release,
    tag,
    ...(release === 'master' ? { branch: 'master' } : {}),
    kubernetes: sorted,
    default: def,
    upgradeBootstrapVersion,
    override,
    overrideNote,
    availableRule: availableRuleOf(release),
    kubeletSkewTolerance: kubeletSkewToleranceOf(release),
    hasSchema: defaults !== null,
    sysinvListKind: r.sysinv_list_kind,
    derived: r.derived === true,
    playbookImageVars: imageVars,
    ...(keysReplaced.length ? { keysReplaced } : {}),
    source: r.source,
    defaultSource,
    bootstrapDefaults: defaults,
    notes,
  };
}

const releases = kubeVersions.releases.map(buildRelease).sort((a, b) => compareReleases(a.release, b.release));
for (let i = 1; i < releases.length; i++) {
  const prev = releases[i - 1];
  const cur = releases[i];
  if (!cur.kubernetes.some((v) => v.version === prev.default)) {
    cur.notes.push(
      `the previous release's (${prev.release}) fresh-install default ${prev.default} is not in this list` +
        (cur.upgradeBootstrapVersion ? ` (a platform upgrade bootstraps with upgradeBootstrapVersion ${cur.upgradeBootstrapVersion})` : ''),
    );
  }
}
for (const rel of defaultsFiles.keys()) {
  if (!releases.some((r) => r.release === rel)) fail(`bootstrap defaults for ${rel} but no kube-versions.json row`);
}

const releasesJson = {
  asOf,
  description:
    'StarlingX releases: Kubernetes versions sysinv knows (no leading v, ascending) with the versions each may be upgraded from, ' +
    'the fresh-install default, whether localhost.yml may override kubernetes_version, the kube-version-list "available" rule and the ' +
    'kubelet skew tolerance. downgrade_to, applied_patches and available_patches are empty in every release examined and are not kept. ' +
    'Imported by scripts/import-starlingx.mjs from shared/reference/starlingx (kube-versions.json, kube-upgrade-facts.md, ' +
    'kubernetes-version-override.md, SOURCES.md).',
  fields: {
    kubernetes: 'sysinv get_kube_versions(): version and upgradeFrom (versions that may upgrade directly to it)',
    default: 'fresh_install_k8s_version: what bootstrap installs when localhost.yml does not set kubernetes_version',
    upgradeBootstrapVersion: 'upgrade_k8s_version: version used when bootstrap runs as part of a platform upgrade (6.0-8.0 only), else null',
    override:
      'supported = localhost.yml may set kubernetes_version (to one of the shipped versions); not-supported = the playbook ignores/overwrites it',
    availableRule:
      'how kube-version-list marks upgrade targets "available" once one version is active: none (no available state), upgrade-from ' +
      "(versions whose upgradeFrom contains the active one), upgrade-from+higher-if-simplex (plus every higher version on AIO-SX), " +
      'upgrade-from+higher (plus every higher version, any system mode)',
    kubeletSkewTolerance: 'KUBELET_MINOR_SKEW_TOLERANCE: max minors a kubelet may lag the control plane; null = not in the code (kubelets upgraded 1:1 after each control-plane step)',
    hasSchema: 'true when a host_vars/bootstrap/default.yml snapshot exists, i.e. a localhost.yml schema is generated',
    playbookImageVars: 'versions with a roles/common/load-images-information/vars/k8s-v<X.Y.Z> directory at that tag (symlinkTo = directory it links to); null = not examined',
    keysReplaced: 'localhost.yml keys this release reads but replaces before they take effect (why, source): setting them has no effect',
    source: 'kube-versions.json source object (starlingx/config kubernetes.py)',
    defaultSource: 'where the fresh-install default is defined',
    bootstrapDefaults: 'the default.yml snapshot used for the key data (null: none in the reference)',
  },
  ruleSources: {
    kubernetes: 'kube-versions.json',
    override: 'kube-versions.json user_override_of_kubernetes_version (3.0-5.0); kubernetes-version-override.md',
    availableRule: 'kube-upgrade-facts.md §2.5 (starlingx/config commits 8c359198c for 9.0+, 6b1d5f37f for 11.0+)',
    kubeletSkewTolerance: 'kube-upgrade-facts.md §4 (KUBELET_MINOR_SKEW_TOLERANCE, tags 11.0.0, 12.0.0, master)',
    playbookImageVars: 'kubernetes-version-override.md (table of load-images-information/vars/k8s-v* per tag)',
  },
  releases,
};

// ---------------------------------------------------------------------------------------------
// keys.json

const optionalKeys = readJson('optional-keys.json');
const validated = readJson('validated-values.json');
const schemaReleases = [...defaultsFiles.keys()].sort(compareReleases);

/** Section-header or decoration lines of a default.yml comment. */
function isDecoration(text, next) {
  if (/^=+$/.test(text)) return true;
  if (next !== undefined && /^=+$/.test(next)) return true; // the header title above ====
  return false;
}

/** Comment lines right above `line` (1-based), cleaned: header/decoration and commented-out keys removed. */
function commentAbove(lines, line) {
  const raw = [];
  for (let i = line - 2; i >= 0 && /^\s*#/.test(lines[i]); i--) raw.unshift(lines[i].replace(/^\s*#\s?/, ''));
  const kept = [];
  let inExample = false;
  for (let i = 0; i < raw.length; i++) {
    const text = raw[i].trim();
    if (isDecoration(text, raw[i + 1]?.trim())) continue;
    if (/^(e\.g\.|example\b|examples?:|sample\b)/i.test(text)) inExample = true;
    if (/^[A-Za-z_][\w.-]*:(\s|$)/.test(text) && !/^(Note|Ref|e\.g)\b/.test(text)) {
      inExample = true; // a commented-out key (example) starts here
    }
    if (inExample) {
      if (text === '') inExample = false;
      continue;
    }
    kept.push(text);
  }
  // paragraphs are separated by empty comment lines; the one closest to the key describes it
  const paragraphs = kept
    .join('\n')
    .split(/\n\s*\n/)
    .map((p) => p.replace(/\s+/g, ' ').trim())
    .filter(Boolean);
  return paragraphs.length ? paragraphs[paragraphs.length - 1] : '';
}

/** First one or two sentences. */
function twoSentences(text) {
  const ABBREV = /\b(e\.g|i\.e|etc)\./g;
  const protectedText = text.replace(ABBREV, (m) => m.replace(/\./g, '\u0000'));
  const sentences = protectedText.split(/(?<=[.!?])\s+/).map((s) => s.replace(/\u0000/g, '.'));
  let out = '';
  for (const s of sentences) {
    const candidate = (out + ' ' + s.trim()).trim();
    if (out && (candidate.length > 260 || out.split(/(?<=[.!?])\s/).length >= 2)) break;
    out = candidate;
  }
  out = out.trim();
  if (out && !/[.!?]$/.test(out)) out += '.';
  return out.charAt(0).toUpperCase() + out.slice(1);
}

/** Type of a null default, from a commented example: lines right below the key, or a `# key:` block. */
function exampleTypeFromComments(lines, line, key) {
  const tryParse = (block) => {
    try {
      const v = parseYaml11(block)?.[key];
      return typeOfValue(v);
    } catch {
      return null;
    }
  };
  const below = [];
  for (let i = line; i < lines.length && /^#\s{1,}\S/.test(lines[i]); i++) below.push(lines[i].replace(/^#/, ''));
  if (below.length) {
    const t = tryParse(`${key}:\n${below.join('\n')}`);
    if (t) return { type: t, where: `commented entries right below the key (line ${line + 1})` };
  }
  for (let i = 0; i < lines.length; i++) {
    if (new RegExp(`^#\\s*${key}:\\s*$`).test(lines[i])) {
      const block = [lines[i].replace(/^#\s*/, '')];
      for (let j = i + 1; j < lines.length && /^#\s{2,}\S/.test(lines[j]); j++) block.push(lines[j].replace(/^#/, ''));
      const t = tryParse(block.join('\n'));
      if (t) return { type: t, where: `commented example at line ${i + 1}` };
    }
  }
  return null;
}

// Hand-written descriptions for default.yml keys whose default.yml comment is missing or is only a
// section header / generic paragraph. Own words, based on the default.yml text of the same key.
const CURATED_DESCRIPTIONS = {
  system_mode: 'All-in-one system mode: simplex (one controller), duplex (two controllers) or duplex-direct (two controllers cabled back to back).',
  timezone: 'Time zone of the system, as a name under /usr/share/zoneinfo (default UTC).',
  dns_servers: 'List of DNS server IP addresses; at least one and at most three.',
  pxeboot_subnet: 'Subnet (CIDR) of the PXE-boot network; start/end addresses default to index 1 and -2 of the subnet.',
  management_subnet: 'Subnet (CIDR) of the management network; start/end addresses default to index 1 and -2 of the subnet.',
  cluster_host_subnet: 'Subnet (CIDR) of the cluster-host network; start/end addresses default to index 1 and -2 of the subnet.',
  cluster_pod_subnet: 'Subnet (CIDR) Kubernetes assigns pod addresses from.',
  cluster_service_subnet: 'Subnet (CIDR) Kubernetes assigns service addresses from.',
  external_oam_subnet: 'Subnet (CIDR) of the external OAM network.',
  external_oam_gateway_address: 'Gateway IP of the external OAM network.',
  external_oam_floating_address: 'Floating OAM IP of the active controller; controller unit addresses default to the next two addresses.',
  management_multicast_subnet: 'Multicast subnet (CIDR) of the management network.',
  docker_registries:
    'Map of known registry keys (fully scoped registry names, plus "defaults") to their source attributes: url, username, password, type (docker or aws-ecr) and secure.',
  admin_username: 'Keystone admin user name; better kept in secrets.yml as vault_admin_username.',
  admin_password: 'Keystone admin (and initial sysadmin) password; better kept in secrets.yml as vault_admin_password.',
  password_change: 'Change the initial sysadmin password during a remote bootstrap, using password_change_responses.',
  password_change_responses: 'Expect-style prompt -> response map used to change the initial sysadmin password during a remote bootstrap.',
  override_files_dir: 'Directory where the user override files (localhost.yml, secrets.yml, ...) are looked up (default $HOME).',
  apiserver_extra_volumes:
    'Extra host-path volumes mounted into kube-apiserver; list of {name, hostPath, mountPath, readOnly, pathType, content}.',
  controllermanager_extra_volumes:
    'Extra host-path volumes mounted into kube-controller-manager; list of {name, hostPath, mountPath, readOnly, pathType, content}.',
  scheduler_extra_volumes:
    'Extra host-path volumes mounted into kube-scheduler; list of {name, hostPath, mountPath, readOnly, pathType, content}.',
  k8s_plugins: 'Map of vendor Kubernetes device plugins to enable (plugin name -> host label, e.g. intel-gpu-plugin: intelgpu=enabled).',
  applications: 'System application tarballs to apply at bootstrap, each optionally with Helm chart overrides.',
  kernel: "Kernel to run on All-in-one systems: 'standard' (default) or 'lowlatency'.",
  enable_fluxcd_controllers:
    'Deploy the FluxCD helm and source controllers during bootstrap (added ahead of the Armada deprecation, not yet fully implemented).',
  user_dns_host_records:
    'Extra DNS host records served by the platform DNS (record name -> "name[,name...],[IPv4],[IPv6][,TTL]", dnsmasq host-record format).',
};

const releaseIndex = (rel) => schemaReleases.indexOf(rel);
const normReleases = (list) => sortedUnique(list.map(releaseOf), compareReleases);

/** key -> accumulating row */
const rows = new Map();
function row(key) {
  if (!rows.has(key)) {
    rows.set(key, {
      key,
      categories: new Set(),
      releases: new Set(),
      typeEvidence: [],
      descriptions: [],
      defaults: {},
      defaultLines: {},
      sources: [], // { release, source }
      notes: [],
      validation: [],
      nested: [],
    });
  }
  return rows.get(key);
}

// 1. default.yml top-level keys, per release
const parsedDefaultKeys = {};
for (const rel of schemaReleases) {
  const meta = defaultsFiles.get(rel);
  const src = fs.readFileSync(path.join(refDir, meta.file), 'utf8');
  const lines = src.split('\n');
  const lineCounter = new YAML.LineCounter();
  const doc = YAML.parseDocument(src, { version: '1.1', lineCounter });
  if (doc.errors.length) fail(`${meta.file}: ${doc.errors[0].message}`);
  parsedDefaultKeys[rel] = [];
  for (const pair of doc.contents.items) {
    const key = String(pair.key.value);
    const line = lineCounter.linePos(pair.key.range[0]).line;
    const value = pair.value ? pair.value.toJSON() : null;
    parsedDefaultKeys[rel].push(key);
    const r = row(key);
    r.categories.add('defaults');
    r.releases.add(rel);
    r.defaults[rel] = value ?? null;
    r.defaultLines[rel] = line;
    r.sources.push({
      release: rel,
      source: { repo: meta.repo, path: meta.path, tag: meta.tag, commit: meta.commit, line },
    });
    const t = typeOfValue(value);
    if (t) r.typeEvidence.push({ type: t, from: `default.yml ${rel}` });
    else {
      r.nullDefaultIn = [...(r.nullDefaultIn ?? []), rel];
      const ex = exampleTypeFromComments(lines, line, key);
      if (ex) r.typeEvidence.push({ type: ex.type, from: `default.yml ${rel} ${ex.where}` });
    }
    const comment = commentAbove(lines, line);
    if (comment) r.descriptions.push({ release: rel, text: comment });
  }
}

// cross-check with optional-keys.json default_yml_keys_per_release
const defaultsNotes = [];
for (const [tag, keys] of Object.entries(optionalKeys.default_yml_keys_per_release)) {
  const rel = releaseOf(tag);
  const mine = new Set(parsedDefaultKeys[rel] ?? []);
  const theirs = new Set(keys);
  const onlyMine = [...mine].filter((k) => !theirs.has(k));
  const onlyTheirs = [...theirs].filter((k) => !mine.has(k));
  if (onlyMine.length || onlyTheirs.length) {
    defaultsNotes.push(
      `${rel}: default.yml parse and optional-keys.json default_yml_keys_per_release differ (only parsed: ${onlyMine.join(', ') || '-'}; only listed: ${onlyTheirs.join(', ') || '-'})`,
    );
  }
}

// 2. optional keys
for (const k of optionalKeys.keys) {
  const r = row(k.key);
  const rels = normReleases(k.releases);
  r.optional = k;
  r.categories.add(k.category);
  for (const rel of rels) {
    if (r.defaults[rel] !== undefined) {
      r.notes.push(`optional-keys.json lists it for ${rel} although it is a top-level key of that release's default.yml`);
    }
    r.releases.add(rel);
  }
  r.typeEvidence.push({ type: k.type, from: 'optional-keys.json' });
  r.descriptions.unshift({ release: 'optional', text: k.meaning });
  r.sources.push({ release: releaseOf(k.source.tag), source: k.source });
  if (k.source_earliest) r.sources.push({ release: releaseOf(k.source_earliest.tag), source: k.source_earliest });
  r.documentedInDefaults = normReleases(k.documented_in_default_yml_comments);
  r.docsMentions = k.docs_mentions;
}
// keys_per_release must agree with the per-key releases
for (const [tag, keys] of Object.entries(optionalKeys.keys_per_release)) {
  const rel = releaseOf(tag);
  const fromKeys = optionalKeys.keys.filter((k) => k.releases.includes(tag)).map((k) => k.key);
  if (JSON.stringify([...keys].sort()) !== JSON.stringify(fromKeys.sort())) {
    fail(`optional-keys.json keys_per_release[${tag}] disagrees with keys[].releases`);
  }
  if (optionalKeys.counts_per_release[tag] !== keys.length) fail(`optional-keys.json counts_per_release[${tag}] is off`);
  if (!schemaReleases.includes(rel)) fail(`optional-keys.json release ${tag} has no default.yml snapshot`);
}

// 3. Ansible connection variables: accepted in every release
for (const k of optionalKeys.ansible_always_allowed) {
  const r = row(k.key);
  r.categories.add('ansible');
  for (const rel of schemaReleases) r.releases.add(rel);
  r.typeEvidence.push({ type: k.type, from: 'optional-keys.json ansible_always_allowed' });
  r.descriptions.unshift({ release: 'ansible', text: k.meaning });
  r.ansibleSource = {
    repo: null,
    path: null,
    tag: null,
    line: null,
    reference: 'optional-keys.json ansible_always_allowed',
    note: 'Ansible connection/privilege variable, honoured by ansible-playbook itself in every release',
  };
}

// 4. validated values
const unattachedRules = [];
function ruleRow(rule) {
  const out = { kind: rule.kind, allowed: rule.allowed, releases: normReleases(rule.releases) };
  if (rule.message !== undefined) out.message = rule.message;
  if (rule.note !== undefined) out.note = rule.note;
  if (rule.enforced !== undefined) out.enforced = rule.enforced;
  if (rule.user_settable !== undefined) out.userSettable = rule.user_settable;
  if (rule.kind === 'enum' && rule.note && /lower-cased first/i.test(rule.note)) out.caseInsensitive = true;
  out.source = rule.source;
  return out;
}
/** Machine-readable reading of the free-text 'shape' rules the schema generator can express. */
function interpretShape(rule) {
  const allowed = rule.allowed.join(' ');
  const oidc = /^\{\} or ([\w+]+) \(\+(\w+)\)$/.exec(allowed);
  if (oidc) {
    return { allowEmpty: true, requiredTogether: oidc[1].split('+'), optional: [oidc[2]] };
  }
  if (allowed === 'absolute path') return { pattern: '^/' };
  return null;
}
for (const rule of validated.rules) {
  const key = rule.key;
  if (rows.has(key)) {
    const rr = ruleRow(rule);
    if (rule.kind === 'shape') {
      const shape = interpretShape(rule);
      if (shape && !shape.pattern) {
        rows.get(key).nested.push({ path: '', ...rr, interpreted: shape });
        continue;
      }
      if (shape) rr.interpreted = shape;
    }
    rows.get(key).validation.push(rr);
    continue;
  }
  // pair rules: "a/b[/c]" of top-level keys -> attach to each member
  if (/^[a-z0-9_]+(\/[a-z0-9_]+)+$/.test(key) && key.split('/').every((k) => rows.has(k))) {
    const members = key.split('/');
    for (const m of members) rows.get(m).validation.push({ ...ruleRow(rule), members });
    continue;
  }
  // nested rules: parent[/parent...] followed by ".<...>" or "[]..."
  const nested = /^([a-z0-9_]+(?:\/[a-z0-9_]+)*)((?:\.|\[\]).*)$/.exec(key);
  if (nested && nested[1].split('/').every((k) => rows.has(k))) {
    const parents = nested[1].split('/');
    let p = nested[2].replace(/^\./, '');
    if (p === '<registry key>') p = '<key>';
    const rr = { path: p, ...ruleRow(rule) };
    if (p === '[].pathType' && rule.note) {
      const m = /Each item needs (.+?) and (\w+) \(bool\)/.exec(rule.note);
      if (!m) fail(`cannot read the required fields of ${key}`);
      const required = [...m[1].split(/,\s*/), m[2]];
      rr.interpreted = { itemRequired: required, itemBool: [m[2]] };
    }
    if (parents.length > 1) rr.sharedWith = parents;
    for (const parent of parents) rows.get(parent).nested.push(rr);
    continue;
  }
  let reason;
  if (rule.kind === 'derived') reason = 'not an override key (user_settable: false)';
  else reason = 'names no exact key (a group of keys described in words); not attached to avoid guessing which keys';
  unattachedRules.push({ key, reason, ...ruleRow(rule) });
}

// 5. finish rows
const TYPE_ORDER = ['string', 'int', 'bool', 'list', 'dict', 'any'];
function pickSource(r, latest) {
  const list = [...r.sources].sort((a, b) => releaseIndex(a.release) - releaseIndex(b.release));
  if (!list.length) return null;
  return (latest ? list[list.length - 1] : list[0]).source;
}
const releaseRanges = (list) => sharedReleaseRanges(list, schemaReleases);

const keyRows = [];
for (const r of [...rows.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) {
  const notes = [...r.notes];
  const releasesRead = sortedUnique([...r.releases], compareReleases);

  // category: optional-keys / ansible categories win over 'defaults' (a more specific statement)
  const cats = [...r.categories];
  let category = cats.find((c) => c !== 'defaults') ?? 'defaults';
  if (cats.length > 1) {
    const defRels = Object.keys(r.defaults).sort(compareReleases);
    notes.push(`top-level key of default.yml in ${releaseRanges(defRels)} only; elsewhere an optional key (${category})`);
  }

  // type
  for (const v of r.validation) {
    if (v.kind === 'type') {
      for (const a of v.allowed) if (TYPE_ORDER.includes(a)) r.typeEvidence.push({ type: a, from: 'validated-values.json type rule' });
    }
  }
  const types = sortedUnique(r.typeEvidence.map((e) => e.type), (a, b) => TYPE_ORDER.indexOf(a) - TYPE_ORDER.indexOf(b));
  let type;
  if (types.length === 1) type = types[0];
  else {
    type = 'any';
    notes.push(
      types.length === 0
        ? 'no type evidence (default is empty and no example); typed any'
        : `conflicting type evidence (${r.typeEvidence.map((e) => `${e.type} from ${e.from}`).join('; ')}); widened to any`,
    );
  }
  if (r.nullDefaultIn) {
    const ex = r.typeEvidence.find((e) => /commented/.test(e.from));
    notes.push(
      `default.yml leaves it empty (null) in ${releaseRanges(r.nullDefaultIn)}` +
        (ex ? `; type taken from the ${ex.from.replace(/^default\.yml \S+ /, '')}` : ''),
    );
  }

  // description
  let description;
  let descriptionFrom;
  const opt = r.descriptions.find((d) => d.release === 'optional' || d.release === 'ansible');
  if (opt) {
    description = opt.text;
    descriptionFrom = opt.release === 'ansible' ? 'optional-keys.json ansible_always_allowed meaning' : 'optional-keys.json meaning';
  } else if (CURATED_DESCRIPTIONS[r.key]) {
    description = CURATED_DESCRIPTIONS[r.key];
    descriptionFrom = 'curated (the default.yml comment above the key is missing, a section header or not a sentence)';
  } else {
    const latest = [...r.descriptions].sort((a, b) => releaseIndex(b.release) - releaseIndex(a.release))[0];
    if (!latest) fail(`no description for ${r.key}`);
    description = twoSentences(latest.text);
    descriptionFrom = `default.yml comment above the key (${latest.release})`;
  }

  let source;
  let sourceEarliest = null;
  if (r.sources.length) {
    source = pickSource(r, true);
    const earliest = pickSource(r, false);
    if (JSON.stringify(earliest) !== JSON.stringify(source)) sourceEarliest = earliest;
  } else {
    source = r.ansibleSource;
  }
  if (!source) fail(`no source for ${r.key}`);

  const sortRules = (list) =>
    list.sort(
      (a, b) =>
        (a.path ?? '').localeCompare(b.path ?? '') ||
        a.kind.localeCompare(b.kind) ||
        releaseIndex(a.releases[0]) - releaseIndex(b.releases[0]),
    );

  const out = {
    key: r.key,
    type,
    category,
    description,
    descriptionFrom,
    releases: releasesRead,
    defaults: Object.fromEntries(Object.entries(r.defaults).sort((a, b) => compareReleases(a[0], b[0]))),
    defaultLines: Object.fromEntries(Object.entries(r.defaultLines).sort((a, b) => compareReleases(a[0], b[0]))),
    nullable: Boolean(r.nullDefaultIn),
    validation: sortRules(r.validation),
    ...(r.nested.length ? { nested: sortRules(r.nested) } : {}),
    ...(r.documentedInDefaults ? { documentedInDefaults: r.documentedInDefaults } : {}),
    ...(r.docsMentions !== undefined ? { docsMentions: r.docsMentions } : {}),
    source,
    ...(sourceEarliest ? { sourceEarliest } : {}),
    ...(notes.length ? { note: notes.join('. ') } : {}),
  };
  keyRows.push(out);
}

// gaps: a key read in releases that are not contiguous is worth a note
for (const k of keyRows) {
  const idx = k.releases.map(releaseIndex);
  if (idx.some((v, i) => i > 0 && v !== idx[i - 1] + 1)) {
    const gap = `read in ${releaseRanges(k.releases)} but not in between`;
    k.note = k.note ? `${k.note}. ${gap}` : gap;
  }
}
// enum rules that cover fewer releases than read the key
for (const k of keyRows) {
  for (const v of k.validation) {
    if (v.kind !== 'enum') continue;
    const missing = k.releases.filter((rel) => !v.releases.includes(rel) && k.category !== 'ansible');
    if (missing.length && !k.validation.some((o) => o !== v && o.kind === 'enum' && missing.every((m) => o.releases.includes(m)))) {
      const msg = `the ${v.kind} check is recorded for ${releaseRanges(v.releases)} only; ${releaseRanges(missing)} read the key without it`;
      k.note = k.note ? `${k.note}. ${msg}` : msg;
    }
  }
}

const keysJson = {
  asOf,
  description:
    'Every localhost.yml key that some StarlingX release reads: the union of the top-level keys of host_vars/bootstrap/default.yml, ' +
    'optional-keys.json keys and the Ansible connection variables. type is inferred from default values, optional-keys.json and ' +
    'validated-values.json type rules (conflicts widen to any, see note). validation holds validated-values.json rules for exactly this ' +
    'key (pair rules are attached to every member); nested holds rules on parts of the value (path "<key>" = property names, ' +
    '"<registry>.x" = field x of every entry, "[].x" = field x of every list item, "" = the value itself). Imported by ' +
    'scripts/import-starlingx.mjs from shared/reference/starlingx.',
  releases: schemaReleases,
  categories: {
    defaults: 'top-level key of host_vars/bootstrap/default.yml',
    ...optionalKeys.categories,
    ansible: 'Ansible connection/privilege variable, accepted in every release',
  },
  ruleKinds: validated.kinds,
  overrideFilesRead: optionalKeys.override_files_read,
  method: {
    optionalKeys: optionalKeys.method,
    caveat:
      'A key missing for a release is either not read there or overwritten by a set_fact there (e.g. *_floating_address before 11.0.0), so a user value would be ignored (SOURCES.md).',
  },
  notes: defaultsNotes,
  unattachedRules,
  keys: keyRows,
};

writeJson(path.join(outDir, 'releases.json'), releasesJson);
writeJson(path.join(outDir, 'keys.json'), keysJson);
console.log(`${releases.length} releases (${schemaReleases.length} with key data), ${keyRows.length} keys`);
