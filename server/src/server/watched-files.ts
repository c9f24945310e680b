// workspace/didChangeWatchedFiles: files changed on disk. A .skewguard.yaml, a localhost.yml or a chart's file
// re-reads the workspace facts and re-checks everything (their open buffers apply to other files only once saved);
// plain manifests only touch the CRD index, their folder's static pods and the files published while closed.
import * as path from 'node:path';
import { debounce } from './config-for';
import { schedule } from './diagnostics';
import { recheckClosed } from './recheck';
import { revalidateAll } from './document-sync';
import { families } from '../engine/families/registry';
import type { FamilyModule } from '../engine/families/types';
import { connection, documents, ws, files, checkedRoots, services, uriToPath, affectsWorkspace, isConfigFile } from './session';

// Watched-file events are coalesced (issue #25 item 9): each notification only notes what changed (O(1)); the work is
// done WATCHED_COALESCE_MS after the last one (at most WATCHED_MAX_WAIT_MS after the first of a stream), and the
// re-checks it starts run one document per turn of the event loop (a hover is answered between two), a newer batch
// cancelling the re-checks the older one had not run yet. 20,000 notifications each re-checking every open file at
// once left hover unanswered for seconds.
const WATCHED_COALESCE_MS = 50;
const WATCHED_MAX_WAIT_MS = 1000;
let watchedPending: { all: boolean; manifests: Set<string>; since: number } | undefined;
let watchedTimer: NodeJS.Timeout | undefined;

export function registerWatchedFiles(): void {
  connection.onDidChangeWatchedFiles((p) => {
    files.invalidate();
    const pending = (watchedPending ??= { all: false, manifests: new Set(), since: Date.now() });
    // Only manifests changed (no .skewguard.yaml, localhost.yml or chart file): only the workspace's CRD index may be stale.
    if (p?.changes?.length && p.changes.every((c) => onlyManifest(c.uri))) {
      if (!pending.all) for (const c of p.changes) { if (pending.manifests.size >= 20000) { pending.all = true; break; } pending.manifests.add(c.uri); }
    } else {
      // .skewguard.yaml, a localhost.yml or a chart's file changed on disk: reload facts and re-check open files.
      pending.all = true;
      pending.manifests.clear();
    }
    if (watchedTimer) clearTimeout(watchedTimer);
    watchedTimer = setTimeout(flushWatched, Math.max(0, Math.min(WATCHED_COALESCE_MS, pending.since + WATCHED_MAX_WAIT_MS - Date.now())));
  });
}

function flushWatched(): void {
  watchedTimer = undefined;
  const pending = watchedPending;
  watchedPending = undefined;
  if (!pending) return;
  files.invalidate();
  checkedRoots.invalidate(); // any created or deleted path may be a link now, or no longer one
  if (pending.all) { revalidateAll(true); return; }
  // The root indexes are told of every changed manifest; the files are re-checked once for the whole batch (each changed
  // CRD file re-scheduled every open file and restarted the whole closed re-check: N times the work for N files).
  let indexes = false;
  const folders = new Set<string>();
  for (const uri of pending.manifests) {
    const f = uriToPath(uri);
    // The families' root indexes (the CRDs and custom resources, unless the file is open: its buffer wins; the pins and
    // deployments, read from the disk whatever is open: a saved pin changes the others' windows and findings, a saved
    // deployment, ConfigMap or values file what the charts it deploys render with): each reads this file again.
    if (ws.around.changed(f)) indexes = true;
    // A folder's static pods are read from the disk (issue #27 item 1): a saved one re-reads them for the folder's files.
    if (ws.around.hasFolderFacts(path.dirname(f))) { ws.around.invalidateFolder(path.dirname(f)); folders.add(path.dirname(f)); }
  }
  if (indexes) { for (const d of documents.all()) schedule(d, debounce()); recheckClosed(); return; }
  if (folders.size) for (const d of documents.all()) if (folders.has(path.dirname(uriToPath(d.uri)))) schedule(d, debounce());
  // A file whose findings were published while it was not open changed on disk: its findings are checked again.
  recheckClosed([...pending.manifests]);
}

/**
 * A watched-file change that is a plain manifest's: not a configuration, a bootstrap file, a file a configuration read,
 * or a file whose family says its change reaches other files (FamilyModule.changeReachesOthers: a Helm chart's).
 */
const reachingOthers = (families as readonly FamilyModule[]).filter((f) => f.changeReachesOthers);
const onlyManifest = (uri: string) => /\.(ya?ml|json)$/i.test(uri) && !affectsWorkspace(uri) && !isConfigFile(uri) && !services.some((s) => s.readsForConfig?.(uriToPath(uri)))
  && !reachingOthers.some((f) => f.changeReachesOthers!(uriToPath(uri)));
