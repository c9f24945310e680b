// The operator versions the workspace pins (issue #31 item 3; NeighbourFacts.operatorPins, --print-config's
// operatorPins), read the same way in the editor and in lsp-lint: the workspace's files as saved on disk (never an open
// buffer: a file's window must not depend on what is open, issue #27 item 1), by one bounded walk per workspace root
// with the server's host (WorkspaceHost: hidden and always-skipped folders left out, files the ignore: lists leave out
// not counted), each YAML file read once (bounded) and scanned by the pure reader (operator-pins.ts). Each file's scan
// is kept by its stamp (size and modification time); a watched-file change rescans only that file (RootIndex.changed),
// and says whether the root's pins changed. The Kubernetes family lists it among its root facts.
import * as path from 'node:path';
import type { RootIndex, RootIndexProducer, WorkspaceHost } from '../families/types';
import type { NeighbourFacts } from '../families/registry';
import { scanFilePins, pinsOf, type FilePinScan, type OperatorPin } from './operator-pins';

const YAML_EXT = /\.ya?ml$/i;
/** Folders and YAML files the walk looks at most (the CRD index's bounds). */
const MAX_FOLDERS = 10000;
const MAX_FILES = 20000;
/** A YAML file is read up to the engine's file limit (the host's own bound). */
const ANY_SIZE = Number.MAX_SAFE_INTEGER;

export interface PinFacts {
  /** The pins, by operator, file (relative to the root, `/`-separated) and line. */
  pins: OperatorPin[];
  /** What names an operator but pins no version it can read (a chart version not in the map, a tag that is no version). */
  unresolved: FilePinScan['unresolved'];
  /** What the walk did not see (its bounds, unreadable folders, files over the size limit): pins there are not known. */
  notRead: string[];
}

interface RootPins {
  /** Each YAML file's scan, with the stamp (size, mtime) it was read at. */
  files: Map<string, { stamp: string; scan: FilePinScan }>;
  walkNotes: string[];
  /** The pins and the scans they were gathered from (the files the ignore: lists leave in), until a change. */
  facts?: PinFacts & { scans: FilePinScan[] };
}

export const rel = (root: string, p: string): string => (path.relative(root, p) || path.basename(p)).split(path.sep).join('/');

/** The pins of one workspace root: a walk on first use, then kept, and updated file by file. */
export class OperatorPinIndex implements RootIndex<NonNullable<NeighbourFacts['operatorPins']>> {
  private idx?: RootPins;

  constructor(private root: string, private host: WorkspaceHost) {}

  /** The ignore: lists may have changed: the pins are gathered again from the kept scans. */
  forgetConfig(): void { if (this.idx) this.idx.facts = undefined; }

  /** What the k8s/operator-pins-disagree rule and the operators' windows read, asked only when used; `self`: the analysed file's name. */
  fact(file: string): NonNullable<NeighbourFacts['operatorPins']> {
    return () => ({ ...this.scans(), self: rel(this.root, file) });
  }

  /** The pins of the workspace root (a walk on first use, then kept until a change). */
  factsFor(): PinFacts & { scans: FilePinScan[] } {
    const idx = this.index();
    if (idx.facts) return idx.facts;
    const scans: FilePinScan[] = [];
    const notRead = idx.walkNotes.slice();
    for (const [p, f] of idx.files) {
      if (this.host.ignored(p)) continue;
      scans.push(f.scan);
      if (f.stamp === 'not-read') notRead.push(`${rel(this.root, p)} was not read`);
    }
    const { pins, unresolved } = pinsOf(scans);
    return (idx.facts = { pins, unresolved, notRead, scans });
  }

  /**
   * Each file's scan (what the k8s/operator-pins-disagree rule combines with the analysed file's own text) and the
   * pins gathered from them (an operator's window): kept with the facts, not gathered again per file.
   */
  scans(): { scans: FilePinScan[]; notRead: string[]; pins: OperatorPin[] } {
    const { scans, notRead, pins } = this.factsFor();
    return { scans, notRead, pins };
  }

