// Real-shaped benchmark corpora (issue 29): multi-document manifest bundles written the way people and tools write
// them, unlike corpus.mjs's one-shape documents. Everything is a pure function of the seed (mulberry32, corpus.mjs).
//
// What the documents hold, after the patterns of real repositories (no upstream text is copied: names, words and
// schemas are generated):
// - comments everywhere a person writes them: file and document headers, between keys, after a key that opens a
//   collection, after plain, single- and double-quoted scalars and flow collections, between list items, indented
//   deeper or shallower than the content, commented-out blocks, comment lines at the end of a document;
// - every scalar style: plain (also multi-line), single-quoted (with ''), double-quoted (with escapes), literal and
//   folded block scalars with every chomping indicator (and an explicit indentation indicator), empty values, ~;
// - flow maps and lists (`{cpu: 100m, memory: "128Mi"}`, `verbs: ["get", 'list', watch]`), anchors, aliases and
//   merge keys, long strings (last-applied-configuration JSON, base64 certificates);
// - with CRDs: apiextensions.k8s.io/v1 CustomResourceDefinitions whose openAPIV3Schema has the size and shape of
//   operators' CRDs (genSchema below: sizes drawn to the quantiles of 703 real schemas, 56 B … 1.2 MB, median
//   12 KB, mean 57 KB; descriptions as `|-` blocks and multi-line plain scalars, enums, x-kubernetes-* markers) and
//   custom resources of them (some at a version their CRD no longer serves, some with fields the schema lacks).
//
// realManifest(n, {crds, seed, crlf}) gives one bundle of n documents.
import { rng } from './corpus.mjs';

const WORDS = ('the a of to and in is for that by with on this be are as when an or it from at which not if its must '
  + 'field value object name set resource controller spec status reference secret config list map number string used '
  + 'default will should may only can specifies defines selector label annotation namespace cluster pod container '
  + 'port volume mount path key type condition reason message time duration interval policy rule target endpoint '
  + 'service account token certificate issuer template replica strategy update rollout revision limit request').split(' ');
const APPS = ['frontend', 'checkout', 'ledger', 'ingest', 'search', 'mailer', 'auth', 'catalog', 'reports', 'gateway', 'cart', 'profile'];
const TEAMS = ['platform', 'payments', 'edge', 'data', 'identity', 'growth'];
const IMAGES = ['docker.io/library/nginx:1.25.3', 'ghcr.io/acme/checkout:v2.14.0', "registry.acme.example:5000/ledger@sha256:0b5e3c4f1a2d7e6b9c8d0a1f2e3d4c5b6a7980e1f2d3c4b5a69788796a5b4c3d", 'quay.io/acme/ingest:1.7', 'busybox:1.36'];
const GROUPS = ['cache.acme.example', 'queue.acme.example', 'db.acme.example', 'net.acme.example', 'ml.acme.example', 'ops.acme.example',
  'mesh.acme.example', 'policy.acme.example', 'backup.acme.example', 'secrets.acme.example'];

