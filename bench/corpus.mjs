// Deterministic benchmark corpora. Everything here is a pure function of its seed: the same seed gives
// the same bytes on every machine, so results are comparable run to run.
//
// Kubernetes manifests: a realistic mix of kinds and API versions, 15–60 lines per document, with
// comments, labels, annotations and containers. Against the window 1.18..1.21 several of the API
// versions are removed, deprecated or not yet served, so every file gives real diagnostics.
//
// `salt` changes one comment line per document (nothing else): the text is new to the engine's
// parse cache, while the diagnostics stay identical. Cold measurements use a fresh salt each run.
//
// To add a corpus (e.g. Kata configuration.toml files), add a generator here and a suite in run.mjs.

/** mulberry32: small, fast, deterministic PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (arr) => arr[Math.floor(next() * arr.length)],
    chance: (p) => next() < p,
  };
}

const APPS = ['web', 'api', 'worker', 'cache', 'auth', 'billing', 'search', 'gateway', 'metrics', 'ingest', 'notifier', 'scheduler'];
const TEAMS = ['platform', 'payments', 'edge', 'data', 'ops', 'identity'];
const ENVS = ['dev', 'staging', 'prod'];
const IMAGES = ['nginx:1.25.3', 'redis:7.2-alpine', 'registry.local:9001/acme/api:2.14.0', 'quay.io/prometheus/node-exporter:v1.7.0', 'busybox:1.36', 'python:3.12-slim', 'golang:1.22'];
const COMMENTS = [
  '# Managed by the platform team; do not edit by hand.',
  '# TODO: move to the shared chart once it supports PDBs.',
  '# Values reviewed during the 1.21 upgrade rehearsal.',
  '# See runbook RB-114 before changing the replica count.',
  '# Generated from the service catalogue, then hand-tuned.',
];

/**
 * The document mix: [weight, generator]. The weights give roughly 25 % apps/v1 Deployments,
 * 20 % Services, 15 % ConfigMaps, 12 % Ingresses (half v1beta1, half v1), then CronJobs, PDBs,
 * HPAs, a few extensions/v1beta1 Deployments and apiextensions v1beta1 CRDs.
 */
export const MIX = [
  [25, (r, n) => deployment(r, n, 'apps/v1')],
  [3, (r, n) => deployment(r, n, 'extensions/v1beta1')],
  [20, service],
  [15, configMap],
  [6, (r, n) => ingress(r, n, 'networking.k8s.io/v1beta1')],
  [6, (r, n) => ingress(r, n, 'networking.k8s.io/v1')],
  [7, cronJob],
  [6, pdb],
  [6, hpa],
  [3, crd],
];
const TOTAL_WEIGHT = MIX.reduce((s, [w]) => s + w, 0);

function labels(r, name, indent, extra = 0) {
  const pad = ' '.repeat(indent);
  const out = [`${pad}app.kubernetes.io/name: ${name}`, `${pad}app.kubernetes.io/part-of: ${r.pick(TEAMS)}`];
  if (r.chance(0.6)) out.push(`${pad}environment: ${r.pick(ENVS)}`);
  for (let i = 0; i < extra; i++) out.push(`${pad}acme.io/tier-${i}: "${r.pick(['gold', 'silver', 'bronze'])}"`);
  return out;
}

function metadata(r, n, kind, ns = true) {
  const name = `${r.pick(APPS)}-${kind.toLowerCase()}-${n}`;
  const out = ['metadata:', `  name: ${name}`];
  if (ns) out.push(`  namespace: ${r.pick(TEAMS)}-${r.pick(ENVS)}`);
  out.push('  labels:', ...labels(r, name, 4, r.int(0, 2)));
  if (r.chance(0.4)) out.push('  annotations:', `    acme.io/owner: "${r.pick(TEAMS)}@acme.example"`, `    acme.io/revision: "${r.int(1, 400)}"`);
  return { name, lines: out };
}

