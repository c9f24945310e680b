// The Kata TOML TextMate grammar (syntaxes/kata-toml.tmLanguage.json), tokenised with the same engine VS Code
// uses (vscode-textmate + the Oniguruma WASM build): every construct gets its scope, and the real upstream Kata
// templates tokenise without a single invalid token.
import test from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const vsctm = require('vscode-textmate');
const oniguruma = require('vscode-oniguruma');

async function loadGrammar() {
  const wasm = fs.readFileSync(require.resolve('vscode-oniguruma/release/onig.wasm')).buffer;
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({ createOnigScanner: (s) => new oniguruma.OnigScanner(s), createOnigString: (s) => new oniguruma.OnigString(s) }),
    loadGrammar: async (scope) => (scope === 'source.toml.kata'
      ? vsctm.parseRawGrammar(fs.readFileSync(path.join(root, 'syntaxes/kata-toml.tmLanguage.json'), 'utf8'), 'kata-toml.tmLanguage.json')
      : null),
  });
  return registry.loadGrammar('source.toml.kata');
}

function tokenize(grammar, text) {
  let stack = vsctm.INITIAL;
  const out = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const r = grammar.tokenizeLine(line, stack);
    for (const t of r.tokens) out.push({ line: i, start: t.startIndex, end: t.endIndex, text: line.slice(t.startIndex, t.endIndex), lineText: line, scopes: t.scopes });
    stack = r.ruleStack;
  });
  return out;
}

/** The scopes at the first character of the first occurrence of `needle` (in a line that contains it). */
const scopesOf = (tokens, needle) => {
  const t = tokens.find((x) => { const i = x.lineText.indexOf(needle); return i >= 0 && x.start <= i && i < x.end; });
  return t?.scopes ?? [];
};
const scopeOf = (tokens, needle, scope) => assert.ok(scopesOf(tokens, needle).includes(scope), `${needle}: ${scopesOf(tokens, needle).join(' ')} lacks ${scope}`);

test('every TOML construct gets its scope', async () => {
  const g = await loadGrammar();
  const toks = tokenize(g, [
    '# a comment',
    '[hypervisor.qemu]',
    'path = "/usr/bin/qemu-system-x86_64" # trailing',
    "kernel_params = 'literal'",
    'default_vcpus = 17',
    'default_maxvcpus = -1.5e3',
    'enable_debug = true',
    'valid_hypervisor_paths = ["/usr/bin/a", "/usr/bin/b"]',
    'sandbox_cgroup_only = false',
    '[[agent.kata.rules]]',
    'inline = { a = 1, "b" = "x" }',
    'when = 2024-01-02T03:04:05Z',
    'multi = """',
    'line \\n two',
    '"""',
  ].join('\n'));
  scopeOf(toks, '# a comment', 'comment.line.number-sign.toml');
  scopeOf(toks, 'hypervisor.qemu', 'entity.name.section.table.toml');
  scopeOf(toks, 'path', 'variable.other.key.toml');
  scopeOf(toks, '/usr/bin/qemu-system-x86_64', 'string.quoted.double.basic.line.toml');
  scopeOf(toks, "'literal'", 'string.quoted.single.literal.line.toml');
  scopeOf(toks, '17', 'constant.numeric.toml');
  scopeOf(toks, '-1.5e3', 'constant.numeric.toml');
  scopeOf(toks, 'true', 'constant.language.boolean.toml');
  scopeOf(toks, 'agent.kata.rules', 'entity.name.section.table.array.toml');
  scopeOf(toks, '2024-01-02T03:04:05Z', 'constant.other.time.datetime.toml');
  scopeOf(toks, '\\n', 'constant.character.escape.toml');
  assert.ok(toks.filter((t) => t.line === 13).every((t) => t.scopes.includes('string.quoted.triple.basic.block.toml')), 'multi-line string body');
  scopeOf(toks, '# trailing', 'comment.line.number-sign.toml');
});

test('the upstream Kata templates tokenise without invalid tokens', async () => {
  const g = await loadGrammar();
  const dir = path.join(root, 'test/fixtures/kata/config-rendered');
  const files = fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.toml')).map(String);
  assert.ok(files.length >= 30, `expected the rendered templates under ${dir}`);
  for (const f of files) {
    const toks = tokenize(g, fs.readFileSync(path.join(dir, f), 'utf8'));
    const bad = toks.filter((t) => t.scopes.some((s) => s.startsWith('invalid')));
    assert.deepEqual(bad.map((t) => `${t.line + 1}: ${t.text}`), [], f);
    assert.ok(toks.some((t) => t.scopes.includes('entity.name.section.table.toml')), `${f}: no table header scoped`);
  }
});
