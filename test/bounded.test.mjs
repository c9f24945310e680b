// Issue #25, part B: every read and every evaluation bounded by what it costs. YAML alias cycles, reads that stat
// calls regular but that never end, packaged charts that unpack big, Helm builtins charged for their work, regular
// expressions that backtrack, and watched-file events in bulk. Each shape is grown; the answer must stay bounded (a
// finding, a counted budget), never a hang: what could hang on a regression runs in a child process with a kill time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { scratch, lint, K8S_WINDOW } from './helpers/cli-run.mjs';
import { CRONTAB_CRD } from './helpers/crds.mjs';

const require = createRequire(import.meta.url);
const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');

/** Runs `body` (a function's source taking `engine`) in a child node with a kill time; its JSON result. */
function inChild(body, { timeout = 60000, args = [] } = {}) {
  const src = `const engine = require(${JSON.stringify(path.join(dist, 'engine.js'))}); const out = (${body})(engine); process.stdout.write(JSON.stringify(out));`;
  const r = spawnSync(process.execPath, [...args, '-e', src], { encoding: 'utf8', timeout, maxBuffer: 64 * 1024 * 1024 });
  assert.equal(r.signal, null, `the child was killed (${r.signal}): it did not finish within ${timeout} ms\n${r.stderr}`);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

// ---------------------------------------------------------------------------------------------------------------
// Item 5: an alias inside the node its anchor names is a cycle. Detected where the YAML is read, so no walk (the
// field walk, a CRD's schema walk, the Helm values) ever sees a value that holds itself.

/** A Deployment whose `spec` at nesting `depth` holds an alias to an anchor `up` levels above it. */
function cyclicDeployment(depth, up) {
  const lines = ['apiVersion: apps/v1', 'kind: Deployment', 'metadata:', '  name: x', 'spec:'];
  let ind = '  ';
  for (let i = 0; i < depth; i++) {
    lines.push(`${ind}k${i}:${i === depth - up ? ' &a' : ''}`);
    ind += '  ';
  }
  lines.push(`${ind}replicas: 1`, `${ind}template: *a`);
  return lines.join('\n') + '\n';
}

test('alias cycles: grown in depth and distance, each is one parse error at the alias, never a walk that does not end', () => {
  const shapes = [];
  for (const depth of [1, 2, 4, 8, 32]) for (const up of [1, Math.max(1, depth >> 1), depth]) shapes.push([depth, up]);
  const out = inChild(`(engine) => ${JSON.stringify(shapes)}.map(([d, u]) => {
    const text = (${cyclicDeployment.toString()})(d, u);
    const config = engine.resolveConfig({ cli: { kubernetesWindow: '1.18..1.33' } });
    const r = engine.analyze({ path: '/ws/deploy.yaml', text, config });
    const lines = text.split('\\n'); const line = lines.findIndex((l) => l.includes('*a'));
    return { d, u, at: { line, character: lines[line].indexOf('*a') }, diags: r.diagnostics.map((x) => ({ code: x.ruleId, message: x.message, start: x.range.start })) };
  })`);
  for (const { d, u, at, diags } of out) {
    const cyc = diags.filter((x) => /is inside the node its anchor &a names: a cycle/.test(x.message));
    assert.equal(cyc.length, 1, `depth ${d}, up ${u}: ${JSON.stringify(diags)}`);
    assert.equal(cyc[0].code, 'syntax/parse-error');
    assert.deepEqual(cyc[0].start, at, `depth ${d}, up ${u}: reported at the alias`);
  }
});

test('alias cycles: an alias that repeats a node outside itself is no cycle (still read)', () => {
  const out = inChild(`(engine) => {
    const text = 'apiVersion: v1\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n  labels: &l {a: b}\\n  annotations: *l\\ndata: {k: v}\\n';
    const config = engine.resolveConfig({ cli: { kubernetesWindow: '1.18..1.33' } });
    return engine.analyze({ path: '/ws/cm.yaml', text, config }).diagnostics.map((x) => x.ruleId);
  }`);
  assert.deepEqual(out.filter((c) => c === 'syntax/parse-error'), []);
});

test('alias cycles: a CRD whose schema holds itself, and a custom resource of it: lsp-lint ends, the CRD is reported', (t) => {
  const crd = CRONTAB_CRD.replace('      openAPIV3Schema:\n        type: object\n        properties:\n          spec:\n',
    '      openAPIV3Schema: &root\n        type: object\n        properties:\n          self: *root\n          spec:\n');
  assert.notEqual(crd, CRONTAB_CRD);
  const cr = 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec:\n  cronSpec: "* * * * *"\n  self:\n    self:\n      spec: {replicas: 1}\n';
  const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.25..1.30'), 'crd.yaml': crd, 'cr.yaml': cr });
  const r = lint(dir, ['--format', 'json', '.'], { env: {} });
  assert.equal(r.signal, null, r.stderr);
  const report = JSON.parse(r.stdout);
  const onCrd = report.find((f) => f.filePath.endsWith('crd.yaml')).messages;
  assert.ok(onCrd.some((m) => /alias \*root is inside the node its anchor &root names: a cycle/.test(m.message)), JSON.stringify(onCrd));
});

test('alias cycles: Helm fromYaml of text whose alias is inside its anchor is "not evaluated", not a value that holds itself', () => {
  const out = inChild(`(engine) => {
    const files = {
      '/c/Chart.yaml': 'apiVersion: v2\\nname: c\\nversion: 1.0.0\\n',
      '/c/values.yaml': 'text: "a: &x {b: *x}"\\n',
      '/c/templates/cm.yaml': 'apiVersion: {{ (fromYaml .Values.text) | toYaml | len | toString | printf "v%s" }}\\nkind: ConfigMap\\nmetadata:\\n  name: x\\n',
    };
    const fa = { read: (p) => files[p], readBytes: () => undefined, list: (d) => { const names = new Map(); for (const f of Object.keys(files)) if (f.startsWith(d + '/')) { const [n, ...rest] = f.slice(d.length + 1).split('/'); names.set(n, rest.length > 0); } return names.size ? [...names].map(([name, dir]) => ({ name, dir })).sort((a, b) => a.name < b.name ? -1 : 1) : undefined; } };
    const config = engine.resolveConfig({ cli: { kubernetesWindow: '1.25..1.26' } });
    return engine.analyze({ path: '/c/templates/cm.yaml', text: files['/c/templates/cm.yaml'], config, files: fa }).diagnostics.map((x) => x.message);
  }`);
  assert.ok(out.some((m) => /a cycle\) is not evaluated/.test(m)), JSON.stringify(out));
});

