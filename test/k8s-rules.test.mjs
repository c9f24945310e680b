// Kubernetes manifest rules: window semantics, every conversion fix (before/after fixtures in
// test/fixtures/kubernetes/conversions, written by hand), recognition of manifests, user lifecycle rows
// from .skewguard.yaml, the stale-data note and the lsp-lint flags for Kubernetes.
// Reads only the repo (and temporary folders it makes). Run `node scripts/build.mjs` first.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import YAML, { Lexer } from 'yaml';
import { repoRoot, engine as e, analyze, findings, applyEdits, configFor } from './helpers/k8s.mjs';

const conversions = path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'conversions');
const readConv = (f) => fs.readFileSync(path.join(conversions, f), 'utf8');
const k8sOnly = (diags) => diags.filter((d) => d.ruleId.startsWith('k8s/'));
const asOf = JSON.parse(fs.readFileSync(path.join(repoRoot, 'data', 'kubernetes', 'api-lifecycle.json'), 'utf8')).asOf;
const daysAfterAsOf = (n) => new Date(Date.parse(asOf) + n * 86400000);

const INGRESS_V1BETA1 = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
const INGRESS_V1 = 'apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  defaultBackend:\n    service:\n      name: web\n      port:\n        number: 80\n';
const PSP = 'apiVersion: policy/v1beta1\nkind: PodSecurityPolicy\nmetadata:\n  name: restricted\nspec:\n  privileged: false\n';
const CRONJOB_BETA = 'apiVersion: batch/v1beta1\nkind: CronJob\nmetadata:\n  name: backup\nspec:\n  schedule: "@daily"\n';
const CRONJOB_V1 = CRONJOB_BETA.replace('batch/v1beta1', 'batch/v1');

// ---------------------------------------------------------------------------------------------
// Window semantics

test('window 1.18..1.21: networking.k8s.io/v1beta1 Ingress is one deprecated-api warning with no fix (v1 is not served by 1.18)', () => {
  const r = analyze('/w/ingress.yaml', INGRESS_V1BETA1, '1.18..1.21');
  assert.deepEqual(findings(r.diagnostics), ['k8s/deprecated-api @ 1:13']);
  const d = r.diagnostics[0];
  assert.equal(d.severity, 'warning');
  assert.deepEqual(d.fixes, []);
  assert.match(d.message, /deprecated from Kubernetes 1\.19 and removed in 1\.22 \(window 1\.18\.\.1\.21\)/);
  assert.match(d.message, /networking\.k8s\.io\/v1 is served only from 1\.19 in this window/);
});

test('window 1.21..1.22: the same Ingress is a removed-api error with a preferred fix to networking.k8s.io/v1', () => {
  const r = analyze('/w/ingress.yaml', INGRESS_V1BETA1, '1.21..1.22');
  assert.deepEqual(findings(r.diagnostics), ['k8s/removed-api @ 1:13']);
  const d = r.diagnostics[0];
  assert.equal(d.severity, 'error');
  assert.match(d.message, /removed in Kubernetes 1\.22, which is in the window 1\.21\.\.1\.22/);
  assert.equal(d.fixes.length, 1);
  const [fix] = d.fixes;
  assert.equal(fix.preferred, true);
  assert.ok(!fix.partial);
  assert.match(fix.title, /^Convert to networking\.k8s\.io\/v1\b/);
  const out = YAML.parse(applyEdits(INGRESS_V1BETA1, fix.edits));
  assert.equal(out.apiVersion, 'networking.k8s.io/v1');
  assert.deepEqual(out.spec, { defaultBackend: { service: { name: 'web', port: { number: 80 } } } });
});

test('window 1.18..1.22: no-common-api-version says to switch while the cluster is on 1.19..1.21', () => {
  const r = analyze('/w/ingress.yaml', INGRESS_V1BETA1, '1.18..1.22');
  assert.deepEqual(findings(r.diagnostics), ['k8s/no-common-api-version @ 1:13']);
  const d = r.diagnostics[0];
  assert.equal(d.severity, 'error');
  assert.equal(d.message, 'no apiVersion of Ingress is served by every Kubernetes version in 1.18..1.22: split the upgrade: '
    + 'keep networking.k8s.io/v1beta1 up to 1.21, switch to networking.k8s.io/v1 while the cluster is on 1.19..1.21 '
    + '(both are served there), then continue to 1.22');
  assert.ok(!d.fixes?.length, 'no single file is right for the whole window: no fix');
});

test('window 1.18..1.22, manifest already on networking.k8s.io/v1: the plan starts with v1beta1 and switches on 1.19..1.21', () => {
  const r = analyze('/w/ingress.yaml', INGRESS_V1, '1.18..1.22');
  assert.deepEqual(findings(r.diagnostics), ['k8s/no-common-api-version @ 1:13']);
  assert.equal(r.diagnostics[0].message, 'no apiVersion of Ingress is served by every Kubernetes version in 1.18..1.22: '
    + 'networking.k8s.io/v1 is served only from 1.19: split the upgrade: apply networking.k8s.io/v1beta1 up to 1.21, '
    + 'switch to networking.k8s.io/v1 while the cluster is on 1.19..1.21 (both are served there), then keep it to 1.22');
});

