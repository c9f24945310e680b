// Kubernetes manifests: recognised by content (apiVersion + kind, multi-document, List items, JSON), checked
// against every minor of the Kubernetes window with the lifecycle data.
import type { KataChainFacts } from '../kata-config/data/chain';
import type { FilePinScan, OperatorPin } from '../../components/operator-pins';
import { YamlFile, type OffsetRange } from '../../parse/yaml';
import { keepShape } from '../../keep-shapes';
import { kubernetesApis, type ApiRow } from './data/apis';
import type { ComponentVersionSetting } from '../../components/types';
import type { KubeWindow } from './config';
import { leadingMinor } from '../../versions';
import { statusAt, findRow, servedKinds, compareMinor } from './data/lifecycle';
import { parseImage, componentOf, type ImageRef, type Component } from './data/components';
import { memoIn, weakMemoIn } from '../../memo';
import type { FluxWindow } from '../starlingx-app/data';
import { crdsForFile, groupVersion, mayBeCustomGroup, isCrdObject, type CrdFacts, type CrdDef, type CrdVersion, type CustomResourceUse } from './crds';
import { rootNode, fieldEntries, type FieldEntry, type FieldNode, fieldTable, type FieldTable } from './data/fields';
import { windowText } from '../../window-text';
import { pluginArgsOf, type PluginArgs } from './scheduler-args';
import type { OperatorWindow } from '../../components/operators';

// The objects of a manifest file (manifest-objects.ts: crds.ts reads them too, without a cycle through this module).
export { manifestObjects, isManifestValue, isManifestLike, shownSegments, type ManifestObject } from './manifest-objects';
import { isObj, type ManifestObject } from './manifest-objects';

export interface StepStatus { minor: string; served: boolean; deprecated: boolean; removed: boolean }

export interface ContainerImage {
  object: ManifestObject;
  /** Path of the image value inside the document. */
  path: Array<string | number>;
  range: OffsetRange;
  ref: ImageRef;
  component?: Component;
  text: string;
}

/** A ContainerImage whose range is found only when asked for (most images are never reported). */
class Image implements ContainerImage {
  private rangeMemo?: OffsetRange;
  constructor(readonly object: ManifestObject, readonly path: Array<string | number>, readonly ref: ImageRef, readonly component: Component | undefined, readonly text: string) {}
  get range(): OffsetRange { return (this.rangeMemo ??= this.object.doc.locate(this.path).value); }
}

/** Facts from other files that cross-file rules need (the language server gathers them). */
export interface NeighbourFacts {
  /** kube-* static pods in the same folder as the file (other files; the file's own are found by the rules). */
  staticPods?: Array<{ file: string; component: string; minor: string; image: string }>;
  /** The workspace's localhost.yml and its kubernetes_version. */
  localhost?: { path: string; kubernetesVersion?: string };
  /** The workspace's containerd configs and the runtime names they define (a RuntimeClass handler must be one). */
  /** truncated: the workspace walk stopped before it had seen every folder (a handler not found may be in one it skipped). */
  containerdRuntimes?: { files: string[]; names: string[]; truncated?: string };
  /** The workspace's CustomResourceDefinitions (and those .skewguard.yaml's kubernetes.crds names): asked for only
   *  when a file holds an object of a custom group or a CRD. */
  crds?: CrdFacts;
  /** The custom resources of a group in the workspace's other files (for a CRD: the versions they use). */
  customResourceUses?(group: string): { uses: CustomResourceUse[]; notRead?: string };
  /** The node's chain: Kata runtime entries of the workspace's containerd configs → the configuration file each
   * ConfigPath names → the flavour its shim implies, and kata-deploy's image tags (engine/families/kata-config/data/chain.ts). */
  kataChain?: KataChainFacts;
  /** The workspace's operator version pins, per file as saved (server/operator-pins.ts); `self`: the analysed file's
   *  name in them. Asked only by a file that pins an operator itself (k8s/operator-pins-disagree). */
  operatorPins?(): { scans: FilePinScan[]; self?: string; notRead: string[]; /** pinsOf(scans).pins, when the producer keeps it */ pins?: OperatorPin[] };
}

