// The findings of k8s/cr-unknown-field and k8s/cr-invalid-value for custom resources judged against the bundled
// operator data (families/kubernetes/operator-schema.ts) instead of a workspace CRD. Every message says which source
// judged it ("cert-manager 1.14 fields, bundled").
import type { Report, FindingFix } from '../../../rules/types';
import type { KubernetesContext } from '../index';
import { bundledIssues, judgedText, type BundledIssue, type BundledTarget } from '../operator-schema';
import { operatorIndex } from '../data/operators';
import { relPath, reportSchemaValue } from './cr-common';


/** "from 1.14", "up to 1.5", "in 1.3..1.7": the releases that accept a field, said. */
function acceptedText(op: string, ranges: string[]): string {
  const ids = operatorIndex().operators[op].releaseIds;
  const first = ids[0], last = ids[ids.length - 1];
  return ranges.map((r) => {
    const [a, b = a] = r.split('..');
    if (b === last && a !== first) return `from ${a}`;
    if (a === first && b !== last) return `up to ${b}`;
    return a === b ? `in ${a}` : `in ${a}..${b}`;
  }).join(', ');
}

const noVersion = (t: BundledTarget) => {
  const ids = operatorIndex().operators[t.op].releaseIds;
  const why = t.fallback === 'outside' ? `${t.versionSource} is not among the ${t.op} releases bundled (${ids[0]}..${ids[ids.length - 1]})`
    : t.fallback === 'unserved' ? `${t.versionSource} does not serve ${t.o.apiVersion} ${t.o.kind} with a schema`
      : `no ${t.op} version is known (kubernetes.components.${t.op} or --component-versions ${t.op}=…)`;
  return `${why}, so it was read against the fields of every bundled ${t.op} release serving ${t.version} (${judgedText(t)}), none of which accepts it`;
};

function common(x: BundledIssue) {
  return { operator: x.t.op, bundled: true, ...(x.t.versionSource ? { versionFrom: x.t.versionSource } : {}) };
}

export function reportBundledFields(ctx: KubernetesContext, report: Report): void {
  const text = ctx.file.text;
  for (const x of bundledIssues(ctx)) {
    const { o } = x.t;
    if (x.kind === 'not-checked') {
      const whole = x.path.length === o.at.length + 1 && x.path[x.path.length - 1] === 'apiVersion';
      const loc = whole ? undefined : o.doc.locate(x.path);
      report({
        message: `${o.apiVersion} ${o.kind}: ${whole ? 'its fields are' : `${relPath(o, x.path)} and the rest of this object are`} not checked against the bundled ${x.t.op} data: ${x.why}`,
        range: loc ? loc.key ?? loc.value : o.apiVersionRange,
        severity: 'info',
        data: { ...common(x), notChecked: true, why: x.why },
      });
      continue;
    }
    if (x.kind !== 'unknown' && x.kind !== 'not-at') continue;
    const shown = relPath(o, x.path);
    const loc = o.doc.locate(x.path);
    const range = loc.key ?? loc.value;
    const parent = shown.slice(0, shown.length - x.key.length);
    if (x.kind === 'unknown') {
      const fixes: FindingFix[] = [];
      if (x.suggestion && loc.key) {
        const src = text.slice(loc.key.start, loc.key.end);
        const q = /^["']/.test(src) ? src[0] : '';
        fixes.push({ title: `Rename ${x.key} to ${x.suggestion}`, edits: [{ range: loc.key, newText: `${q}${x.suggestion}${q}` }], destructive: true });
      }
      const judged = x.t.versionKnown
        ? `is not a field of ${o.apiVersion} ${o.kind} at ${x.t.op} ${x.releases.join(', ')} (${x.t.op} ${x.releases.join(', ')} fields, bundled; ${x.t.versionSource}), nor of any other bundled ${x.t.op} release`
        : `is not a field of ${o.apiVersion} ${o.kind} (${x.t.op} fields, bundled): ${noVersion(x.t)}`;
      report({
        message: `${shown} ${judged}; the API server drops it (pruning)${x.suggestion ? `; did you mean ${parent}${x.suggestion}?` : ''}`,
        range, fixes,
        data: { ...common(x), path: shown, releases: x.releases, suggestions: x.suggestion ? [x.suggestion] : [] },
      });
      continue;
    }
    report({
      message: `${shown} is not a field of ${o.apiVersion} ${o.kind} at ${x.t.op} ${x.releases.join(', ')} (${x.t.op} ${x.releases.join(', ')} fields, bundled; ${x.t.versionSource}): ${x.t.op} accepts it ${acceptedText(x.t.op, x.accepted)}; the API server drops it there (pruning)`,
      range,
      data: { ...common(x), path: shown, releases: x.releases, acceptedIn: x.accepted },
    });
  }
}

export function reportBundledValues(ctx: KubernetesContext, report: Report): void {
  const text = ctx.file.text;
  for (const x of bundledIssues(ctx)) {
    if (x.kind !== 'type' && x.kind !== 'enum') continue;
    const { o } = x.t;
    const shown = relPath(o, x.path);
    const range = o.doc.locate(x.path).value;
    const where = `the schema of ${o.apiVersion} ${o.kind} at ${x.t.op} ${x.releases.join(', ')} (${x.t.op} ${x.snapshot} schema, bundled; ${x.t.versionSource})`;
    reportSchemaValue(text, report, shown, range, where, common(x), { releases: x.releases, snapshot: x.snapshot }, x);
  }
}
