// The big bundle of issue #18 item 5: one manifest file of 12,000 short documents (about 3.5 MB, 120,000 lines),
// most of them with a finding against the window 1.18..1.21: about 8,000 findings, far over the 1,000 diagnostics
// per file that VS Code shows. Deterministic (a pure function of its seed), like bench/corpus.mjs; `salt` changes
// one comment line per document and nothing else, so the text is new to the parse cache and the findings stay.
//
//   node bench/bundle.mjs [docs] > bundle.yaml     writes one (the UI suite and people trying it use this)
import { rng } from './corpus.mjs';

const TEAMS = ['platform', 'payments', 'edge', 'data', 'ops', 'identity'];
const IMAGES = ['nginx:1.25.3', 'redis:7.2-alpine', 'busybox:1.36', 'python:3.12-slim'];

/** [weight, generator]: each gives the lines of one document (no `---`), 7–14 lines. */
const MIX = [
  // k8s/removed-api (error): no version of 1.18..1.21 serves extensions/v1beta1 DaemonSet.
  [22, (r, n) => ['apiVersion: extensions/v1beta1', 'kind: DaemonSet', ...meta(r, n, 'ds'), 'spec:', '  template:', '    spec:', '      containers:', `        - name: agent-${n}`, `          image: ${r.pick(IMAGES)}`]],
  // k8s/deprecated-api (warning): networking.k8s.io/v1beta1 Ingress, batch/v1beta1 CronJob, policy/v1beta1 PodDisruptionBudget.
  [16, (r, n) => ['apiVersion: networking.k8s.io/v1beta1', 'kind: Ingress', ...meta(r, n, 'ing'), 'spec:', '  backend:', `    serviceName: svc-${n}`, `    servicePort: ${r.pick([80, 8080])}`]],
  [12, (r, n) => ['apiVersion: batch/v1beta1', 'kind: CronJob', ...meta(r, n, 'cron'), 'spec:', `  schedule: "${r.int(0, 59)} * * * *"`, '  jobTemplate:', '    spec:', '      template:', '        spec:', '          restartPolicy: OnFailure', '          containers:', `            - name: job-${n}`, `              image: ${r.pick(IMAGES)}`]],
  [14, (r, n) => ['apiVersion: policy/v1beta1', 'kind: PodDisruptionBudget', ...meta(r, n, 'pdb'), 'spec:', `  minAvailable: ${r.int(1, 3)}`, '  selector:', '    matchLabels:', `      app: app-${n}`]],
  // Clean documents.
  [20, (r, n) => ['apiVersion: v1', 'kind: ConfigMap', ...meta(r, n, 'cm'), 'data:', `  region: ${r.pick(['eu-west-1', 'us-east-2'])}`, `  level: ${r.pick(['info', 'debug'])}`]],
  [16, (r, n) => ['apiVersion: v1', 'kind: Service', ...meta(r, n, 'svc'), 'spec:', '  selector:', `    app: app-${n}`, '  ports:', `    - port: ${r.pick([80, 443, 8080])}`]],
];
const TOTAL = MIX.reduce((s, [w]) => s + w, 0);

function meta(r, n, kind) {
  return ['metadata:', `  name: ${kind}-${n}`, `  namespace: ${r.pick(TEAMS)}`, '  labels:', `    app.kubernetes.io/name: ${kind}-${n}`, `    app.kubernetes.io/part-of: ${r.pick(TEAMS)}`];
}

/** One document's lines. */
function bundleDoc(r, n, salt) {
  let x = r.next() * TOTAL;
  let gen = MIX[MIX.length - 1][1];
  for (const [w, g] of MIX) { if ((x -= w) < 0) { gen = g; break; } }
  return [`# bundle document ${n} (salt ${salt})`, ...gen(r, n)];
}

/** The bundle: `docs` documents joined by `---` lines. */
export function bundleFile(docs = 12000, { seed = 18, salt = 0 } = {}) {
  const r = rng(seed);
  const parts = [];
  for (let n = 0; n < docs; n++) parts.push(bundleDoc(r, n, salt).join('\n') + '\n');
  return parts.join('---\n');
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(bundleFile(Number(process.argv[2]) || 12000));
