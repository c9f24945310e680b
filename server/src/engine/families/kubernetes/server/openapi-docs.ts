// Reads the user's OpenAPI documents (kubernetes.openapi in .skewguard.yaml, lsp-lint --kubernetes-openapi): bounded,
// regular files only, a .skewguard.yaml entry only inside the checked roots; the engine judges from what is read
// (../data/openapi.ts). The Kubernetes family's server side (./index.ts) reads them for the configuration. A document
// that cannot be used is said, never passed over.
import * as path from 'node:path';
import { readFileUpTo, whyNotRead } from '../../../../shared/bounded-read';
import { MAX_FILE_BYTES } from '../../../../shared/limits';
import { readOpenapiDocument, type OpenapiDoc, mergeOpenapiDocuments } from '../data/openapi';
import * as fs from 'node:fs';

export type OpenapiRead = { file: string; doc: OpenapiDoc } | { problem: string };

/** Bounds of a document set (a cluster serves about 60 group-versions; each file is bounded by MAX_FILE_BYTES). */
export const OPENAPI_SET_LIMITS = { files: 400, bytes: 8 * MAX_FILE_BYTES };

/** One document or a folder of them: `written` relative to `base`; `inside` (for the repository's entries) says whether it may be read. */
export function readOpenapiFile(minor: string, written: string, base: string, inside?: (p: string) => boolean): OpenapiRead {
  const abs = path.resolve(base, written);
  const what = `OpenAPI document for Kubernetes ${minor} ${JSON.stringify(written)}`;
  if (inside && !inside(abs)) return { problem: `${what} is outside the workspace: not read` };
  const r = readFileUpTo(abs, MAX_FILE_BYTES);
  if ('notFile' in r && r.notFile === 'a folder') return readSet(written, abs, what, inside);
  if (!('bytes' in r)) return { problem: `${what} cannot be read: ${'code' in r && r.code === 'ENOENT' ? 'no such file' : whyNotRead(r, MAX_FILE_BYTES)}` };
  const d = readOpenapiDocument(r.bytes.toString('utf8'));
  if ('error' in d) return { problem: `${what}: ${d.error}` };
  return { file: written, doc: d.doc };
}

/** A v3 document set: every *.json file of the folder (not below it), bounded in count and bytes; one bad file fails the set. */
function readSet(written: string, dir: string, what: string, inside?: (p: string) => boolean): OpenapiRead {
  let names: string[];
  try {
    const d = fs.opendirSync(dir);
    names = [];
    try {
      for (let e = d.readSync(); e; e = d.readSync()) {
        if (!/\.json$/i.test(e.name)) continue;
        if (names.length >= OPENAPI_SET_LIMITS.files) return { problem: `${what}: a folder of more than ${OPENAPI_SET_LIMITS.files} .json documents: not read` };
        names.push(e.name);
      }
    } finally { d.closeSync(); }
  } catch (e) {
    return { problem: `${what} cannot be read: unreadable folder (${(e as NodeJS.ErrnoException).code ?? 'error'})` };
  }
  if (!names.length) return { problem: `${what}: a folder without .json documents (a v3 document set is one file per group-version: kubectl get --raw /openapi/v3/apis/<group>/<version>)` };
  names.sort();
  const docs: OpenapiDoc[] = [];
  let bytes = 0;
  for (const name of names) {
    const abs = path.join(dir, name);
    const one = `${what}: ${JSON.stringify(name)}`;
    if (inside && !inside(abs)) return { problem: `${one} is outside the workspace: not read` };
    const r = readFileUpTo(abs, MAX_FILE_BYTES);
    if (!('bytes' in r)) return { problem: `${one} cannot be read: ${whyNotRead(r, MAX_FILE_BYTES)}` };
    bytes += r.bytes.length;
    if (bytes > OPENAPI_SET_LIMITS.bytes) return { problem: `${what}: the folder's documents are over ${OPENAPI_SET_LIMITS.bytes} bytes together: not read` };
    const d = readOpenapiDocument(r.bytes.toString('utf8'));
    if ('error' in d) return { problem: `${one}: ${d.error}` };
    docs.push(d.doc);
  }
  return { file: written, doc: mergeOpenapiDocuments(docs) };
}
