// Issue #30 item 5: adding a family is its folder and one registry line. A toy family — CRI-O drop-ins
// (crio.conf.d/*.conf, TOML) with a window of its own — is written into a temporary copy of the tree (its folder
// server/src/engine/families/crio/ and its line in families/registry.ts, nothing else), built and generated there
// (npm run build, tsc, npm run gen:docs), and checked end to end: the lsp-lint flag and its help, the .skewguard.yaml
// section and its validation, the editor setting in the generated package.json, a finding from lsp-lint (a named
// file and a folder walk), --print-config, a workspace fact it produces (its window when none is configured), and the
// server's window picker entry and status text. A toy component module
// (item 3: a product inside manifests, its window read from the StarlingX path) is added the same way, by its module
// in server/src/engine/components/ and its line in components/registry.ts, and shows in --print-config; its version is
// given through the components' section with no line of its own there (--component-versions, kubernetes.components
// in .skewguard.yaml with a bad value said at its place, skewguard.kubernetes.components).
// The toy's data (a key "removed" at 1.30) is made up for this test: it is no CRI-O fact and is never shipped.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers/k8s.mjs';

const CONFIG_TS = `// The toy CRI-O window (test/add-family.test.mjs): its config section.
import type { SourceInfo } from '../../types';
import type { ConfigSection } from '../../config-core';
import { mark } from '../../config-core';
import { compareVersions, parseRange } from '../../versions';
import type { WorkspaceFactProducer } from '../types';

declare module '../../config' {
  interface Overrides { crioWindow?: string }
  interface ResolvedConfig { crio: { window?: { from: string; to: string }; source?: SourceInfo } }
  interface WorkspaceFacts { crioPinned?: { path: string; minor: string } }
}

/** Its workspace fact (made up): a StarlingX localhost.yml in the workspace pins CRI-O 1.29 when no window is set. */
export const crioPinnedFact: WorkspaceFactProducer<'crioPinned'> = {
  key: 'crioPinned',
  produce: ({ neighbours }) => (neighbours.localhost ? { path: neighbours.localhost.path, minor: '1.29' } : undefined),
};

/** Toy data: the CRI-O minors it knows, and a key it says was removed at 1.30 (made up for the test). */
export const CRIO_MINORS = ['1.28', '1.29', '1.30', '1.31'];
export const TOY_REMOVED = [{ table: 'crio.runtime', key: 'toy_removed_option', removedIn: '1.30' }];
export const crioMinors = (w: { from: string; to: string }) => CRIO_MINORS.filter((m) => compareVersions(m, w.from) >= 0 && compareVersions(m, w.to) <= 0);

function checkCrioWindow(s: string): string | undefined {
  const r = parseRange(s);
  if (!r) return \`crio.window "\${s}" is not a CRI-O minor or range such as "1.28..1.31"\`;
  if (!crioMinors(r).length) return \`crio window "\${s}" holds no CRI-O minor of the data (it knows 1.28 … 1.31)\`;
  return undefined;
}

export const crioConfigSection: ConfigSection = {
  section: 'crio',
  order: 30,
  schema: { type: 'object', additionalProperties: false, properties: { window: { type: 'string', description: 'CRI-O minors of the upgrade/rollback window, e.g. "1.28..1.31".' } } },
  packageSettings: {
    'skewguard.crio.window': { type: 'string', scope: 'resource', default: '', description: 'CRI-O minors of the upgrade/rollback window of crio.conf.d drop-ins, e.g. "1.28..1.31".', order: 7 },
  },
  validate(v, { ok, overrides, problems }) {
    const w = typeof v?.window === 'string' ? v.window : undefined;
    if (w === undefined || !ok('crio.window')) return;
    const err = checkCrioWindow(w);
    if (err) problems.push({ message: err, path: ['crio', 'window'], at: 'value' });
    else overrides.crioWindow = w;
  },
  settingsOf: (o) => (o.crioWindow ? { window: o.crioWindow } : undefined),
  checkCli(cli) {
    const err = cli.crioWindow !== undefined ? checkCrioWindow(cli.crioWindow) : undefined;
    return err ? [\`--crio-window: \${err}\`] : [];
  },
  resolve({ pick, workspace }) {
    const w = pick('crioWindow');
    const pin = w ? undefined : workspace?.crioPinned;
    if (pin) return { window: { from: pin.minor, to: pin.minor }, source: { kind: 'workspace', detail: \`\${pin.path}: toy pin\` } };
    return { window: w ? parseRange(w[0]) : undefined, source: w?.[1] };
  },
  describe: (c) => ({ window: c.crio.window ? \`\${c.crio.window.from}..\${c.crio.window.to}\` : null, source: c.crio.source ?? { kind: 'default', detail: 'the newest CRI-O minor' } }),
  flags: [{ name: '--crio-window', key: 'crioWindow', help: '      --crio-window <w>           CRI-O window of crio.conf.d drop-ins, e.g. 1.28..1.31\\n' }],
  parts: [{ part: 'crio.window', label: 'CRI-O window', unset: 'the newest CRI-O', detail: 'CRI-O minors, e.g. 1.28..1.31' }],
  status: (f) => (typeof f.crioWindow === 'string' ? \`CRI-O \${f.crioWindow}\${mark(f.crioWindowSource as { kind?: string } | undefined)}\` : undefined),
};
`;