function container(r, name, indent) {
  const p = ' '.repeat(indent);
  const out = [
    `${p}- name: ${name}`,
    `${p}  image: ${r.pick(IMAGES)}`,
    `${p}  imagePullPolicy: IfNotPresent`,
    `${p}  ports:`,
    `${p}    - containerPort: ${r.pick([80, 443, 6379, 8080, 8443, 9100])}`,
    `${p}      protocol: TCP`,
  ];
  if (r.chance(0.7)) {
    out.push(`${p}  env:`);
    for (let i = r.int(1, 4); i > 0; i--) out.push(`${p}    - name: ${r.pick(['LOG_LEVEL', 'PORT', 'REGION', 'FEATURE_FLAGS', 'DB_HOST'])}_${i}`, `${p}      value: "${r.pick(['info', '8080', 'eu-west-1', 'a,b,c', 'db.internal'])}"`);
  }
  if (r.chance(0.6)) {
    out.push(`${p}  resources:`, `${p}    requests:`, `${p}      cpu: ${r.int(1, 8) * 50}m`, `${p}      memory: ${r.int(1, 16) * 64}Mi`,
      `${p}    limits:`, `${p}      cpu: "${r.int(1, 4)}"`, `${p}      memory: ${r.int(1, 8) * 256}Mi`);
  }
  if (r.chance(0.4)) {
    out.push(`${p}  readinessProbe:`, `${p}    httpGet:`, `${p}      path: /healthz`, `${p}      port: 8080`, `${p}    periodSeconds: ${r.int(5, 30)}`);
  }
  return out;
}

function deployment(r, n, apiVersion) {
  const m = metadata(r, n, 'Deployment');
  const out = [`apiVersion: ${apiVersion}`, 'kind: Deployment', ...m.lines, 'spec:', `  replicas: ${r.int(1, 6)}`,
    '  selector:', '    matchLabels:', `      app.kubernetes.io/name: ${m.name}`,
    '  template:', '    metadata:', '      labels:', `        app.kubernetes.io/name: ${m.name}`, '    spec:'];
  if (r.chance(0.3)) out.push('      # Pinned to the compute nodes, see the capacity plan.', '      nodeSelector:', '        node-role.kubernetes.io/worker: ""');
  out.push('      containers:');
  const containers = r.int(1, 2);
  for (let c = 1; c <= containers; c++) {
    const lines = container(r, `${m.name.split('-')[0]}-${c}`, 8);
    // A second container only when the document stays within 60 lines (2 are kept for comments).
    if (c === 1 || out.length + lines.length <= 58) out.push(...lines);
  }
  return out;
}

function service(r, n) {
  const m = metadata(r, n, 'Service');
  const out = ['apiVersion: v1', 'kind: Service', ...m.lines, 'spec:', `  type: ${r.pick(['ClusterIP', 'ClusterIP', 'NodePort', 'LoadBalancer'])}`,
    '  selector:', `    app.kubernetes.io/name: ${m.name}`, '  ports:'];
  for (let i = r.int(1, 3); i > 0; i--) out.push(`    - name: port-${i}`, `      port: ${r.pick([80, 443, 8080, 9090])}`, `      targetPort: ${r.pick([8080, 8443, 9100])}`, '      protocol: TCP');
  return out;
}

function configMap(r, n) {
  const m = metadata(r, n, 'ConfigMap');
  const out = ['apiVersion: v1', 'kind: ConfigMap', ...m.lines, 'data:'];
  for (let i = r.int(2, 10); i > 0; i--) out.push(`  key_${i}: "${r.pick(['true', 'false', '30s', 'https://acme.example/hook', 'eu-west-1'])}"`);
  if (r.chance(0.5)) {
    out.push('  app.properties: |');
    for (let i = r.int(2, 12); i > 0; i--) out.push(`    setting.${i}=${r.pick(['on', 'off', '42', 'none'])}`);
  }
  return out;
}

