// The reference folder every import script reads (SOURCES.md in each of its folders): ../shared/reference next to the
// repository, or the folder SKEWGUARD_REFERENCE names. One variable for every script (regen-data.mjs passes it on).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The reference folder, absolute. */
export const referenceDir = path.resolve(process.env.SKEWGUARD_REFERENCE ?? path.join(repoRoot, '..', 'shared', 'reference'));

/** One of its folders ("kubernetes", "containerd" …). */
export const referenceOf = (folder) => path.join(referenceDir, folder);