const CONTAINER_LISTS = new Set(['containers', 'initContainers', 'ephemeralContainers']);

export class KubernetesContext {
  private imagesMemo?: ContainerImage[];
  constructor(
    readonly file: YamlFile,
    readonly objects: ManifestObject[],
    readonly window: KubeWindow,
    readonly rows: ApiRow[],
    readonly json: boolean,
    readonly neighbours: NeighbourFacts = {},
    readonly path = '',
    /** The StarlingX release of the configuration, for "StarlingX ships …" advice. */
    readonly starlingxRelease?: string,
    /** The version each component's (cert-manager, istio …) lifecycle rows are checked at. */
    readonly components: Record<string, ComponentVersionSetting> = {},
    /** The Flux of the StarlingX releases on the path: Flux rows are checked there (k8s/flux-*), not at one version. */
    readonly flux?: FluxWindow,
    /** The field table the field rules judge from: the shipped one, with the user's OpenAPI documents (fieldTableWith). */
    readonly fields: FieldTable = fieldTable(),
    /** The components (components/registry.ts) whose window the configuration has: their rows are not checked at one version. */
    readonly windowed?: ReadonlySet<string>,
  ) {}

  /**
   * The operator windows of the file by operator id (components/operators.ts operatorWindowsWith: the configuration's,
   * else the workspace's pins), worked out on first use, i.e. only for a file with an operator's custom resource;
   * `operatorWindowsOf` is set by whoever builds the context.
   */
  get operatorWindows(): Readonly<Record<string, OperatorWindow>> { return (this.operatorWindowsMemo ??= this.operatorWindowsOf?.() ?? {}); }
  operatorWindowsOf?: () => Readonly<Record<string, OperatorWindow>>;
  private operatorWindowsMemo?: Readonly<Record<string, OperatorWindow>>;

  /** The CRD facts of this file: its own CRDs first, then the workspace's (read from the neighbours only when asked). */
  crdFacts(): CrdFacts | undefined {
    if (this.crdMemo === undefined) this.crdMemo = crdsForFile(this.objects, this.neighbours.crds) ?? null;
    return this.crdMemo ?? undefined;
  }
  private crdMemo?: CrdFacts | null;

  /**
   * The workspace CRD that defines the object's group/kind, with the version the object names (undefined when that
   * version is not listed). Objects of Kubernetes' own groups never look (a workspace without custom resources never
   * gathers CRD facts). A CRD of the workspace wins over the built-in lifecycle rows of its group (cert-manager, Flux):
   * it is what the cluster installs.
   */
  crdFor(o: { apiVersion: string; kind: string }): { crd: CrdDef; version?: CrdVersion; versionName: string } | undefined {
    // Most objects are of Kubernetes' own groups: answered from the apiVersion string alone, once per apiVersion.
    const av = o.apiVersion;
    if (av.indexOf('.') < 0) return undefined;
    let custom = customApiVersions.get(av);
    if (custom === undefined) {
      custom = mayBeCustomGroup(groupVersion(av).group);
      if (customApiVersions.size < 4096) customApiVersions.set(av, custom);
    }
    if (!custom) return undefined;
    // Asked by several rules of each custom resource, and the same for every object of one apiVersion and kind.
    const byKind = this.crdForMemo.get(av) ?? this.crdForMemo.set(av, new Map()).get(av)!;
    let hit = byKind.get(o.kind);
    if (hit === undefined) {
      const { group, version } = groupVersion(av);
      const crd = this.crdFacts()?.defs.get(`${group}/${o.kind}`);
      hit = crd ? Object.freeze({ crd, version: crd.versions.find((v) => v.name === version), versionName: version }) : null;
      byKind.set(o.kind, hit);
    }
    return hit ?? undefined;
  }
  private readonly crdForMemo = new Map<string, Map<string, { crd: CrdDef; version?: CrdVersion; versionName: string } | null>>();

