#!/usr/bin/env node
// Run a wasm32-wasi (preview1) command module under Node's built-in WASI.
//
//   node run-node.mjs [options] MODULE.wasm [ARGS...]
//   node run-node.mjs [options] --run NAME RUN        (RUN is "test" or "bench")
//
// Options:
//   --stdin FILE    guest stdin reads FILE (default: this process's stdin)
//   --stdout FILE   guest stdout goes to FILE (default: this process's stdout)
//   --dir DIR       pre-open DIR for the guest at the same guest path (repeatable)
//   --argv0 NAME    guest argv[0] (default: the module's file name without .wasm)
//   --manifest F    manifest for --run (default: workloads.json beside this script)
//   --time          print compile and run wall times to stderr
//   --turbofan      compile all wasm code with V8's optimizing compiler before
//                   running (no Liftoff baseline code); closer to what an
//                   ahead-of-time runtime such as wasmtime runs
//
// With --run, the program's module, args, stdin and dirs come from the manifest;
// its paths are relative to the manifest's directory, and so are --dir paths.
// The guest sees an empty environment.  The exit status is the guest's
// proc_exit code (0 when main returns 0).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';

// Node 20 (seen with v20.20) crashes once a guest's memory has grown to a few
// tens of MiB: node segfaults (exit 139) or fails with nonsense such as
// "TypeError: number 0 is not a function" after the guest's last output,
// depending on the module's memory layout.  Turning off V8's fast API calls,
// the path the WASI imports take from optimized code, avoids it (the same as
// `node --no-turbo-fast-api-calls`); it must be set before wasm is compiled.
v8.setFlagsFromString('--no-turbo-fast-api-calls');

// Node prints an ExperimentalWarning for node:wasi; keep stderr for the guest.
process.removeAllListeners('warning');
const { WASI } = await import('node:wasi');

function usage(msg) {
  if (msg) process.stderr.write(`run-node: ${msg}\n`);
  process.stderr.write('usage: node run-node.mjs [--stdin F] [--stdout F] [--dir D]... [--argv0 N] [--time] [--turbofan] MODULE.wasm [ARGS...]\n' +
                       '       node run-node.mjs [--manifest F] [--stdout F] [--time] [--turbofan] --run NAME test|bench\n');
  process.exit(2);
}

const here = path.dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
let stdinFile = null, stdoutFile = null, argv0 = null, time = false, turbofan = false;
let manifestPath = path.join(here, 'workloads.json');
let run = null;
const dirs = [];
while (argv.length && argv[0].startsWith('--')) {
  const opt = argv.shift();
  const val = () => { if (!argv.length) usage(`${opt} needs a value`); return argv.shift(); };
  switch (opt) {
    case '--stdin': stdinFile = val(); break;
    case '--stdout': stdoutFile = val(); break;
    case '--dir': dirs.push(val()); break;
    case '--argv0': argv0 = val(); break;
    case '--manifest': manifestPath = val(); break;
    case '--time': time = true; break;
    case '--turbofan': turbofan = true; break;
    case '--run': run = [val(), val()]; break;
    case '--': break;
    default: usage(`unknown option ${opt}`);
  }
}

let wasmPath, args, base = process.cwd();
if (run) {
  const [name, kind] = run;
  base = path.dirname(path.resolve(manifestPath));
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  const prog = manifest.programs.find((p) => p.name === name);
  if (!prog) usage(`no program named ${name} in ${manifestPath}`);
  const r = prog.runs[kind];
  if (!r) usage(`program ${name} has no run ${kind}`);
  wasmPath = path.join(base, prog.wasm);
  args = r.args;
  if (r.stdin != null && stdinFile == null) stdinFile = path.join(base, r.stdin);
  dirs.push(...(r.dirs || []));
  if (argv0 == null) argv0 = name;
} else {
  if (!argv.length) usage('no module given');
  wasmPath = argv.shift();
  args = argv;
}
if (argv0 == null) argv0 = path.basename(wasmPath).replace(/\.wasm$/, '');

const preopens = {};
for (const d of dirs) preopens[d] = path.resolve(base, d);

const stdinFd = stdinFile != null ? fs.openSync(stdinFile, 'r') : 0;
const stdoutFd = stdoutFile != null ? fs.openSync(stdoutFile, 'w') : 1;

const wasi = new WASI({
  version: 'preview1',
  args: [argv0, ...args],
  env: {},
  preopens,
  stdin: stdinFd,
  stdout: stdoutFd,
  stderr: 2,
  returnOnExit: true,
});

// V8 has no on-stack replacement for wasm: a function that is entered once
// and loops for the whole run (an interpreter's dispatch loop, e.g.
// luaV_execute) stays in slow Liftoff code even after TurboFan has compiled
// it.  --turbofan compiles everything with TurboFan up front instead.
if (turbofan) v8.setFlagsFromString('--no-liftoff');

const t0 = process.hrtime.bigint();
const module = await WebAssembly.compile(fs.readFileSync(wasmPath));
const t1 = process.hrtime.bigint();
// Node's WASI hands the guest our own descriptors for 0, 1 and 2, so a guest
// that closes its stdout or stderr before exiting (xz does, to catch write
// errors) would close ours too, and nothing more could be printed.  Closing
// them is made a no-op that reports success.
const imports = wasi.getImportObject();
const wasiImport = imports.wasi_snapshot_preview1;
const fdClose = wasiImport.fd_close;
wasiImport.fd_close = (fd) => (fd <= 2 ? 0 : fdClose(fd));
const instance = await WebAssembly.instantiate(module, imports);
let code;
try {
  code = wasi.start(instance);
} catch (e) {
  process.stderr.write(`run-node: guest trapped: ${e && e.stack || e}\n`);
  code = 134;
}
const t2 = process.hrtime.bigint();
if (stdinFd > 2) fs.closeSync(stdinFd);
if (stdoutFd > 2) fs.closeSync(stdoutFd);
if (time) {
  const ms = (a, b) => (Number(b - a) / 1e6).toFixed(1);
  process.stderr.write(`run-node: compile ${ms(t0, t1)} ms, run ${ms(t1, t2)} ms, exit ${code}\n`);
}
process.exitCode = code;
