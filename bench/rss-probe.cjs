// Preloaded into Node processes by the benchmark (NODE_OPTIONS=--require, inherited by lsp-lint's server
// child): appends this process's peak RSS (VmHWM) to $BENCH_RSS_OUT as one JSON line, once: at exit, or for a
// language server (--stdio) when it reads the shutdown request, since lsp-lint kills its server once that is
// answered (server/src/cli/session.ts).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const out = process.env.BENCH_RSS_OUT;
if (out) {
  let noted = false;
  const note = () => {
    if (noted) return;
    noted = true;
    try {
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status) || [])[1]);
      fs.appendFileSync(out, JSON.stringify({
        pid: process.pid, ppid: process.ppid, script: path.basename(process.argv[1] || ''), hwmKb: kb('VmHWM'), rssKb: kb('VmRSS'),
      }) + '\n');
    } catch { /* best effort */ }
  };
  process.on('exit', note);
  if (process.argv.includes('--stdio')) {
    // Another reader of the server's standard input (the server's own is attached while it loads, before any data).
    let tail = '';
    process.stdin.on('data', (d) => { tail = (tail + d).slice(-4096); if (tail.includes('"method":"shutdown"')) note(); });
  }
}