  /** The objects a workspace CRD defines, with it (one pass, shared by the k8s/cr-* rules; usually none). */
  customResources(): ReadonlyArray<{ o: ManifestObject; c: NonNullable<ReturnType<KubernetesContext['crdFor']>> }> {
    if (!this.customMemo) {
      const out: Array<{ o: ManifestObject; c: NonNullable<ReturnType<KubernetesContext['crdFor']>> }> = [];
      for (const o of this.objects) { const c = this.crdFor(o); if (c) out.push({ o, c }); }
      this.customMemo = out;
    }
    return this.customMemo;
  }
  private customMemo?: Array<{ o: ManifestObject; c: NonNullable<ReturnType<KubernetesContext['crdFor']>> }>;

  /** The CustomResourceDefinition objects of the file (one pass, shared by the k8s/crd-* rules). */
  crdObjects(): readonly ManifestObject[] {
    return (this.crdObjectsMemo ??= this.objects.filter((o) => o.kind === 'CustomResourceDefinition' && isCrdObject(o)));
  }
  private crdObjectsMemo?: ManifestObject[];

  /**
   * The field-table walk of a built-in object (data/fields.ts fieldEntries), done once for the field rules of
   * this analysis; undefined when the table has no such apiVersion/kind. dropFieldWalks() lets it go after the rules.
   */
  fieldWalk(o: ManifestObject): { root: FieldNode; entries: readonly FieldEntry[] } | undefined {
    const walks = (this.fieldWalks ??= new Map());
    let w = walks.get(o);
    if (w === undefined) {
      const root = rootNode(o.apiVersion, o.kind, this.fields);
      w = root ? { root, entries: fieldEntries(o.value, root, o.at) } : null;
      walks.set(o, w);
    }
    return w ?? undefined;
  }
  private fieldWalks?: Map<ManifestObject, { root: FieldNode; entries: readonly FieldEntry[] } | null>;
  /**
   * The plugin args of the file's KubeSchedulerConfigurations (scheduler-args.ts), found once; [] without one.
   */
  pluginArgs(): readonly PluginArgs[] { return (this.pluginArgsMemo ??= pluginArgsOf(this.objects)); }
  private pluginArgsMemo?: PluginArgs[];
  /**
   * The objects the field rules check: the file's objects, then the plugin args of its KubeSchedulerConfigurations as
   * objects of their Args kind (`within` the configuration: paths are said from it), where the table has that kind.
   */
  fieldObjects(): readonly ManifestObject[] {
    if (!this.fieldObjectsMemo) {
      const nested = this.pluginArgs().flatMap((p) => (p.object ? [p.object] : []));
      this.fieldObjectsMemo = nested.length ? [...this.objects, ...nested] : this.objects;
    }
    return this.fieldObjectsMemo;
  }
  private fieldObjectsMemo?: readonly ManifestObject[];
  /** The rules are done: the walks are not kept with the analysis (a 5,000-object bundle's are several MB). */
  dropFieldWalks(): void { this.fieldWalks = undefined; }