// ---------------------------------------------------------------------------------------------------------------
// Item 7: a file that stat calls regular (size 0) but that reads without end. Every reader stops at its byte limit:
// the servers run with a 400 MB heap, so a whole read (256 GB of pagemap) would kill them.
const PAGEMAP = '/proc/self/pagemap';
const pagemapReadable = (() => { try { fs.closeSync(fs.openSync(PAGEMAP, 'r')); return fs.statSync(PAGEMAP).size === 0; } catch { return false; } })();
const SMALL_HEAP = { NODE_OPTIONS: '--max-old-space-size=400' };

test('endless reads: kubernetes.crds naming a file that reads without end is "not read: over the size limit", with a small heap', { skip: !pagemapReadable && 'no /proc/self/pagemap here' }, (t) => {
  // An entry outside the workspace is read only from a configuration outside it (yours, named with --config).
  const dir = scratch(t, { 'cr.yaml': 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c\nspec: {}\n' });
  const mine = scratch(t, { 'skewguard.yaml': 'kubernetes:\n  window: "1.25..1.30"\n  crds:\n    - /proc/self/pagemap\n' });
  const r = lint(dir, ['--config', path.join(mine, 'skewguard.yaml'), 'cr.yaml'], { env: SMALL_HEAP });
  assert.equal(r.signal, null, r.stderr);
  assert.match(r.stderr, /kubernetes\.crds\[0\] "\/proc\/self\/pagemap": \/proc\/self\/pagemap was not read: over the size limit \(it reads more than 20971520 bytes, whatever its size says\)/, r.stderr);
});

test('endless reads: a chart whose values.yaml links to a file that reads without end (outside the workspace): said, never read, and the templates still checked', { skip: !pagemapReadable && 'no /proc/self/pagemap here' }, (t) => {
  const dir = scratch(t, {
    '.skewguard.yaml': K8S_WINDOW('1.21..1.25'),
    'c/Chart.yaml': 'apiVersion: v2\nname: c\nversion: 1.0.0\n',
    'c/templates/cj.yaml': 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: {{ .Values.name }}\n',
  });
  fs.symlinkSync(PAGEMAP, path.join(dir, 'c', 'values.yaml'));
  const r = lint(dir, ['--format', 'json', 'c/templates/cj.yaml'], { env: SMALL_HEAP });
  assert.equal(r.signal, null, r.stderr);
  const msgs = JSON.parse(r.stdout)[0].messages;
  // The link leads outside the checked roots: not even opened (issue #25 item 2), said on the chart as not checked.
  assert.ok(msgs.some((m) => m.data?.notChecked && /values\.yaml: not read \(outside the workspace, not read\)/.test(m.message)), JSON.stringify(msgs));
  assert.ok(msgs.some((m) => m.ruleId === 'helm/removed-api'), JSON.stringify(msgs));
});

test('endless reads: a file named on the command line that reads without end is not checked (over the size limit), exit 2', { skip: !pagemapReadable && 'no /proc/self/pagemap here' }, (t) => {
  const dir = scratch(t, {});
  const r = lint(dir, ['--format', 'json', PAGEMAP], { env: SMALL_HEAP });
  assert.equal(r.signal, null, r.stderr);
  assert.equal(r.code, 2, r.stdout + r.stderr);
  assert.match(r.stdout, /not checked: larger than the 20 MB limit/, r.stdout + r.stderr);
});

test('endless reads: the workspace .skewguard.yaml linking to such a file is reported, not read whole', { skip: !pagemapReadable && 'no /proc/self/pagemap here' }, (t) => {
  const dir = scratch(t, { 'cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n' });
  fs.symlinkSync(PAGEMAP, path.join(dir, '.skewguard.yaml'));
  const r = lint(dir, ['cm.yaml'], { env: SMALL_HEAP });
  assert.equal(r.signal, null, r.stderr);
  assert.match(r.stdout + r.stderr, /\.skewguard\.yaml reads more than 1048576 bytes/);
});

// ---------------------------------------------------------------------------------------------------------------
// Item 8: packaged dependencies (charts/*.tgz). A file in an archive over 5 MiB is not read (said on the archive, as
// not checked); a chart's archives together unpack to at most 40 MiB, the rest said as not read.

/** charts/<name>-1.0.0.tgz under `chartDir`, packed by tar from `files` ({ path in the chart: content }). */
function packDependency(t, chartDir, name, files) {
  const src = scratch(t, Object.fromEntries(Object.entries({ 'Chart.yaml': `apiVersion: v2\nname: ${name}\nversion: 1.0.0\n`, ...files }).map(([k, v]) => [`${name}/${k}`, v])), 'skewguard-pack-');
  fs.mkdirSync(path.join(chartDir, 'charts'), { recursive: true });
  const out = path.join(chartDir, 'charts', `${name}-1.0.0.tgz`);
  const r = spawnSync('tar', ['-czf', out, '-C', src, name]);
  assert.equal(r.status, 0, String(r.stderr));
  return out;
}
const CJ = 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: x\n';
const bigValues = (mib) => 'list:\n' + '- value-value-value-value\n'.repeat(Math.ceil((mib * 1048576) / 26));

test('packaged charts: a values.yaml in an archive over 5 MiB is "not read, so it is not checked" on the archive; the templates are still checked', (t) => {
  for (const mib of [4.5, 6, 24]) {
    const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.25'), 'Chart.yaml': 'apiVersion: v2\nname: top\nversion: 1.0.0\n' });
    packDependency(t, dir, 'dep', { 'values.yaml': bigValues(mib), 'templates/cj.yaml': CJ });
    const r = lint(dir, ['--format', 'json', 'charts'], { env: SMALL_HEAP });
    assert.equal(r.signal, null, r.stderr);
    const msgs = JSON.parse(r.stdout).find((f) => f.filePath.endsWith('dep-1.0.0.tgz')).messages;
    const over = msgs.filter((m) => /dep\/values\.yaml: \d+ bytes, over the 5 MiB limit for a file in a packaged chart: not read, so it is not checked/.test(m.message));
    assert.equal(over.length, mib > 5 ? 1 : 0, `${mib} MiB: ${JSON.stringify(msgs)}`);
    assert.ok(msgs.some((m) => m.ruleId === 'helm/removed-api'), `${mib} MiB: ${JSON.stringify(msgs)}`);
  }
});

test('packaged charts: a chart\'s archives together unpack to at most 40 MiB; however many there are, the rest are said as not read', (t) => {
  for (const count of [3, 6]) {
    const dir = scratch(t, { '.skewguard.yaml': K8S_WINDOW('1.21..1.25'), 'Chart.yaml': 'apiVersion: v2\nname: top\nversion: 1.0.0\n', 'templates/cm.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n' });
    // Each archive: four files of 4.5 MiB (each under the per-file limit), 18 MiB unpacked.
    const files = { 'templates/cj.yaml': CJ };
    for (let i = 0; i < 4; i++) files[`crds/c${i}.yaml`] = `# ${'x'.repeat(70)}\n`.repeat(Math.ceil((4.5 * 1048576) / 73));
    for (let n = 0; n < count; n++) packDependency(t, dir, `dep${n}`, files);
    const r = lint(dir, ['--format', 'json', 'templates/cm.yaml', 'charts'], { env: SMALL_HEAP });
    assert.equal(r.signal, null, r.stderr);
    const report = JSON.parse(r.stdout);
    const archives = report.filter((f) => f.filePath.endsWith('.tgz'));
    assert.equal(archives.length, count);
    const read = archives.filter((f) => f.messages.some((m) => m.ruleId === 'helm/removed-api'));
    const refused = archives.filter((f) => f.messages.some((m) => /not read: more than the [\d.]+ MiB left of the 40 MiB a chart's packaged dependencies may unpack to in all/.test(m.message)));
    assert.equal(read.length, 2, `${count} archives: ${JSON.stringify(archives.map((a) => a.messages.map((m) => m.message)))}`);
    assert.equal(refused.length, count - 2);
  }
});

// ---------------------------------------------------------------------------------------------------------------
// Item 6: the Helm evaluator charges every builtin for the size of what it takes and makes. Each shape doubles a
// list n times (2^n nodes held in n objects) and hands it to one builtin: small n is evaluated, large n ends in the
// step budget (200,000), never in a walk of 2^40 nodes. Run in a child (on a regression it would not end).

/** Renders each template (with `$a`, `$b`: two lists doubled `n` times, the same shape apart) in a child. */
function renderAll(cases) {
  return inChild(`(engine) => {
    const h = engine.helmTemplate;
    return ${JSON.stringify(cases)}.map((text) => {
      const templates = new Map([['templates/t.yaml', h.parseTemplate({ path: 'templates/t.yaml', text })]]);
      const r = h.renderTemplate(templates.get('templates/t.yaml'), { values: {}, chart: { Name: 'c', Version: '1.0.0' }, capabilities: { kubeVersion: 'v1.25.0', has: () => false }, templates });
      return { text: r.text.slice(0, 200), error: r.error?.message, unknowns: r.unknowns.map((u) => u.reason) };
    });
  }`);
}
const doubled = (n, expr) => `{{- $a := list 1 }}{{- $b := list 1 }}{{- range until ${n} }}{{- $a = list $a $a }}{{- $b = list $b $b }}{{- end }}{{ ${expr} }}`;
const SHAPES = {
  deepCopy: '$a | deepCopy | len',
  toJson: '$a | toJson | len',
  toYaml: '$a | toYaml | len',
  toPrettyJson: '$a | toPrettyJson | len',
  printf: 'printf "%v" $a | len',
  print: '$a',
  has: 'has $a (list $b)',
  uniq: 'uniq (list $a $b) | len',
  without: 'without (list $a) $b | len',
  eq: 'eq (toString $a) "x"',
};

test('Helm builtins charged for their work: each shape grown from 2^4 to 2^40 nodes is evaluated while small and ends in the step budget when large', () => {
  const names = Object.keys(SHAPES);
  const ns = [4, 8, 40];
  const res = renderAll(names.flatMap((k) => ns.map((n) => doubled(n, SHAPES[k]))));
  names.forEach((k, i) => ns.forEach((n, j) => {
    const r = res[i * ns.length + j];
    const what = `${k} at 2^${n}: ${JSON.stringify(r)}`;
    if (n <= 4) { assert.equal(r.error, undefined, what); assert.deepEqual(r.unknowns, [], what); }
    if (n >= 40) assert.match(r.error ?? '', /evaluation budget of 200000 steps exceeded|output larger than 2000000 characters/, what);
  }));
});

test('Helm builtins charged for their work: uniq over n distinct items compares n^2/2 pairs, charged (20,000 items end in the budget)', () => {
  const ns = [100, 400, 20000];
  const res = renderAll(ns.map((n) => `{{ until ${n} | uniq | len }}`));
  assert.deepEqual([res[0].text, res[1].text], ['100', '400']);
  assert.match(res[2].error ?? '', /evaluation budget of 200000 steps exceeded/, JSON.stringify(res[2]));
});

test('Helm regexMatch and regexReplaceAll run in linear time (RE2, as Go): a pattern that backtracks catastrophically in JavaScript is evaluated, in a loop', () => {
  const cases = [];
  for (const n of [50, 100, 200]) {
    cases.push(`{{ range until 20 }}{{ regexMatch "a{0,300}a{0,300}a{0,300}b" (repeat ${n} "a") }}{{ end }}`);
    cases.push(`{{ range until 20 }}{{ regexReplaceAll "(a|aa)+c" (repeat ${n} "a") "x" | len }}{{ end }}`);
  }
  // Go's RE2 meaning: \\s is ASCII space only, . stops at \\n only, ${1} and $1x (a group named "1x": empty).
  cases.push('{{ regexMatch "^a.b$" "a\\rb" }} {{ regexReplaceAll "(a)(b)?" "xaby" "[${1}|$2|$1x]" }} {{ regexMatch "(?i)ABC" "xabcx" }}');
  const res = renderAll(cases);
  for (const [i, r] of res.entries()) { assert.equal(r.error, undefined, JSON.stringify(r)); assert.deepEqual(r.unknowns, [], `${cases[i]}: ${JSON.stringify(r)}`); }
  assert.equal(res[0].text, 'false'.repeat(20));
  assert.equal(res[1].text, '50'.repeat(20));
  assert.equal(res.at(-1).text, 'true x[a|b|]y true');
});

// ---------------------------------------------------------------------------------------------------------------
// Item 9: workspace/didChangeWatchedFiles in bulk. Each notification naming a non-manifest (a chart's Chart.yaml) used
// to re-check every open file at once: 20,000 of them kept the server busy for minutes. They are coalesced: the
// number of re-checks is bounded (counted: diagnostics published per file), and a hover sent after them is answered.
test('watched files: 20,000 notifications naming a chart file are coalesced; re-checks are counted, hover is answered', { timeout: 240000 }, async (t) => {
  const { withLspClient, uriOf, withTimeout } = await import('./helpers/lsp-client.mjs');
  const files = { '.skewguard.yaml': K8S_WINDOW('1.21..1.25'), 'app/Chart.yaml': 'apiVersion: v2\nname: app\nversion: 1.0.0\n' };
  const OPEN = 20;
  for (let i = 0; i < OPEN; i++) files[`m/d${i}.yaml`] = `apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: c${i}\nspec:\n  schedule: "* * * * *"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          containers:\n          - name: x\n            image: busybox\n`;
  await withLspClient(files, async (client, dir) => {
    const uris = [];
    for (let i = 0; i < OPEN; i++) {
      const u = uriOf(path.join(dir, `m/d${i}.yaml`));
      uris.push(u);
      await client.open(u, files[`m/d${i}.yaml`]);
    }
    const before = uris.map((u) => client.count(u));
    const chart = uriOf(path.join(dir, 'app/Chart.yaml'));
    const sent = [];
    for (let n = 0; n < 20000; n++) sent.push(client.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: chart, type: 2 }] }));
    await Promise.all(sent);
    const h = await withTimeout(client.request('textDocument/hover', { textDocument: { uri: uris[0] }, position: { line: 0, character: 14 } }), 60000, 'hover not answered within 60 s after 20,000 watched-file notifications');
    assert.ok(h && JSON.stringify(h).includes('batch/v1beta1'), JSON.stringify(h));
    // Let the re-checks finish (the last batch is re-checked), then count them.
    await client.waitFor(uris[OPEN - 1], () => true, { since: before[OPEN - 1] });
    await new Promise((r) => setTimeout(r, 500));
    const rechecks = uris.map((u, i) => client.count(u) - before[i]);
    t.diagnostic(`re-checks per open file after 20,000 notifications: ${rechecks.join(', ')}`);
    assert.ok(rechecks.every((n) => n >= 1 && n <= 200), `re-checks per file: ${rechecks.join(', ')} (20,000 notifications)`);
  }, { settings: { skewguard: { debounceMs: 0 } } });
});
