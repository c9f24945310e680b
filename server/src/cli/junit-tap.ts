// lsp-lint --format junit and --format tap: the test reports CI systems read natively (GitLab's `reports: junit`,
// Jenkins' junit step, Azure Pipelines' PublishTestResults, any TAP consumer). One test case per file and step of its
// window (the matrix's cells, cli/matrix.ts): it fails when an error concerns that step, as the html and markdown
// reports' cells do; warnings and notes are listed with it but do not fail it. A file or folder that was not checked
// is one test case in error when an error says so (lsp-lint exits 2), skipped when a warning or note does (a binary
// file); a file of no family with findings is one test case of its own; files skewguard does not check and that have
// nothing to say are left out (they are no test).
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { msg, sevName, printable, count, type FileReport } from './format';
import { buildMatrix, relPath } from './matrix';

interface Case {
  /** The file, relative to the working directory with `/`. */
  file: string;
  family: string;
  /** The step of the file's window, or undefined for a file that has no window. */
  step?: string;
  findings: Diagnostic[];
  /** The file (or folder) was not checked: its findings say why. */
  notChecked: boolean;
}

const where = (file: string, d: Diagnostic) => `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}`;

function cases(reports: FileReport[], cwd: string): Case[] {
  const m = buildMatrix(reports, cwd);
  const out: Case[] = [];
  for (const g of m.groups) {
    for (const row of g.rows) {
      g.steps.forEach((step, i) => out.push({ file: row.rel, family: g.family, step, findings: row.cells[i].findings.map((k) => row.report.diagnostics[k]), notChecked: false }));
    }
  }
  for (const r of m.others) out.push({ file: relPath(cwd, r.file), family: r.family ?? 'other', findings: r.diagnostics, notChecked: !!r.notChecked });
  // A file of a family that was checked but said no steps, and had nothing to say: a passing case, not no case.
  for (const r of reports) if (r.family && !r.notChecked && !r.steps?.length && !r.diagnostics.length) out.push({ file: relPath(cwd, r.file), family: r.family, findings: [], notChecked: false });
  out.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  return out;
}

const NOT_CHECKED = new Set(['skewguard/skipped-file', 'skewguard/internal-error']);
const notCheckedBy = (c: Case) => c.findings.filter((d) => NOT_CHECKED.has(String(d.code)));
/** Not checked, and an error says so (lsp-lint exits 2): the case is in error, not a failure of the file. */
const errored = (c: Case) => notCheckedBy(c).some((d) => sevName(d) === 'error' || d.code === 'skewguard/internal-error');
/** Not checked, and only a warning or note says so (a binary file, an ignored path named on the command line). */
const skipped = (c: Case) => !errored(c) && (c.notChecked || notCheckedBy(c).length > 0);
const failing = (c: Case) => !errored(c) && !skipped(c) && c.findings.some((d) => sevName(d) === 'error');
const caseName = (c: Case) => (c.step === undefined ? c.file : `${c.file} @ ${c.family} ${c.step}`);

// ---- JUnit XML ----

/**
 * Text as XML 1.0 may hold it: the five markup characters as entities; characters XML 1.0 forbids (controls other
 * than tab and line breaks, lone surrogates, U+FFFE/U+FFFF) as printable escapes, since no entity can stand for them;
 * in attributes, tab and line breaks as character references so that a parser keeps them.
 */