test('window 1.18..1.21: networking.k8s.io/v1 Ingress is api-not-yet-served, with only a partial fix back to v1beta1', () => {
  const r = analyze('/w/ingress.yaml', INGRESS_V1, '1.18..1.21');
  assert.deepEqual(findings(r.diagnostics), ['k8s/api-not-yet-served @ 1:13']);
  const d = r.diagnostics[0];
  assert.equal(d.severity, 'error');
  assert.match(d.message, /not served before Kubernetes 1\.19, but the window starts at 1\.18/);
  assert.match(d.message, /use networking\.k8s\.io\/v1beta1, served across the whole window$/);
  assert.equal(d.fixes.length, 1);
  assert.equal(d.fixes[0].preferred, false);
  assert.equal(d.fixes[0].partial, true);
  assert.match(d.fixes[0].title, /networking\.k8s\.io\/v1beta1 — partial: /);
  // The same manifest is clean once the window starts at 1.19.
  assert.deepEqual(analyze('/w/ingress.yaml', INGRESS_V1, '1.19..1.30').diagnostics, []);
});

test('a kind with no common version: PodSecurityPolicy over 1.21..1.25 (no replacement) and FlowSchema v1alpha1 over 1.18..1.29', () => {
  const psp = analyze('/w/psp.yaml', PSP, '1.21..1.25');
  assert.deepEqual(findings(psp.diagnostics), ['k8s/no-common-api-version @ 1:13']);
  assert.equal(psp.diagnostics[0].message, 'no apiVersion of PodSecurityPolicy is served by every Kubernetes version in 1.21..1.25: '
    + 'policy/v1beta1 is served only at 1.21..1.24 and nothing replaces it later in the window (no replacement API)');
  const fs1 = analyze('/w/fs.yaml', 'apiVersion: flowcontrol.apiserver.k8s.io/v1alpha1\nkind: FlowSchema\nmetadata:\n  name: f\n', '1.18..1.29');
  // (v1alpha1 is an alpha API: served at 1.18..1.20 only when enabled, test/k8s-off-by-default.test.mjs)
  assert.deepEqual(findings(fs1.diagnostics.filter((d) => d.ruleId !== 'k8s/api-off-by-default')), ['k8s/no-common-api-version @ 1:13']);
  assert.match(fs1.diagnostics.find((d) => d.ruleId === 'k8s/no-common-api-version').message, /^no apiVersion of FlowSchema is served by every Kubernetes version in 1\.18\.\.1\.29: /);
  // While every version of the window serves something in common, the same object is only deprecated.
  assert.deepEqual(findings(analyze('/w/psp.yaml', PSP, '1.21..1.24').diagnostics), ['k8s/deprecated-api @ 1:13']);
});

test('a single target version ("1.25", as --kubernetes-version v1.25.0) agrees with Pluto for PodSecurityPolicy and CronJob', () => {
  const pluto = YAML.parse(fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'kubernetes', 'pluto-versions.yaml'), 'utf8'))['deprecated-versions'];
  const minor = (v) => (v ? v.replace(/^v/, '').split('.').slice(0, 2).map(Number) : null);
  const atOrAfter = (target, v) => { const a = minor(target), b = minor(v); return !!b && (a[0] - b[0] || a[1] - b[1]) >= 0; };
  const plutoSays = (version, kind, target) => {
    const row = pluto.find((r) => r.version === version && r.kind === kind);
    return { deprecated: atOrAfter(target, row['deprecated-in']), removed: atOrAfter(target, row['removed-in']) };
  };
  const REMOVED = ['k8s/removed-api', 'k8s/no-common-api-version']; // what --exit-codes pluto counts as removed
  for (const [text, version, kind] of [[PSP, 'policy/v1beta1', 'PodSecurityPolicy'], [CRONJOB_BETA, 'batch/v1beta1', 'CronJob']]) {
    for (const [target, window] of [['v1.25.0', '1.25'], ['v1.24.0', '1.24'], ['v1.20.0', '1.20']]) {
      const p = plutoSays(version, kind, target);
      const diags = analyze('/w/m.yaml', text, window).diagnostics;
      const removed = diags.some((d) => REMOVED.includes(d.ruleId) && d.severity === 'error');
      const deprecated = removed || diags.some((d) => d.ruleId === 'k8s/deprecated-api');
      assert.deepEqual({ deprecated, removed }, p, `${version} ${kind} at ${target}`);
    }
  }
  // And the messages name the removal.
  const psp = analyze('/w/psp.yaml', PSP, '1.25').diagnostics;
  assert.deepEqual(findings(psp), ['k8s/no-common-api-version @ 1:13']);
  assert.match(psp[0].message, /policy\/v1beta1 was removed in Kubernetes 1\.25 and nothing serves PodSecurityPolicy in this window \(no replacement API\)$/);
  const cj = analyze('/w/cj.yaml', CRONJOB_BETA, '1.25').diagnostics;
  assert.deepEqual(findings(cj), ['k8s/removed-api @ 1:13']);
  assert.match(cj[0].message, /^batch\/v1beta1 CronJob is removed in Kubernetes 1\.25, which is in the window 1\.25/);
  assert.equal(cj[0].fixes[0].preferred, true);
  assert.deepEqual(analyze('/w/cj.yaml', CRONJOB_V1, '1.25').diagnostics, []);
});