function ingress(r, n, apiVersion) {
  const m = metadata(r, n, 'Ingress');
  const out = [`apiVersion: ${apiVersion}`, 'kind: Ingress', ...m.lines, 'spec:'];
  if (r.chance(0.5)) out.push('  tls:', '    - hosts:', `        - ${m.name}.acme.example`, `      secretName: ${m.name}-tls`);
  out.push('  rules:', `    - host: ${m.name}.acme.example`, '      http:', '        paths:');
  for (let i = r.int(1, 3); i > 0; i--) {
    if (apiVersion === 'networking.k8s.io/v1') {
      out.push(`          - path: /v${i}`, '            pathType: Prefix', '            backend:', '              service:', `                name: ${m.name}-svc`, '                port:', `                  number: ${r.pick([80, 8080])}`);
    } else {
      out.push(`          - path: /v${i}`, '            backend:', `              serviceName: ${m.name}-svc`, `              servicePort: ${r.pick([80, 8080])}`);
    }
  }
  return out;
}

function cronJob(r, n) {
  const m = metadata(r, n, 'CronJob');
  return ['apiVersion: batch/v1beta1', 'kind: CronJob', ...m.lines, 'spec:', `  schedule: "${r.int(0, 59)} ${r.int(0, 23)} * * *"`,
    '  concurrencyPolicy: Forbid', `  successfulJobsHistoryLimit: ${r.int(1, 5)}`, '  jobTemplate:', '    spec:', '      template:', '        spec:',
    '          restartPolicy: OnFailure', '          containers:', ...container(r, 'job', 12)];
}

function pdb(r, n) {
  const m = metadata(r, n, 'PodDisruptionBudget');
  const out = ['apiVersion: policy/v1beta1', 'kind: PodDisruptionBudget', ...m.lines, 'spec:',
    r.chance(0.5) ? `  minAvailable: ${r.int(1, 3)}` : `  maxUnavailable: ${r.int(1, 2)}`,
    '  selector:', '    matchLabels:', `      app.kubernetes.io/name: ${m.name}`];
  if (r.chance(0.5)) out.push('    matchExpressions:', '      - key: environment', '        operator: In', '        values:', ...ENVS.map((e) => `          - ${e}`));
  return out;
}

function hpa(r, n) {
  const m = metadata(r, n, 'HorizontalPodAutoscaler');
  const v2 = r.chance(0.5);
  const out = [`apiVersion: ${v2 ? 'autoscaling/v2beta2' : 'autoscaling/v1'}`, 'kind: HorizontalPodAutoscaler', ...m.lines, 'spec:',
    '  scaleTargetRef:', '    apiVersion: apps/v1', '    kind: Deployment', `    name: ${m.name}`, `  minReplicas: ${r.int(1, 3)}`, `  maxReplicas: ${r.int(4, 20)}`];
  if (v2) out.push('  metrics:', '    - type: Resource', '      resource:', '        name: cpu', '        target:', '          type: Utilization', `          averageUtilization: ${r.int(50, 90)}`);
  else out.push(`  targetCPUUtilizationPercentage: ${r.int(50, 90)}`);
  return out;
}

function crd(r, n) {
  const plural = `${r.pick(['widget', 'gadget', 'backup', 'tenant', 'quota'])}s${n}`;
  const out = ['apiVersion: apiextensions.k8s.io/v1beta1', 'kind: CustomResourceDefinition', 'metadata:', `  name: ${plural}.acme.example`,
    '  labels:', ...labels(r, plural, 4), 'spec:', '  group: acme.example', '  scope: Namespaced', '  names:', `    plural: ${plural}`,
    `    singular: ${plural.slice(0, -1)}`, `    kind: Kind${n}`, '  versions:', '    - name: v1alpha1', '      served: true', '      storage: true',
    '  validation:', '    openAPIV3Schema:', '      type: object', '      properties:', '        spec:', '          type: object', '          properties:'];
  for (let i = r.int(1, 5); i > 0; i--) out.push(`            field${i}:`, `              type: ${r.pick(['string', 'integer', 'boolean'])}`);
  return out;
}

