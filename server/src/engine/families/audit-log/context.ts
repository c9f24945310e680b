// What the audit-log rules read: the log read once, record by record, into groups of calls (caller × API) that some
// step of the window does not serve or that are deprecated; calls of APIs every step serves are counted, not kept.
import type { ApiRow } from '../kubernetes/data/apis';
import { windowText } from '../../window-text';
import { judgeResource, judgeCall, apiVersionOf, type CallJudgement } from '../kubernetes/cluster-api';
import { eachRecord } from './index';

/** Groups kept per file (callers × APIs with a finding); calls beyond them are counted. */
export const GROUP_LIMIT = 2000;
/** Verbs kept per group. */
const VERB_LIMIT = 16;
/** Characters kept of a caller's user agent, user name or a request URI. */
const TEXT_LIMIT = 240;

export interface CallGroup {
  judgement: CallJudgement;
  apiVersion: string;
  resource: string;
  subresource: string;
  username: string;
  userAgent: string;
  impersonated?: string;
  /** The first event's record (where the finding is said): its span, cut to its first line. */
  range: { start: number; end: number };
  firstVerb: string;
  firstUri: string;
  /** The verbs of the completed events, and of the others (used when the log holds no completed event of the call). */
  verbs: Map<string, number>;
  verbsOther: Map<string, number>;
  /** Events at their last stage (ResponseComplete, Panic) or without a stage: one per call. */
  completed: number;
  /** Events at RequestReceived / ResponseStarted (counted when a log holds no completed event of the call). */
  received: number;
  started: number;
  firstTime?: string;
  lastTime?: string;
  annotated: boolean;
}

export interface Unread { count: number; first?: { start: number; end: number; why: string } }

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? (v.length > TEXT_LIMIT ? `${v.slice(0, TEXT_LIMIT)}…` : v) : '');

export class AuditContext {
  readonly groups: CallGroup[] = [];
  /** Records that are not JSON (or too deep), and records that are JSON but not audit Events. */
  readonly malformed: Unread = { count: 0 };
  readonly notEvents: Unread = { count: 0 };
  /** Events with an objectRef naming no apiVersion (not judged). */
  readonly unversioned: Unread = { count: 0 };
  events = 0;
  /** Events of a resource (objectRef) and of other URLs (/healthz, discovery). */
  resourceEvents = 0;
  /** Calls of groups past GROUP_LIMIT: counted, not reported one by one. */
  droppedEvents = 0;
  private byKey = new Map<string, CallGroup>();
  private judged = new Map<string, CallJudgement | undefined>();

  constructor(readonly path: string, readonly text: string, readonly minors: string[], readonly rows: readonly ApiRow[]) {
    eachRecord(text, (r) => {
      if (r.why !== undefined) return this.note(this.malformed, r.start, r.end, r.why);
      this.event(r.value, r.start, r.end);
    });
    this.byKey.clear();
    this.judged.clear();
  }

  get windowText(): string { return windowText(this.minors); }

  private note(u: Unread, start: number, end: number, why: string) {
    u.count++;
    u.first ??= { start, end: this.firstLineEnd(start, end), why };
  }

  /** The end of the first line of the record [start, end) (native searches within the record only). */
  private firstLineEnd(start: number, end: number): number {
    const r = this.text.slice(start, end);
    const lf = r.indexOf('\n'), cr = r.indexOf('\r');
    const at = lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
    return at < 0 ? end : start + at;
  }