const FAMILY_TS = `// The toy CRI-O family (test/add-family.test.mjs): crio.conf.d/*.conf drop-ins, checked at each CRI-O minor of its window.
import * as path from 'node:path';
import type { FamilyModule } from '../types';
import { DETECT } from '../types';
import type { Rule } from '../../rules/types';
import type { SourceInfo } from '../../types';
import { parseError } from '../../rules/general';
import { parseToml } from '../../parse/toml';
import { runRule } from '../core';
import { crioConfigSection, crioPinnedFact, crioMinors, CRIO_MINORS, TOY_REMOVED } from './config';

interface CrioContext { minors: string[]; source: SourceInfo; entries: ReturnType<typeof parseToml>['entries'] }
declare module '../registry' { interface FamilyResults { crio?: CrioContext } }

const removedKey: Rule<CrioContext> = {
  id: 'crio/removed-key', family: 'crio', defaultSeverity: 'error',
  title: 'Key removed within the CRI-O window',
  what: 'Reports a drop-in key that a CRI-O minor of the window no longer reads (toy data).',
  why: 'After the upgrade the key would be refused.',
  bad: { filename: 'crio.conf.d/10-toy.conf', text: '[crio.runtime]\\ntoy_removed_option = true\\n' },
  good: { filename: 'crio.conf.d/10-toy.conf', text: '[crio.runtime]\\n' },
  sources: ['toy data of test/add-family.test.mjs'],
  check(ctx, report) {
    for (const e of ctx.entries) {
      const hit = TOY_REMOVED.find((r) => r.table === e.table.join('.') && r.key === e.key.join('.'));
      const at = hit && ctx.minors.filter((m) => m >= hit.removedIn);
      if (at?.length) report({ message: \`\${hit!.key} is removed in CRI-O \${hit!.removedIn}, in the window at \${at.join(', ')}\`, range: e.keyRange, data: { removedIn: hit!.removedIn } });
    }
  },
};

const isDropIn = (file: string) => path.basename(path.dirname(file)) === 'crio.conf.d' && file.endsWith('.conf');

export const crio: FamilyModule<'crio'> = {
  id: 'crio',
  title: 'CRI-O drop-ins (toy)',
  modelineNames: ['crio'],
  serves: { files: [{ ext: '.conf', parent: 'crio.conf.d' }], patterns: ['**/crio.conf.d/*.conf'] },
  look: ({ file }) => ({ notYaml: isDropIn(file) }),
  detect: ({ file }) => (isDropIn(file) ? DETECT.name : DETECT.no),
  rules: [removedKey],
  analyze({ input, emit, stage }) {
    const toml = stage('parse', () => parseToml(input.text));
    if (toml.errors[0]) { emit(parseError, { message: \`TOML syntax error: \${toml.errors[0].message}\`, range: { start: toml.errors[0].start, end: toml.errors[0].end } }); return {}; }
    const w = input.config.crio.window;
    const ctx: CrioContext = {
      minors: w ? crioMinors(w) : [CRIO_MINORS[CRIO_MINORS.length - 1]],
      source: input.config.crio.source ?? { kind: 'default', detail: 'the newest CRI-O minor' },
      entries: toml.entries,
    };
    runRule(removedKey, ctx, emit, input.faults);
    return { crio: ctx };
  },
  hover: () => undefined,
  complete: () => [],
  facts: (r) => (r.crio ? { crioWindow: r.crio.minors.length > 1 ? \`\${r.crio.minors[0]}..\${r.crio.minors[r.crio.minors.length - 1]}\` : r.crio.minors[0], crioWindowSource: r.crio.source } : undefined),
  steps: (r) => r.crio?.minors,
  stepsSource: (r) => r.crio?.source,
  stepsName: 'CRI-O',
  config: crioConfigSection,
  workspaceFactProducers: [crioPinnedFact],
  data: () => ({ minors: CRIO_MINORS, removed: TOY_REMOVED }),
};
`;