/** One manifest document (lines, no `---`), 15–60 lines. */
export function manifestDoc(r, n, salt = 0) {
  let x = r.next() * TOTAL_WEIGHT;
  let gen = MIX[MIX.length - 1][1];
  for (const [w, g] of MIX) { if ((x -= w) < 0) { gen = g; break; } }
  const body = gen(r, n);
  const head = [`# bench document ${n} (salt ${salt})`];
  if (r.chance(0.5)) head.push(r.pick(COMMENTS));
  let lines = [...head, ...body];
  while (lines.length < 15) lines.push(`# padding: ${r.pick(COMMENTS).slice(2)}`);
  // Generators stay below 60 lines by construction; a trim would cut YAML, so check instead.
  if (lines.length > 60) throw new Error(`bench corpus: document ${n} has ${lines.length} lines (max 60)`);
  return lines;
}

/** A multi-document manifest file of `docs` documents. */
export function manifestFile(docs, { seed = 20240601, salt = 0 } = {}) {
  const r = rng(seed);
  const parts = [];
  for (let n = 0; n < docs; n++) parts.push(manifestDoc(r, n, salt).join('\n') + '\n');
  return parts.join('---\n');
}

/** A manifest file of about `lines` lines (whole documents). */
export function manifestFileOfLines(lines, { seed = 7, salt = 0 } = {}) {
  const r = rng(seed);
  const parts = [];
  let total = 0;
  for (let n = 0; total < lines; n++) {
    const d = manifestDoc(r, n, salt);
    parts.push(d.join('\n') + '\n');
    total += d.length + (n ? 1 : 0);
  }
  return parts.join('---\n');
}

/** `count` small manifest files of 1–`maxDocs` documents each: [{ name, text }]. */
export function manifestFiles(count, { seed = 99, maxDocs = 4 } = {}) {
  const r = rng(seed);
  const files = [];
  for (let f = 0; f < count; f++) {
    const parts = [];
    for (let d = r.int(1, maxDocs); d > 0; d--) parts.push(manifestDoc(r, f * 10 + d).join('\n') + '\n');
    files.push({ name: `dir${String(f % 20).padStart(2, '0')}/manifest-${String(f).padStart(4, '0')}.yaml`, text: parts.join('---\n') });
  }
  return files;
}

/**
 * Lines whose value can be changed without changing the diagnostics: plain `key: value` lines whose
 * key is not apiVersion/kind. Returns [{ line, valueStart, valueEnd, kind: 'int'|'str' }] (0-based line,
 * character offsets in the line).
 */
export function editableLines(text) {
  const out = [];
  const lines = text.split('\n');
  const re = /^(\s*(?:- )?)([A-Za-z][\w.\/-]*): ([^#"'|>{}\[\]&*!\s][^#]*?)\s*$/;
  lines.forEach((l, i) => {
    const m = re.exec(l);
    if (!m || m[2] === 'apiVersion' || m[2] === 'kind' || m[2] === 'name' || m[2] === 'type') return;
    const valueStart = m[1].length + m[2].length + 2;
    out.push({ line: i, valueStart, valueEnd: valueStart + m[3].length, kind: /^\d+$/.test(m[3]) ? 'int' : 'str' });
  });
  return out;
}

/**
 * editableLines, less the lines whose value is not free: a value the API restricts (an enum such as
 * imagePullPolicy or protocol) or one a rule reads. Each candidate is tried once in-process with another value of
 * its kind; only those whose findings do not change are kept, so the edits measure latency, not new findings.
 */
export function stableEditableLines(text, analyze) {
  const count = analyze(text).diagnostics.length;
  const lines = text.split('\n');
  return editableLines(text).filter((c) => {
    const copy = lines.slice();
    copy[c.line] = lines[c.line].slice(0, c.valueStart) + (c.kind === 'int' ? '4242' : 'vprobe0') + lines[c.line].slice(c.valueEnd);
    return analyze(copy.join('\n')).diagnostics.length === count;
  });
}
