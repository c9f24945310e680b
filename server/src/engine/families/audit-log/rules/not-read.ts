import type { Rule } from '../../../rules/types';
import { AuditContext, GROUP_LIMIT } from '../context';

export const rule: Rule<AuditContext> = {
  id: 'k8s/audit-not-read',
  family: 'audit-log',
  defaultSeverity: 'warning',
  title: 'Audit log (or part of it) not read',
  what: 'Says, once per file and at the first place, what of an audit log was not read: records that are not JSON (a cut line, the legacy text format, bad bytes), records nested too deeply, '
    + `JSON records that are not audit.k8s.io Events, events whose objectRef names no apiVersion, a log with no event at all, and the calls of callers × APIs past the first ${GROUP_LIMIT} with a finding; each with how many.`,
  why: 'A record that is not read is not checked: a call to a removed API that a cut line hides would pass silently.',
  bad: { filename: 'audit.log', text: '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/pods","verb":"list","objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"}}\n{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"2","stage":"Respon\n' },
  good: { filename: 'audit.log', text: '{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/pods","verb":"list","objectRef":{"resource":"pods","namespace":"default","apiVersion":"v1"}}\n' },
  fix: 'none',
  sources: ['Kubernetes auditing (audit.k8s.io/v1 Event; the log backend writes one JSON object per line)'],
  check(ctx, report) {
    const say = (u: AuditContext['malformed'], one: string, many: string) => {
      if (!u.count || !u.first) return;
      report({
        message: `${u.count === 1 ? one : `${u.count} ${many}`} not read (the first: ${u.first.why}); ${ctx.events ? 'the rest of the log is checked' : 'no audit event was read in this file'}`,
        range: { start: u.first.start, end: u.first.end },
        data: { notChecked: true, records: u.count },
      });
    };
    say(ctx.malformed, 'a record that is not JSON is', 'records that are not JSON are');
    say(ctx.notEvents, 'a JSON record that is not an audit.k8s.io Event is', 'JSON records that are not audit.k8s.io Events are');
    say(ctx.unversioned, 'an event whose objectRef names no apiVersion is', 'events whose objectRef names no apiVersion are');
    if (!ctx.events && !ctx.malformed.count && !ctx.notEvents.count) report({ message: 'not checked: this audit log holds no event', range: { start: 0, end: 0 }, data: { notChecked: true } });
    if (ctx.droppedEvents) {
      const last = ctx.groups[ctx.groups.length - 1];
      report({ message: `${ctx.droppedEvents} more events of other callers × APIs with a finding are not reported one by one (the first ${GROUP_LIMIT} groups are)`, range: last.range, data: { notChecked: true, events: ctx.droppedEvents } });
    }
  },
};
