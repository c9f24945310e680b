// Rules that belong to no file family: they are raised by the engine itself, not by a check over a parsed file.
import type { RuleMeta } from '../types';

export const parseError: RuleMeta = {
  id: 'syntax/parse-error',
  family: 'general',
  defaultSeverity: 'error',
  title: 'File cannot be parsed',
  what: 'Reports YAML or JSON that does not parse, once, at the position of the first error in each document. '
    + 'An unclosed quote or flow collection is reported at the quote or bracket that is not closed (not where the reader ran out of text). '
    + 'Other documents of the same file and other files are still checked, and a manifest whose `apiVersion` and `kind` come before the error '
    + 'is still checked for its API version (without fixes).',
  why: 'Ansible, kubectl and the Kata runtime refuse the whole file; a syntax error found at deploy time stops the upgrade.',
  bad: { filename: 'localhost.yml', text: 'docker_registries:\n  docker.elastic.co\n    url: my.registry.io\n' },
  good: { filename: 'localhost.yml', text: 'docker_registries:\n  docker.elastic.co:\n    url: my.registry.io\n' },
  fix: 'none',
  suppressible: false,
  docs: {
    suppressing: 'A file that does not parse cannot be checked, so parse errors are never suppressed by a comment: fix the syntax.',
  },
  sources: ['YAML 1.1 / 1.2 specification; RFC 8259 (JSON)'],
};

export const duplicateKey: RuleMeta = {
  id: 'syntax/duplicate-key',
  family: 'general',
  defaultSeverity: 'warning',
  title: 'Key given twice in one mapping',
  what: 'Reports a key that appears more than once in the same mapping.',
  why: 'Ansible (PyYAML) and Kubernetes (go-yaml) keep the last value and silently drop the earlier one, so an edit to the '
    + 'first occurrence has no effect — a classic way for an upgrade setting to be lost in a long overrides file.',
  bad: { filename: 'localhost.yml', text: 'system_mode: duplex\ndns_servers:\n  - 8.8.8.8\nsystem_mode: simplex\n' },
  good: { filename: 'localhost.yml', text: 'dns_servers:\n  - 8.8.8.8\nsystem_mode: simplex\n' },
  fix: 'none',
  sources: ['YAML 1.2 §3.2.1.1 (keys are unique); PyYAML and go-yaml keep the last value'],
};

