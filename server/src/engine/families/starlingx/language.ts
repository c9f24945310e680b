// Hover and completion over a StarlingX localhost.yml: keys of the release, kubernetes_version states and upgrades.
import type { Position } from '../../types';
import type { AnalyzeResult } from '../../analyze';
import type { CompletionResult, HoverResult } from '../../language';
import { LineIndex, own } from '../../text';
import { versionStates, type StarlingxContext } from './index';
import { schemaPath } from '../../data';
import { starlingxKeys, starlingxReleases, starlingxPath } from './data';
import type { InlayHint } from '../types';
import { schemaFor } from '../../schema';
import { compareVersions } from '../../versions';

export function stxHover(ctx: StarlingxContext, text: string, pos: Position): HoverResult | undefined {
  const lines = new LineIndex(text);
  const off = lines.offsetAt(pos);
  const entry = ctx.doc.topLevelEntries().find((e) => (off >= e.keyRange.start && off <= e.keyRange.end) || (off >= e.valueRange.start && off <= e.valueRange.end));
  if (!entry) return undefined;
  const range = lines.range(entry.keyRange.start, entry.keyRange.end);
  if (entry.key === 'kubernetes_version') return { markdown: kubeVersionHover(ctx), range };
  const rel = ctx.release.release;
  const schemaProp = own<any>(ctx.schema?.properties, entry.key);
  const row = starlingxKeys().keys.find((k) => k.key === entry.key);
  if (!row) return undefined;
  const parts = [`**${entry.key}** — StarlingX bootstrap override`, ''];
  parts.push(row.description || '');
  parts.push('');
  if (schemaProp) {
    const d = schemaProp.default ?? row.defaults?.[rel];
    parts.push(`Read by StarlingX ${rel}${d !== undefined ? `; default: \`${JSON.stringify(d)}\`` : ''}.`);
    if (Array.isArray(schemaProp.enum)) parts.push(`Allowed: ${schemaProp.enum.map((x: unknown) => `\`${x}\``).join(', ')}.`);
  } else if (!ctx.schema) {
    parts.push(`StarlingX ${rel} is not in the key data: whether it reads this key is not known (not checked).`);
  } else {
    parts.push(`**Not read by StarlingX ${rel}.**`);
  }
  parts.push(`Releases that read it: ${row.releases.join(', ')}.`);
  return { markdown: parts.join('\n'), range };
}

export function kubeVersionHover(ctx: StarlingxContext): string {
  const rel = ctx.release;
  const kv = ctx.kubernetesVersion();
  const chosen = kv?.normalised && ctx.shipped.includes(kv.normalised) ? kv.normalised : undefined;
  const installed = chosen ?? rel.default;
  const out = [`**kubernetes_version** — StarlingX ${rel.release} (${ctx.releaseSource.kind}: ${ctx.releaseSource.detail})`, ''];
  if (rel.override === 'not-supported') out.push(`StarlingX ${rel.release} does not honour this override: ${rel.overrideNote ?? ''}`, '');
  if (!chosen && kv?.text) out.push(`\`${kv.text}\` is not shipped by this release; states below assume the default ${rel.default}.`, '');
  out.push(`States in \`system kube-version-list\` right after installing **${installed}**:`, '', '| version | state | |', '|---|---|---|');
  for (const s of versionStates(rel, installed)) {
    const marks = [s.version === rel.default ? 'default' : '', s.note ?? ''].filter(Boolean).join('; ');
    out.push(`| ${s.version} | ${s.state} | ${marks} |`);
  }
  const path = ctx.upgradesAfter(installed);
  out.push('');
  out.push(path.length ? `Upgrade path to the newest, one minor at a time: ${[installed, ...path].join(' → ')} (${path.length} upgrade${path.length === 1 ? '' : 's'}).` : `${installed} is the newest version this release ships.`);
  // Only where the playbooks take the value: 3.0 – 5.0 replace it with the kubeadm template's version.
  if (!rel.keysReplaced?.some((r) => r.key === 'kubernetes_version')) out.push('', 'Write it as plain `X.Y.Z` (no `v`): it names the directory `/usr/local/kubernetes/X.Y.Z`.');
  return out.join('\n');
}