  /** Every container image of every object (pod templates at any depth: Deployments, CronJobs, Pods …). */
  images(): ContainerImage[] {
    if (this.imagesMemo) return this.imagesMemo;
    const out: ContainerImage[] = [];
    // Depth first, in key order, at most 12 levels below the object (so the recursion is bounded whatever the file's
    // shape); the path is one array pushed and popped along the way, copied only where an image is found (a bundle has
    // thousands of objects, and a node object per level visited was most of the walk's time).
    const segs: Array<string | number> = [];
    let o!: ManifestObject;
    // A CRD's schema describes containers (a `containers` list there is a default or an example) and runs none: it is not
    // walked (a bundle's CRD schemas were most of this walk's time, their `pattern`s' backslashes letting them in below).
    let crd = false;
    const visit = (v: object, depth: number): void => {
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          const x = v[i];
          if (!x || typeof x !== 'object' || depth >= 12) continue;
          segs.push(i); visit(x, depth + 1); segs.pop();
        }
        return;
      }
      for (const k in v) {
        if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
        const x = (v as Record<string, unknown>)[k];
        if (!x || typeof x !== 'object') continue;
        if (CONTAINER_LISTS.has(k) && Array.isArray(x)) {
          x.forEach((c, i) => {
            if (!isObj(c) || typeof c.image !== 'string') return;
            const ref = parseImage(c.image);
            out.push(new Image(o, [...segs, k, i, 'image'], ref, componentOf(ref), c.image));
          });
        } else if (k !== 'metadata' && k !== 'status' && depth < 12 && !(crd && k === 'openAPIV3Schema')) {
          segs.push(k); visit(x, depth + 1); segs.pop();
        }
      }
    };
    // Asked once per document (a List's thousands of items are objects of one document: asking per object scanned its
    // text once per item).
    let lastDoc: ManifestObject['doc'] | undefined, mayHold = false;
    for (const obj of this.objects) {
      // A container list is a key `containers`, `initContainers` or `ephemeralContainers`: a document whose text has none
      // (nor a backslash, which may spell one in an escape) holds no image, and is not walked (a bundle's CRDs, ConfigMaps).
      if (obj.doc !== lastDoc) {
        lastDoc = obj.doc;
        const src = obj.doc.text;
        mayHold = src.includes('ontainers') || src.includes('\\');
      }
      if (!mayHold) continue;
      o = obj;
      crd = obj.kind === 'CustomResourceDefinition';
      segs.length = 0;
      for (const seg of obj.at) segs.push(seg);
      visit(obj.value, 0);
    }
    return (this.imagesMemo = out);
  }

  get minors(): string[] { return this.window.minors; }
  get windowText(): string {
    const m = this.minors;
    return windowText(m);
  }

  /**
   * f(), cached per lifecycle rows (the shipped ones, or with the user's rows), window and key, across files: a
   * 5,000-object bundle asks the same few questions of the same few kinds. Results are shared and frozen.
   */
  private memo<T>(key: string, f: () => T): T {
    // Bounded: windows come from user configuration, kinds and apiVersions from user files.
    this.memoMap ??= memoIn(weakMemoIn(lifecycleMemo, this.rows, () => new Map<string, Map<string, unknown>>()), this.minors.join(','), () => new Map<string, unknown>(), 64);
    return memoIn(this.memoMap, key, f, 4096) as T;
  }
  private memoMap?: Map<string, unknown>;

  row(o: ManifestObject): ApiRow | undefined {
    // Per object first (every lifecycle rule asks for each object's row), then shared by apiVersion and kind.
    // A workspace CRD of a CRD-provided group (snapshot.storage.k8s.io) is what is installed: checked by k8s/cr-* instead.
    return memoIn(this.rowOf, o, () => (this.crdFor(o) ? undefined : this.memo(`row\u0000${o.apiVersion}\u0000${o.kind}`, () => {
      const r = findRow(this.rows, o.apiVersion, o.kind);
      return r && (r.component ?? 'k8s') === 'k8s' ? r : undefined;
    })));
  }
  private rowOf = new Map<ManifestObject, ApiRow | undefined>();

  /**
   * The row of a component's API (cert-manager, istio …) for the object, with the component version it is checked at
   * (Pluto semantics: that project's own release numbers, not the Kubernetes window). `version` is undefined when no
   * version is known for the component (a user row of a component without a version).
   */
  componentRow(o: ManifestObject): { row: ApiRow; component: string; setting?: ComponentVersionSetting; status?: ReturnType<typeof statusAt> } | undefined {
    // Per object (three rules ask), the row lookup shared by apiVersion and kind.
    return memoIn(this.componentOf, o, () => {
      const r = this.memo(`crow\u0000${o.apiVersion}\u0000${o.kind}`, () => {
        const x = findRow(this.rows, o.apiVersion, o.kind);
        return x && (x.component ?? 'k8s') !== 'k8s' ? x : undefined;
      });
      if (!r) return undefined;
      // The workspace's own CRD of this group/kind is what is installed: its versions are checked (k8s/cr-*) instead.
      if (this.crdFor(o)) return undefined;
      const component = r.component!;
      // An operator's window (components/operators.ts): its rows older than the operator data (certmanager.k8s.io) are
      // checked at the window's newest release; another component's window has its own rules (Flux).
      const op = this.operatorWindows[component];
      if (this.windowed?.has(component) && !op) return undefined; // checked at each step of its window instead (its own rules)
      const setting = op ? { version: op.steps[op.steps.length - 1], source: op.source } : this.components[component];
      return { row: r, component, setting, status: setting ? statusAt(r, setting.version) : undefined };
    });
  }
  private componentOf = new Map<ManifestObject, ReturnType<KubernetesContext['componentRow']>>();

  /** apiVersions of a component's kind served at one version of the component, best first (not deprecated there first). */
  componentServed(kind: string, component: string, version: string): string[] {
    return rankApiVersions(servedKinds(this.rows, kind, version, component), kind, this.rows, [version]);
  }

  steps(row: ApiRow): readonly StepStatus[] {
    return memoIn(this.stepsOf, row, () => this.stepsShared(row));
  }
  private stepsOf = new Map<ApiRow, readonly StepStatus[]>();
  private stepsShared(row: ApiRow): readonly StepStatus[] {
    return this.memo(`steps\u0000${row.apiVersion}\u0000${row.kind}\u0000${weakMemoIn(rowIds, row, () => nextRowId++)}`,
      () => Object.freeze(this.minors.map((m) => Object.freeze({ minor: m, ...statusAt(row, m) }))));
  }

  /** apiVersions of a kind served by every minor of the window, best first. */
  common(kind: string): string[] {
    return memoIn(this.commonOf, kind, () => this.commonShared(kind)).slice();
  }
  private commonOf = new Map<string, readonly string[]>();
  private commonShared(kind: string): readonly string[] {
    return this.memo(`common\u0000${kind}`, () => {
      let acc: Set<string> | undefined;
      for (const m of this.minors) {
        const s = new Set(servedKinds(this.rows, kind, m));
        acc = acc ? new Set([...acc].filter((x) => s.has(x))) : s;
      }
      return Object.freeze(rankApiVersions([...(acc ?? [])], kind, this.rows, this.minors));
    });
  }

  /** First and last window minors serving an apiVersion of a kind (undefined when never in the window). */
  servedSpan(apiVersion: string, kind: string): { first: string; last: string } | undefined {
    const span = this.memo(`span\u0000${apiVersion}\u0000${kind}`, () => {
      const r = findRow(this.rows, apiVersion, kind);
      if (!r) return undefined;
      const served = this.minors.filter((m) => statusAt(r, m).served);
      return served.length ? { first: served[0], last: served[served.length - 1] } : undefined;
    });
    return span && { ...span };
  }

  /** Whether some minor of the window deprecates this apiVersion of the kind. */
  deprecatedInWindow(apiVersion: string, kind: string): boolean {
    return this.memo(`deprecated\u0000${apiVersion}\u0000${kind}`, () => {
      const r = findRow(this.rows, apiVersion, kind);
      return !!r && this.minors.some((m) => statusAt(r, m).deprecated);
    });
  }

  /** Window minors at which no apiVersion serves the kind (it does not exist yet, or no longer). */
  missingAt(kind: string): string[] {
    return this.memo(`missing\u0000${kind}`, () => Object.freeze(this.minors.filter((m) => !servedKinds(this.rows, kind, m).length))).slice();
  }

  /**
   * The shortest sequence of apiVersions of the kind that carries an object through the window: the first is served at
   * the first step that serves the kind at all (the window's start, unless the kind is newer), the last at the last
   * such step, and each is served together with the next at some step (where the object is switched). It goes through `via` (the object's own apiVersion) when that is served in the window.
   * Every apiVersion of the kind is considered, also ones that are neither the object's nor the newest (a bridge).
   * Ties: the best final apiVersion (rankApiVersions), then the best ones on the way. undefined: no such sequence.
   */
  bridge(kind: string, via?: string): Array<{ apiVersion: string; first: string; last: string }> | undefined {
    const all = this.servedSomewhere(kind).map((a) => ({ apiVersion: a, ...this.servedSpan(a, kind)! }));
    const missing = new Set(this.missingAt(kind));
    const present = this.minors.filter((m) => !missing.has(m));
    if (!present.length) return undefined;
    const start = present[0], end = present[present.length - 1];
    const rank = new Map(all.map((x, i) => [x.apiVersion, i]));
    const mustVia = via !== undefined && all.some((x) => x.apiVersion === via);
    let best: typeof all | undefined;
    const better = (a: typeof all, b: typeof all | undefined) => {
      if (!b) return true;
      if (a.length !== b.length) return a.length < b.length;
      for (let i = a.length - 1; i >= 0; i--) {
        const d = rank.get(a[i].apiVersion)! - rank.get(b[i].apiVersion)!;
        if (d) return d < 0;
      }
      return false;
    };
    const walk = (path: typeof all) => {
      const last = path[path.length - 1];
      if (last.last === end && (!mustVia || path.some((x) => x.apiVersion === via)) && better(path, best)) best = [...path];
      if (path.length >= all.length) return;
      for (const next of all) {
        if (path.includes(next)) continue;
        // served together with `last` at some step, first served later and lasting at least as long (so that a path
        // can end on the object's own apiVersion even when an earlier one already reaches the window's end)
        if (compareMinor(next.first, last.last) <= 0 && compareMinor(next.first, last.first) > 0 && compareMinor(next.last, last.last) >= 0) walk([...path, next]);
      }
    };
    for (const x of all) if (x.first === start) walk([x]);
    return best?.map((x) => ({ ...x }));
  }

  /** Every apiVersion that serves the kind at some minor of the window. */
  servedSomewhere(kind: string): string[] {
    return this.memo(`somewhere\u0000${kind}`, () => {
      const all = new Set<string>();
      for (const m of this.minors) for (const a of servedKinds(this.rows, kind, m)) all.add(a);
      return Object.freeze(rankApiVersions([...all], kind, this.rows, this.minors));
    }).slice();
  }
}

