#!/usr/bin/env node
// Checks the runs in workloads.json under Node's WASI (via run-node.mjs):
// each run must exit 0 and write the same stdout twice; a test run's stdout
// must match its stdout_sha256 when that is set.  Prints the run times.
//
//   node check-node.mjs [--update] [--runs test,bench] [--repeat N] [NAME...]
//
//   --update       write the observed sha256 of each test run's stdout into
//                  workloads.json (only the "stdout_sha256" values change)
//   --runs LIST    which runs to check (default: test,bench)
//   --repeat N     run each N times (default 2; at least 2 checks determinism)
//   --turbofan     pass --turbofan to run-node.mjs (optimizing compiler only)
//
// Times are Node's (V8's tiered wasm compilers), wall-clock time of the
// guest's _start only, best of the repeats.  Exit status 1 if any check fails.
import fs from 'node:fs';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const manifestPath = path.join(here, 'workloads.json');
const runner = path.join(here, 'run-node.mjs');

const argv = process.argv.slice(2);
let update = false, kinds = ['test', 'bench'], repeat = 2, turbofan = false;
const names = [];
while (argv.length) {
  const a = argv.shift();
  if (a === '--update') update = true;
  else if (a === '--runs') kinds = argv.shift().split(',');
  else if (a === '--turbofan') turbofan = true;
  else if (a === '--repeat') repeat = Math.max(1, parseInt(argv.shift(), 10));
  else if (a.startsWith('--')) { console.error(`check-node: unknown option ${a}`); process.exit(2); }
  else names.push(a);
}

let manifestText = fs.readFileSync(manifestPath, 'utf8');
const manifest = JSON.parse(manifestText);
const programs = manifest.programs.filter((p) => !names.length || names.includes(p.name));
if (names.length && programs.length !== names.length) {
  console.error('check-node: unknown program name');
  process.exit(2);
}

let failures = 0;
const observed = {};
for (const prog of programs) {
  for (const kind of kinds) {
    const run = prog.runs[kind];
    if (!run) continue;
    const hashes = [], times = [];
    let bytes = 0, ok = true, why = '';
    for (let i = 0; i < repeat; i++) {
      const r = spawnSync(process.execPath, [runner, '--time', ...(turbofan ? ['--turbofan'] : []), '--run', prog.name, kind],
                          { maxBuffer: 1 << 30, encoding: 'buffer' });
      const err = r.stderr.toString();
      const m = /run-node: compile ([\d.]+) ms, run ([\d.]+) ms, exit (\d+)/.exec(err);
      if (r.status !== 0) {
        ok = false;
        why = `exit status ${r.status}${r.signal ? ` (signal ${r.signal})` : ''}: ${err.trim().split('\n').slice(-3).join(' | ')}`;
        break;
      }
      hashes.push(crypto.createHash('sha256').update(r.stdout).digest('hex'));
      bytes = r.stdout.length;
      if (m) times.push(parseFloat(m[2]));
    }
    if (ok && new Set(hashes).size !== 1) { ok = false; why = `stdout differs between runs: ${[...new Set(hashes)].join(' ')}`; }
    if (ok && kind === 'test' && run.stdout_sha256 && run.stdout_sha256 !== hashes[0] && !update) {
      ok = false;
      why = `stdout sha256 ${hashes[0]} != manifest ${run.stdout_sha256}`;
    }
    if (ok && kind === 'test') observed[prog.name] = hashes[0];
    const best = times.length ? (Math.min(...times) / 1000).toFixed(3) + ' s' : '-';
    console.log(`${ok ? 'ok  ' : 'FAIL'} ${prog.name.padEnd(14)} ${kind.padEnd(5)} ${best.padStart(9)}  ` +
                `${String(bytes).padStart(9)} bytes out  ${hashes[0] ? hashes[0].slice(0, 16) : ''}${ok ? '' : '  ' + why}`);
    if (!ok) failures++;
  }
}

if (update) {
  // Rewrite only the stdout_sha256 values, keeping the file's layout.
  for (const [name, hash] of Object.entries(observed)) {
    const start = manifestText.indexOf(`"name": ${JSON.stringify(name)}`);
    if (start < 0) continue;
    const re = /"stdout_sha256": (null|"[0-9a-f]*")/g;
    re.lastIndex = start;
    const m = re.exec(manifestText);
    if (!m) continue;
    manifestText = manifestText.slice(0, m.index) + `"stdout_sha256": "${hash}"` +
                   manifestText.slice(m.index + m[0].length);
  }
  JSON.parse(manifestText); // still valid
  fs.writeFileSync(manifestPath, manifestText);
  console.log(`updated stdout_sha256 of ${Object.keys(observed).length} test runs in workloads.json`);
}
console.log(`${failures ? failures + ' failed' : 'all passed'}`);
process.exitCode = failures ? 1 : 0;
