// Kata persist.json facts (data/kata/persist.json) and the small predicates the persist rules use.
import { loadJson, jsonExists } from '../../../data';
import { compareVersions } from '../../../versions';

export interface RelRange { from: string; to: string | null; note?: string }
export interface PersistField {
  file: 'sandbox' | 'container';
  path: string[];
  name: string;
  writtenBy: RelRange[];
  readBy: RelRange[];
  types: Array<{ type: string; from: string; to: string | null; nullable?: boolean; items?: unknown; values?: unknown; omitempty?: boolean; opaque?: boolean }>;
  renames: Array<{ from: string[]; to: string[]; in: string }>;
  required: Array<{ from: string; to: string | null; what: string; note?: string; source?: string }>;
  meaning?: string;
  lostOnRead?: string;
  note?: string;
  source?: string;
}
export interface PersistEra {
  id: string;
  persistVersion: number | null;
  writtenBy: { from: string; to: string | null };
  summary?: string;
  fields: Array<{ file: string; path: string[]; alwaysWritten?: boolean; inEra?: RelRange[] }>;
}
export interface PersistMarker {
  kind: 'presence' | 'value';
  file: 'sandbox' | 'container';
  path: string[];
  presentIn?: string[];
  absentRulesOut?: string[];
  byType?: Array<{ eras: string[]; type: string | string[] }>;
  value?: unknown;
  createdBy?: RelRange;
  writtenBy?: RelRange | RelRange[];
  pins?: string;
}
export interface PersistData {
  asOf: string;
  eras: PersistEra[];
  fields: PersistField[];
  eraMarkers: PersistMarker[];
  persistVersion: { values: Array<{ value: number | null; from: string; to: string | null }>; checkedByLoader: boolean; note?: string };
  legacyStore: { files: Array<{ file: string; item: string; root: string }>; readBy: RelRange[]; notReadFrom: string; upgradeFailure: { statement: string; message: string | null } };
}

export const persistData = (): PersistData => loadJson<PersistData>('data/kata/persist.json');

export function inRel(r: RelRange, release: string): boolean {
  return compareVersions(release, r.from) >= 0 && (r.to === null || compareVersions(release, r.to) <= 0);
}
export const inAny = (rs: RelRange[], release: string) => rs.some((r) => inRel(r, release));

export function describeRanges(rs: RelRange[]): string {
  return rs.map((r) => (r.to === r.from ? r.from : `${r.from}–${r.to ?? 'today'}`)).join(', ');
}

/** The era schema file for an era id. */
export function persistSchemaPath(era: string): string | undefined {
  const rel = `schemas/kata/persist/${era}.schema.json`;
  return jsonExists(rel) ? rel : undefined;
}

/** A trie over field paths ('*' = any array element or map value) for one file kind. */
export interface FieldTrie { field?: PersistField; children: Map<string, FieldTrie> }

const tries = new Map<string, FieldTrie>();
export function fieldTrie(file: 'sandbox' | 'container'): FieldTrie {
  let t = tries.get(file);
  if (!t) {
    t = { children: new Map() };
    for (const f of persistData().fields) {
      if (f.file !== file) continue;
      let n = t;
      for (const seg of f.path) {
        let c = n.children.get(seg);
        if (!c) { c = { children: new Map() }; n.children.set(seg, c); }
        n = c;
      }
      n.field = f;
    }
    tries.set(file, t);
  }
  return t;
}
