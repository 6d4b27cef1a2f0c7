#!/usr/bin/env python3
"""Every report of wpp, as JSON and as text, on each real program's test run.

    scripts/snapshot.py OUT_DIR [--wpp PATH] [--reuse EARLIER_DIR] [--only NAME...]

Records each workload's test run (workloads/workloads.json) in grammar, paths and PPP
mode, builds its TWPP, and writes into OUT_DIR/NAME/ the output of every command that
reads them (stats, paths, hot, query, export, ppp report, twpp stats, trace, dataflow,
dff), once with --json (COMMAND.json) and once as text (COMMAND.txt). Two snapshots
taken with two builds of wpp are compared with `diff -r A B -x profiles`: a change that
should not change what wpp says shows up there. A run's profiles record its duration,
so the second snapshot reads the first one's (--reuse EARLIER_DIR, hard-linked) rather
than recording again; the TWPP is built again, by the wpp under test.

The function each command looks at is the run's hottest path's function, so the
choice follows the run, not a list kept here.
"""

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WORKLOADS = os.path.join(ROOT, "workloads")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("--wpp", default=os.path.join(os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target")), "release", "wpp"))
    ap.add_argument("--reuse", default=None, help="read the profiles recorded by an earlier snapshot")
    ap.add_argument("--only", nargs="*", default=None)
    a = ap.parse_args()
    manifest = json.load(open(os.path.join(WORKLOADS, "workloads.json")))
    for p in manifest["programs"]:
        if a.only and p["name"] not in a.only:
            continue
        run = p["runs"].get("test")
        wasm = os.path.join(WORKLOADS, p["wasm"])
        if run is None or not os.path.exists(wasm):
            print(f"snapshot: {p['name']}: skipped (no test run or not built)", file=sys.stderr)
            continue
        reuse = os.path.join(os.path.abspath(a.reuse), p["name"], "profiles") if a.reuse else None
        snapshot(a.wpp, p["name"], wasm, run, os.path.join(os.path.abspath(a.out), p["name"]), reuse)


def snapshot(wpp, name, wasm, run, out, reuse):
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "profiles")
    os.makedirs(work, exist_ok=True)

    def record(profile, *args):
        if reuse:
            earlier = os.path.join(reuse, os.path.basename(profile))
            if os.path.exists(profile):
                os.remove(profile)
            os.link(earlier, profile)
            return
        cmd = [wpp, "record", *args, "-o", profile]
        for d in run.get("dirs", []):
            cmd += ["--dir", f"{os.path.join(WORKLOADS, d)}::{d}"]
        cmd += [wasm, "--", *run["args"]]
        stdin = open(os.path.join(WORKLOADS, run["stdin"])) if run.get("stdin") else subprocess.DEVNULL
        subprocess.run(cmd, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, cwd=work)

    def report(label, *args, text=True):
        """`wpp ARGS --json` into LABEL.json and `wpp ARGS` into LABEL.txt."""
        forms = [("json", ["--json"])] + ([("txt", [])] if text else [])
        for ext, extra in forms:
            r = subprocess.run([wpp, *args, *extra], capture_output=True, cwd=work)
            body = r.stdout + (b"stderr: " + r.stderr if r.stderr else b"") + (f"exit: {r.returncode}\n".encode() if r.returncode else b"")
            # The snapshot's own directory, so that two snapshots compare.
            body = body.replace(out.encode(), b"$OUT")
            if reuse:
                body = body.replace(os.path.dirname(reuse).encode(), b"$OUT")
            with open(os.path.join(out, f"{label}.{ext}"), "wb") as f:
                f.write(body)

    g, c, ppp, twpp = (os.path.join(work, x) for x in ("grammar.wpp", "paths.wpp", "ppp.wpp", "run.twpp"))
    record(g)
    record(c, "--mode", "paths")
    top = json.loads(subprocess.run([wpp, "paths", g, "--json", "--top", "3"], capture_output=True, check=True).stdout)["paths"]
    func = top[0]["function"]
    paths = [f"{r['function_index']}:{r['path_id']}" for r in top]
    report("stats", "stats", g)
    report("paths", "paths", g)
    report("paths-func", "paths", g, "--func", func)
    report("hot", "hot", g, "--max-len", "8", "--min-cost", "1000")
    report("query-freq", "query", g, "freq", *paths)
    report("query-before", "query", g, "before", paths[0], paths[-1])
    report("query-context", "query", g, "context", paths[0])
    report("export", "export", g, text=False)
    s = os.path.join(work, "hot.set")
    if not reuse:
        subprocess.run([wpp, "ppp", "select", c, "--hot", "90", "-o", s], capture_output=True, check=True)
    record(ppp, "--mode", "ppp", "--interesting", s)
    report("ppp-report", "ppp", "report", ppp)
    subprocess.run([wpp, "twpp", "build", g, "-o", twpp], capture_output=True, check=True)
    report("twpp-stats", "twpp", "stats", twpp)
    report("trace", "trace", twpp, "--func", func)
    report("trace-call", "trace", twpp, "--func", func, "--call", "1")
    report("redundancy", "dataflow", "redundancy", twpp, "--module", wasm, "--func", func)
    export = json.load(open(os.path.join(out, "export.json")))
    start = next(f["blocks"][0]["start"] for f in export["functions"] if f["name"] == func)
    report("reaching", "dataflow", "reaching", twpp, "--module", wasm, "--at", hex(start), "--local", "0")
    report("dff-reaching", "dff", g, "--module", wasm, "--func", func)
    report("dff-available", "dff", g, "--module", wasm, "--func", func, "--problem", "available-loads")
    report("dff-at", "dff", g, "--module", wasm, "--func", func, "--at", "b1")
    print(f"snapshot: {name}: {func}", file=sys.stderr)


if __name__ == "__main__":
    main()
