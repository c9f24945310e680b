// Loads the versioned facts (data/) and the generated schemas (schemas/) from the package on disk.
// Loaded lazily and once: a run that never sees a StarlingX file never reads StarlingX data. A family's own data
// accessors are in its folder (families/<id>/data/), on loadJson.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { memoIn } from './memo';

function findRoot(): string {
  if (process.env.SKEWGUARD_ROOT) return process.env.SKEWGUARD_ROOT;
  let dir = __dirname;
  for (let i = 0; i < 5; i++) {
    if (fs.existsSync(path.join(dir, 'data')) && fs.existsSync(path.join(dir, 'schemas'))) return dir;
    dir = path.dirname(dir);
  }
  return path.resolve(__dirname, '..');
}

export const packageRoot = findRoot();

const jsonCache = new Map<string, unknown>();
export function loadJson<T>(rel: string): T {
  return memoIn(jsonCache, rel, () => JSON.parse(fs.readFileSync(path.join(packageRoot, rel), 'utf8'))) as T;
}

export function jsonExists(rel: string): boolean {
  return fs.existsSync(path.join(packageRoot, rel));
}

export function schemaPath(family: string, version: string, name: string): string {
  return `schemas/${family}/${version}/${name}.schema.json`;
}