// A toy component module (issue #30 item 3): a product inside manifests whose window is the version the user gives it
// (kubernetes.components.toy-operator, --component-versions toy-operator=…, checked by its own checkVersion), else
// read from the StarlingX path.
const COMPONENT_TS = `// A toy component (test/add-family.test.mjs): the version given, else one made-up version per StarlingX release on the path.
import type { ComponentModule } from './types';
import type { SourceInfo } from '../types';

interface ToyWindow { steps: string[]; text: string; source: SourceInfo }
declare module '../config' { interface ResolvedConfig { toyOperator?: ToyWindow } }

export const toyOperator: ComponentModule<ToyWindow> = {
  id: 'toy-operator',
  key: 'toyOperator',
  window: ({ starlingx, version }) => (version && version.source.kind !== 'default'
    ? { steps: [\`toy-\${version.version}\`], text: version.version, source: version.source }
    : starlingx
      ? { steps: starlingx.path.map((r) => \`toy-\${r.release}\`), text: \`StarlingX \${starlingx.path.map((r) => r.release).join('..')}\`, source: starlingx.source }
      : undefined),
  describe: (w) => ({ window: w.text, versions: w.steps, source: w.source }),
  checkVersion: (v) => (typeof v === 'string' && /^v?7\\.\\d+$/.test(v) ? undefined : \`"\${String(v)}" is not a toy-operator release such as 7.1\`),
};
`;

/** A copy of what the build and the generators read; node_modules, data/ and schemas/ (only read) are linked. */
function copyTree() {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-add-family-')));
  for (const d of ['server', 'client', 'scripts', 'docs', 'bin']) fs.cpSync(path.join(repoRoot, d), path.join(dir, d), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) fs.copyFileSync(path.join(repoRoot, f), path.join(dir, f));
  for (const d of ['node_modules', 'data', 'schemas']) fs.symlinkSync(path.join(repoRoot, d), path.join(dir, d), 'dir');
  return dir;
}

/** The registry line: the import and the entry in the list (after containerd). */
function addRegistryLine(dir) {
  const p = path.join(dir, 'server/src/engine/families/registry.ts');
  let s = fs.readFileSync(p, 'utf8');
  const list = /(export const families = \[[^\]]*?)\] as const/;
  assert.match(s, list);
  s = s.replace(list, '$1, crio] as const').replace(/(import type \{ FamilyModule \} from '\.\/types';\n)/, "$1import { crio } from './crio/family';\n");
  fs.writeFileSync(p, s);
}

const run = (dir, args, opts = {}) => spawnSync(process.execPath, args, { cwd: opts.cwd ?? dir, encoding: 'utf8', timeout: 300_000, env: { ...process.env, SKEWGUARD_CODE_CACHE: 'off' } });

