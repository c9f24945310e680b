// Preloaded into Node processes by the benchmark (NODE_OPTIONS=--require, inherited by lsp-lint's server
// child): on exit, appends this process's peak RSS (VmHWM) to $BENCH_RSS_OUT as one JSON line.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const out = process.env.BENCH_RSS_OUT;
if (out) {
  process.on('exit', () => {
    try {
      const status = fs.readFileSync('/proc/self/status', 'utf8');
      const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status) || [])[1]);
      fs.appendFileSync(out, JSON.stringify({
        pid: process.pid, ppid: process.ppid, script: path.basename(process.argv[1] || ''), hwmKb: kb('VmHWM'), rssKb: kb('VmRSS'),
      }) + '\n');
    } catch { /* best effort */ }
  });
}
