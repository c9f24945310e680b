// Open configuration and bootstrap buffers with unsaved changes that would apply to a file once saved. They are not
// applied (issue #27 item 1: a file's window is a function of the disk, whatever is open, as in lsp-lint); the hover
// and the status item say so. Reads files; runs nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isConfigFileName } from '../shared/names';
import { CONFIG_FILENAMES, type WorkspaceFacts } from '../engine/config';
import { workspaceFacts } from '../engine/families/registry';
import { readConfigDisk, readDisk, unsavedText, withoutBom } from './config-files';
import { anchorOrder } from './anchor-files';
import { isWithin } from '../shared/within';

const { isAnchorName } = workspaceFacts;

/** What the unsaved buffers' check reads of the workspace (WorkspaceState). */
export interface UnsavedWorkspace {
  readonly explicitConfig?: string;
  readonly openTexts: ReadonlyMap<string, string>;
  rootFor(file: string): string | undefined;
  factsFor(file: string): WorkspaceFacts;
}

/**
 * The open .skewguard.yaml buffer with unsaved changes that would apply to a file once saved (the nearest
 * configuration, as configFor looks for it, counting the buffer as if it were saved), or undefined.
 */
export function unsavedConfigFor(ws: UnsavedWorkspace, file: string): string | undefined {
  if (ws.explicitConfig || ![...ws.openTexts.keys()].some((p) => isConfigFileName(p))) return undefined;
  const root = ws.rootFor(file);
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    for (const n of CONFIG_FILENAMES) {
      const p = path.join(dir, n);
      const open = ws.openTexts.get(p);
      const onDisk = fs.existsSync(p);
      if (open !== undefined && (!onDisk || withoutBom(open) !== withoutBom(readConfigDisk(p)))) return p;
      if (onDisk) return undefined;
    }
    if ((root && dir === root) || path.dirname(dir) === dir) return undefined;
  }
}

/**
 * The open bootstrap buffer with unsaved changes that would set the file's window once saved, or undefined:
 * the bootstrap file chosen on disk (factsFor) when its buffer differs from the disk, or a new one, open and not saved,
 * that would be chosen before it (in the file's folder or nearer to it). A bootstrap file's own buffer is its own.
 */
export function unsavedBootstrapFor(ws: UnsavedWorkspace, file: string): string | undefined {
  if (isAnchorName(file)) return undefined;
  const open = [...ws.openTexts.keys()].filter((p) => isAnchorName(p));
  if (!open.length) return undefined;
  const root = ws.rootFor(file) ?? path.dirname(file);
  const l = ws.factsFor(file).localhost;
  const chosen = l && path.resolve(root, l.path);
  if (chosen && ws.openTexts.has(chosen) && withoutBom(ws.openTexts.get(chosen)) !== withoutBom(readDisk(chosen))) return chosen;
  // A new bootstrap file not saved yet: in the file's folder or a parent up to the root, nearer than the chosen one.
  const dir = path.dirname(file);
  const chosenDir = chosen && path.dirname(chosen);
  const nearer = (p: string) => !chosenDir || !isWithin(dir, chosenDir) || path.dirname(p).length > chosenDir.length
    || (path.dirname(p) === chosenDir && anchorOrder(path.basename(p), path.basename(chosen!)) < 0);
  return open.filter((p) => isWithin(dir, path.dirname(p)) && isWithin(path.dirname(p), root) && !fs.existsSync(p) && nearer(p))
    .sort((a, b) => path.dirname(b).length - path.dirname(a).length || anchorOrder(path.basename(a), path.basename(b)))[0];
}

/**
 * What the hover and the status item say of the open files with unsaved changes that would apply to a file once saved
 * (its .skewguard.yaml, unsavedConfigFor; its bootstrap file, unsavedBootstrapFor), or undefined: they are not applied.
 */
export function unsavedSaid(ws: UnsavedWorkspace, file: string): string | undefined {
  const root = ws.rootFor(file);
  const c = unsavedConfigFor(ws, file), b = unsavedBootstrapFor(ws, file);
  const said = [c && unsavedText(c, root, 'configuration'), b && unsavedText(b, root, 'bootstrap file')].filter(Boolean);
  return said.length ? said.join(' ') : undefined;
}
