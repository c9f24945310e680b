// Kata configuration recognition by content (issues #12 item 4 and #18): a TOML whose tables are Kata's is a Kata
// configuration whatever its name; a configuration*.toml of another program is not; the name only breaks ties;
// `files:` associations and the "# skewguard: kata" modeline still win. Reads only the repo.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { repoRoot, engine as e } from './helpers/k8s.mjs';

const rendered = path.join(repoRoot, 'test', 'fixtures', 'kata', 'config-rendered');
const QEMU_3_2 = fs.readFileSync(path.join(rendered, '3.2.0', 'configuration-qemu.toml'), 'utf8');
const WEB_APP = '# settings of a web application\n[server]\nhost = "0.0.0.0"\nport = 8080\n\n[database]\nurl = "postgres://db/app"\npool = 10\n';

function lint(file, text, { window = '3.2..3.32', files } = {}) {
  const cli = { kataWindow: window, kataFlavour: 'go' };
  if (files) cli.files = files;
  return e.analyze({ path: file, text, config: e.resolveConfig({ cli }) });
}
const at = (d) => `${d.ruleId} @ ${d.range.start.line + 1}:${d.range.start.character + 1}`;

test('#12 a real Kata 3.2.0 template under names that do not say Kata is checked exactly as under its own name', () => {
  const own = lint('/etc/kata-containers/configuration-qemu.toml', QEMU_3_2);
  assert.equal(own.family, 'kata-config');
  assert.ok(own.diagnostics.length > 0, 'the window 3.2..3.32 has something to say about a 3.2.0 template');
  for (const file of ['/etc/kata/kata-containers-configuration.toml', '/srv/hosts/node-7/runtime.toml', '/tmp/passed-with--config.toml']) {
    const r = lint(file, QEMU_3_2);
    assert.equal(r.family, 'kata-config', file);
    assert.deepEqual(r.diagnostics.map(at), own.diagnostics.map(at), file);
  }
});

test('#12 a drop-in (one Kata table) is Kata under any name, and in config.d/ it is still a drop-in', () => {
  const dropIn = '[hypervisor.qemu]\ndefault_memory = 4096\n';
  assert.equal(lint('/srv/site/50-memory.toml', dropIn).family, 'kata-config');
  const inConfigD = lint('/etc/kata-containers/config.d/50-memory.toml', dropIn, { window: '2.4..2.5' });
  assert.equal(inConfigD.family, 'kata-config');
  assert.deepEqual(inConfigD.diagnostics.map(at), ['kata/drop-in-not-read @ 1:2']);
  // Only [runtime] (or [agent.kata], [factory] …) counts too.
  assert.equal(lint('/srv/site/debug.toml', '[runtime]\nenable_debug = true\n').family, 'kata-config');
  assert.deepEqual(lint('/srv/site/debug.toml', '[runtime]\nenable_debug = 1\n').diagnostics.map(at), ['kata/invalid-type @ 2:16']);
});

test('#18 a configuration.toml of a web application ([server], [database]) is not claimed as Kata', () => {
  for (const file of ['/srv/app/configuration.toml', '/srv/app/configuration-prod.toml', '/srv/app/config.d/10-db.toml']) {
    const r = lint(file, WEB_APP);
    assert.equal(r.family, undefined, file);
    assert.deepEqual(r.diagnostics, [], file);
    assert.equal(r.kata, undefined, file);
  }
  // Nor is a mostly foreign file that happens to hold one Kata-named table, under a name that does not say Kata.
  assert.equal(lint('/srv/app/settings.toml', `${WEB_APP}[image]\nformat = "png"\n`).family, undefined);
  // Nor a configuration.toml with one table of its own, keys only, or nothing, outside a Kata folder: the name alone
  // does not say Kata (it did: kata/unknown-section on a web application's [server]).
  for (const text of ['[server]\nport = 8080\n', 'title = "app"\n', '']) {
    for (const file of ['/srv/app/configuration.toml', '/home/me/web/config.d/10-port.toml']) {
      const r = lint(file, text);
      assert.equal(r.family, undefined, `${file}: ${JSON.stringify(text)}`);
      assert.deepEqual(r.diagnostics, [], file);
    }
  }
});

test('#12 the name breaks ties in a Kata folder: an empty configuration.toml, or one with keys only, is Kata there; the same elsewhere is not', () => {
  for (const text of ['', '# nothing set yet\n', 'enable_debug = true\n']) {
    assert.equal(lint('/etc/kata-containers/configuration.toml', text).family, 'kata-config', JSON.stringify(text));
    assert.equal(lint('/srv/app/settings.toml', text).family, undefined, JSON.stringify(text));
  }
  // A Kata-named file with a misspelt Kata table is still Kata's (and the misspelling is reported).
  const typo = lint('/etc/kata-containers/configuration.toml', '[runtme]\nenable_debug = true\n');
  assert.equal(typo.family, 'kata-config');
  assert.deepEqual(typo.diagnostics.map(at), ['kata/unknown-section @ 1:2']);
  // One unknown table in a Kata-named file is reported there, not passed over; two tables of another program are not Kata's.
  const one = lint('/etc/kata-containers/configuration.toml', '[server]\nport = 8080\n');
  assert.equal(one.family, 'kata-config');
  assert.deepEqual(one.diagnostics.map(at), ['kata/unknown-section @ 1:2']);
  // As many Kata tables as others: the name decides.
  const even = '[server]\nport = 1\n[hypervisor.qemu]\ndefault_memory = 2048\n';
  assert.equal(lint('/etc/kata-containers/configuration.toml', even).family, 'kata-config');
  assert.equal(lint('/srv/app/settings.toml', even).family, undefined);
});

test('#12 files: associations and the "# skewguard: kata" modeline still win over the content', () => {
  assert.equal(lint('/srv/app/configuration.toml', `# skewguard: kata\n${WEB_APP}`).family, 'kata-config');
  assert.equal(lint('/srv/app/configuration.toml', WEB_APP, { files: { 'configuration.toml': 'kata-config' } }).family, 'kata-config');
});

test('#12 table headers inside multi-line strings do not count; quoted, array-of-tables, CRLF, BOM and indented headers do', () => {
  const tops = (text) => e.analyze({ path: '/x/a.toml', text, config: e.resolveConfig({}) }).family ?? null;
  assert.equal(tops('[server]\nnote = """\n[hypervisor.qemu]\n[runtime]\n"""\n'), null);
  assert.equal(tops('["hypervisor".qemu]\npath = "/q"\n'), 'kata-config');
  assert.equal(tops("[[server]]\nname = 'a'\n[[server]]\nname = 'b'\n[runtime]\nenable_debug = true\n"), null);
  // CRLF line ends.
  assert.equal(tops('[hypervisor.qemu]\r\npath = "/q"\r\n'), 'kata-config');
  // A byte-order mark, tabs before the header, a comment after it.
  assert.equal(tops('\uFEFF[hypervisor.qemu]\npath = "/q"\n'), 'kata-config');
  assert.equal(tops('\t[runtime]   # debug\nenable_debug = true\n'), 'kata-config');
});
