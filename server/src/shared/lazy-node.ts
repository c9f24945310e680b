// Node modules that most runs never need, loaded on first use instead of at every start of the server or lsp-lint
// (each costs start-up time): Helm rendering (child_process, http, crypto), a GitLab report's fingerprints and
// --fix's temporary names (crypto), a packaged chart (zlib). One home for the literal require()s, which the bundles
// resolve (scripts/build.mjs: the web build puts its shims in their place).
import type * as Crypto from 'node:crypto';
import type * as ChildProcess from 'node:child_process';
import type * as Http from 'node:http';
import type * as Zlib from 'node:zlib';

let crypto: typeof Crypto | undefined, childProcess: typeof ChildProcess | undefined;
let http: typeof Http | undefined, zlib: typeof Zlib | undefined;

export const nodeCrypto = (): typeof Crypto => (crypto ??= require('node:crypto') as typeof Crypto);
export const nodeChildProcess = (): typeof ChildProcess => (childProcess ??= require('node:child_process') as typeof ChildProcess);
export const nodeHttp = (): typeof Http => (http ??= require('node:http') as typeof Http);
export const nodeZlib = (): typeof Zlib => (zlib ??= require('node:zlib') as typeof Zlib);
