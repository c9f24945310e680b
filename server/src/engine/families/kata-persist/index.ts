// Kata persist.json (and the legacy store before it): recognition, the file's layout era(s), and the context
// the persist rules read.
import * as path from 'node:path';
import type { JsonFile } from '../../parse/json';
import type { SourceInfo } from '../../types';
import { persistData, fieldTrie, inAny, inRel, type FieldTrie, type PersistField } from './data';
import { validatorFor } from '../../schema';
import { persistSchemaPath } from './data';
import { windowText } from '../../window-text';

const LEGACY = new Set(['state.json', 'devices.json', 'hypervisor.json', 'agent.json', 'network.json', 'mounts.json', 'process.json', 'config.json', 'uuid.json']);
const SANDBOX_KEYS = ['PersistVersion', 'HypervisorState', 'AgentState', 'ProxyState', 'SandboxContainer', 'GuestMemoryBlockSizeMB'];
const CONTAINER_KEYS = ['BundlePath', 'Rootfs', 'Process', 'DeviceMaps'];

/** `/run/vc/sbs/<sandbox-id>/…` or a folder named like a sandbox/container id. */
export function inSandboxLayout(file: string): boolean {
  const p = file.split(path.sep).join('/');
  if (/\/vc\/sbs\/[^/]+\//.test(p)) return true;
  const dir = path.basename(path.dirname(file));
  return /^[0-9a-f]{64}$/i.test(dir) || /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(dir);
}

export const isPersistName = (file: string) => /(^|[./-])persist\.json$/i.test(path.basename(file));
/** A legacy store file: its name under `…/vc/sbs/<id>/` only. A folder merely named like an id is not enough here: runc's
 * `/run/runc/<64-hex>/state.json` and containerd's bundle `…/<64-hex>/config.json` have the same names. */
export const isLegacyStoreFile = (file: string) => LEGACY.has(path.basename(file)) && /\/vc\/sbs\/[^/]+\//.test(file.split(path.sep).join('/'));

const CONTENT = /"(PersistVersion|HypervisorState|SandboxContainer)"\s*:/;
/** A .json file that holds sandbox persist state by its content, whatever its name: one of the keys near the top, or
 * (Go writes Devices before them, and a copy may have its keys sorted) anywhere in a file whose top level is one. */
export function isPersistContent(text: string, file: string): boolean {
  if (CONTENT.test(text.slice(0, 4000))) return true;
  if (!CONTENT.test(text)) return false;
  try { return !!persistKind(JSON.parse(text), file); } catch { return false; }
}

/** Content test for a JSON object: sandbox or container persist state. */
export function persistKind(value: unknown, file: string): 'sandbox' | 'container' | undefined {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const keys = Object.keys(value);
  if (SANDBOX_KEYS.filter((k) => keys.includes(k)).length >= 2 || keys.includes('PersistVersion')) return 'sandbox';
  if (CONTAINER_KEYS.filter((k) => keys.includes(k)).length >= 2 && keys.includes('State')) return 'container';
  if (isPersistName(file)) return inSandboxLayout(file) && path.basename(path.dirname(path.dirname(file))) !== 'sbs' ? 'container' : 'sandbox';
  return undefined;
}

export interface PresentField {
  /** The real path in the file (array indices and map keys). */
  path: Array<string | number>;
  /** The data row, when the field is known to some release. */
  field?: PersistField;
  value: unknown;
}

export class PersistContext {
  readonly present: PresentField[] = [];
  /** Paths of objects no release knows (their children are not listed). */
  readonly unknown: PresentField[] = [];
  private erasMemo?: string[];

  constructor(
    readonly file: string,
    readonly json: JsonFile,
    readonly kind: 'sandbox' | 'container',
    readonly window: string[],
    readonly windowSource: SourceInfo,
  ) {
    walk(json.value, [], fieldTrie(kind), this.present, this.unknown);
  }

  get data() { return persistData(); }
  get windowText(): string {
    const w = this.window;
    return windowText(w);
  }

  /** Layout eras the file is consistent with: every era marker (presence, absence, type) agrees and the era's schema accepts it. */
  eras(): string[] {
    if (this.erasMemo) return this.erasMemo;
    const v = this.json.value;
    const ok = new Set(this.data.eras.map((e) => e.id));
    for (const m of this.data.eraMarkers) {
      if (m.kind !== 'presence' || m.file !== this.kind) continue;
      const key = m.path[m.path.length - 1];
      const ps = parentsOf(v, m.path);
      const present = ps.filter((o) => Object.prototype.hasOwnProperty.call(o, key));
      for (const e of [...ok]) {
        if (present.length && !m.presentIn?.includes(e)) ok.delete(e);
        // Absence says something only where the parent object is there and the era always writes the key.
        else if (present.length < ps.length && m.absentRulesOut?.includes(e)) ok.delete(e);
        else if (present.length && m.byType) {
          const t = m.byType.find((b) => b.eras.includes(e));
          const allowed = t ? ([] as string[]).concat(t.type) : [];
          if (present.some((o) => { const vt = jsonTypeOf(o[key]); return vt !== 'null' && !allowed.includes(vt) && !(vt === 'integer' && allowed.includes('number')); })) ok.delete(e);
        }
      }
    }
    const eras = [...ok].filter((e) => {
      const s = persistSchemaPath(e);
      return !s || validatorFor(s)(v);
    });
    this.erasMemo = eras;
    return eras;
  }

  /** Releases that write an era. */
  eraRange(id: string): string {
    const e = this.data.eras.find((x) => x.id === id);
    return e ? `${e.writtenBy.from}–${e.writtenBy.to ?? 'today'}` : id;
  }

  // Memoised per field and release: a 20 MB file has ~10⁵ present fields and a window can hold 50 releases, and
  // comparing versions is the cost that remains.
  private readsMemo = new Map<PersistField, Map<string, boolean>>();
  private typeMemo = new Map<PersistField, Map<string, PersistField['types'][number] | undefined>>();
  reads(f: PersistField, release: string): boolean {
    let m = this.readsMemo.get(f);
    if (!m) this.readsMemo.set(f, (m = new Map()));
    let v = m.get(release);
    if (v === undefined) m.set(release, (v = inAny(f.readBy, release)));
    return v;
  }
  /** The releases of the window that do not read a field (memoised per field: a file can hold 10⁶ present fields
   * of a few dozen kinds, and each asked for every release was the cost). */
  notReadBy(f: PersistField): string[] {
    let v = this.notReadMemo.get(f);
    if (!v) this.notReadMemo.set(f, (v = this.window.filter((r) => !this.reads(f, r))));
    return v;
  }
  private notReadMemo = new Map<PersistField, string[]>();

  /** For a field and a JSON type of its value: the releases of the window that read the field but decode it as
   * another type, and those types (memoised per field and type). `ok(actual, t)` says whether a type row takes it. */
  typeClash(f: PersistField, actual: string, ok: (actual: string, t: PersistField['types'][number]) => boolean): { bad: string[]; wanted: string[] } {
    let m = this.clashMemo.get(f);
    if (!m) this.clashMemo.set(f, (m = new Map()));
    let v = m.get(actual);
    if (!v) {
      const bad: string[] = [], wanted = new Set<string>();
      for (const r of this.window) {
        if (!this.reads(f, r)) continue;
        const t = this.typeAt(f, r);
        if (t && !ok(actual, t)) { bad.push(r); wanted.add(t.type); }
      }
      m.set(actual, (v = { bad, wanted: [...wanted] }));
    }
    return v;
  }
  private clashMemo = new Map<PersistField, Map<string, { bad: string[]; wanted: string[] }>>();

  typeAt(f: PersistField, release: string) {
    let m = this.typeMemo.get(f);
    if (!m) this.typeMemo.set(f, (m = new Map()));
    if (!m.has(release)) m.set(release, f.types.find((t) => inRel(t, release)));
    return m.get(release);
  }
}

/** The objects a marker path's parent resolves to ('*' = every array element or map value). */
function parentsOf(doc: unknown, p: string[]): Array<Record<string, unknown>> {
  let cur: unknown[] = [doc];
  for (const seg of p.slice(0, -1)) {
    const next: unknown[] = [];
    for (const o of cur) {
      if (seg === '*') {
        // One push per element: spreading an input-sized array into push() overflows the stack (140,000 devices).
        if (Array.isArray(o)) for (const x of o) next.push(x);
        else if (o && typeof o === 'object') for (const x of Object.values(o)) next.push(x);
      } else if (o && typeof o === 'object' && !Array.isArray(o) && Object.prototype.hasOwnProperty.call(o, seg)) next.push((o as any)[seg]);
    }
    cur = next;
  }
  return cur.filter((o): o is Record<string, unknown> => !!o && typeof o === 'object' && !Array.isArray(o));
}

const jsonTypeOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v === 'number' ? 'number' : typeof v);