// ---------------------------------------------------------------------------------------------
// Conversions: before -> preferred fix -> after, byte for byte

const clone = (o) => structuredClone(o);
const CONVERSIONS = [
  {
    name: 'ingress-extensions', windows: ['1.21..1.22'], rule: 'k8s/removed-api', title: 'Convert to networking.k8s.io/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'networking.k8s.io/v1';
      o.spec.defaultBackend = { service: { name: 'default-web', port: { number: 80 } } };
      delete o.spec.backend;
      const p = o.spec.rules[0].http.paths;
      p[0].backend = { service: { name: 'web', port: { name: 'http' } } };
      p[0].pathType = 'ImplementationSpecific'; // the v1beta1 meaning of a missing pathType
      p[1].backend = { service: { name: 'api', port: { number: 8080 } } }; // pathType: Prefix kept
      return o;
    },
  },
  {
    name: 'ingress-networking', windows: ['1.21..1.22'], rule: 'k8s/removed-api', title: 'Convert to networking.k8s.io/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'networking.k8s.io/v1';
      o.spec.defaultBackend = { service: { name: 'shop-default', port: { name: 'web' } } };
      delete o.spec.backend;
      const p = o.spec.rules[0].http.paths;
      p[0].backend = { service: { name: 'catalogue', port: { number: 8080 } } };
      p[0].pathType = 'ImplementationSpecific';
      p[1].backend = { service: { name: 'cart', port: { name: 'http' } } }; // pathType: Exact kept
      return o;
    },
  },
  {
    name: 'cronjob', windows: ['1.21..1.25', '1.21..1.24'], rule: { '1.21..1.25': 'k8s/removed-api', '1.21..1.24': 'k8s/deprecated-api' }, title: 'Convert to batch/v1',
    expect: (o) => Object.assign(o, { apiVersion: 'batch/v1' }),
  },
  {
    name: 'pdb', windows: ['1.21..1.25', '1.21..1.24'], rule: { '1.21..1.25': 'k8s/removed-api', '1.21..1.24': 'k8s/deprecated-api' }, title: 'Convert to policy/v1',
    expect: (o) => Object.assign(o, { apiVersion: 'policy/v1' }),
  },
  {
    name: 'pdb-empty-selector', windows: ['1.21..1.25'], rule: 'k8s/removed-api', partial: /^Convert to policy\/v1 — partial: spec\.selector is \{\}: .*policy\/v1 selects every pod in the namespace; set the selector you mean$/,
    expect: (o) => Object.assign(o, { apiVersion: 'policy/v1' }),
  },
  {
    name: 'hpa-v2beta1', windows: ['1.23..1.25'], rule: 'k8s/removed-api', title: 'Convert to autoscaling/v2 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'autoscaling/v2';
      o.spec.metrics = [
        { type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 50 } } },
        { type: 'Resource', resource: { name: 'memory', target: { type: 'AverageValue', averageValue: '500Mi' } } },
        { type: 'Pods', pods: { metric: { name: 'packets-per-second' }, target: { type: 'AverageValue', averageValue: '1k' } } },
        {
          type: 'Object',
          object: {
            describedObject: { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', name: 'main-route' },
            metric: { name: 'requests-per-second' },
            target: { type: 'Value', value: '10k' },
          },
        },
        {
          type: 'External',
          external: {
            metric: { name: 'queue_messages_ready', selector: { matchLabels: { queue: 'worker_tasks' } } },
            target: { type: 'AverageValue', averageValue: 30 },
          },
        },
      ];
      return o;
    },
  },
  {
    name: 'hpa-v2beta2', windows: ['1.23..1.26'], rule: 'k8s/removed-api', title: 'Convert to autoscaling/v2',
    expect: (o) => Object.assign(o, { apiVersion: 'autoscaling/v2' }),
  },
  {
    // autoscaling/v1 is the only HPA version served across 1.21..1.25 (v2 from 1.23): one cpu utilization
    // target is all v1 can say, and it says it as targetCPUUtilizationPercentage.
    name: 'hpa-v2beta2-to-v1', windows: ['1.21..1.25'], rule: 'k8s/deprecated-api', title: 'Convert to autoscaling/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'autoscaling/v1';
      delete o.spec.metrics;
      o.spec.targetCPUUtilizationPercentage = 70;
      return o;
    },
  },
  {
    name: 'deployment-extensions', windows: ['1.18..1.21'], rule: 'k8s/removed-api', title: 'Convert to apps/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'apps/v1';
      delete o.spec.rollbackTo; // gone in apps/v1
      o.spec.selector = { matchLabels: { app: 'web', tier: 'frontend' } }; // the old default: the template's labels
      // The extensions/v1beta1 defaults apps/v1 changed (1/1 instead of 25%/25%, keep every ReplicaSet, no deadline).
      o.spec.revisionHistoryLimit = 2147483647;
      o.spec.progressDeadlineSeconds = 2147483647;
      o.spec.strategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 1 } };
      return o;
    },
  },
  {
    name: 'daemonset-extensions', windows: ['1.18..1.21'], rule: 'k8s/removed-api', title: 'Convert to apps/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'apps/v1';
      delete o.spec.templateGeneration;
      o.spec.updateStrategy = { type: 'OnDelete' }; // the extensions/v1beta1 default, kept
      o.spec.selector = { matchLabels: { name: 'node-agent' } };
      return o;
    },
  },
  {
    name: 'statefulset-apps-v1beta1', windows: ['1.18..1.21'], rule: 'k8s/removed-api', title: 'Convert to apps/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'apps/v1';
      o.spec.updateStrategy = { type: 'OnDelete' }; // the apps/v1beta1 default, kept
      o.spec.selector = { matchLabels: { app: 'db' } };
      return o;
    },
  },
  {
    name: 'ingress-json', ext: '.json', windows: ['1.21..1.22'], rule: 'k8s/removed-api', title: 'Convert to networking.k8s.io/v1 (spec rewritten)',
    expect(o) {
      o.apiVersion = 'networking.k8s.io/v1';
      o.spec.defaultBackend = { service: { name: 'default-web', port: { number: 80 } } };
      delete o.spec.backend;
      const [p] = o.spec.rules[0].http.paths;
      p.backend = { service: { name: 'web', port: { name: 'http' } } };
      p.pathType = 'ImplementationSpecific';
      return o;
    },
  },
  {
    name: 'list', windows: ['1.21..1.25'], rule: 'k8s/removed-api', count: 2, title: /^Convert to (batch|policy)\/v1$/,
    expect(o) {
      o.items[0].apiVersion = 'batch/v1';
      o.items[1].apiVersion = 'policy/v1';
      return o;
    },
  },
];