test('a toy family added by its folder and one registry line is built and served end to end: flag, .skewguard.yaml, setting, finding, picker', { timeout: 600_000 }, async (t) => {
  const dir = copyTree();
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const before = fs.readFileSync(path.join(dir, 'server/src/engine/families/registry.ts'), 'utf8');
  fs.mkdirSync(path.join(dir, 'server/src/engine/families/crio'));
  fs.writeFileSync(path.join(dir, 'server/src/engine/families/crio/config.ts'), CONFIG_TS);
  fs.writeFileSync(path.join(dir, 'server/src/engine/families/crio/family.ts'), FAMILY_TS);
  addRegistryLine(dir);
  // The toy component: its module and its line in components/registry.ts.
  fs.writeFileSync(path.join(dir, 'server/src/engine/components/toy-operator.ts'), COMPONENT_TS);
  const creg = path.join(dir, 'server/src/engine/components/registry.ts');
  const cbefore = fs.readFileSync(creg, 'utf8');
  const cafter = cbefore.replace(/(export const COMPONENTS[^=]*= \[[^\]]*?)\];/, '$1, toyOperator];').replace(/(import \{ fluxComponent \} from '\.\/flux';\n)/, "$1import { toyOperator } from './toy-operator';\n");
  assert.equal(cafter.split('\n').filter((l) => !cbefore.split('\n').includes(l)).length, 2, 'the component registry line');
  fs.writeFileSync(creg, cafter);
  const changed = fs.readFileSync(path.join(dir, 'server/src/engine/families/registry.ts'), 'utf8').split('\n').filter((l) => !before.split('\n').includes(l));
  assert.equal(changed.length, 2, `only the registry line (its import and its entry): ${changed.join(' | ')}`);

  const build = run(dir, ['scripts/build.mjs']);
  assert.equal(build.status, 0, build.stderr);
  const tsc = run(dir, [path.join(repoRoot, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit']);
  assert.equal(tsc.status, 0, `the toy family type-checks against the core's types:\n${tsc.stdout}${tsc.stderr}`);
  const gen = run(dir, ['scripts/gen-docs.mjs']);
  assert.equal(gen.status, 0, gen.stderr);

  // The editor setting, generated into package.json in its place (after the core's Kubernetes and the other families' windows).
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  const props = Object.keys(pkg.contributes.configuration.properties);
  assert.ok(props.includes('skewguard.crio.window'), 'skewguard.crio.window in package.json');
  assert.equal(props.indexOf('skewguard.crio.window'), props.indexOf('skewguard.containerd.window') + 1);
  assert.ok(pkg.contributes.configuration.properties['skewguard.files'].additionalProperties.enum.includes('crio'), 'files: may name it');
  assert.ok(fs.existsSync(path.join(dir, 'docs/rules/crio/removed-key.md')), 'its rule has a docs page');

  // The CLI flag and its help.
  const lint = path.join(dir, 'bin/lsp-lint.js');
  const help = run(dir, [lint, '--help']).stdout;
  assert.match(help, /--crio-window <w> +CRI-O window of crio\.conf\.d drop-ins/);

  const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-add-family-ws-')));
  t.after(() => fs.rmSync(ws, { recursive: true, force: true }));
  const dropIn = path.join(ws, 'etc/crio/crio.conf.d/10-toy.conf');
  fs.mkdirSync(path.dirname(dropIn), { recursive: true });
  fs.writeFileSync(dropIn, '# a drop-in\n[crio.runtime]\ntoy_removed_option = true\n');
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), 'crio:\n  window: "1.28..1.31"\n');

  // A finding from lsp-lint under the .skewguard.yaml section, on the named file and on a folder walk alike.
  const json = (r) => { assert.ok(r.stdout, r.stderr); return JSON.parse(r.stdout); };
  for (const target of [dropIn, ws]) {
    const r = run(dir, [lint, '-f', 'json', target], { cwd: ws });
    const files = json(r);
    const f = files.find((x) => x.filePath === dropIn);
    assert.ok(f, `${target}: the drop-in is checked (${files.map((x) => x.filePath).join(', ')})`);
    assert.deepEqual(f.messages.map((m) => `${m.ruleId} ${m.line}:${m.column}`), ['crio/removed-key 3:1'], JSON.stringify(f.messages));
    assert.match(f.messages[0].message, /in the window at 1\.30, 1\.31/);
    assert.equal(r.status, 1);
  }
  // The flag wins over the file: 1.28..1.29 does not reach the removal.
  const flag = run(dir, [lint, '-f', 'json', '--crio-window', '1.28..1.29', dropIn], { cwd: ws });
  assert.deepEqual(json(flag)[0].messages, []);
  assert.equal(flag.status, 0, flag.stderr);
  const badFlag = run(dir, [lint, '--crio-window', '2.0', dropIn], { cwd: ws });
  assert.equal(badFlag.status, 2);
  assert.match(badFlag.stderr, /--crio-window: crio window "2\.0" holds no CRI-O minor/);

  // --print-config: the section, where it came from.
  const pc = json(run(dir, [lint, '--print-config', dropIn], { cwd: ws }));
  assert.equal(pc.crio.window, '1.28..1.31');
  assert.equal(pc.crio.source.kind, 'config');
  // The toy component's window: read from the StarlingX path when the configuration says StarlingX, else none.
  assert.equal(pc.toyOperator, undefined, 'no StarlingX said: no component window');
  const stx = json(run(dir, [lint, '--print-config', '--starlingx-upgrade-from', '11.0', '--starlingx-release', '12.0', dropIn], { cwd: ws }));
  assert.deepEqual(stx.toyOperator.versions, ['toy-11.0', 'toy-12.0']);
  assert.equal(stx.toyOperator.window, 'StarlingX 11.0..12.0');
  assert.equal(stx.toyOperator.source.kind, 'cli');
  assert.ok(stx.flux, 'Flux, the other component module, still reads its window');
  // Its version through the components' plug-in point, with no line of its own there: --component-versions (normalised,
  // checked by its checkVersion, a misspelt name gets did-you-mean), kubernetes.components in .skewguard.yaml (a bad
  // value said at its place), the editor setting; the version given wins over the StarlingX path.
  const given = json(run(dir, [lint, '--print-config', '--starlingx-release', '12.0', '--component-versions', 'cert-manager=1.5,toy-operator=v7.2', dropIn], { cwd: ws }));
  assert.deepEqual(given.toyOperator, { window: '7.2', versions: ['toy-7.2'], source: { kind: 'cli', detail: '--component-versions' } });
  assert.deepEqual(given.components['toy-operator'], { version: '7.2', source: { kind: 'cli', detail: '--component-versions' } });
  const badVersion = run(dir, [lint, '--component-versions', 'toy-operator=8.0', dropIn], { cwd: ws });
  assert.equal(badVersion.status, 2);
  assert.match(badVersion.stderr, /--component-versions toy-operator: "8\.0" is not a toy-operator release such as 7\.1/);
  const misspelt = run(dir, [lint, '--component-versions', 'toy-operatr=7.1', dropIn], { cwd: ws });
  assert.equal(misspelt.status, 2);
  assert.match(misspelt.stderr, /unknown component "toy-operatr"; did you mean "toy-operator"\?/);
  const compYaml = 'crio:\n  window: "1.28..1.31"\nkubernetes:\n  components:\n    toy-operator: "7.3"\n';
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), compYaml);
  const fromFile = json(run(dir, [lint, '--print-config', dropIn], { cwd: ws }));
  assert.deepEqual(fromFile.toyOperator, { window: '7.3', versions: ['toy-7.3'], source: { kind: 'config', detail: `${path.join(ws, '.skewguard.yaml')} kubernetes.components` } });
  const badYaml = compYaml.replace('"7.3"', '"9.9"');
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), badYaml);
  const badFile = run(dir, [lint, dropIn], { cwd: ws });
  assert.equal(badFile.status, 2);
  const at = badYaml.indexOf('"9.9"');
  const [line, col] = [badYaml.slice(0, at).split('\n').length, at - badYaml.lastIndexOf('\n', at - 1)];
  assert.match(badFile.stderr, new RegExp(`\\.skewguard\\.yaml:${line}:${col}: kubernetes\\.components\\.toy-operator: "9\\.9" is not a toy-operator release such as 7\\.1`));
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), 'crio:\n  window: "1.28..1.31"\n');

  // Its workspace fact, produced by the server from what its walks found (a localhost.yml), sets the window when none
  // is configured, and says where it came from.
  const ws2 = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-add-family-ws2-')));
  t.after(() => fs.rmSync(ws2, { recursive: true, force: true }));
  const dropIn2 = path.join(ws2, 'etc/crio/crio.conf.d/10-toy.conf');
  fs.mkdirSync(path.dirname(dropIn2), { recursive: true });
  fs.writeFileSync(dropIn2, '[crio.runtime]\ntoy_removed_option = true\n');
  const pinless = json(run(dir, [lint, '--print-config', dropIn2], { cwd: ws2 }));
  assert.equal(pinless.crio.window, null, 'no localhost.yml: no pin');
  fs.writeFileSync(path.join(ws2, 'localhost.yml'), 'system_mode: simplex\n');
  const pinned = json(run(dir, [lint, '--print-config', dropIn2], { cwd: ws2 }));
  assert.equal(pinned.crio.window, '1.29..1.29');
  assert.deepEqual(pinned.crio.source, { kind: 'workspace', detail: 'localhost.yml: toy pin' });
  assert.deepEqual(json(run(dir, [lint, '-f', 'json', dropIn2], { cwd: ws2 }))[0].messages, [], 'at 1.29 the key is still read');

  // A bad value in the section is said at its key, and the run fails as for any invalid .skewguard.yaml.
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), 'crio:\n  window: "9.9"\n');
  const bad = run(dir, [lint, '-f', 'json', dropIn], { cwd: ws });
  assert.equal(bad.status, 2);
  assert.match(bad.stdout + bad.stderr, /crio window "9\.9" holds no CRI-O minor/);
  fs.writeFileSync(path.join(ws, '.skewguard.yaml'), 'crio:\n  window: "1.28..1.31"\n');

  // The language server of the copy: the window picker offers the part, the status item says the file's window.
  process.env.SKEWGUARD_SERVER = path.join(dir, 'dist/server.js');
  const { LspClient } = await import('./helpers/lsp-client.mjs');
  delete process.env.SKEWGUARD_SERVER;
  const client = new LspClient(ws, { settings: { skewguard: { kubernetes: { components: { 'toy-operator': '7.4' } } } } });
  t.after(() => client.kill());
  await client.initialize();
  const uri = pathToFileURL(dropIn).toString();
  await client.open(uri, fs.readFileSync(dropIn, 'utf8'), 1, 'toml');
  const choices = await client.request('skewguard/windowChoices', {});
  const part = choices.parts.find((p) => p.part === 'crio.window');
  assert.deepEqual(part, { part: 'crio.window', label: 'CRI-O window', unset: 'the newest CRI-O', detail: 'CRI-O minors, e.g. 1.28..1.31' });
  assert.ok(choices.parts.findIndex((p) => p.part === 'crio.window') > choices.parts.findIndex((p) => p.part === 'containerd.window'));
  const status = await client.request('skewguard/resolvedConfig', { uri });
  assert.equal(status.family, 'crio');
  // The toy component's version from the editor setting (skewguard.kubernetes.components).
  assert.deepEqual(status.resolved.toyOperator, { window: '7.4', versions: ['toy-7.4'], source: { kind: 'settings', detail: 'editor settings' } });
  assert.equal(status.fileWindow, 'CRI-O 1.28..1.31');
  // The picker writes the part through the validator: a value it rejects is said, a good one is written.
  const edit = await client.request('skewguard/windowEdit', { uri, part: 'crio.window', value: '1.29..1.30' });
  assert.equal(edit.text, 'crio:\n  window: "1.29..1.30"\n');
  const refused = await client.request('skewguard/windowEdit', { uri, part: 'crio.window', value: '3.0' });
  assert.match(refused.problem, /holds no CRI-O minor/);
});
