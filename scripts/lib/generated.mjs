// Writing generated files (schemas, docs): only files whose content changed are touched, so mtimes stay stable.
import fs from 'node:fs';
import path from 'node:path';

/** Writes each changed file of `files` (relative path -> content) under `root`; returns the relative paths written. */
export function writeChanged(root, files) {
  const written = [];
  for (const [rel, contents] of files) {
    const abs = path.join(root, rel);
    if (fs.existsSync(abs) && fs.readFileSync(abs, 'utf8') === contents) continue;
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, contents);
    written.push(rel);
  }
  return written;
}
