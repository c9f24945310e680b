// Real rendering of Helm charts, once per (chart, step), when the user asked for it (lsp-lint --helm-render,
// helm.render in .skewguard.yaml) in a trusted workspace. It runs a process, so it is the Helm family's server side
// (./index.ts), never the engine's; the engine gets the result as AnalyzeInput.helmRenders (../rendered.ts).
//
// The trap: plain `helm template` answers .Capabilities.APIVersions from its own fixed list (every group/version its
// client library knows, no kinds: chartutil.DefaultVersionSet) and --api-versions only adds to that list (Helm 3,
// pkg/action/install.go, the ClientOnly branch). So `Has "policy/v1beta1"` is true at every step and
// `Has "policy/v1beta1/PodSecurityPolicy"` is false at every step. A faithful render must answer Has with exactly
// what the step serves. Helm does that when it talks to a cluster: pkg/action/action.go getCapabilities() reads
// /version and the discovery documents (GetVersionSet: every "group/version" and every "group/version/Kind"). So each
// step gets its own API server: a loopback-only fake (127.0.0.1, started here, closed after the render) that answers
// discovery with exactly what that minor serves (families/kubernetes/data/served.ts) and 404 to everything else, with a
// temporary kubeconfig pointing at it, and `helm template --validate`. Helm then builds Capabilities with its own
// code. --validate would also map every rendered document to a served resource and fail on one that is not served
// (exactly the documents skewguard must see), so a post-renderer (our node, a script in the temp folder) takes the
// rendered manifests to a file and gives Helm an empty manifest back; hooks are printed on stdout as usual.
//
// Never network beyond that loopback server: no dependency update, no repository fetch (a chart whose charts/ lacks
// a dependency is not rendered, with Helm's reason), HOME, HELM_CACHE_HOME, HELM_CONFIG_HOME, HELM_DATA_HOME,
// HELM_PLUGINS and KUBECONFIG all point into a temporary folder, and no proxy variables are passed. Every wait is
// bounded: a render that fails, times out or prints too much is reported as not rendered, with why.
import * as fs from 'node:fs';
import { readFileUpTo, readTextUpTo } from '../../../../shared/bounded-read';
import { MAX_FILE_BYTES } from '../../../../shared/limits';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { nodeChildProcess as childProcess, nodeCrypto, nodeHttp as http } from '../../../../shared/lazy-node';
import { servedAt } from '../../kubernetes/data/served';
import { parseVersion } from '../template/semver';
import type { ChartRender, ChartEmission } from '../rendered';
import { chartRootOf, looksLikeChartFile } from './chart-root';
import { insideAny, isExecutable, resolveExecutable } from '../../../../shared/executable';

// node:http, node:crypto and node:child_process are loaded when a chart is first rendered (or hashed), not at every
// server start (shared/lazy-node.ts): most runs never render (it is opt-in).
const createHash = (algorithm: string) => nodeCrypto().createHash(algorithm);

export type { ChartRender, ChartEmission };

/** The error of a render dropped before it started because the chart changed again. */
export const SUPERSEDED = 'superseded: the chart changed before it was rendered';

/** Time one render may take (Helm's own start-up included). */
export const RENDER_TIMEOUT_MS = 30_000;
/** Output of one render beyond this is not read: the render is reported as not rendered. */
const MAX_OUTPUT_BYTES = 64 * 1024 * 1024;
/** A chart bigger than this (files or bytes) is not copied nor rendered. */
const MAX_CHART_FILES = 5000;
const MAX_CHART_BYTES = 64 * 1024 * 1024;

// ---- finding Helm ----

export interface HelmFound { path?: string; looked: string[]; /** Why a configured Helm was not used (inside an untrusted workspace). */ refused?: string }

/**
 * The Helm binary: the configured path (absolute, or relative to `base`), else `helm` on PATH, resolved to an absolute
 * path outside the workspace (shared/executable.ts: no relative PATH entry, no entry inside a root). A configured path
 * inside a workspace root is refused unless `workspaceTrusted` (the user trusted the workspace's content): `refused`
 * says why.
 */
export function findHelm(configured: string | undefined, base: string, envPath = process.env.PATH ?? '', roots: readonly string[] = [], workspaceTrusted = false): HelmFound {
  if (configured) {
    const p = path.resolve(base, configured);
    if (!workspaceTrusted && insideAny(p, roots)) return { looked: [p], refused: `${p} is inside the workspace, and the workspace is not trusted: a Helm binary of the repository is never run` };
    return { path: isExecutable(p) ? p : undefined, looked: [p] };
  }
  const r = resolveExecutable('helm', workspaceTrusted ? [] : roots, envPath);
  const looked = [...r.looked, ...r.skipped.map((x) => `not ${x}`)];
  if (!looked.length) looked.push('PATH (empty)');
  return { ...(r.path ? { path: r.path } : {}), looked };
}