/** The data-path pattern of a present field ('*' for array elements and map values). */
export function patternOf(p: PresentField): string[] {
  return p.field ? p.field.path : p.path.map(String);
}

/** The present and unknown fields of a value, in document order (depth first). Iterative: a stack of the members
 * still to visit, each frame saying what to record when it is taken and whether to go inside. */
function walk(root: unknown, at0: Array<string | number>, node0: FieldTrie, present: PresentField[], unknown: PresentField[]): void {
  type Frame = { value: unknown; at: Array<string | number>; node: FieldTrie; field?: PersistField; unknownOnly?: boolean; descend: boolean };
  const todo: Frame[] = [{ value: root, at: at0, node: node0, descend: true }];
  while (todo.length) {
    const { value, at, node, field, unknownOnly, descend } = todo.pop()!;
    if (unknownOnly) { unknown.push({ path: at, value }); continue; }
    if (field) present.push({ path: at, field, value });
    if (!descend) continue;
    const next: Frame[] = [];
    if (Array.isArray(value)) {
      const star = node.children.get('*');
      if (!star) continue;
      for (let i = 0; i < value.length; i++) next.push({ value: value[i], at: [...at, i], node: star, field: star.field, descend: true });
    } else if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const child = node.children.get(k) ?? node.children.get('*');
        if (!child) {
          // A field no release knows, or the inside of an opaque value (kept whole): only report unknown struct members.
          if (node.children.size && ![...node.children.values()].some((c) => c.field?.types.some((t) => t.opaque))) next.push({ value: v, at: [...at, k], node, unknownOnly: true, descend: false });
          continue;
        }
        next.push({ value: v, at: [...at, k], node: child, field: child.field, descend: !child.field?.types.every((t) => t.opaque) });
      }
    }
    for (let i = next.length - 1; i >= 0; i--) todo.push(next[i]);
  }
}