export const unusedSuppression: RuleMeta = {
  id: 'skewguard/unused-suppression',
  family: 'general',
  defaultSeverity: 'warning',
  title: 'Suppression comment that suppresses nothing',
  what: 'Reports a `# skewguard-disable-next-line <rule-id>` or `# skewguard-disable-file <rule-id>` comment that matches no '
    + 'finding, or that names a rule id that does not exist.',
  why: 'A stale suppression hides the next real finding of that rule at that place; a misspelt rule id suppresses nothing at all.',
  bad: { filename: 'localhost.yml', text: '# skewguard-disable-next-line starlingx/unknown-key -- lab only\nsystem_mode: simplex\n' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\n' },
  fix: 'complete',
  suppressible: false,
  docs: {
    suppressing: 'It reports suppression comments themselves, so a suppression comment cannot silence it: remove or correct the comment, or turn the rule off in the configuration.',
  },
  sources: ['skewguard'],
};

export const skippedFile: RuleMeta = {
  id: 'skewguard/skipped-file',
  family: 'general',
  defaultSeverity: 'info',
  title: 'File not checked',
  what: 'Says that a file was not checked and why: binary data, larger than the size limit, or (TOML) a string or an array longer than the parser can read, at its place. `lsp-lint` also reports '
    + 'with it what it could not read (a FIFO, device or socket named as a path, an unreadable file or folder, as an '
    + 'error whatever the severity setting, and the run exits 2), a named folder or glob whose files are all ignored '
    + '(a warning), and a file `--fix` left alone (read-only, several hard links, changed since it was read; a warning).',
  why: 'A file that is silently skipped looks like a file that passed.',
  bad: { filename: 'localhost.yml', text: '(a file that holds NUL bytes)' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\n' },
  fix: 'none',
  suppressible: false,
  docs: {
    suppressing: 'A skipped file is not read, so comments in it are not seen: turn the rule off in the configuration, or exclude the file with `ignore:`.',
  },
  sources: ['skewguard'],
};

export const invalidConfig: RuleMeta = {
  id: 'config/invalid',
  family: 'general',
  defaultSeverity: 'error',
  title: 'Invalid .skewguard.yaml',
  what: 'Reports a `.skewguard.yaml` setting that is unknown, of the wrong type, or names an unknown release, window or rule id. '
    + 'The invalid part is ignored; the rest of the file applies. `lsp-lint` exits with code 2.',
  why: 'A misspelt window silently checks files against the wrong versions.',
  bad: { filename: '.skewguard.yaml', text: 'kubernetes:\n  windw: "1.18..1.21"\n' },
  good: { filename: '.skewguard.yaml', text: 'kubernetes:\n  window: "1.18..1.21"\n' },
  fix: 'none',
  suppressible: false,
  fixedSeverity: true,
  docs: {
    severity: 'Problems in `.skewguard.yaml` are always errors and make `lsp-lint` exit with code 2, whatever `rules:` says: a broken configuration means every other result is checked against the wrong window.',
    suppressing: 'It reports `.skewguard.yaml` itself, which is not a checked file: fix the configuration.',
  },
  sources: ['skewguard'],
};

export const internalError: RuleMeta = {
  id: 'skewguard/internal-error',
  family: 'general',
  defaultSeverity: 'error',
  title: 'skewguard failed while checking the file',
  what: 'Says that skewguard itself failed (an exception) while handling the file, in which stage (`config`, `parse`, `detect`, '
    + '`context`, `rule:<rule-id>`, `suppress`, `facts`, `publish`, `fix`, `hover`, `completion`, `codeAction`, `codeLens`, `inlayHint`), with the '
    + 'error message and the first stack frame of skewguard\'s code. A failing rule does not stop the other rules, whose '
    + 'findings are still reported; a failure before the rules (configuration, parsing, family detection) leaves this '
    + 'diagnostic alone. Fix-all still applies the other rules\' complete fixes when only a rule or a fix failed, and applies '
    + 'nothing when the failure was before the rules or in suppressions. `lsp-lint` exits with code 2.',
  why: 'A file that skewguard could not check must never look like a file that passed; the message is what a bug report needs.',
  bad: { filename: 'localhost.yml', text: '(any file, while a stage of the check throws; the tests force one with SKEWGUARD_FAULT=rule:starlingx/unknown-key)' },
  good: { filename: 'localhost.yml', text: 'system_mode: simplex\n' },
  fix: 'none',
  suppressible: false,
  fixedSeverity: true,
  docs: {
    severity: 'Always an error, whatever `rules:`, `--rule` or `skewguard.rules` say, and `lsp-lint` exits with code 2: a file skewguard failed to check is never reported clean.',
    suppressing: 'A file that skewguard failed to check must not look checked, so no suppression comment silences it (not even one without rule ids): report the message.',
  },
  sources: ['skewguard'],
};

/** The stage where an exception happened and its message, with the first stack frame of skewguard's own code. */
export function describeFailure(stage: string, e: unknown): string {
  const err = e instanceof Error ? e : undefined;
  const msg = err ? `${err.name && err.name !== 'Error' ? `${err.name}: ` : ''}${err.message}` : String(e);
  const at = firstOwnFrame(err?.stack);
  return `internal error in stage ${stage}: ${msg}${at ? ` (at ${at})` : ''}; this file was not fully checked. Please report it with this message.`;
}

/** The first stack frame in skewguard's code (the bundle or its sources), without the directories. */
export function firstOwnFrame(stack: string | undefined): string | undefined {
  if (!stack) return undefined;
  for (const line of stack.split('\n').slice(1)) {
    const m = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/.exec(line);
    if (!m) continue;
    const file = m[2].replace(/\\/g, '/');
    if (file.startsWith('node:') || file.includes('/node_modules/') || m[1] === 'injectFault') continue;
    if (!/\/(dist|server\/src|client\/src)\//.test(file) && !/(server|engine|lsp-lint)\.js$/.test(file)) continue;
    const short = file.replace(/^.*\/(dist|server\/src|client\/src)\//, '$1/');
    return `${m[1] ? `${m[1]} ` : ''}${short}:${m[3]}:${m[4]}`;
  }
  return undefined;
}

export const generalRules: RuleMeta[] = [parseError, duplicateKey, unusedSuppression, skippedFile, invalidConfig, internalError];