const commentsOf = (text) => [...new Lexer().lex(text)].filter((t) => t.startsWith('#'));
const parseAny = (text, json) => {
  if (json) return JSON.parse(text);
  const docs = YAML.parseAllDocuments(text, { version: '1.1' });
  assert.deepEqual(docs.flatMap((d) => d.errors.map((x) => x.message)), [], 'parses as YAML');
  assert.equal(docs.length, 1);
  return docs[0].toJS();
};

test('conversion fixtures: every before file has an after file and a case here', () => {
  const files = fs.readdirSync(conversions).sort();
  const names = [...new Set(files.map((f) => f.replace(/\.(before|after)\.(yaml|json)$/, '')))].sort();
  assert.deepEqual(names, CONVERSIONS.map((c) => c.name).sort());
  for (const c of CONVERSIONS) {
    const ext = c.ext ?? '.yaml';
    assert.ok(files.includes(`${c.name}.before${ext}`) && files.includes(`${c.name}.after${ext}`), c.name);
  }
});

for (const c of CONVERSIONS) {
  for (const window of c.windows) {
    test(`conversion ${c.name} (${window}): before + fix = after, same data but the intended changes, clean, comments kept`, () => {
      const ext = c.ext ?? '.yaml';
      const json = ext === '.json';
      const before = readConv(`${c.name}.before${ext}`);
      const after = readConv(`${c.name}.after${ext}`);
      const r = analyze(`/w/${c.name}${ext}`, before, window);
      assert.equal(r.family, 'kubernetes');
      const rule = typeof c.rule === 'string' ? c.rule : c.rule[window];
      // The class annotation of an Ingress is its own finding (k8s/deprecated-annotation), before and after: not the conversion's.
      const diags = k8sOnly(r.diagnostics).filter((d) => d.ruleId !== 'k8s/deprecated-annotation');
      assert.equal(diags.length, c.count ?? 1, findings(r.diagnostics).join(', '));
      assert.ok(diags.every((d) => d.ruleId === rule), `${findings(diags)} are ${rule}`);
      const fixes = diags.map((d) => {
        assert.equal(d.fixes.length, 1);
        return d.fixes[0];
      });
      for (const f of fixes) {
        if (c.partial) {
          assert.equal(f.partial, true);
          assert.equal(f.preferred, false, 'a partial fix is never preferred (so --fix leaves it)');
          assert.match(f.title, c.partial);
        } else {
          assert.equal(f.preferred, true);
          assert.ok(!f.partial);
          if (c.title instanceof RegExp) assert.match(f.title, c.title); else assert.equal(f.title, c.title);
        }
      }
      const out = applyEdits(before, fixes.flatMap((f) => f.edits));
      // (a) byte for byte
      assert.equal(out, after);
      // (b) parses, (c) the same data except the intended changes
      const expected = c.expect(clone(parseAny(before, json)));
      assert.deepEqual(parseAny(out, json), expected);
      assert.notDeepEqual(parseAny(before, json), expected, 'the conversion changes something');
      // (d) clean under the same window. The conversion keeps a `kubernetes.io/ingress.class` annotation as it is (an
      // ingress controller may read only the annotation): k8s/deprecated-annotation says, on its own, when to move it.
      assert.deepEqual(findings(k8sOnly(analyze(`/w/${c.name}${ext}`, out, window).diagnostics).filter((d) => d.ruleId !== 'k8s/deprecated-annotation')), []);
      // (e) every comment is still there
      if (json) assert.equal(before.includes('#'), false);
      else for (const comment of commentsOf(before)) assert.ok(commentsOf(out).includes(comment), `comment "${comment}" kept`);
    });
  }
}