/** An environment for Helm that knows nothing of the user's Helm or Kubernetes set-up, and has no proxy. */
function isolatedEnv(home: string, kubeconfig: string): NodeJS.ProcessEnv {
  return {
    HOME: home, USERPROFILE: home, TMPDIR: home, TMP: home, TEMP: home,
    HELM_CACHE_HOME: path.join(home, 'cache'), HELM_CONFIG_HOME: path.join(home, 'config'), HELM_DATA_HOME: path.join(home, 'data'),
    HELM_PLUGINS: path.join(home, 'plugins'), HELM_REGISTRY_CONFIG: path.join(home, 'registry.json'),
    HELM_REPOSITORY_CONFIG: path.join(home, 'repositories.yaml'), HELM_REPOSITORY_CACHE: path.join(home, 'repository'),
    KUBECONFIG: kubeconfig, NO_PROXY: '127.0.0.1,localhost', no_proxy: '127.0.0.1,localhost',
    // The post-renderer is our own node binary: in VS Code that is Electron, which must be told to act as node.
    ELECTRON_RUN_AS_NODE: '1',
    ...(process.platform === 'win32' && process.env.SystemRoot ? { SystemRoot: process.env.SystemRoot } : {}),
  };
}

/** `helm version --template {{.Version}}`, bounded. */
export function helmVersion(bin: string, timeoutMs = 15_000): Promise<string> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-helm-'));
  return new Promise<string>((resolve, reject) => {
    childProcess().execFile(bin, ['version', '--template', '{{.Version}}'], { cwd: home, env: isolatedEnv(home, path.join(home, 'kubeconfig')), timeout: timeoutMs, killSignal: 'SIGKILL', maxBuffer: 64 * 1024, windowsHide: true }, (err, stdout, stderr) => {
      fs.rmSync(home, { recursive: true, force: true });
      if (err) reject(new Error(`${bin} version failed: ${(String(stderr).trim() || err.message).slice(0, 500)}`));
      else resolve(String(stdout).trim());
    });
  });
}

/** Helm 3.10 or newer (post-renderer arguments); Helm 4 changed post-renderers to plugins. */
export function helmVersionProblem(v: string): string | undefined {
  // Helm's own version is a semantic version (Masterminds/semver, as chart constraints are read), not a Kubernetes one.
  const m = parseVersion(v.trim());
  if (typeof m === 'string') return `Helm version "${v}" not understood`;
  if (m.major !== 3n || m.minor < 10n) return `Helm ${v} is not supported for rendering: skewguard needs Helm 3.10 or newer 3.x`;
  return undefined;
}

// ---- the per-step API server ----

/** A resource name (plural) for a kind, for discovery only: Capabilities never look at it. */
export function pluralOf(kind: string): string {
  const k = kind.toLowerCase();
  if (/(s|x|z|ch|sh)$/.test(k)) return k.endsWith('endpoints') ? k : `${k}es`;
  if (/[^aeiou]y$/.test(k)) return `${k.slice(0, -1)}ies`;
  return `${k}s`;
}

export interface FakeApiServer { port: number; calls: string[]; close(): Promise<void> }

/**
 * Discovery as kube-apiserver of `minor` answers it (legacy discovery documents, which client-go accepts when the
 * server does not offer the aggregated form): /version, /api, /apis, /api/v1, /apis/<group>/<version>. Everything
 * else is 404 (a GET) or 405. Bound to 127.0.0.1 only.
 */
export function startFakeApiServer(minor: string, served = servedAt(minor)): Promise<FakeApiServer> {
  const calls: string[] = [];
  const [major, min] = minor.split('.');
  const groups = new Map<string, string[]>();
  for (const gv of [...served.groupVersions].sort()) {
    const i = gv.indexOf('/');
    const g = i < 0 ? '' : gv.slice(0, i);
    const v = i < 0 ? gv : gv.slice(i + 1);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(v);
  }
  const rank = (v: string) => { const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v); return m ? Number(m[1]) * 1000 - (m[2] === 'alpha' ? 600 : m[2] === 'beta' ? 300 : 0) + Number(m[3] ?? 0) : 0; };
  for (const vs of groups.values()) vs.sort((a, b) => rank(b) - rank(a));
  const resources = (gv: string) => [...(served.kinds.get(gv) ?? [])].sort().map((kind) => ({
    name: pluralOf(kind), singularName: kind.toLowerCase(), namespaced: true, kind, verbs: ['get', 'list'],
  }));
  const server = http().createServer((req, res) => {
    const url = (req.url ?? '/').split('?')[0];
    calls.push(`${req.method} ${url}`);
    const send = (code: number, body: unknown) => {
      const s = JSON.stringify(body);
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(s) });
      res.end(s);
    };
    const status = (code: number, reason: string) => send(code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', reason, code, message: `${reason}: ${url}` });
    req.resume();
    if (req.method !== 'GET') return status(405, 'MethodNotAllowed');
    if (url === '/version') return send(200, { major, minor: min, gitVersion: `v${minor}.0`, gitCommit: '', gitTreeState: 'clean', buildDate: '', goVersion: '', compiler: 'gc', platform: 'linux/amd64' });
    if (url === '/api') return send(200, { kind: 'APIVersions', versions: groups.get('') ?? [], serverAddressByClientCIDRs: [] });
    if (url === '/apis') {
      return send(200, {
        kind: 'APIGroupList', apiVersion: 'v1',
        groups: [...groups].filter(([g]) => g !== '').map(([g, vs]) => ({
          name: g, versions: vs.map((v) => ({ groupVersion: `${g}/${v}`, version: v })), preferredVersion: { groupVersion: `${g}/${vs[0]}`, version: vs[0] },
        })),
      });
    }
    const m = /^\/(?:api\/([^/]+)|apis\/([^/]+)\/([^/]+))$/.exec(url);
    if (m) {
      const gv = m[1] ?? `${m[2]}/${m[3]}`;
      if (!served.groupVersions.has(gv)) return status(404, 'NotFound');
      return send(200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: gv, resources: resources(gv) });
    }
    return status(404, 'NotFound');
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      resolve({
        port, calls,
        close: () => new Promise<void>((r) => { server.closeAllConnections?.(); server.close(() => r()); }),
      });
    });
  });
}

