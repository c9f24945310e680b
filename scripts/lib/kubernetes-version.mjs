// The one reading of a Kubernetes version string, and the minor arithmetic, for the importers: normalizeKubernetesVersion
// (normalizeVersion), compareMinor and minorsBetween of server/src/engine/versions.ts, taken from the built engine (dist/engine.js) so
// that data and product agree.
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const enginePath = path.join(path.dirname(path.dirname(path.dirname(fileURLToPath(import.meta.url)))), 'dist', 'engine.js');
if (!fs.existsSync(enginePath)) throw new Error('dist/engine.js not found: run `npm run build` first');

// The engine calls its reader normalizeVersion (it reads StarlingX and component versions too); the importers read
// Kubernetes versions with it.
export const { normalizeVersion: normalizeKubernetesVersion, compareMinor, minorsBetween } = createRequire(import.meta.url)(enginePath);
