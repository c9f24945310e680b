// Preloaded with NODE_OPTIONS=--require by test/security.test.mjs into lsp-lint and (by inheritance) its
// server child. Records, and blocks, every attempt to reach the network or run something: sockets
// (net, tls, dgram), DNS, http(s), fetch, child processes other than node itself; and code evaluation of
// text that carries the canary string ($SKEWGUARD_PROBE_CANARY, planted in workspace files), and loading
// a module from the workspace ($SKEWGUARD_PROBE_WORKSPACE). One JSON line per event in $SKEWGUARD_PROBE_OUT.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const out = process.env.SKEWGUARD_PROBE_OUT;
const canary = process.env.SKEWGUARD_PROBE_CANARY;
const workspace = process.env.SKEWGUARD_PROBE_WORKSPACE;
const script = path.basename(process.argv[1] || '');

function record(kind, detail) {
  const line = JSON.stringify({ pid: process.pid, script, kind, detail: String(detail).slice(0, 300), stack: new Error().stack.split('\n').slice(3, 9).join('\n') });
  if (out) fs.appendFileSync(out, line + '\n');
}

class BlockedByProbe extends Error {}
function block(kind, detail) {
  record(kind, detail);
  throw new BlockedByProbe(`skewguard security probe: ${kind} blocked (${detail})`);
}

function wrap(obj, name, kind, allow) {
  const orig = obj && obj[name];
  if (typeof orig !== 'function') return;
  obj[name] = function probed(...args) {
    if (allow && allow(args)) return orig.apply(this, args);
    return block(kind, `${name}(${safe(args)})`);
  };
}
function safe(args) {
  try { return JSON.stringify(args.map((a) => (typeof a === 'function' ? 'fn' : a))).slice(0, 200); } catch { return '?'; }
}

if (out) {
  record('loaded', process.argv.slice(1).join(' '));

  const net = require('node:net');
  wrap(net.Socket.prototype, 'connect', 'net.Socket.connect');
  wrap(net, 'connect', 'net.connect');
  wrap(net, 'createConnection', 'net.createConnection');
  const tls = require('node:tls');
  wrap(tls, 'connect', 'tls.connect');
  const dgram = require('node:dgram');
  wrap(dgram, 'createSocket', 'dgram.createSocket');
  const dns = require('node:dns');
  for (const f of ['lookup', 'lookupService', 'resolve', 'resolve4', 'resolve6', 'resolveAny', 'resolveCname', 'resolveMx', 'resolveNs', 'resolveSrv', 'resolveTxt', 'reverse']) {
    wrap(dns, f, `dns.${f}`);
    wrap(dns.promises, f, `dns.promises.${f}`);
  }
  for (const mod of ['node:http', 'node:https', 'node:http2']) {
    const m = require(mod);
    for (const f of ['request', 'get', 'connect']) wrap(m, f, `${mod.slice(5)}.${f}`);
  }
  if (typeof globalThis.fetch === 'function') wrap(globalThis, 'fetch', 'fetch');

  // Child processes: only node itself (lsp-lint starts its language server with process.execPath).
  const cp = require('node:child_process');
  const isNode = (args) => args[0] === process.execPath;
  for (const f of ['spawn', 'spawnSync', 'execFile', 'execFileSync']) wrap(cp, f, `child_process.${f}`, isNode);
  for (const f of ['exec', 'execSync']) wrap(cp, f, `child_process.${f}`);
  wrap(cp, 'fork', 'child_process.fork', (args) => !(workspace && String(args[0]).startsWith(workspace)));

  // Evaluation: any eval-like entry point given text that carries the canary (i.e. workspace content).
  if (canary) {
    const has = (args) => args.some((a) => typeof a === 'string' && a.includes(canary));
    const vm = require('node:vm');
    for (const f of ['runInThisContext', 'runInNewContext', 'runInContext', 'compileFunction']) {
      const orig = vm[f];
      vm[f] = function probed(...args) { if (has(args)) block('eval', `vm.${f}`); return orig.apply(this, args); };
    }
    const OrigScript = vm.Script;
    vm.Script = function Script(code, ...rest) { if (has([code])) block('eval', 'vm.Script'); return new OrigScript(code, ...rest); };
    vm.Script.prototype = OrigScript.prototype;
    const OrigFunction = globalThis.Function;
    const ProbedFunction = function Function(...args) { if (has(args)) block('eval', 'Function'); return OrigFunction(...args); };
    ProbedFunction.prototype = OrigFunction.prototype;
    globalThis.Function = ProbedFunction;
    const origEval = globalThis.eval;
    globalThis.eval = function evalProbe(code) { if (has([code])) block('eval', 'eval'); return origEval(code); };
  }
  if (workspace) {
    const Module = require('node:module');
    const load = Module._load;
    Module._load = function probedLoad(request, parent, isMain) {
      let resolved = request;
      try { resolved = Module._resolveFilename(request, parent, isMain); } catch { /* let load report it */ }
      if (typeof resolved === 'string' && resolved.startsWith(workspace + path.sep)) block('require', resolved);
      return load.apply(this, arguments);
    };
  }
}