test('partial conversions: marked partial, not preferred, and the title says what is left', () => {
  const cases = [
    [
      'apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata:\n  name: bare\nspec:\n  template:\n    spec:\n      containers:\n        - name: c\n          image: busybox\n',
      '1.18..1.21', /^Convert to apps\/v1 — partial: spec\.selector is required in apps\/v1 and the pod template has no labels to derive it from$/,
    ],
    [
      'apiVersion: autoscaling/v2beta1\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\nspec:\n  maxReplicas: 3\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n',
      '1.23..1.25', /^Convert to autoscaling\/v2 — partial: spec\.metrics\[0\] \(type Resource\) has no known v2 form; convert it by hand$/,
    ],
    [
      'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: i\nspec:\n  rules:\n    - http:\n        paths:\n          - path: /\n            backend: {}\n',
      '1.21..1.22', /^Convert to networking\.k8s\.io\/v1 — partial: spec\.rules\[0\]\.http\.paths\[0\]\.backend has neither serviceName nor resource$/,
    ],
  ];
  for (const [text, window, title] of cases) {
    const [d, ...rest] = k8sOnly(analyze('/w/p.yaml', text, window).diagnostics);
    assert.deepEqual(rest, []);
    assert.equal(d.ruleId, 'k8s/removed-api');
    assert.equal(d.fixes.length, 1);
    assert.equal(d.fixes[0].partial, true);
    assert.equal(d.fixes[0].preferred, false);
    assert.match(d.fixes[0].title, title);
  }
});

// ---------------------------------------------------------------------------------------------
// Recognition

test('recognition: multi-document files, a comment-only preamble, and positions in each document', () => {
  const text = '# generated by hand\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n'
    + 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: i\n---\n# the nightly job\n'
    + 'kind: CronJob\napiVersion: batch/v1beta1\nmetadata:\n  name: j\n';
  const r = analyze('/w/multi.yaml', text, '1.21..1.22');
  assert.equal(r.family, 'kubernetes');
  assert.deepEqual(findings(r.diagnostics), ['k8s/removed-api @ 8:13', 'k8s/deprecated-api @ 15:13']);
  assert.equal(r.k8s.objects.length, 3);
});

test('recognition: kind: List items are checked at their own positions; a non-manifest item is said as not checked', () => {
  const text = 'apiVersion: v1\nkind: List\nitems:\n  - apiVersion: v1\n    kind: Service\n    metadata:\n      name: s\n'
    + '  - just a string\n  - apiVersion: policy/v1beta1\n    kind: PodDisruptionBudget\n    metadata:\n      name: p\n'
    + '  - {apiVersion: batch/v1beta1, kind: CronJob, metadata: {name: j}}\n';
  const r = analyze('/w/list.yaml', text, '1.21..1.24');
  assert.deepEqual(findings(r.diagnostics), ['k8s/document-not-checked @ 8:5', 'k8s/deprecated-api @ 9:17', 'k8s/deprecated-api @ 13:18']);
  assert.match(r.diagnostics.find((d) => d.ruleId === 'k8s/document-not-checked').message, /^item 2 of this List is not checked: it has no apiVersion and kind of its own, no Kubernetes object$/);
  assert.deepEqual(r.k8s.objects.map((o) => o.at), [['items', 0], ['items', 2], ['items', 3]]);
});

test('recognition: JSON manifests are checked at their JSON positions; other JSON is left alone', () => {
  const text = '{\n  "apiVersion": "batch/v1beta1",\n  "kind": "CronJob",\n  "metadata": {"name": "j"}\n}\n';
  const r = analyze('/w/cron.json', text, '1.21..1.25');
  assert.equal(r.family, 'kubernetes');
  assert.deepEqual(findings(r.diagnostics), ['k8s/removed-api @ 2:17']);
  const fixed = applyEdits(text, r.diagnostics[0].fixes[0].edits);
  assert.equal(JSON.parse(fixed).apiVersion, 'batch/v1');
  const other = analyze('/w/package.json', '{\n  "name": "x",\n  "version": "1.0.0"\n}\n', '1.21..1.25');
  assert.equal(other.family, undefined);
  assert.deepEqual(other.diagnostics, []);
});

