#!/usr/bin/env node
// Generates the committed JSON Schemas under schemas/ from the repository's data/ files only
// (never ../shared), so CI can check them (test/schemas-fresh.test.mjs).
//
//   node scripts/gen-schemas.mjs      (npm run gen:schemas)  writes the files and deletes stale
//                                     files under each family's output directory
//   import { generateSchemas } ...    returns Map<relativePath, exact file contents>
//
// A schema family is a module in scripts/schemas/ exporting
//   family: string, outputDir: string (repo-relative, e.g. "schemas/starlingx"),
//   generate(repoRoot): Map<relativePath, contents>   (paths must lie inside outputDir)
// Add new families (Kubernetes, Kata, ...) to FAMILIES below.
import fs from 'node:fs';
import path from 'node:path';
import { writeChanged } from './lib/generated.mjs';
import { fileURLToPath } from 'node:url';
import * as starlingx from './schemas/starlingx.mjs';
import * as kubernetes from './schemas/kubernetes.mjs';
import * as kata from './schemas/kata.mjs';
import * as kataPersist from './schemas/kata-persist.mjs';
import * as kubernetesFields from './schemas/kubernetes-fields.mjs';
import * as config from './schemas/config.mjs';

export const FAMILIES = [starlingx, kubernetes, kata, kataPersist, kubernetesFields, config];

const defaultRoot = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** @returns {Map<string, string>} repo-relative POSIX path -> exact file contents, sorted by path */
export function generateSchemas(repoRoot = defaultRoot) {
  const all = new Map();
  for (const fam of FAMILIES) {
    for (const [rel, contents] of fam.generate(repoRoot)) {
      if (!rel.startsWith(`${fam.outputDir}/`)) {
        throw new Error(`gen-schemas: family ${fam.family} produced ${rel} outside ${fam.outputDir}/`);
      }
      if (all.has(rel)) throw new Error(`gen-schemas: ${rel} generated twice`);
      all.set(rel, contents);
    }
  }
  return new Map([...all].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)));
}

/** Every file below dir (repo-relative POSIX paths). */
export function listFiles(repoRoot, dir) {
  const abs = path.join(repoRoot, dir);
  if (!fs.existsSync(abs)) return [];
  const out = [];
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) out.push(...listFiles(repoRoot, rel));
    else out.push(rel);
  }
  return out.sort();
}

function removeEmptyDirs(abs) {
  if (!fs.existsSync(abs)) return;
  for (const entry of fs.readdirSync(abs, { withFileTypes: true })) {
    if (entry.isDirectory()) removeEmptyDirs(path.join(abs, entry.name));
  }
  if (fs.readdirSync(abs).length === 0) fs.rmdirSync(abs);
}

function main() {
  const repoRoot = defaultRoot;
  const files = generateSchemas(repoRoot);
  const changed = writeChanged(repoRoot, files);
  for (const rel of changed) console.log(`wrote ${rel}`);
  const written = changed.length;
  let removed = 0;
  for (const fam of FAMILIES) {
    for (const rel of listFiles(repoRoot, fam.outputDir)) {
      if (!files.has(rel)) {
        fs.rmSync(path.join(repoRoot, rel));
        removed++;
        console.log(`removed stale ${rel}`);
      }
    }
    removeEmptyDirs(path.join(repoRoot, fam.outputDir));
  }
  console.log(`${files.size} schema files (${written} written, ${removed} removed)`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