  private event(v: unknown, start: number, end: number) {
    if (!isObj(v) || v.kind !== 'Event' || typeof v.apiVersion !== 'string' || !v.apiVersion.startsWith('audit.k8s.io/')) {
      return this.note(this.notEvents, start, end, isObj(v) ? `kind ${JSON.stringify(str(v.kind) || null)}, apiVersion ${JSON.stringify(str(v.apiVersion) || null)}` : 'not a JSON object');
    }
    this.events++;
    const ref = v.objectRef;
    if (!isObj(ref) || typeof ref.resource !== 'string' || !ref.resource) return;
    this.resourceEvents++;
    const version = typeof ref.apiVersion === 'string' ? ref.apiVersion : '';
    if (!version) return this.note(this.unversioned, start, end, `objectRef of ${str(ref.resource)} names no apiVersion`);
    const group = typeof ref.apiGroup === 'string' ? ref.apiGroup : '';
    const apiVersion = apiVersionOf(group, version);
    const resource = str(ref.resource);
    const ann = isObj(v.annotations) ? v.annotations : {};
    const deprecated = ann['k8s.io/deprecated'] === 'true';
    const removed = typeof ann['k8s.io/removed-release'] === 'string' ? ann['k8s.io/removed-release'] as string : undefined;
    const jk = `${apiVersion}\u0000${resource}\u0000${deprecated}\u0000${removed ?? ''}`;
    let j = this.judged.get(jk);
    if (!this.judged.has(jk)) {
      j = judgeCall(judgeResource(this.rows, this.minors, apiVersion, resource), this.minors, { removedRelease: removed, deprecated, says: 'the audit annotation k8s.io/removed-release' });
      if (this.judged.size < 10000) this.judged.set(jk, j);
    }
    if (!j) return;
    const user = isObj(v.user) ? str(v.user.username) : '';
    const agent = str(v.userAgent);
    const sub = typeof ref.subresource === 'string' ? str(ref.subresource) : '';
    const key = `${user}\u0000${agent}\u0000${apiVersion}\u0000${resource}\u0000${sub}`;
    let g = this.byKey.get(key);
    if (!g) {
      if (this.groups.length >= GROUP_LIMIT) { this.droppedEvents++; return; }
      const imp = isObj(v.impersonatedUser) ? str(v.impersonatedUser.username) : '';
      g = {
        judgement: j, apiVersion, resource, subresource: sub, username: user, userAgent: agent, ...(imp ? { impersonated: imp } : {}),
        range: { start, end: this.firstLineEnd(start, end) }, firstVerb: str(v.verb), firstUri: str(v.requestURI),
        verbs: new Map(), verbsOther: new Map(), completed: 0, received: 0, started: 0, annotated: deprecated || !!removed,
      };
      this.byKey.set(key, g);
      this.groups.push(g);
    }
    // The API server's own word, when a later event of the group carries it and the first did not (RequestReceived
    // events are written before the annotations are known).
    if (!g.annotated && (deprecated || removed)) { g.judgement = j; g.annotated = true; }
    const verb = str(v.verb) || '?';
    const stage = v.stage;
    const done = stage !== 'RequestReceived' && stage !== 'ResponseStarted';
    const verbs = done ? g.verbs : g.verbsOther;
    if (verbs.has(verb) || verbs.size < VERB_LIMIT) verbs.set(verb, (verbs.get(verb) ?? 0) + 1);
    if (stage === 'RequestReceived') g.received++;
    else if (stage === 'ResponseStarted') g.started++;
    else g.completed++;
    const ts = typeof v.requestReceivedTimestamp === 'string' ? v.requestReceivedTimestamp : typeof v.stageTimestamp === 'string' ? v.stageTimestamp : undefined;
    if (ts && ts.length <= 40) {
      if (!g.firstTime || ts < g.firstTime) g.firstTime = ts;
      if (!g.lastTime || ts > g.lastTime) g.lastTime = ts;
    }
  }

  /** How many calls a group stands for: its completed events, else (a log without them) its received or started ones. */
  static calls(g: CallGroup): number { return g.completed || g.received || g.started; }

  /** The verbs of the calls counted (completed events, else the others). */
  static verbs(g: CallGroup): Map<string, number> { return g.completed ? g.verbs : g.verbsOther; }

  /** "backup-operator/2.3.1 (linux/amd64) as system:serviceaccount:backup:backup-operator" */
  static caller(g: CallGroup): string {
    return `${g.userAgent ? `"${g.userAgent}"` : 'a caller with no user agent'} as ${g.username || 'an unnamed user'}${g.impersonated ? ` impersonating ${g.impersonated}` : ''}`;
  }

  /** "list ×40, watch ×2 batch/v1beta1 cronjobs (CronJob), 42 calls from … to …; first: list /apis/…" */
  static what(g: CallGroup): string {
    const n = AuditContext.calls(g);
    const byVerb = AuditContext.verbs(g);
    const verbs = [...byVerb].map(([v, c]) => (byVerb.size > 1 || c > 1 ? `${v} ×${c}` : v)).join(', ');
    const res = `${g.apiVersion} ${g.resource}${g.subresource ? `/${g.subresource}` : ''}${g.judgement.what ? ` (${g.judgement.what})` : ''}`;
    const when = g.firstTime && g.lastTime && g.firstTime !== g.lastTime ? ` from ${g.firstTime} to ${g.lastTime}` : g.firstTime ? ` at ${g.firstTime}` : '';
    return `${verbs} ${res}, ${n} call${n === 1 ? '' : 's'}${when}; first: ${g.firstVerb || '?'} ${g.firstUri || '(no requestURI)'}`;
  }

  static data(g: CallGroup): Record<string, unknown> {
    return {
      ...g.judgement.data, ...(g.subresource ? { subresource: g.subresource } : {}),
      userAgent: g.userAgent, username: g.username, ...(g.impersonated ? { impersonatedUser: g.impersonated } : {}),
      calls: AuditContext.calls(g), verbs: Object.fromEntries(AuditContext.verbs(g)), requestURI: g.firstUri,
      ...(g.firstTime ? { firstSeen: g.firstTime, lastSeen: g.lastTime } : {}),
    };
  }
}