test('recognition: a YAML file that is not a manifest is untouched', () => {
  for (const text of [
    'services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"\n',
    'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n',
    'apiVersion: 1\nkind: 2\n', // not strings
  ]) {
    const r = analyze('/w/other.yaml', text, '1.21..1.22');
    assert.equal(r.family, undefined, text);
    assert.deepEqual(r.diagnostics, []);
  }
});

test('recognition: a Helm template is a chart template (rendered and checked, told it has no chart); forced to be a manifest it gets one helm-template note', () => {
  const parses = 'apiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata:\n  name: {{ .Release.Name }}\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
  const broken = '{{- if .Values.ingress.enabled }}\napiVersion: {{ include "app.ingressApiVersion" . }}\nkind: Ingress\nmetadata:\n'
    + '  name: {{ include "app.fullname" . }}\n  labels:\n    {{- include "app.labels" . | nindent 4 }}\nspec:\n  rules:\n'
    + '  {{- range .Values.ingress.hosts }}\n    - host: {{ .host | quote }}\n  {{- end }}\n{{- end }}\n';
  // The second one really is not YAML.
  assert.ok(YAML.parseAllDocuments(broken).some((d) => d.errors.length > 0));
  const lone = 'helm/not-in-chart';
  const expect = {
    '1.18..1.21': [lone, 'helm/deprecated-api'],
    '1.21..1.22': [lone, 'helm/removed-api'],
    '1.25': [lone, 'helm/removed-api'],
  };
  for (const [window, ids] of Object.entries(expect)) {
    const r = analyze('/w/templates/ingress.yaml', parses, window);
    assert.equal(r.family, 'helm-chart');
    assert.deepEqual(r.diagnostics.map((d) => d.ruleId).sort(), [...ids].sort(), findings(r.diagnostics).join(', '));
    assert.deepEqual(r.diagnostics.find((d) => d.ruleId !== lone).range.start, { line: 0, character: 12 });
    // Without its chart the values are not known: the condition is said as not checked, never taken as false.
    const b = analyze('/w/templates/ingress.yaml', broken, window);
    assert.equal(b.family, 'helm-chart');
    assert.deepEqual(findings(b.diagnostics).length, 2);
    assert.deepEqual(b.diagnostics.map((d) => d.ruleId).sort(), ['helm/not-evaluated', lone]);
    assert.match(b.diagnostics.find((d) => d.ruleId === 'helm/not-evaluated').message, /^not checked at .*: the condition "\.Values\.ingress\.enabled" cannot be evaluated: the template is read without its chart, so its values and Chart\.yaml are not known$/);
  }
  for (const [text, line, character] of [[parses, 4, 8], [broken, 1, 0]]) {
    const r = analyze('/w/templates/ingress.yaml', `# skewguard: kubernetes\n${text}`, '1.21..1.22');
    assert.equal(r.family, 'kubernetes');
    assert.equal(r.diagnostics.length, 1, findings(r.diagnostics).join(', '));
    const [d] = r.diagnostics;
    assert.equal(d.ruleId, 'k8s/helm-template');
    assert.equal(d.severity, 'info');
    assert.deepEqual(d.range.start, { line, character });
    assert.match(d.message, /is read as a Kubernetes manifest but holds Helm template syntax/);
  }
});

// ---------------------------------------------------------------------------------------------
// User lifecycle rows (.skewguard.yaml kubernetes.additionalVersions, Pluto's row format)

const WIDGET_CONFIG = `kubernetes:
  additionalVersions:
    - version: example.com/v1beta1
      kind: Widget
      deprecated-in: v1.20.0
      removed-in: v1.22.0
      replacement-api: example.com/v1
      replacement-available-in: v1.19.0
`;
const WIDGET = 'apiVersion: example.com/v1beta1\nkind: Widget\nmetadata:\n  name: w\n';
const WIDGET_V1 = WIDGET.replace('v1beta1', 'v1');

