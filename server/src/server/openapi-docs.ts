// Reads the user's OpenAPI documents (kubernetes.openapi in .skewguard.yaml, lsp-lint --kubernetes-openapi): bounded,
// regular files only, a .skewguard.yaml entry only inside the checked roots; the engine judges from what is read
// (engine/families/kubernetes/data/openapi.ts). A document that cannot be used is said, never passed over.
import * as path from 'node:path';
import { readFileUpTo, whyNotRead } from '../shared/bounded-read';
import { MAX_FILE_BYTES } from '../shared/limits';
import { readOpenapiDocument, type OpenapiDoc } from '../engine/families/kubernetes/data/openapi';

export type OpenapiRead = { file: string; doc: OpenapiDoc } | { problem: string };

/** One document: `written` relative to `base`; `inside` (for a config file's entries) says whether it may be read. */
export function readOpenapiFile(minor: string, written: string, base: string, inside?: (p: string) => boolean): OpenapiRead {
  const abs = path.resolve(base, written);
  const what = `OpenAPI document for Kubernetes ${minor} ${JSON.stringify(written)}`;
  if (inside && !inside(abs)) return { problem: `${what} is outside the workspace: not read` };
  const r = readFileUpTo(abs, MAX_FILE_BYTES);
  if (!('bytes' in r)) return { problem: `${what} cannot be read: ${'code' in r && r.code === 'ENOENT' ? 'no such file' : whyNotRead(r, MAX_FILE_BYTES)}` };
  const d = readOpenapiDocument(r.bytes.toString('utf8'));
  if ('error' in d) return { problem: `${what}: ${d.error}` };
  return { file: written, doc: d.doc };
}