/** kubernetes_version values shipped by the release, and the keys its schema reads that the file does not have yet. */
export function stxComplete(result: AnalyzeResult, text: string, pos: Position): CompletionResult[] {
  if (result.family !== 'starlingx') return [];
  const lines = new LineIndex(text);
  const line = lines.lineText(pos.line);
  const before = line.slice(0, pos.character);
  const lineStart = lines.lineStart(pos.line);
  const rel = result.stx?.release ?? result.config?.starlingx.release ?? starlingxReleases().releases[starlingxReleases().releases.length - 1];
  const m = /^(\s*)kubernetes_version\s*:\s*(["']?)([^"'#]*)$/.exec(before);
  if (m) {
    const valueStart = lineStart + before.length - m[3].length;
    let valueEnd = valueStart;
    const restMatch = /^[^"'#\s]*/.exec(line.slice(before.length - m[3].length));
    valueEnd = valueStart + (restMatch ? restMatch[0].length : 0);
    const versions = rel.kubernetes.map((k) => k.version).sort((a, b) => compareVersions(b, a));
    return versions.map((v, i) => ({
      label: v, kind: 'value' as const,
      detail: v === rel.default ? `StarlingX ${rel.release} default` : `shipped by StarlingX ${rel.release}`,
      insertText: v, replace: { start: valueStart, end: valueEnd },
      sortText: v === rel.default ? '0' : `1${String(i).padStart(3, '0')}`, preselect: v === rel.default,
    }));
  }
  const k = /^([A-Za-z0-9_]*)$/.exec(before);
  const schema = result.stx?.schema ?? (rel.hasSchema ? schemaFor(schemaPath('starlingx', rel.release, 'localhost')) : undefined);
  if (k && schema) {
    // Keys already in the file (read from the text: the file may not parse while a key is being typed).
    const present = new Set([...text.matchAll(/^([A-Za-z0-9_]+)[ \t]*:/gm)].map((x) => x[1]));
    const props = schema.properties as Record<string, any>;
    return Object.keys(props).filter((p) => !present.has(p)).sort().map((p) => ({
      label: p, kind: 'property' as const, detail: props[p].type ? String(props[p].type) : undefined,
      documentation: props[p].description, insertText: `${p}: `,
      replace: { start: lineStart, end: lineStart + before.length }, sortText: p,
    }));
  }
  return [];
}

// A plain X.Y.Z only: a `v` prefix is not a version StarlingX takes (starlingx/kubernetes-version-v-prefix says so).
const KUBERNETES_VERSION = /^kubernetes_version[ \t]*:[ \t]*(["']?)(\d+\.\d+\.\d+)\1[ \t]*(?:#.*)?$/m;

/**
 * The inlay hint of a localhost.yml (FamilyModule.inlayHints): after its kubernetes_version, the upgrade path it implies
 * ("→ 1.21.3: 3 upgrades"; none for the newest version, which implies no path).
 */
export function stxInlayHints(result: AnalyzeResult, text: string): InlayHint[] {
  if (result.stx?.release.release === undefined || !result.config) return [];
  const m = KUBERNETES_VERSION.exec(text);
  if (!m) return [];
  const rel = result.config.starlingx.release;
  const version = m[2];
  // A version the release ships and upgrades from (the newest implies no path: no hint).
  const p = rel.kubernetes.some((k) => k.version === version) ? starlingxPath(rel, version) : [];
  const n = p.length - 1;
  if (n <= 0) return [];
  const end = m.index + m[0].replace(/[ \t]*(#.*)?$/, '').length;
  return [{
    position: new LineIndex(text).positionAt(end),
    label: `→ ${p[n]}: ${n} upgrade${n === 1 ? '' : 's'}`,
    tooltip: `StarlingX ${rel.release} upgrades Kubernetes one minor at a time: ${p.join(' → ')}.`,
  }];
}