const kubeconfigFor = (port: number) => `apiVersion: v1
kind: Config
clusters:
- name: skewguard-step
  cluster:
    server: http://127.0.0.1:${port}
contexts:
- name: skewguard-step
  context:
    cluster: skewguard-step
    user: skewguard-step
    namespace: default
current-context: skewguard-step
users:
- name: skewguard-step
  user: {}
`;

const POST_RENDERER = `'use strict';
const fs = require('fs');
const chunks = [];
process.stdin.on('data', (c) => chunks.push(c));
process.stdin.on('end', () => { fs.writeFileSync(process.argv[2], Buffer.concat(chunks)); });
`;

/**
 * The post-renderer: it writes what Helm gives it to `out` and gives back nothing. /bin/sh with cat where they are (a
 * node start-up costs more than the rest of a render), else our own node with a small script.
 */
function postRenderer(tmp: string, out: string, node?: string): { bin: string; args: string[] } {
  const cat = ['/bin/cat', '/usr/bin/cat'].find(isExecutable);
  if (!node && process.platform !== 'win32' && isExecutable('/bin/sh') && cat) return { bin: '/bin/sh', args: ['-c', 'exec "$0" > "$1"', cat, out] };
  const script = path.join(tmp, 'post-render.cjs');
  fs.writeFileSync(script, POST_RENDERER);
  return { bin: node ?? process.execPath, args: [script, out] };
}

// ---- one render ----

export interface RenderOptions {
  helm: string;
  helmVersion: string;
  /** Values files (absolute paths), in order, as `-f`. */
  values?: string[];
  timeoutMs?: number;
  /** Template texts to use instead of the disk's (open editor buffers), by absolute path. */
  overlay?: (file: string) => string | undefined;
  /** Node binary for the post-renderer (default: this process's). */
  node?: string;
}

export interface RawRender { ok: boolean; error?: string; manifests: string; calls: string[] }