test('user rows: a Widget manifest gets the findings its row implies, the replacement served from replacement-available-in', () => {
  const loaded = e.parseConfig('/w/.skewguard.yaml', WIDGET_CONFIG, e.ruleIds);
  assert.deepEqual(loaded.problems, []);
  const run = (text, window) => e.analyze({ path: '/w/widget.yaml', text, config: configFor(window, loaded) }).diagnostics;
  assert.deepEqual(run(WIDGET, '1.18..1.19'), []);
  const dep = run(WIDGET, '1.19..1.21');
  assert.deepEqual(findings(dep), ['k8s/deprecated-api @ 1:13']);
  assert.match(dep[0].message, /^example\.com\/v1beta1 Widget is deprecated from Kubernetes 1\.20 and removed in 1\.22 \(window 1\.19\.\.1\.21\); move to example\.com\/v1/);
  // Nothing is known about the spec of a user's API: the apiVersion change is offered as partial.
  assert.deepEqual(dep[0].fixes.map((f) => [f.preferred, f.partial]), [[false, true]]);
  const rem = run(WIDGET, '1.21..1.22');
  assert.deepEqual(findings(rem), ['k8s/removed-api @ 1:13']);
  assert.match(rem[0].message, /removed in Kubernetes 1\.22, which is in the window 1\.21\.\.1\.22: .*use example\.com\/v1/);
  const split = run(WIDGET, '1.18..1.22');
  assert.deepEqual(findings(split), ['k8s/no-common-api-version @ 1:13']);
  assert.match(split[0].message, /switch to example\.com\/v1 while the cluster is on 1\.19\.\.1\.21/);
  assert.deepEqual(findings(run(WIDGET_V1, '1.18..1.21')), ['k8s/api-not-yet-served @ 1:13']);
  assert.deepEqual(run(WIDGET_V1, '1.19..1.30'), []);
  // Without the config the kind is unknown: no lifecycle finding, and it is said not checked (never a silent pass).
  assert.deepEqual(findings(e.analyze({ path: '/w/widget.yaml', text: WIDGET, config: configFor('1.21..1.22') }).diagnostics), ['k8s/cr-version-not-served @ 1:13']);
});

test('user rows: a malformed row is a config problem at its position, and the row is not used', () => {
  const text = `kubernetes:
  additionalVersions:
    - version: example.com/v1beta1
      kind: Widget
      removed-in: soon
    - kind: Gadget
`;
  const loaded = e.parseConfig('/w/.skewguard.yaml', text, e.ruleIds);
  const lines = new e.LineIndex(text);
  const at = loaded.problems.map((p) => ({ ...lines.positionAt(p.range.start), text: text.slice(p.range.start, p.range.end), message: p.message }));
  assert.equal(at.length, 2);
  assert.deepEqual([at[0].line, at[0].character, at[0].text], [4, 18, 'soon']);
  assert.match(at[0].message, /kubernetes\.additionalVersions\.0\.removed-in: must match pattern/);
  assert.equal(at[1].line, 5);
  assert.match(at[1].message, /kubernetes\.additionalVersions\.1: must have required property 'version'/);
  assert.equal(loaded.overrides.kubernetesRows, undefined);
  // The row is not used: the Widget is known to nothing, and said not checked.
  const d = e.analyze({ path: '/w/widget.yaml', text: WIDGET, config: configFor('1.21..1.22', loaded) }).diagnostics;
  assert.deepEqual(d.map((x) => [x.ruleId, x.severity]), [['k8s/cr-version-not-served', 'info']]);
});

// ---------------------------------------------------------------------------------------------
// Stale data

test('stale data: one note when the data is more than six months old, none at 100 days, none when not asked', () => {
  const text = `${CRONJOB_V1}---\n${INGRESS_V1}`;
  const run = (today, reportStaleData = true) => analyze('/w/m.yaml', text, '1.25', { input: { reportStaleData, today } });
  const old = run(daysAfterAsOf(200));
  const notes = old.diagnostics.filter((d) => d.ruleId === 'k8s/stale-data');
  assert.equal(notes.length, 1);
  assert.equal(notes[0].severity, 'info');
  assert.equal(old.staleReported, true);
  assert.ok(notes[0].message.includes(asOf));
  assert.deepEqual(notes[0].range.start, { line: 0, character: 12 });
  assert.deepEqual(findings(old.diagnostics), ['k8s/stale-data @ 1:13']);
  const fresh = run(daysAfterAsOf(100));
  assert.deepEqual(fresh.diagnostics, []);
  assert.equal(fresh.staleReported, false);
  assert.deepEqual(run(daysAfterAsOf(200), false).diagnostics, []);
});

// ---------------------------------------------------------------------------------------------
// lsp-lint

const bin = path.join(repoRoot, 'bin', 'lsp-lint.js');

function workspace(t, files) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-k8s-')));
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  for (const [rel, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, rel), content);
  return dir;
}

function lint(cwd, args, env = {}) {
  const e2 = { ...process.env, ...env };
  delete e2.NO_COLOR;
  delete e2.SKEWGUARD_SERVER;
  if (!('SKEWGUARD_TODAY' in env)) e2.SKEWGUARD_TODAY = daysAfterAsOf(1).toISOString(); // no stale note unless asked
  const r = spawnSync(process.execPath, [bin, ...args], { cwd, encoding: 'utf8', env: e2, timeout: 60000 });
  assert.equal(r.error, undefined, `spawn failed: ${r.error}`);
  assert.doesNotMatch(r.stderr, /internal error|exited unexpectedly/, r.stderr);
  return r;
}
const lintJson = (cwd, args, env) => {
  const r = lint(cwd, ['--format', 'json', ...args], env);
  return { code: r.status, reports: JSON.parse(r.stdout) };
};

