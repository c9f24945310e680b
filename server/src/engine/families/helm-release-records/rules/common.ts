// What the record rules share: the message of a stored API that a step does not serve, and the finding's data.
import type { Finding } from '../../../rules/types';
import { releaseText, subjectOf, type ReleaseRecord, type StoredObject } from '../index';

/** "1.25", "1.25, 1.27", "1.25..1.28": steps of the window, runs written first..last. */
export function stepsText(steps: readonly string[], window: readonly string[]): string {
  if (steps.length <= 2) return steps.join(', ');
  const idx = steps.map((s) => window.indexOf(s));
  return idx.every((x, i) => i === 0 || x === idx[i - 1] + 1) ? `${steps[0]}..${steps[steps.length - 1]}` : steps.join(', ');
}

/** At most this many objects are named in one message; the data lists them all. */
const NAMED = 5;

/** The objects of a record's manifest that some step does not serve, with the steps (window order). */
export function blocked(r: ReleaseRecord, window: readonly string[]): { objects: StoredObject[]; steps: string[] } | undefined {
  const objects = r.objects.filter((o) => o.notServedAt.length);
  if (!objects.length) return undefined;
  const at = new Set(objects.flatMap((o) => o.notServedAt));
  return { objects, steps: window.filter((s) => at.has(s)) };
}

const objectText = (o: StoredObject) => `${o.apiVersion} ${o.kind} ${o.name}${o.why ? ` (${o.why})` : ''}`;

/** "stores policy/v1beta1 PodDisruptionBudget db-pdb (removed in Kubernetes 1.25) and …". */
export function storesText(objects: StoredObject[]): string {
  const named = objects.slice(0, NAMED).map(objectText);
  const more = objects.length - named.length;
  const list = named.length > 1 ? `${named.slice(0, -1).join(', ')}${more ? ', ' : ' and '}${named[named.length - 1]}` : named[0];
  return `stores ${list}${more ? ` and ${more} more object${more === 1 ? '' : 's'} no step of the window serves` : ''}`;
}

export function recordFinding(r: ReleaseRecord, b: { objects: StoredObject[]; steps: string[] }, message: string): Finding {
  return {
    message,
    range: r.range,
    data: {
      subject: subjectOf(r), release: r.name, namespace: r.namespace ?? null, revision: r.revision ?? null, status: r.status ?? null,
      chart: r.chart ?? null, record: r.objectName, steps: b.steps,
      objects: b.objects.map((o) => ({ apiVersion: o.apiVersion, kind: o.kind, name: o.name, notServedAt: o.notServedAt, removedIn: o.removedIn ?? null })),
    },
  };
}

export { releaseText };