// The context's and an image's hidden classes, kept alive between files (engine/keep-shapes.ts): every rule's check
// refers to the context's, and a full collection with no file being analysed deoptimised them all.
keepShape(new KubernetesContext(new YamlFile('', []), [], {} as KubeWindow, [], false, {}, '', undefined, {}, undefined, {} as FieldTable));
keepShape(new Image({} as ManifestObject, [], {} as ImageRef, undefined, ''));

/** apiVersion -> whether its group can be a custom resource's (crdFor), across files. */
const customApiVersions = new Map<string, boolean>();

const lifecycleMemo = new WeakMap<readonly ApiRow[], Map<string, Map<string, unknown>>>();
/** Rows by identity (a user row and a shipped row can share apiVersion and kind in different row sets). */
const rowIds = new WeakMap<ApiRow, number>();
let nextRowId = 0;

const STABILITY = (apiVersion: string): [number, number, number] => {
  const v = apiVersion.split('/').pop() ?? '';
  const m = /^v(\d+)(?:(alpha|beta)(\d+))?$/.exec(v);
  if (!m) return [0, 0, 0];
  return [m[2] ? (m[2] === 'beta' ? 2 : 1) : 3, Number(m[1]), Number(m[3] ?? 0)];
};

/** Best first: not deprecated anywhere in the window, then GA > beta > alpha, then the higher version. */
export function rankApiVersions(list: string[], kind: string, rows: ApiRow[], minors: string[]): string[] {
  const deprecatedIn = (a: string) => {
    const r = findRow(rows, a, kind);
    return r ? minors.some((m) => statusAt(r, m).deprecated) : false;
  };
  // Among deprecated ones, the one deprecated (then removed) later lives longer.
  const later = (a: string, b: string, field: 'deprecated' | 'removed') => {
    const x = findRow(rows, a, kind)?.[field] ?? '999.0', y = findRow(rows, b, kind)?.[field] ?? '999.0';
    return compareMinor(y, x);
  };
  // An apiVersion disabled by default (alpha, beta from 1.24) comes after every one a default cluster serves.
  const off = (a: string) => (findRow(rows, a, kind)?.offByDefault ? 1 : 0);
  return [...list].sort((a, b) => {
    const oa = off(a), ob = off(b);
    if (oa !== ob) return oa - ob;
    const da = deprecatedIn(a) ? 1 : 0, db = deprecatedIn(b) ? 1 : 0;
    if (da !== db) return da - db;
    if (da) { const c = later(a, b, 'deprecated') || later(a, b, 'removed'); if (c) return c; }
    const sa = STABILITY(a), sb = STABILITY(b);
    return sb[0] - sa[0] || sb[1] - sa[1] || sb[2] - sa[2] || (a < b ? -1 : 1);
  });
}