test('lsp-lint --exit-codes pluto: 3 with a removed API, 2 with only deprecated ones, 0 when clean', (t) => {
  const dir = workspace(t, { 'removed.yaml': CRONJOB_BETA, 'deprecated.yaml': PSP, 'clean.yaml': CRONJOB_V1 });
  const code = (files, window) => lint(dir, ['--exit-codes', 'pluto', '--kubernetes-window', window, ...files]).status;
  assert.equal(code(['removed.yaml', 'deprecated.yaml', 'clean.yaml'], '1.25'), 3);
  assert.equal(code(['removed.yaml', 'deprecated.yaml'], '1.24'), 2);
  assert.equal(code(['deprecated.yaml'], '1.21..1.24'), 2);
  assert.equal(code(['clean.yaml'], '1.25'), 0);
  // Without pluto codes a removed API is an ordinary error (1) and a deprecation is not (0).
  assert.equal(lint(dir, ['--kubernetes-window', '1.25', 'removed.yaml']).status, 1);
  assert.equal(lint(dir, ['--kubernetes-window', '1.24', 'deprecated.yaml']).status, 0);
});

test('lsp-lint --kubernetes-version v1.25.0 works like a window of one version', (t) => {
  const dir = workspace(t, { 'a.yaml': `${CRONJOB_BETA}---\n${PSP}` });
  const byVersion = lintJson(dir, ['--kubernetes-version', 'v1.25.0', 'a.yaml']);
  const byWindow = lintJson(dir, ['--kubernetes-window', '1.25', 'a.yaml']);
  assert.equal(byVersion.code, 1);
  assert.deepEqual(byVersion.reports, byWindow.reports);
  assert.deepEqual(byVersion.reports[0].messages.map((m) => `${m.ruleId} @ ${m.line}:${m.column}`), ['k8s/removed-api @ 1:13', 'k8s/no-common-api-version @ 8:13']);
  const printed = JSON.parse(lint(dir, ['--kubernetes-version', 'v1.25.0', '--print-config']).stdout);
  assert.equal(printed.kubernetes.window, '1.25');
  assert.equal(lint(dir, ['--kubernetes-version', 'latest', 'a.yaml']).status, 2);
});

test('lsp-lint --fix converts a manifest, and a second --fix changes nothing', (t) => {
  const before = readConv('cronjob.before.yaml');
  const dir = workspace(t, { 'cron.yaml': before, 'ing.yaml': readConv('ingress-extensions.before.yaml') });
  const first = lintJson(dir, ['--fix', '--kubernetes-window', '1.21..1.25', 'cron.yaml', 'ing.yaml']);
  assert.equal(fs.readFileSync(path.join(dir, 'cron.yaml'), 'utf8'), readConv('cronjob.after.yaml'));
  assert.equal(fs.readFileSync(path.join(dir, 'ing.yaml'), 'utf8'), readConv('ingress-extensions.after.yaml'));
  // What is left is the class annotation the conversion keeps on purpose (its own rule's fix is not applied by --fix).
  assert.deepEqual(first.reports.map((r) => [path.basename(r.filePath), r.fixed, r.messages.map((m) => m.ruleId)]), [['cron.yaml', true, []], ['ing.yaml', true, ['k8s/deprecated-annotation']]]);
  assert.equal(first.code, 0);
  const second = lintJson(dir, ['--fix', '--kubernetes-window', '1.21..1.25', 'cron.yaml', 'ing.yaml']);
  assert.deepEqual(second.reports.map((r) => r.fixed), [false, false]);
  assert.equal(fs.readFileSync(path.join(dir, 'cron.yaml'), 'utf8'), readConv('cronjob.after.yaml'));
  assert.equal(fs.readFileSync(path.join(dir, 'ing.yaml'), 'utf8'), readConv('ingress-extensions.after.yaml'));
});

test('lsp-lint with SKEWGUARD_TODAY: the stale-data note appears exactly once in a run over three manifests', (t) => {
  const dir = workspace(t, { 'a.yaml': CRONJOB_V1, 'b.yaml': INGRESS_V1, 'c.yaml': `${CRONJOB_V1}---\n${PSP.replace('policy/v1beta1', 'v1').replace('PodSecurityPolicy', 'ConfigMap')}` });
  const stale = (today) => lintJson(dir, ['--kubernetes-window', '1.25', 'a.yaml', 'b.yaml', 'c.yaml'], { SKEWGUARD_TODAY: today })
    .reports.flatMap((r) => r.messages.filter((m) => m.ruleId === 'k8s/stale-data').map((m) => ({ file: path.basename(r.filePath), ...m })));
  const notes = stale(daysAfterAsOf(200).toISOString().slice(0, 10));
  assert.equal(notes.length, 1, JSON.stringify(notes));
  assert.equal(notes[0].severity, 'info');
  assert.match(notes[0].message, new RegExp(`as of ${asOf}`));
  assert.deepEqual(stale(daysAfterAsOf(100).toISOString().slice(0, 10)), []);
});