  /** --print-config's operatorPins: where each pin came from, or that there is none. */
  describe(): unknown {
    const pins = this.factsFor();
    return pins.pins.length || pins.unresolved.length || pins.notRead.length ? describePins(pins) : 'none found in the workspace';
  }

  /**
   * A file changed on disk (a watched-file event): rescanned if the root's index holds it or it is a YAML file under
   * the root. Returns whether the root's pins (or what names an operator) changed.
   */
  changed(file: string): boolean {
    const idx = this.idx;
    if (!idx || !YAML_EXT.test(file)) return false;
    const before = idx.files.get(file);
    const stamp = this.host.stamp(file);
    if (stamp === undefined) {
      if (!before) return false;
      idx.files.delete(file);
      const had = before.scan.pins.length + before.scan.sources.length + before.scan.pending.length + before.scan.unresolved.length > 0;
      if (had) idx.facts = undefined;
      return had;
    }
    if (before?.stamp === stamp) return false;
    const scan = this.scan(file);
    idx.files.set(file, { stamp: scan ? stamp : 'not-read', scan: scan ?? empty(rel(this.root, file)) });
    const same = before && JSON.stringify(strip(before.scan)) === JSON.stringify(strip(scan ?? empty(rel(this.root, file))));
    if (same) return false;
    idx.facts = undefined;
    return true;
  }

  private scan(p: string): FilePinScan | undefined {
    const text = this.host.readSaved(p, ANY_SIZE);
    return text === undefined ? undefined : scanFilePins(rel(this.root, p), text);
  }

  private index(): RootPins {
    if (this.idx) return this.idx;
    const found: string[] = [];
    let truncated: string | undefined;
    const w = this.host.walk(this.root, {
      maxFolders: MAX_FOLDERS,
      sorted: true,
      onFile: (p, name) => {
        if (!YAML_EXT.test(name)) return;
        found.push(p);
        if (found.length >= MAX_FILES) { truncated = `the workspace walk for operator versions stopped after ${MAX_FILES} YAML files`; return false; }
      },
    });
    if (w.stopped && !truncated) truncated = `the workspace walk for operator versions stopped after ${MAX_FOLDERS} folders`;
    const walkNotes = [...(truncated ? [truncated] : []), ...this.host.unreadableNote('the workspace walk for operator versions', w.unreadable)];
    const files = new Map<string, { stamp: string; scan: FilePinScan }>();
    for (const p of found.sort()) {
      const scan = this.scan(p);
      files.set(p, { stamp: scan ? this.host.stamp(p) ?? 'not-read' : 'not-read', scan: scan ?? empty(rel(this.root, p)) });
    }
    return (this.idx = { files, walkNotes });
  }
}

const empty = (file: string): FilePinScan => ({ file, pins: [], sources: [], pending: [], unresolved: [] });
/** A scan without its text-position-free parts compared (pins' objects carry no identity that matters here). */
const strip = (s: FilePinScan) => ({ pins: s.pins, sources: s.sources, pending: s.pending, unresolved: s.unresolved });

/** The pins as --print-config and the resolved configuration say them ("external-secrets 0.17.0 from platform/Chart.yaml"). */
export function describePins(f: PinFacts): Record<string, unknown> {
  const byOperator: Record<string, string[]> = {};
  for (const p of f.pins) (byOperator[p.operator] ??= []).push(`${p.operator} ${p.version} from ${p.file}:${p.line + 1}`);
  return {
    pins: byOperator,
    details: f.pins.map((p) => p.detail),
    ...(f.unresolved.length ? { unresolved: f.unresolved.map((u) => `${u.operator} at ${u.file}:${u.line + 1}: ${u.why}`) } : {}),
    ...(f.notRead.length ? { notRead: f.notRead } : {}),
  };
}

/** The root fact the Kubernetes family lists (FamilyModule.rootFactProducers); --print-config asks for it by its key. */
export const operatorPinsProducer: RootIndexProducer = {
  key: 'operatorPins',
  index: (root, host) => new OperatorPinIndex(root, host),
  printConfig: 'operatorPins',
};
