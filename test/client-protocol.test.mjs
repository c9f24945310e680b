// Issue #30 item 4: the client types nothing of the server's protocol twice. Every custom method ("skewguard/…") is
// written once, in server/src/shared/protocol.ts (which also exports shared/window.ts and shared/visible.ts), with its
// params and result; the desktop and web clients import them from there. Read with the TypeScript compiler API.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { repoRoot } from './helpers/k8s.mjs';
import { tsSources } from './helpers/sources.mjs';

const ts = createRequire(import.meta.url)('typescript');
const PROTOCOL = /(^|\/)server\/src\/shared\/protocol$/;
const METHOD = /^skewguard\/[A-Za-z]/;
const SENDS = new Set(['sendRequest', 'sendNotification', 'onRequest', 'onNotification']);

/** What a client source does wrong: a method string written out, or a method named by an import from elsewhere. */
export function protocolViolations(text, file) {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const importedFrom = new Map();
  for (const st of sf.statements) {
    if (!ts.isImportDeclaration(st) || !st.importClause) continue;
    const from = st.moduleSpecifier.text;
    const c = st.importClause;
    if (c.name) importedFrom.set(c.name.text, from);
    if (c.namedBindings && ts.isNamedImports(c.namedBindings)) for (const e of c.namedBindings.elements) importedFrom.set(e.name.text, from);
  }
  const out = [];
  const at = (n) => `${path.relative(repoRoot, file)}:${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1}`;
  const visit = (n) => {
    if ((ts.isStringLiteral(n) || ts.isNoSubstitutionTemplateLiteral(n) || ts.isTemplateHead(n)) && METHOD.test(n.text)) {
      out.push(`${at(n)}: the method '${n.text}' is written out: import it from server/src/shared/protocol.ts`);
    }
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression) && SENDS.has(n.expression.name.text) && n.arguments.length) {
      const a = n.arguments[0];
      // A method named by an identifier: one imported must come from the protocol module (a parameter is typed by it).
      if (ts.isIdentifier(a) && importedFrom.has(a.text) && !PROTOCOL.test(importedFrom.get(a.text))) {
        out.push(`${at(n)}: ${n.expression.name.text}(${a.text}) takes its method from '${importedFrom.get(a.text)}', not from server/src/shared/protocol.ts`);
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

test('client/src writes no custom method and takes each from server/src/shared/protocol.ts', () => {
  const files = tsSources(path.join(repoRoot, 'client/src'));
  assert.ok(files.length >= 5);
  const hits = files.flatMap((f) => protocolViolations(fs.readFileSync(f, 'utf8'), f));
  assert.deepEqual(hits, []);
});

test('the check sees a method written out, in a call or a constant, and one imported from another module', () => {
  const bad = [
    "import { X } from '../../server/src/web/protocol';",
    "import { ResolvedConfigRequest } from '../../server/src/shared/protocol';",
    "const M = 'skewguard/windowEdit';",
    "c.sendRequest(`skewguard/checkWorkspace`, {});",
    'c.sendNotification(X, {});',
    'c.sendRequest(ResolvedConfigRequest, {});',
    "// a comment may name skewguard/windowEdit",
  ].join('\n');
  const hits = protocolViolations(bad, path.join(repoRoot, 'client/src/x.ts'));
  assert.equal(hits.length, 3, hits.join('\n'));
  assert.match(hits[0], /x\.ts:3: the method 'skewguard\/windowEdit'/);
  assert.match(hits[1], /x\.ts:4: the method 'skewguard\/checkWorkspace'/);
  assert.match(hits[2], /x\.ts:5: sendNotification\(X\) takes its method from '\.\.\/\.\.\/server\/src\/web\/protocol'/);
});

test('every custom method the server serves is a constant of the protocol module, written there once', () => {
  // The method strings of server/src: each is declared once, in shared/ (protocol.ts or the modules it exports).
  const decl = new Map();
  for (const f of tsSources(path.join(repoRoot, 'server/src'))) {
    for (const m of fs.readFileSync(f, 'utf8').matchAll(/export const (\w+) = (?:new \w+<\w+>\()?'(skewguard\/[A-Za-z]\w*)'/g)) {
      (decl.get(m[2]) ?? decl.set(m[2], []).get(m[2])).push(`${path.relative(repoRoot, f)} ${m[1]}`);
    }
  }
  const protocolText = fs.readFileSync(path.join(repoRoot, 'server/src/shared/protocol.ts'), 'utf8');
  const reexported = [...protocolText.matchAll(/^export \* from '\.\/(\w+)';$/gm)].map((m) => `server/src/shared/${m[1]}.ts`);
  for (const [method, where] of decl) {
    assert.equal(where.length, 1, `${method} is declared ${where.length} times: ${where.join(', ')}`);
    const file = where[0].split(' ')[0];
    // Rule ids (skewguard/internal-error …) and diagnostic codes are not methods: only request and notification names here.
    if (!/Request|Notification/.test(where[0].split(' ')[1])) continue;
    assert.ok(file === 'server/src/shared/protocol.ts' || reexported.includes(file), `${method} (${where[0]}) is not exported by server/src/shared/protocol.ts`);
  }
  for (const m of ['skewguard/windowEdit', 'skewguard/windowChoices', 'skewguard/checkWorkspace', 'skewguard/fixAllWorkspace', 'skewguard/webFiles', 'skewguard/resolvedConfig']) {
    assert.ok(decl.has(m), `${m} is not declared as a constant`);
  }
});
