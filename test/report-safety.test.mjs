// Issue #25, 3: every report format is safe to print where it goes. Files named (and holding text) that a CI runner
// would take as workflow commands (`::error …`, `::add-mask::`, `::stop-commands::`, `##[…]`), terminal escape
// sequences, newlines and markup go through EVERY format lsp-lint knows (the list is read from lsp-lint itself, so a
// format added later is covered too): no line of what it prints starts a command, carries an escape or a carriage
// return; github's own annotations are the only `::` lines, each with its values escaped; html carries no markup
// taken from a file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { scratch, lint } from './helpers/cli-run.mjs';

const ING_BETA = 'apiVersion: extensions/v1beta1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  backend:\n    serviceName: web\n    servicePort: 80\n';
// A finding whose message and source excerpt carry file text: an unknown field named like a command.
const HOSTILE_TEXT = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n"::error file=a,line=1::Forged\\u001b[31m<script>x</script>": 1\n::add-mask::secret: 2\n';

const NAMES = [
  '::error file=README.md,line=1,title=Forged::All checks passed.yaml',
  '::add-mask::secret.yaml',
  '  ::stop-commands::tok.yaml',
  '##[error]legacy.yaml',
  '##vso[task.setvariable variable=x]y.yaml',
  '\u001b[2J\u001b]0;title\u0007esc.yaml',
  'line\n::warning::injected.yaml',
  'cr\r::notice::x.yaml',
  '<script>alert(1)<\\script>|*md*`x`.yaml',
];

/** The formats lsp-lint knows, as it says them itself (an unknown one is a usage error listing them). */
function formats(dir) {
  const r = lint(dir, ['-f', 'no-such-format', '.']);
  const m = /use one of ([\w, -]+)/.exec(r.stderr);
  assert.ok(m, r.stderr);
  return m[1].split(',').map((f) => f.trim()).filter(Boolean);
}

const COMMAND = /^[ \t]*(::|##\[|##vso\[)/i;
const GITHUB_ANNOTATION = /^::(error|warning|notice) file=[^:,\n]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:,\n]*::[^\r\n]*$/;

test('hostile file names and contents through every format: no workflow command, no escape sequence, no markup', (t) => {
  const files = { '.skewguard.yaml': 'kubernetes:\n  window: "1.21..1.23"\n', 'hostile-content.yaml': HOSTILE_TEXT };
  for (const n of NAMES) files[n] = ING_BETA;
  const dir = scratch(t, files, 'skewguard-names-');
  for (const n of NAMES) assert.ok(fs.existsSync(path.join(dir, n)), `the file system holds ${JSON.stringify(n)}`);
  const list = formats(dir);
  for (const f of ['stylish', 'json', 'sarif', 'github', 'gitlab', 'html', 'markdown']) assert.ok(list.includes(f), `${f} in ${list}`);
  for (const format of list) {
    for (const color of format === 'stylish' ? ['--no-color', '--color'] : ['--no-color']) {
      const r = lint(dir, ['-f', format, color, '.']);
      assert.ok(r.code === 1, `${format}: exit ${r.code}\n${r.stderr}`);
      for (const [where, text] of [['stdout', r.stdout], ['stderr', r.stderr]]) {
        const what = `${format} ${color} ${where}`;
        assert.doesNotMatch(text, /\r/, `${what}: a carriage return`);
        assert.doesNotMatch(text, /[\u0007\u009b]/, `${what}: a control character`);
        // --color: stylish's own SGR sequences only (ESC [ digits ; m).
        assert.doesNotMatch(text.replace(color === '--color' && where === 'stdout' ? /\u001b\[[\d;]*m/g : /$^/g, ''), /\u001b/, `${what}: an escape sequence`);
        for (const line of text.split('\n')) {
          if (format === 'github' && where === 'stdout' && line.startsWith('::')) assert.match(line, GITHUB_ANNOTATION, `${what}: an annotation whose values are not escaped`);
          else assert.doesNotMatch(line.replace(/\u001b\[[\d;]*m/g, ''), COMMAND, `${what}: a line that starts a workflow command: ${JSON.stringify(line)}`);
        }
      }
      if (format === 'html') assert.doesNotMatch(r.stdout, /<script|<\\script/i, 'markup taken from a file');
      // Every hostile file is in the report (escaped, not dropped).
      if (format === 'json') assert.deepEqual(JSON.parse(r.stdout).map((x) => path.basename(x.filePath)).filter((n) => NAMES.includes(n)).sort(), [...NAMES].sort());
    }
  }
});