const words = (r, lo, hi) => { const n = r.int(lo, hi); const out = []; for (let i = 0; i < n; i++) out.push(r.pick(WORDS)); return out.join(' '); };
const sentence = (r, lo = 4, hi = 14) => { const w = words(r, lo, hi); return `${w[0].toUpperCase()}${w.slice(1)}.`; };
const cap = (s) => s[0].toUpperCase() + s.slice(1);
const ident = (r) => `${r.pick(WORDS)}${cap(r.pick(WORDS))}${r.chance(0.3) ? cap(r.pick(WORDS)) : ''}`;
const b64 = (r, n) => { const a = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'; let s = ''; for (let i = 0; i < n; i++) s += a[r.int(0, 63)]; return s; };

/** A trailing comment now and then (after any scalar or collection opener). */
const tc = (r, p = 0.12) => (r.chance(p) ? `  # ${words(r, 2, 7)}` : '');
/** Comment lines at an indentation, sometimes shallower or deeper than the content around them. */
function commentLines(r, pad, p = 0.15) {
  if (!r.chance(p)) return [];
  const shift = r.pick([0, 0, 0, 2, -2]);
  const at = ' '.repeat(Math.max(0, pad.length + shift));
  return Array.from({ length: r.int(1, 3) }, () => `${at}# ${words(r, 3, 10)}`);
}

/** A string scalar in one of the styles people write, with the value `s` (a plain-safe word string). */
function styled(r, s) {
  switch (r.int(0, 5)) {
    case 0: return `'${s}'`;
    case 1: return `"${s}"`;
    case 2: return `'${s} it''s'`;
    case 3: return `"${s}\\t\\"q\\" \\u00e9"`;
    default: return s;
  }
}

function labels(r, pad, name) {
  const out = [`${pad}app.kubernetes.io/name: ${name}${tc(r)}`, `${pad}app.kubernetes.io/part-of: ${styled(r, r.pick(TEAMS))}`];
  if (r.chance(0.5)) out.push(`${pad}app.kubernetes.io/version: "${r.int(1, 9)}.${r.int(0, 30)}.${r.int(0, 9)}"`);
  if (r.chance(0.3)) out.push(`${pad}tier: ${r.pick(['backend', "'frontend'", '"cache"'])}`);
  return out;
}

function metadata(r, kind, n, { ns = true, anchor = false } = {}) {
  const name = `${r.pick(APPS)}-${kind.toLowerCase()}-${n}`;
  const out = ['metadata:', `  name: ${r.chance(0.2) ? `"${name}"` : name}${tc(r)}`];
  if (ns) out.push(`  namespace: ${r.pick(TEAMS)}${tc(r, 0.05)}`);
  out.push(...commentLines(r, '  '));
  if (!anchor && r.chance(0.15)) out.push(`  labels: {app.kubernetes.io/name: ${name}, team: "${r.pick(TEAMS)}"}${tc(r)}`);
  else out.push(`  labels:${anchor ? ` &labels-${n}` : ''}${tc(r, 0.05)}`, ...labels(r, '    ', name));
  if (r.chance(0.45)) {
    out.push('  annotations:');
    if (r.chance(0.3)) out.push(`    kubectl.kubernetes.io/last-applied-configuration: '{"apiVersion":"v1","kind":"${kind}","metadata":{"annotations":{},"name":"${name}","namespace":"${r.pick(TEAMS)}"},"spec":{"note":"${words(r, 10, 40)}"}}'`);
    if (r.chance(0.5)) out.push(`    description: ${words(r, 6, 12)}`, `      ${words(r, 4, 10)}`);
    out.push(`    acme.example/owner: "${r.pick(TEAMS)}@acme.example"${tc(r)}`);
    if (r.chance(0.3)) out.push('    acme.example/rollout: >-', `      ${words(r, 6, 14)}`, `      ${words(r, 3, 10)}`);
  }
  return { name, lines: out };
}

function container(r, pad, name) {
  const out = [`${pad}- name: ${name}${tc(r)}`, `${pad}  image: ${r.chance(0.3) ? `"${r.pick(IMAGES)}"` : r.pick(IMAGES)}${tc(r)}`];
  if (r.chance(0.4)) out.push(`${pad}  imagePullPolicy: ${r.pick(['IfNotPresent', "'Always'"])}`);
  if (r.chance(0.4)) out.push(`${pad}  args: [${Array.from({ length: r.int(1, 4) }, () => r.pick(['--v=2', '"--port=8080"', "'--log-format=json'", '--metrics'])).join(', ')}]${tc(r)}`);
  else if (r.chance(0.3)) out.push(`${pad}  command:`, `${pad}  - /bin/sh`, `${pad}  - -c`, `${pad}  - |`, `${pad}    set -e`, `${pad}    echo "${words(r, 2, 6)}" # not a comment`, `${pad}    exec /app --config /etc/app/config.yaml`);
  out.push(`${pad}  ports:`, `${pad}  - containerPort: ${r.pick([80, 8080, 9090])}${tc(r)}`, `${pad}    name: ${r.pick(['http', "'metrics'", '"grpc"'])}`);
  if (r.chance(0.2)) out.push(`${pad}  - {containerPort: ${r.pick([8443, 9443])}, name: https, protocol: TCP}`);
  if (r.chance(0.6)) {
    out.push(`${pad}  env:`, ...commentLines(r, `${pad}  `));
    for (let i = r.int(1, 5); i > 0; i--) {
      if (r.chance(0.2)) out.push(`${pad}  - name: POD_NS_${i}`, `${pad}    valueFrom:`, `${pad}      fieldRef: {fieldPath: metadata.namespace}`);
      else out.push(`${pad}  - name: ${r.pick(['LOG_LEVEL', 'REGION', 'FEATURES', 'DB_URL', 'TIMEOUT'])}_${i}`, `${pad}    value: ${r.pick(['"info"', "'eu-west-1'", '"a,b,c"', '"30s"', '"true"', "'8080'", '"postgres://db:5432/app?sslmode=require"'])}${tc(r)}`);
    }
  }
  if (r.chance(0.5)) out.push(`${pad}  resources:`, `${pad}    requests: {cpu: ${r.int(1, 8) * 50}m, memory: "${r.int(1, 8) * 64}Mi"}${tc(r)}`, `${pad}    limits:`, `${pad}      memory: ${r.int(1, 8) * 128}Mi`);
  if (r.chance(0.3)) out.push(`${pad}  readinessProbe:`, `${pad}    httpGet: {path: /healthz, port: 8080}`, `${pad}    periodSeconds: ${r.int(5, 30)}`);
  if (r.chance(0.2)) out.push(`${pad}  securityContext:`, `${pad}    runAsNonRoot: true`, `${pad}    capabilities: {drop: [ALL]}`, `${pad}    readOnlyRootFilesystem: yes`);
  return out;
}

function deployment(r, n) {
  const kind = r.chance(0.8) ? 'Deployment' : 'StatefulSet';
  const anchor = r.chance(0.1);
  const m = metadata(r, kind, n, { anchor });
  // The old group each kind was served under: Deployment in extensions/v1beta1, StatefulSet only ever in apps/v1beta1.
  const old = kind === 'Deployment' ? 'extensions/v1beta1' : 'apps/v1beta1';
  const out = [`apiVersion: ${r.chance(0.04) ? old : 'apps/v1'}`, `kind: ${kind}`, ...m.lines, `spec:${tc(r, 0.05)}`,
    `  replicas: ${r.int(1, 5)}${tc(r, 0.2)}`, ...commentLines(r, '  '), '  selector:', '    matchLabels:', `      app.kubernetes.io/name: ${m.name}`,
    '  template:', '    metadata:'];
  out.push(anchor ? `      labels: *labels-${n}` : '      labels:');
  if (!anchor) out.push(...labels(r, '        ', m.name));
  out.push('    spec:', ...commentLines(r, '      '));
  if (r.chance(0.2)) out.push('      nodeSelector:', '        kubernetes.io/os: linux', '      tolerations: [{key: dedicated, operator: Equal, value: "infra", effect: NoSchedule}]');
  out.push('      containers:');
  for (let c = r.int(1, 2); c > 0; c--) out.push(...container(r, '      ', `${m.name.split('-')[0]}-${c}`));
  if (r.chance(0.3)) out.push('      volumes:', '      - name: config', '        configMap:', `          name: ${m.name}-config${tc(r)}`, '      # - name: cache', '      #   emptyDir: {}');
  return out;
}

function service(r, n) {
  const m = metadata(r, 'Service', n);
  const out = ['apiVersion: v1', 'kind: Service', ...m.lines, 'spec:', `  type: ${r.pick(['ClusterIP', 'ClusterIP', '"NodePort"', 'LoadBalancer'])}${tc(r)}`,
    `  selector: {app.kubernetes.io/name: ${m.name}}`, '  ports:'];
  for (let i = r.int(1, 3); i > 0; i--) {
    if (r.chance(0.4)) out.push(`  - {name: port-${i}, port: ${r.pick([80, 443])}, targetPort: ${r.pick([8080, '"http"'])}}`);
    else out.push(`  - name: port-${i}${tc(r)}`, `    port: ${r.pick([80, 443, 8080])}`, `    targetPort: ${r.pick([8080, 'http', "'metrics'"])}`, ...commentLines(r, '    '));
  }
  return out;
}

function configMap(r, n) {
  const m = metadata(r, 'ConfigMap', n);
  const out = ['apiVersion: v1', 'kind: ConfigMap', ...m.lines, 'data:'];
  for (let i = r.int(1, 6); i > 0; i--) out.push(`  key_${i}: ${styled(r, words(r, 1, 5))}${tc(r)}`);
  const block = r.pick(['|', '|-', '|+', '>', '>-', '|2']);
  out.push(`  config.yaml: ${block}`);
  const pad = '    ';
  // The first line sets the block's indentation (with |2 it is given), the others may be deeper.
  out.push(`${pad}${ident(r)}: ${r.int(0, 9)}`);
  for (let i = r.int(3, 25); i > 0; i--) {
    const l = r.int(0, 6);
    if (l === 0) out.push('');
    else if (l === 1) out.push(`${pad}# ${words(r, 2, 8)}`);
    else out.push(`${pad}${'  '.repeat(r.int(0, 2))}${ident(r)}: ${r.pick([`"${words(r, 1, 3)}"`, r.int(0, 999), 'true', `{a: 1}`, `[x, y]`])}`);
  }
  if (block === '|+') out.push('');
  if (r.chance(0.3)) out.push(`  empty_value:${tc(r, 0.5)}`, '  tilde: ~', `  multi: ${words(r, 3, 6)}`, `    ${words(r, 3, 6)}`);
  return out;
}

function secret(r, n) {
  const m = metadata(r, 'Secret', n);
  const out = ['apiVersion: v1', 'kind: Secret', ...m.lines, `type: ${r.pick(['Opaque', 'kubernetes.io/tls'])}`, 'data:'];
  out.push(`  tls.crt: ${b64(r, r.int(400, 1200))}`, `  tls.key: ${b64(r, r.int(100, 600))}`);
  if (r.chance(0.4)) out.push('stringData:', '  ca.pem: |', '    -----BEGIN CERTIFICATE-----', ...Array.from({ length: r.int(4, 12) }, () => `    ${b64(r, 64)}`), '    -----END CERTIFICATE-----');
  return out;
}

function rbac(r, n) {
  const m = metadata(r, 'ClusterRole', n, { ns: false });
  const out = [`apiVersion: rbac.authorization.k8s.io/v1${r.chance(0.05) ? 'beta1' : ''}`, 'kind: ClusterRole', ...m.lines, 'rules:'];
  for (let i = r.int(1, 5); i > 0; i--) {
    out.push(...commentLines(r, ''));
    out.push(`- apiGroups: [${r.pick(['""', '"apps"', "'batch'", 'networking.k8s.io', `${r.pick(GROUPS)}`])}]${tc(r)}`,
      `  resources: [${Array.from({ length: r.int(1, 3) }, () => r.pick(['pods', '"services"', 'deployments', "'configmaps'", 'secrets'])).join(', ')}]`,
      `  verbs: ["get", 'list', watch${r.chance(0.3) ? ', "create", update' : ''}]${tc(r)}`);
  }
  return out;
}

function ingress(r, n) {
  const m = metadata(r, 'Ingress', n);
  const v1 = r.chance(0.8);
  const out = [`apiVersion: networking.k8s.io/${v1 ? 'v1' : 'v1beta1'}`, 'kind: Ingress', ...m.lines, 'spec:',
    `  ingressClassName: ${r.pick(['nginx', '"traefik"'])}`, '  tls:', `  - hosts: [${m.name}.acme.example]`, `    secretName: ${m.name}-tls${tc(r)}`, '  rules:',
    `  - host: "${m.name}.acme.example"`, '    http:', '      paths:'];
  for (let i = r.int(1, 3); i > 0; i--) {
    if (v1) out.push(`      - path: /v${i}${tc(r)}`, '        pathType: Prefix', '        backend:', `          service: {name: ${m.name}, port: {number: 80}}`);
    else out.push(`      - path: /v${i}`, '        backend:', `          serviceName: ${m.name}`, '          servicePort: 80');
  }
  return out;
}

function cronJob(r, n) {
  const m = metadata(r, 'CronJob', n);
  return [`apiVersion: batch/${r.chance(0.7) ? 'v1' : 'v1beta1'}`, 'kind: CronJob', ...m.lines, 'spec:',
    `  schedule: "${r.int(0, 59)} ${r.int(0, 23)} * * *"${tc(r, 0.4)}`, "  concurrencyPolicy: 'Forbid'", '  jobTemplate:', '    spec:',
    '      template:', '        spec:', '          restartPolicy: OnFailure', '          containers:', ...container(r, '          ', 'job')];
}

/** A custom resource of one of the corpus's CRDs (a field the schema lacks now and then). */
function customResource(r, n, crd) {
  const v = r.chance(0.1) && crd.versions.length > 1 ? crd.versions[0] : r.pick(crd.versions.filter((x) => x.served));
  const m = metadata(r, crd.kind, n);
  const out = [`apiVersion: ${crd.group}/${v.name}`, `kind: ${crd.kind}`, ...m.lines, 'spec:'];
  for (const [k, prop] of crd.specProps.slice(0, r.int(2, 8))) out.push(...valueOf(r, k, prop, '  ', 0));
  if (r.chance(0.1)) out.push(`  ${ident(r)}Unknown: ${r.int(1, 9)}`);
  return out;
}

/** A YAML value for a generated schema property, as a person would write it (flow for short lists). */
function valueOf(r, key, prop, pad, depth) {
  if (prop.type === 'object' && prop.properties && depth < 3) {
    const out = [`${pad}${key}:${tc(r, 0.05)}`];
    for (const [k, p] of Object.entries(prop.properties).slice(0, 4)) out.push(...valueOf(r, k, p, `${pad}  `, depth + 1));
    return out;
  }
  if (prop.type === 'array' && prop.items?.properties && depth < 3) {
    const out = [`${pad}${key}:${tc(r, 0.05)}`];
    for (let i = r.int(1, 2); i > 0; i--) {
      const item = [];
      for (const [k, p] of Object.entries(prop.items.properties).slice(0, 3)) item.push(...valueOf(r, k, p, `${pad}  `, depth + 1));
      if (item.length) { item[0] = `${pad}- ${item[0].trimStart()}`; out.push(...item); } else out.push(`${pad}- {}`);
    }
    return out;
  }
  if (prop.type === 'array') return [`${pad}${key}: []`];
  if (prop.anyOf) return [`${pad}${key}: ${r.int(1, 9)}`];
  if (prop.enum) return [`${pad}${key}: ${r.pick(prop.enum)}${tc(r)}`];
  if (prop.type === 'integer') return [`${pad}${key}: ${r.int(0, 100)}`];
  if (prop.type === 'boolean') return [`${pad}${key}: ${r.pick(['true', 'false'])}`];
  if (prop.type === 'object') return [`${pad}${key}: {}`];
  return [`${pad}${key}: ${styled(r, words(r, 1, 3))}${tc(r)}`];
}

// ------------------------------------------------------------------------------------------- CRDs

/**
 * Sizes (characters of YAML schema) drawn to the quantiles of the 703 operator CRD schemas of
 * /work/shared/reference/operators/schemas (read once for these figures, not at run time): min 56 B, median 11.7 KB,
 * p90 138 KB, max 1.2 MB, mean 57 KB.
 */
const SIZE_QUANTILES = [[0, 60], [0.25, 4000], [0.5, 11700], [0.75, 42000], [0.9, 138000], [0.98, 400000], [1, 1200000]];
function schemaSize(r) {
  const u = r.next();
  for (let i = 1; i < SIZE_QUANTILES.length; i++) {
    const [q1, s1] = SIZE_QUANTILES[i], [q0, s0] = SIZE_QUANTILES[i - 1];
    if (u <= q1) return Math.round(s0 * (s1 / s0) ** ((u - q0) / (q1 - q0)));
  }
  return SIZE_QUANTILES.at(-1)[1];
}

/** A schema object of about `budget` characters once written: nested properties with descriptions (about half the text). */
function genSchema(r, budget, depth = 0) {
  const props = {};
  let used = 0;
  while (used < budget) {
    const k = ident(r);
    if (props[k]) { used += 10; continue; }
    const desc = Array.from({ length: r.int(1, 4) }, () => sentence(r)).join(' ');
    const roll = r.next();
    let p;
    if (roll < 0.18 && depth < 8 && budget - used > 600) {
      const sub = Math.min(budget - used, r.int(300, Math.max(400, (budget - used) / 2)));
      p = { description: desc, type: 'object', properties: genSchema(r, sub, depth + 1).properties };
      if (r.chance(0.2)) p.required = [Object.keys(p.properties)[0]];
      used += sub;
    } else if (roll < 0.28 && depth < 8 && budget - used > 600) {
      const sub = Math.min(budget - used, r.int(300, Math.max(400, (budget - used) / 3)));
      p = { description: desc, type: 'array', items: { type: 'object', properties: genSchema(r, sub, depth + 1).properties }, 'x-kubernetes-list-type': 'atomic' };
      used += sub;
    } else if (roll < 0.38) p = { description: desc, type: 'string', enum: Array.from({ length: r.int(2, 6) }, () => cap(r.pick(WORDS)) + r.int(0, 99)) };
    else if (roll < 0.48) p = { description: desc, type: 'integer', format: 'int32', ...(r.chance(0.3) ? { minimum: 0 } : {}) };
    else if (roll < 0.55) p = { description: desc, type: 'boolean' };
    else if (roll < 0.6) p = { description: desc, type: 'object', additionalProperties: { type: 'string' } };
    else if (roll < 0.63) p = { description: desc, 'x-kubernetes-int-or-string': true, anyOf: [{ type: 'integer' }, { type: 'string' }], pattern: '^(\\+|-)?(([0-9]+(\\.[0-9]*)?)|(\\.[0-9]+))$' };
    else if (roll < 0.65) p = { description: desc, type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
    else p = { description: desc, type: 'string', ...(r.chance(0.1) ? { maxLength: 253 } : {}) };
    props[k] = p;
    used += 40 + desc.length + k.length;
  }
  return { type: 'object', properties: props };
}

/** Writes a schema as controller-gen does (block keys, `|-` or multi-line plain descriptions, `- a` enums). */
function writeSchema(r, node, pad, out) {
  for (const [k, v] of Object.entries(node)) {
    if (k === 'description') {
      if (v.length > 60 && r.chance(0.6)) {
        out.push(`${pad}description: |-`);
        const ws = v.split(' ');
        for (let i = 0; i < ws.length; i += 12) out.push(`${pad}  ${ws.slice(i, i + 12).join(' ')}`);
      } else if (v.length > 60) {
        const ws = v.split(' ');
        out.push(`${pad}description: ${ws.slice(0, 10).join(' ')}`);
        for (let i = 10; i < ws.length; i += 12) out.push(`${pad}  ${ws.slice(i, i + 12).join(' ')}`);
      } else out.push(`${pad}description: ${v}`);
    } else if (Array.isArray(v)) {
      out.push(`${pad}${k}:`);
      for (const x of v) {
        if (x && typeof x === 'object') { const sub = []; writeSchema(r, x, `${pad}  `, sub); sub[0] = `${pad}- ${sub[0].trimStart()}`; out.push(...sub); } else out.push(`${pad}- ${x}`);
      }
    } else if (v && typeof v === 'object') {
      out.push(`${pad}${k}:`);
      writeSchema(r, v, `${pad}  `, out);
    } else out.push(`${pad}${k}: ${typeof v === 'string' && /^[\^\\]|[:#]/.test(v) ? `'${v.replace(/'/g, "''")}'` : v}`);
  }
}

function makeCrd(r, i) {
  const group = GROUPS[i % GROUPS.length];
  const kind = `${cap(r.pick(WORDS))}${cap(r.pick(WORDS))}${i}`;
  const plural = `${kind.toLowerCase()}s`;
  const size = schemaSize(r);
  const spec = genSchema(r, Math.max(40, size * 0.45));
  const nv = r.int(1, 3);
  const names = ['v1alpha1', 'v1beta1', 'v1'].slice(3 - nv);
  // Now and then the oldest version is no longer served (custom resources at it are the finding).
  const versions = names.map((name, j) => ({ name, served: !(j === 0 && nv > 1 && r.chance(0.3)), storage: j === nv - 1 }));
  return { group, kind, plural, versions, spec, specProps: Object.entries(spec.properties) };
}

function crdDoc(r, crd) {
  const out = ['# Generated by a CRD generator. DO NOT EDIT.', 'apiVersion: apiextensions.k8s.io/v1', 'kind: CustomResourceDefinition', 'metadata:',
    '  annotations:', `    controller-gen.kubebuilder.io/version: v0.${r.int(10, 16)}.0`, `  name: ${crd.plural}.${crd.group}`, 'spec:', `  group: ${crd.group}`,
    '  names:', `    kind: ${crd.kind}`, `    listKind: ${crd.kind}List`, `    plural: ${crd.plural}`, `    singular: ${crd.kind.toLowerCase()}`,
    `  scope: ${r.pick(['Namespaced', 'Cluster'])}`, '  versions:'];
  for (const v of crd.versions) {
    out.push(`  - name: ${v.name}`, '    additionalPrinterColumns:', '    - jsonPath: .metadata.creationTimestamp', '      name: Age', '      type: date',
      '    schema:', '      openAPIV3Schema:');
    const schema = { description: sentence(r), type: 'object', properties: { apiVersion: { type: 'string' }, kind: { type: 'string' }, metadata: { type: 'object' }, spec: { ...crd.spec, description: sentence(r) }, status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } };
    writeSchema(r, schema, '        ', out);
    out.push(`    served: ${v.served}`, `    storage: ${v.storage}`, '    subresources:', '      status: {}');
  }
  return out;
}

// ------------------------------------------------------------------------------------------- bundle

const MIX = [[30, deployment], [18, service], [16, configMap], [5, secret], [8, rbac], [10, ingress], [6, cronJob]];
const TOTAL = MIX.reduce((s, [w]) => s + w, 0);
function plainDoc(r, n) {
  let x = r.next() * TOTAL;
  for (const [w, g] of MIX) { if ((x -= w) < 0) return g(r, n); }
  return MIX[0][1](r, n);
}

/**
 * A bundle of `n` documents. `crds`: about 65 CRDs of real size (7.5 MB or so, one schema per version) and 1,200 custom resources of them among
 * the documents, in the order vendored bundles keep them (a CRD, then its resources now and then later). `crlf`: CRLF
 * line breaks. `salt`: one comment line per document differs (a text no parse cache has seen, same findings).
 */
export function realManifest(n, { crds = false, seed = 29, crlf = false, salt = 0 } = {}) {
  const r = rng(seed);
  const docs = [];
  const defs = [];
  const nCrd = crds ? Math.round(n * 0.013) : 0;
  const nCr = crds ? Math.round(n * 0.24) : 0;
  for (let i = 0; i < nCrd; i++) defs.push(makeCrd(r, i));
  let c = 0, cr = 0;
  for (let i = 0; i < n; i++) {
    let lines;
    // CRDs spread over the first half, custom resources after their CRD.
    if (c < nCrd && (i * nCrd) / (n / 2) >= c) lines = crdDoc(r, defs[c++]);
    else if (cr < nCr && c > 0 && r.chance(nCr / (n - i))) { lines = customResource(r, i, defs[r.int(0, c - 1)]); cr++; } else lines = plainDoc(r, i);
    const head = [];
    if (r.chance(0.25)) head.push(`# Source: ${r.pick(APPS)}/templates/${r.pick(['deployment', 'service', 'rbac', 'config'])}.yaml`);
    if (salt) head.push(`# salt ${salt}-${i}`);
    const tail = r.chance(0.05) ? [`# ${words(r, 3, 8)}`, ''] : [];
    docs.push([...head, ...lines, ...tail].join('\n'));
  }
  const text = `# ${words(r, 4, 9)}\n---\n${docs.join('\n---\n')}\n`;
  return crlf ? text.replace(/\n/g, '\r\n') : text;
}

/** The documents of a bundle one by one (for tests that compare parsers document by document). */
export function realDocuments(n, opts) {
  return realManifest(n, opts).split(/\r?\n---\r?\n/);
}
