// Helpers shared by the schema-family generators (scripts/schemas/<family>.mjs).
import fs from 'node:fs';
import path from 'node:path';

/** Exact file contents for a generated JSON file: 2-space indent, trailing newline. */
export function toJsonFile(value) {
  return JSON.stringify(value, null, 2) + '\n';
}

/** Reads a JSON file of the repository (generators read only the repo's own data/). */
export function readRepoJson(repoRoot, relPath) {
  return JSON.parse(fs.readFileSync(path.join(repoRoot, relPath), 'utf8'));
}

/** "5.0" < "10.0" < "master" */
export function compareReleases(a, b) {
  if (a === b) return 0;
  if (a === 'master') return 1;
  if (b === 'master') return -1;
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}

/** ["5.0","6.0","7.0","9.0"] within order [...] -> "5.0–7.0, 9.0" */
export function releaseRanges(list, order) {
  const idx = list.map((r) => order.indexOf(r)).sort((a, b) => a - b);
  const parts = [];
  for (let i = 0; i < idx.length; i++) {
    let j = i;
    while (j + 1 < idx.length && idx[j + 1] === idx[j] + 1) j++;
    parts.push(i === j ? order[idx[i]] : `${order[idx[i]]}–${order[idx[j]]}`);
    i = j;
  }
  return parts.join(', ');
}

/** Ansible's `| bool` accepts these strings as well as real YAML booleans. */
export const ANSIBLE_BOOL_STRINGS = ['True', 'False', 'true', 'false', 'yes', 'no', 'Yes', 'No'];