export function xml(s: string, attr = false): string {
  // eslint-disable-next-line no-control-regex
  let t = s.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, (ch) => printable(ch) === ch ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}` : printable(ch))
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
  if (attr) t = t.replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;');
  else t = t.replace(/\r/g, '&#13;');
  return t;
}

const line = (file: string, d: Diagnostic) => `${where(file, d)} ${sevName(d)} ${String(d.code ?? '')}: ${msg(d)}`;

export function junit(reports: FileReport[], cwd: string, version: string): string {
  const all = cases(reports, cwd);
  const byFile = new Map<string, Case[]>();
  for (const c of all) { const l = byFile.get(c.file); if (l) l.push(c); else byFile.set(c.file, [c]); }
  const total = { tests: all.length, failures: all.filter(failing).length, errors: all.filter(errored).length, skipped: all.filter(skipped).length };
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  out.push(`<testsuites name="skewguard" tests="${total.tests}" failures="${total.failures}" errors="${total.errors}" skipped="${total.skipped}">`);
  for (const [file, list] of byFile) {
    const f = list.filter(failing).length, e = list.filter(errored).length, k = list.filter(skipped).length;
    out.push(`  <testsuite name="${xml(file, true)}" tests="${list.length}" failures="${f}" errors="${e}" skipped="${k}">`);
    out.push(`    <properties><property name="skewguard.version" value="${xml(version, true)}"/><property name="family" value="${xml(list[0].family, true)}"/></properties>`);
    for (const c of list) {
      const open = `    <testcase classname="${xml(`skewguard.${c.family}`, true)}" name="${xml(caseName(c), true)}" file="${xml(c.file, true)}"${c.findings[0] ? ` line="${c.findings[0].range.start.line + 1}"` : ''}`;
      if (!c.findings.length && !c.notChecked) { out.push(`${open}/>`); continue; }
      out.push(`${open}>`);
      const errors = c.findings.filter((d) => sevName(d) === 'error');
      const others = c.findings.filter((d) => sevName(d) !== 'error');
      if (errored(c) || skipped(c)) {
        const d = notCheckedBy(c)[0] ?? c.findings[0];
        const why = d ? msg(d) : 'not checked';
        const text = xml(c.findings.map((x) => line(c.file, x)).join('\n'));
        if (errored(c)) out.push(`      <error message="${xml(why, true)}" type="${xml(String(d?.code ?? ''), true)}">${text}</error>`);
        else out.push(`      <skipped message="${xml(why, true)}">${text}</skipped>`);
      } else if (errors.length) {
        const first = errors[0];
        const head = `${where(c.file, first)} ${msg(first)}${errors.length > 1 ? ` (and ${errors.length - 1} more error${errors.length === 2 ? '' : 's'})` : ''}`;
        out.push(`      <failure message="${xml(head, true)}" type="${xml(String(first.code ?? ''), true)}">${xml(errors.map((x) => line(c.file, x)).join('\n'))}</failure>`);
      }
      if (others.length && !errored(c) && !skipped(c)) out.push(`      <system-out>${xml(others.map((x) => line(c.file, x)).join('\n'))}</system-out>`);
      out.push('    </testcase>');
    }
    out.push('  </testsuite>');
  }
  out.push('</testsuites>');
  return out.join('\n') + '\n';
}

// ---- TAP ----

/**
 * A test point's description: one line (control characters as escapes, so a file name with a newline cannot start a
 * line of its own, such as a forged `not ok` or plan), with `\` and `#` escaped as TAP 14 says, so a name cannot
 * add a `# SKIP` or `# TODO` directive.
 */
export const tapText = (s: string): string => printable(s).replace(/\\/g, '\\\\').replace(/#/g, '\\#');

/** A YAML double-quoted scalar that stays on one line: JSON's escapes plus those of U+2028/U+2029, DEL and C1. */
// eslint-disable-next-line no-control-regex
const yamlStr = (s: string): string => JSON.stringify(s).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function tap(reports: FileReport[], cwd: string): string {
  const all = cases(reports, cwd);
  const out: string[] = ['TAP version 14', `1..${all.length}`];
  all.forEach((c, i) => {
    const ok = !failing(c) && !errored(c);
    const skip = skipped(c) ? ` # SKIP ${tapText(msg(notCheckedBy(c)[0] ?? c.findings[0]).replace(/\s*\n\s*/g, ' '))}` : '';
    out.push(`${ok ? 'ok' : 'not ok'} ${i + 1} - ${tapText(caseName(c))}${skip}`);
    if (!c.findings.length) return;
    out.push('  ---');
    out.push(`  file: ${yamlStr(c.file)}`);
    out.push(`  family: ${yamlStr(c.family)}`);
    if (c.step !== undefined) out.push(`  step: ${yamlStr(c.step)}`);
    if (errored(c) || skipped(c)) out.push('  notChecked: true');
    out.push('  findings:');
    for (const d of c.findings) {
      out.push(`    - rule: ${yamlStr(String(d.code ?? ''))}`);
      out.push(`      severity: ${sevName(d)}`);
      out.push(`      message: ${yamlStr(msg(d))}`);
      out.push(`      line: ${d.range.start.line + 1}`);
      out.push(`      column: ${d.range.start.character + 1}`);
      out.push(`      endLine: ${d.range.end.line + 1}`);
      out.push(`      endColumn: ${d.range.end.character + 1}`);
    }
    out.push('  ...');
  });
  const n = count(reports);
  out.push(`# skewguard: ${all.length} test${all.length === 1 ? '' : 's'} (files × steps), ${all.filter((c) => !failing(c) && !errored(c)).length} passed; ${n.errors} error${n.errors === 1 ? '' : 's'}, ${n.warnings} warning${n.warnings === 1 ? '' : 's'}, ${n.infos} info`);
  return out.join('\n') + '\n';
}