/** Runs Helm once, faithful to what `minor` serves; the rendered text (`# Source:` blocks), or why not. */
export async function renderRaw(chartRoot: string, minor: string, opts: RenderOptions): Promise<RawRender> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'skewguard-helm-'));
  let api: FakeApiServer | undefined;
  try {
    api = await startFakeApiServer(minor);
    const kubeconfig = path.join(tmp, 'kubeconfig');
    fs.writeFileSync(kubeconfig, kubeconfigFor(api.port), { mode: 0o600 });
    const out = path.join(tmp, 'manifests.yaml');
    const post = postRenderer(tmp, out, opts.node);
    const chartDir = opts.overlay ? copyChart(chartRoot, path.join(tmp, 'chart', path.basename(chartRoot)), opts.overlay) : chartRoot;
    const args = [
      'template', 'release-name', chartDir, '--namespace', 'default', '--validate', '--disable-openapi-validation',
      '--post-renderer', post.bin, ...post.args.flatMap((a) => ['--post-renderer-args', a]),
      ...(opts.values ?? []).flatMap((v) => ['-f', v]),
    ];
    const run = await runBounded(opts.helm, args, isolatedEnv(tmp, kubeconfig), opts.timeoutMs ?? RENDER_TIMEOUT_MS, tmp);
    if (!run.ok) return { ok: false, error: run.error, manifests: '', calls: api.calls };
    let main = '';
    let size = -1;
    try { size = fs.statSync(out).size; } catch { /* no manifest (only hooks, or nothing): Helm ran no post-renderer */ }
    if (size > MAX_OUTPUT_BYTES) return { ok: false, error: `helm template rendered more than ${MAX_OUTPUT_BYTES >> 20} MB`, manifests: '', calls: api.calls };
    if (size >= 0) main = fs.readFileSync(out, 'utf8');
    return { ok: true, manifests: `${main}\n${run.stdout}`, calls: api.calls };
  } catch (e) {
    return { ok: false, error: (e as Error).message, manifests: '', calls: api?.calls ?? [] };
  } finally {
    await api?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

function runBounded(bin: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number, cwd: string): Promise<{ ok: true; stdout: string } | { ok: false; error: string }> {
  return new Promise((resolve) => {
    let child;
    // In the temporary folder: nothing Helm resolves relative to its working directory is the workspace's.
    try { child = childProcess().spawn(bin, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'], windowsHide: true }); } catch (e) { resolve({ ok: false, error: `cannot run ${bin}: ${(e as Error).message}` }); return; }
    const out: Buffer[] = [], err: Buffer[] = [];
    let size = 0, done = false, why: string | undefined;
    const finish = (r: { ok: true; stdout: string } | { ok: false; error: string }) => { if (!done) { done = true; clearTimeout(timer); resolve(r); } };
    const kill = (reason: string) => { why ??= reason; try { child.kill('SIGKILL'); } catch { /* gone */ } };
    // 'close' waits for the pipes too, which a process Helm started (a post-renderer, a plugin) may hold open after
    // Helm is killed: the timeout settles the render itself, and lets go of the pipes.
    const timer = setTimeout(() => {
      kill(`helm template took longer than ${timeoutMs / 1000} s and was stopped`);
      child.stdout.destroy(); child.stderr.destroy();
      finish({ ok: false, error: why! });
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => { size += c.length; if (size > MAX_OUTPUT_BYTES) kill(`helm template printed more than ${MAX_OUTPUT_BYTES >> 20} MB`); else out.push(c); });
    child.stderr.on('data', (c: Buffer) => { if (err.reduce((n, b) => n + b.length, 0) < 64 * 1024) err.push(c); });
    child.on('error', (e) => finish({ ok: false, error: `cannot run ${bin}: ${e.message}` }));
    child.on('close', (code) => {
      if (why) return finish({ ok: false, error: why });
      if (code !== 0) {
        const msg = Buffer.concat(err).toString('utf8').trim().replace(/^Error: /, '').split('\n').slice(0, 8).join(' ');
        return finish({ ok: false, error: `helm template failed (exit ${code}): ${msg.slice(0, 1000) || 'no message'}` });
      }
      finish({ ok: true, stdout: Buffer.concat(out).toString('utf8') });
    });
  });
}

/** The chart's files (bounded), relative paths sorted; symlinks are not followed. */
export function chartFiles(chartRoot: string): { files: string[]; bytes: number } | { error: string } {
  const files: string[] = [];
  let bytes = 0;
  const walk = (dir: string, rel: string): string | undefined => {
    let entries: fs.Dirent[];
    try { entries = fs.readdirSync(dir, { withFileTypes: true }); } catch (e) { return `cannot read ${dir}: ${(e as Error).message}`; }
    for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) { if (e.name === '.git') continue; const w = walk(path.join(dir, e.name), r); if (w) return w; } else if (e.isFile()) {
        files.push(r);
        try { bytes += fs.statSync(path.join(dir, e.name)).size; } catch { /* gone: hashed as missing */ }
        if (files.length > MAX_CHART_FILES || bytes > MAX_CHART_BYTES) return `the chart is larger than ${MAX_CHART_FILES} files or ${MAX_CHART_BYTES >> 20} MB`;
      }
    }
    return undefined;
  };
  const err = walk(chartRoot, '');
  return err ? { error: err } : { files, bytes };
}

function copyChart(from: string, to: string, overlay: (file: string) => string | undefined): string {
  const list = chartFiles(from);
  if ('error' in list) throw new Error(list.error);
  for (const f of list.files) {
    const dst = path.join(to, ...f.split('/'));
    fs.mkdirSync(path.dirname(dst), { recursive: true });
    const text = overlay(path.join(from, ...f.split('/')));
    if (text !== undefined) fs.writeFileSync(dst, text); else fs.copyFileSync(path.join(from, ...f.split('/')), dst);
  }
  return to;
}

// ---- reading the result back ----

export interface RenderedDoc { template: string; apiVersion?: string; kind?: string }

const SOURCE = /^# Source: (.*)$/m;

/** The documents of Helm's output with the template each came from (`# Source: <chart>/…`, made chart-relative). */
export function parseRendered(text: string): RenderedDoc[] {
  const docs: RenderedDoc[] = [];
  for (const block of text.split(/^---[ \t]*\r?$/m)) {
    const src = SOURCE.exec(block);
    if (!src) continue;
    const full = src[1].trim();
    const template = full.includes('/') ? full.slice(full.indexOf('/') + 1) : full;
    if (/^# HIDDEN:/m.test(block) && !/^\s*apiVersion:/m.test(block)) { docs.push({ template, apiVersion: 'v1', kind: 'Secret' }); continue; }
    // A document of comments only is no document (Helm keeps it; YAML and the evaluator see an empty document).
    if (!block.split(/\r?\n/).some((l) => l.trim() !== '' && !/^\s*#/.test(l))) continue;
    docs.push({ template, apiVersion: topScalar(block, 'apiVersion'), kind: topScalar(block, 'kind') });
  }
  return docs;
}

/** A top-level `key: value` of a rendered document (Helm's output is plain YAML), unquoted. */
function topScalar(block: string, key: string): string | undefined {
  const m = new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*\\r?$`, 'm').exec(block);
  if (!m) return undefined;
  let v = m[1].replace(/[ \t]+#.*$/, '');
  if ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) v = v.slice(1, -1);
  return v || undefined;
}

/**
 * Where each template document's `apiVersion:` keys are, by kind: the template's text split at its top-level `---`
 * lines, each part's literal `kind:` and the lines (0-based) of its top-level `apiVersion:` keys with their literal
 * values (several in the arms of an if/else).
 */
export function templateDocs(text: string): Array<{ kind?: string; apiVersions: Array<{ line: number; value?: string }> }> {
  const out: Array<{ kind?: string; apiVersions: Array<{ line: number; value?: string }> }> = [{ apiVersions: [] }];
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  lines.forEach((l, i) => {
    if (/^---(\s|$)/.test(l)) { out.push({ apiVersions: [] }); return; }
    const cur = out[out.length - 1];
    const a = /^apiVersion[ \t]*:[ \t]*(.*?)[ \t]*$/.exec(l);
    if (a) {
      const v = a[1].replace(/[ \t]+#.*$/, '').replace(/^(["'])(.*)\1$/, '$2');
      cur.apiVersions.push({ line: i, ...(/^[\w./-]+$/.test(v) ? { value: v } : {}) });
    }
    const k = /^kind[ \t]*:[ \t]*["']?([A-Za-z][\w.-]*)["']?[ \t]*(#.*)?$/.exec(l);
    if (k && cur.kind === undefined) cur.kind = k[1];
  });
  return out.filter((d) => d.apiVersions.length || d.kind !== undefined);
}

/** The line of the `apiVersion:` key that gave `apiVersion` (the arm whose literal it is), else the first. */
function apiVersionLine(doc: { apiVersions: Array<{ line: number; value?: string }> } | undefined, apiVersion?: string): number | undefined {
  if (!doc?.apiVersions.length) return undefined;
  return (doc.apiVersions.find((a) => a.value !== undefined && a.value === apiVersion) ?? doc.apiVersions[0]).line;
}

/**
 * Emissions in the template's own order, with their line. Helm prints a release's documents sorted by kind (stably),
 * so documents of one kind keep their template order: the n-th rendered document of kind K is the n-th document of
 * the template whose literal kind is K, when the template has exactly as many of them as Helm rendered. When every
 * rendered document is matched so, `index` is its position in the template's order; when all are of one kind it is
 * Helm's order, which is the same; otherwise -1 (not known) and no line.
 */
export function emissionsOf(docs: RenderedDoc[], readTemplate: (template: string) => string | undefined): ChartEmission[] {
  const byTemplate = new Map<string, RenderedDoc[]>();
  for (const d of docs) { if (!byTemplate.has(d.template)) byTemplate.set(d.template, []); byTemplate.get(d.template)!.push(d); }
  const out: ChartEmission[] = [];
  for (const [template, list] of byTemplate) {
    const text = readTemplate(template);
    const src = text === undefined ? [] : templateDocs(text);
    // The source document each rendered one is, where the kinds say it.
    const match: Array<number | undefined> = list.map((d) => {
      if (src.length === 1 && list.length === 1) return 0;
      if (!d.kind) return undefined;
      const ofKind = src.map((s, i) => ({ s, i })).filter((x) => x.s.kind === d.kind);
      const rendered = list.filter((x) => x.kind === d.kind);
      return ofKind.length === rendered.length ? ofKind[rendered.indexOf(d)].i : undefined;
    });
    const allMatched = match.every((m) => m !== undefined);
    const oneKind = new Set(list.map((d) => d.kind)).size <= 1;
    const order = allMatched ? [...match].sort((a, b) => a! - b!) : [];
    list.forEach((d, pos) => {
      const m = match[pos];
      const index = allMatched ? order.indexOf(m!) : oneKind ? pos : -1;
      const line = m !== undefined && index >= 0 ? apiVersionLine(src[m], d.apiVersion) : undefined;
      out.push({ template, index, apiVersion: d.apiVersion, kind: d.kind, ...(line !== undefined ? { line } : {}) });
    });
  }
  return out;
}

// ---- per chart and step, cached, in parallel up to `jobs` ----

export interface RendererOptions {
  helm: string;
  jobs?: number;
  timeoutMs?: number;
  node?: string;
}

/** Renders charts per step, once per (chart content, values, step), at most `jobs` Helm processes at a time. */
export class HelmRenderer {
  private version?: Promise<string>;
  private readonly cache = new Map<string, Promise<ChartRender>>();
  private running = 0;
  private readonly waiting: Array<() => void> = [];
  constructor(readonly opts: RendererOptions) {}

  helmVersion(): Promise<string> {
    // A failure is not kept: the next render asks again (a busy machine may have timed it out).
    return (this.version ??= helmVersion(this.opts.helm).catch((e) => { this.version = undefined; throw e; }));
  }

  /**
   * The chart's renders at each step (cached; a chart whose content changed is rendered again; a step that failed
   * is not kept once it settled). `stale`: asked before a queued render starts; true (the chart changed again meanwhile, in an editor) drops it as
   * superseded, not cached.
   */
  async render(chartRoot: string, steps: string[], values: string[] = [], overlay?: (file: string) => string | undefined, progress?: (chartRoot: string, step: string, ok: boolean) => void, stale?: () => boolean): Promise<ChartRender[]> {
    let version: string;
    try { version = await this.helmVersion(); } catch (e) {
      return steps.map((step) => ({ chartRoot, step, ok: false, error: (e as Error).message, emissions: [], helmVersion: 'unknown' }));
    }
    const problem = helmVersionProblem(version);
    if (problem) return steps.map((step) => ({ chartRoot, step, ok: false, error: problem, emissions: [], helmVersion: version }));
    const key = contentKey(chartRoot, values, overlay);
    if ('error' in key) return steps.map((step) => ({ chartRoot, step, ok: false, error: key.error, emissions: [], helmVersion: version }));
    return Promise.all(steps.map((step) => {
      const k = `${this.opts.helm}\0${version}\0${chartRoot}\0${key.hash}\0${step}`;
      let p = this.cache.get(k);
      if (!p) {
        p = this.slot(() => this.renderStep(chartRoot, step, values, version, key.overlaid ? overlay : undefined), () => {
          if (!stale?.()) return undefined;
          this.cache.delete(k);
          return { chartRoot, step, ok: false, error: SUPERSEDED, emissions: [], helmVersion: version };
        });
        if (progress) void p.then((r) => progress(chartRoot, step, r.ok));
        // A failed step is shared while it runs, not kept after: HelmService reuses it for a while (failedTtlMs).
        const mine = p;
        void p.then((r) => { if (!r.ok && this.cache.get(k) === mine) this.cache.delete(k); });
        if (this.cache.size > 512) this.cache.delete(this.cache.keys().next().value!);
        this.cache.set(k, p);
      }
      return p;
    }));
  }

  /** Never rejects: whatever fails is this step's `ok: false`, with why (a file waiting for it must not wait forever). */
  private async renderStep(chartRoot: string, step: string, values: string[], version: string, overlay?: (file: string) => string | undefined): Promise<ChartRender> {
    try { return await this.renderStepUnguarded(chartRoot, step, values, version, overlay); } catch (e) {
      return { chartRoot, step, ok: false, error: `internal error while rendering: ${(e as Error)?.message ?? String(e)}`, emissions: [], helmVersion: version };
    }
  }

  private async renderStepUnguarded(chartRoot: string, step: string, values: string[], version: string, overlay?: (file: string) => string | undefined): Promise<ChartRender> {
    const raw = await renderRaw(chartRoot, step, { helm: this.opts.helm, helmVersion: version, values, timeoutMs: this.opts.timeoutMs, overlay, node: this.opts.node });
    if (!raw.ok) return { chartRoot, step, ok: false, error: raw.error, emissions: [], helmVersion: version };
    const read = (template: string) => {
      const f = path.join(chartRoot, ...template.split('/'));
      const o = overlay?.(f);
      if (o !== undefined) return o;
      return readTextUpTo(f, MAX_FILE_BYTES);
    };
    return { chartRoot, step, ok: true, emissions: emissionsOf(parseRendered(raw.manifests), read), helmVersion: version };
  }

  private async slot<T>(fn: () => Promise<T>, instead?: () => T | undefined): Promise<T> {
    const jobs = Math.max(1, this.opts.jobs ?? 1);
    while (this.running >= jobs) await new Promise<void>((r) => this.waiting.push(r));
    const skip = instead?.();
    if (skip !== undefined) { this.waiting.shift()?.(); return skip; }
    this.running++;
    try { return await fn(); } finally { this.running--; this.waiting.shift()?.(); }
  }
}

/** A hash of the chart's files (with open buffers over them) and the values files. */
function contentKey(chartRoot: string, values: string[], overlay?: (file: string) => string | undefined): { hash: string; overlaid: boolean } | { error: string } {
  const list = chartFiles(chartRoot);
  if ('error' in list) return list;
  const h = createHash('sha256');
  let overlaid = false;
  for (const f of list.files) {
    const abs = path.join(chartRoot, ...f.split('/'));
    const o = overlay?.(abs);
    let body: Buffer | string;
    const r = readFileUpTo(abs, MAX_FILE_BYTES);
    body = 'bytes' in r ? r.bytes : 'over' in r ? '\0over' : '\0missing';
    if (o !== undefined && (typeof body === 'string' || o !== body.toString('utf8'))) { body = o; overlaid = true; }
    h.update(f).update('\0').update(body).update('\0');
  }
  for (const v of values) { h.update(`values:${v}\0`); const r = readFileUpTo(v, MAX_FILE_BYTES); h.update('bytes' in r ? r.bytes : 'over' in r ? '\0over' : '\0missing'); }
  return { hash: h.digest('hex'), overlaid };
}

// ---- the server's use of it: which chart a file is in, whether and how it was rendered ----

/** How a chart was read, for the report (`helm` fact of each file of a chart; --print-config). */
export interface HelmRead {
  chart: string;
  /** helm: every step rendered; helm+evaluator: some steps rendered (notRendered says which not, and why); evaluator: none. */
  readBy: 'helm' | 'helm+evaluator' | 'evaluator';
  /** Why not (all) by Helm. */
  why?: string;
  helm?: string;
  helmVersion?: string;
  rendered?: string[];
  notRendered?: Array<{ step: string; error: string }>;
}

export { chartRootOf, looksLikeChartFile } from './chart-root';

export interface HelmServiceOptions {
  jobs: number;
  /** Told once per render that finishes (lsp-lint's stall timer). */
  progress?: (chartRoot: string, step: string, ok: boolean) => void;
  timeoutMs?: number;
  node?: string;
  /**
   * How long a render that failed at some step is reused (default 60 s): long enough for the re-checks of one run,
   * short enough that a failure that goes away (a timeout under load, Helm installed or fixed) is rendered again
   * although the chart did not change. Successful renders are kept until the chart changes.
   */
  failedTtlMs?: number;
}

/** See HelmServiceOptions.failedTtlMs. */
export const FAILED_RENDER_TTL_MS = 60_000;

export interface HelmConfig {
  render: boolean;
  /** fromRepo: named by the repository (.skewguard.yaml), not by the user (a flag, the user's settings). */
  path?: {
    value: string; base?: string; fromRepo?: boolean; /** Named on lsp-lint's command line (--helm-path): run wherever it is. */ named?: boolean;
    /** The user's setting (relative to the root) that a refused repository path (fromRepo, untrusted) gives way to. */
    user?: string;
  };
  values: { files: string[]; base?: string };
}

/** Renders for the server: per (chart, step) once, results kept for the files of the chart. */
export class HelmService {
  /**
   * Whether Helm may be run at all: only on a positive trust signal (VS Code's workspace trust; for other clients
   * initializationOptions.workspaceTrusted: true; lsp-lint --helm-render). Never .skewguard.yaml alone.
   */
  trusted = false;
  /** The signal said not trusted (VS Code's Restricted Mode), rather than nothing at all. */
  restricted = false;
  /**
   * Whether the workspace's content is trusted (VS Code's workspace trust, initializationOptions.workspaceTrusted:
   * true): only then is a Helm named by .skewguard.yaml, or one inside a workspace root, run.
   */
  workspaceTrusted = false;
  /** The workspace roots: no Helm inside them is run unless workspaceTrusted. */
  workspaceRoots: () => readonly string[] = () => [];
  private readonly renderers = new Map<string, HelmRenderer>();
  private readonly found = new Map<string, HelmFound>();
  private readonly roots = new Map<string, string | undefined>();
  private readonly settled = new Map<string, ChartRender[]>();
  /** When a settled render with a failed step stops being reused (see HelmServiceOptions.failedTtlMs). */
  private readonly failedUntil = new Map<string, number>();
  /** The newest render asked for, per chart: older ones still queued are dropped. */
  private readonly latest = new Map<string, string>();
  constructor(private readonly opts: HelmServiceOptions) {}

  /** Files or the configuration changed: look for charts and Helm again (renders stay cached by content). */
  reset(): void { this.found.clear(); this.roots.clear(); }

  chartOf(file: string): string | undefined {
    if (!looksLikeChartFile(file)) return undefined;
    const dir = path.dirname(file);
    if (this.roots.has(dir)) return this.roots.get(dir);
    const r = chartRootOf(file);
    if (this.roots.size > 20_000) this.roots.clear();
    this.roots.set(dir, r);
    return r;
  }

  /** The Helm binary the configuration names (or helm on PATH), and where it was looked for. */
  binary(helm: HelmConfig, root: string): HelmFound {
    const key = `${helm.path?.value ?? ''}\0${helm.path?.base ?? root}\0${helm.path?.fromRepo ? 1 : 0}${helm.path?.named ? 1 : 0}\0${this.workspaceTrusted ? 1 : 0}\0${helm.path?.user ?? ''}\0${root}`;
    let f = this.found.get(key);
    if (!f) {
      const roots = [...this.workspaceRoots(), root];
      if (helm.path?.fromRepo && !this.workspaceTrusted) {
        const p = path.resolve(helm.path.base ?? root, helm.path.value);
        // The user's own setting wins over a repository path that is refused (it is looked up as it is without one).
        if (helm.path.user) {
          const u = findHelm(helm.path.user, root, process.env.PATH ?? '', roots, false);
          f = { ...u, looked: [`not ${p} (helm.path of .skewguard.yaml: the workspace is not trusted)`, ...u.looked] };
        } else f = { looked: [p], refused: `helm.path of .skewguard.yaml (${p}) is not run: the workspace is not trusted, and a repository never chooses the program skewguard runs (name Helm with lsp-lint --helm-path, or the user setting skewguard.helm.path)` };
      } else f = findHelm(helm.path?.value, helm.path?.base ?? root, process.env.PATH ?? '', roots, this.workspaceTrusted || !!helm.path?.named);
      this.found.set(key, f);
    }
    return f;
  }

  /**
   * What the engine gets for `file`: the chart's renders at `steps` when they are done; `pending` when they are being
   * made (it settles, never rejects, when they are); `read` for the report.
   */
  request(file: string, helm: HelmConfig, steps: string[], root: string, overlay: (f: string) => string | undefined, start = true): { renders?: ChartRender[]; read?: HelmRead; pending?: Promise<void> } {
    const chart = this.chartOf(file);
    if (!chart) return {};
    if (!helm.render) return { read: { chart, readBy: 'evaluator', why: 'Helm rendering is off (--helm-render, helm.render: true in .skewguard.yaml)' } };
    if (!this.trusted) {
      return { read: { chart, readBy: 'evaluator', why: this.restricted ? 'the workspace is not trusted (Restricted Mode): Helm is never run'
        : 'the workspace is not trusted: Helm is run only when the user trusts it (VS Code workspace trust, initializationOptions.workspaceTrusted: true, lsp-lint --helm-render), never on .skewguard.yaml alone' } };
    }
    const bin = this.binary(helm, root);
    if (bin.refused) return { read: { chart, readBy: 'evaluator', why: bin.refused } };
    if (!bin.path) return { read: { chart, readBy: 'evaluator', why: `no Helm binary found (looked at ${bin.looked.slice(0, 6).join(', ')}${bin.looked.length > 6 ? ', …' : ''})` } };
    let r = this.renderers.get(bin.path);
    if (!r) { r = new HelmRenderer({ helm: bin.path, jobs: this.opts.jobs, timeoutMs: this.opts.timeoutMs, node: this.opts.node }); this.renderers.set(bin.path, r); }
    const values = helm.values.files.map((v) => path.resolve(helm.values.base ?? root, v));
    const key = contentKey(chart, values, overlay);
    const skey = `${bin.path}\0${chart}\0${'error' in key ? key.error : key.hash}\0${values.join('\0')}\0${steps.join(',')}`;
    const done = this.settled.get(skey);
    const expired = done !== undefined && (this.failedUntil.get(skey) ?? Infinity) <= Date.now();
    if (expired) { this.settled.delete(skey); this.failedUntil.delete(skey); }
    if (done && !expired) return { renders: done, read: readOf(chart, bin.path, done) };
    if (!start) return { read: { chart, readBy: 'evaluator', why: `not rendered yet: ${bin.path} renders it when its files are checked`, helm: bin.path } };
    const renderer = r;
    this.latest.set(chart, skey);
    const keep = (rs: ChartRender[]) => {
      if (this.settled.size > 256) { const old = this.settled.keys().next().value!; this.settled.delete(old); this.failedUntil.delete(old); }
      this.settled.set(skey, rs);
      if (rs.some((x) => !x.ok)) this.failedUntil.set(skey, Date.now() + (this.opts.failedTtlMs ?? FAILED_RENDER_TTL_MS));
      else this.failedUntil.delete(skey);
    };
    const pending = renderer.render(chart, steps, values, overlay, this.opts.progress, () => this.latest.get(chart) !== skey).then((rs) => {
      if (!rs.some((x) => x.error === SUPERSEDED)) keep(rs);
    }, (e) => keep(steps.map((step) => ({ chartRoot: chart, step, ok: false, error: `internal error while rendering: ${(e as Error)?.message ?? String(e)}`, emissions: [], helmVersion: 'unknown' }))));
    return { pending, read: { chart, readBy: 'evaluator', why: 'being rendered' } };
  }
}

function readOf(chart: string, helm: string, rs: ChartRender[]): HelmRead {
  const rendered = rs.filter((r) => r.ok).map((r) => r.step);
  const notRendered = rs.filter((r) => !r.ok).map((r) => ({ step: r.step, error: r.error ?? 'not rendered' }));
  const readBy = !notRendered.length ? 'helm' : rendered.length ? 'helm+evaluator' : 'evaluator';
  return {
    chart, readBy, helm, helmVersion: rs[0]?.helmVersion, rendered, ...(notRendered.length ? { notRendered, why: `not rendered at ${notRendered.map((n) => n.step).join(', ')}: ${notRendered[0].error}` } : {}),
  };
}