/** Rows from the data plus the user's own (Pluto's row format, in .skewguard.yaml). */
export function lifecycleRows(extra: PlutoRow[] | undefined, origin: string | undefined): ApiRow[] {
  const base = kubernetesApis().apis;
  if (!extra?.length) return base;
  // The same config (the server keeps it per .skewguard.yaml) gives the same array, so per-row caches are shared.
  const cached = userRowsMemo.get(extra);
  if (cached && cached.origin === origin && cached.base === base) return cached.rows;
  const rows = mergeRows(base, extra, origin);
  userRowsMemo.set(extra, { origin, base, rows });
  return rows;
}
const userRowsMemo = new WeakMap<PlutoRow[], { origin: string | undefined; base: ApiRow[]; rows: ApiRow[] }>();

function mergeRows(base: ApiRow[], extra: PlutoRow[], origin: string | undefined): ApiRow[] {
  const user = extra.map((p) => fromPluto(p, origin));
  // A user row for the same apiVersion/kind replaces the shipped one.
  const key = (r: ApiRow) => `${r.apiVersion}|${r.kind}`;
  const mine = new Set(user.map(key));
  const rest = base.filter((r) => !mine.has(key(r)));
  // A Pluto row describes only the old version: its replacement is served from replacement-available-in.
  // Without a row of its own the replacement would be unknown, so the window could never move to it.
  const known = new Set([...user, ...rest].map(key));
  const implied: ApiRow[] = [];
  for (const r of user) {
    if (!r.replacement || !r.replacementAvailable) continue;
    const row: ApiRow = {
      apiVersion: r.replacement, kind: r.kind, introduced: r.replacementAvailable, deprecated: null, removed: null,
      replacement: null, replacementAvailable: null, component: r.component, migration: 'unknown', migrationNote: null,
      sources: [`replacement-available-in of the ${r.apiVersion} ${r.kind} ${r.sources?.[0] ?? 'user row'}`], origin,
    };
    if (known.has(key(row))) continue;
    known.add(key(row));
    implied.push(row);
  }
  return [...user, ...implied, ...rest];
}

export interface PlutoRow {
  version: string;
  kind: string;
  'deprecated-in'?: string;
  'removed-in'?: string;
  'replacement-api'?: string;
  'replacement-available-in'?: string;
  'introduced-in'?: string;
  component?: string;
}

const minorOrNull = (v: string | undefined): string | null => (v ? leadingMinor(v) ?? null : null);

export function fromPluto(p: PlutoRow, origin?: string): ApiRow {
  return {
    apiVersion: p.version, kind: p.kind ?? '', introduced: minorOrNull(p['introduced-in']),
    deprecated: minorOrNull(p['deprecated-in']), removed: minorOrNull(p['removed-in']),
    replacement: p['replacement-api'] || null, replacementAvailable: minorOrNull(p['replacement-available-in']),
    component: p.component ?? 'k8s', migration: 'unknown', migrationNote: null,
    sources: [origin ? `user row in ${origin}` : 'user row'], origin,
  };
}

export { compareMinor };
