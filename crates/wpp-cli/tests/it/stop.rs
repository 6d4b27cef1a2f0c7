//! `wpp record` stopped from outside or by its limits, and failing to write: a stopped
//! program leaves a profile of the run until then (a prefix of the full run), and a
//! recording that cannot finish never damages an earlier file of the same name.
//!
//! The guest is the Lua interpreter (a real program) running a script that says when it
//! has started and then runs long and deterministically.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use wpp_profile::Profile;
use wpp_test_support::workloads;

use crate::common;
use common::{json, scratch, wpp};

/// A deterministic Lua program of `iterations` loop iterations (about 120 path events
/// each) that prints `started` first.
fn script(dir: &Path, iterations: u64) -> PathBuf {
    let path = dir.join(format!("long-{iterations}.lua"));
    let text = format!(
        r#"io.write("started\n"); io.stdout:flush()
local acc = 0
for i = 1, {iterations} do
  if i % 3 == 0 then acc = acc + i elseif i % 5 == 0 then acc = acc - 1 else acc = acc ~ i end
  local s = tostring(i % 97)
  if #s > 1 then acc = acc + #s end
end
print(acc)
"#
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// `wpp record ARGS -o OUT lua.wasm < SCRIPT` started, its stdout and stderr piped.
fn spawn(lua: &Path, script: &Path, out: &Path, args: &[&str]) -> Child {
    wpp()
        .arg("record")
        .args(args)
        .arg("-o")
        .arg(out)
        .arg(lua)
        .stdin(std::fs::File::open(script).unwrap())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits until the guest has printed `started`, then `ms` more milliseconds.
fn wait_running(child: &mut Child, ms: u64) {
    let mut line = String::new();
    BufReader::new(child.stdout.as_mut().unwrap()).read_line(&mut line).unwrap();
    assert_eq!(line, "started\n");
    std::thread::sleep(Duration::from_millis(ms));
}

fn signal(child: &Child, sig: &str) {
    let st = Command::new("kill").arg(format!("-{sig}")).arg(child.id().to_string()).status().unwrap();
    assert!(st.success());
}

/// Exit status and stderr of a finished child.
fn finish(child: Child) -> (Option<i32>, String) {
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The number of events of a profile's trace, and a hash of its first `prefix` events.
fn trace_hash(profile: &Path, prefix: u64) -> (u64, u64) {
    let p = Profile::open(profile).unwrap();
    let (mut n, mut h) = (0u64, 0xcbf2_9ce4_8422_2325u64);
    p.for_each_event(|e| {
        if n < prefix {
            for v in [e.func.0 as u64, e.path.0] {
                h = (h ^ v).wrapping_mul(0x0000_0100_0000_01b3).rotate_left(17);
            }
        }
        n += 1;
    })
    .unwrap();
    (n, h)
}

fn counts(profile: &Path) -> std::collections::HashMap<(u32, u64), u64> {
    Profile::open(profile).unwrap().counts.iter().map(|c| ((c.func.0, c.path.0), c.count)).collect()
}

fn stats(profile: &Path) -> serde_json::Value {
    json(wpp().args(["stats", "--json"]).arg(profile))
}

/// No temporary file is left in `dir`.
fn no_temporary_files(dir: &Path) {
    let left: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).filter(|n| n.ends_with(".tmp")).collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// SIGINT in the middle of a grammar recording and SIGTERM in the middle of a path count:
/// each exits 128 + the signal, with a profile marked partial whose trace is a prefix of
/// the full run's and whose counts are at most the full run's.
#[test]
fn a_signal_mid_run_keeps_a_prefix_of_the_run() {
    let Some(lua) = workloads::module("a_signal_mid_run_keeps_a_prefix_of_the_run", "lua") else { return };
    let d = scratch("signal");
    let script = script(&d, 1_200_000);
    let full = d.join("full.wpp");
    let (status, err) = finish(spawn(&lua, &script, &full, &["--mode", "trace"]));
    assert_eq!(status, Some(0), "{err}");
    let (n_full, _) = trace_hash(&full, 0);
    let full_counts = counts(&full);

    let cut = d.join("cut.wpp");
    let mut child = spawn(&lua, &script, &cut, &[]);
    wait_running(&mut child, 300);
    signal(&child, "INT");
    let (status, err) = finish(child);
    assert_eq!(status, Some(130), "{err}");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    let s = stats(&cut);
    assert_eq!(s["partial"], true, "{s}");
    assert!(s["ending"].as_str().unwrap().contains("SIGINT"), "{s}");
    let n_cut = s["events"].as_u64().unwrap();
    assert!(n_cut > 0 && n_cut < n_full, "{n_cut} events of {n_full}");
    let (n, prefix) = trace_hash(&cut, n_cut);
    assert_eq!(n, n_cut);
    assert_eq!(prefix, trace_hash(&full, n_cut).1, "the interrupted trace is not a prefix of the full one");

    let counted = d.join("counted.wpp");
    let mut child = spawn(&lua, &script, &counted, &["--mode", "paths"]);
    wait_running(&mut child, 300);
    signal(&child, "TERM");
    let (status, err) = finish(child);
    assert_eq!(status, Some(143), "{err}");
    assert_eq!(stats(&counted)["partial"], true);
    let part = counts(&counted);
    assert!(!part.is_empty());
    for (k, c) in &part {
        assert!(full_counts.get(k).is_some_and(|f| c <= f), "path {k:?} ran {c} times, the full run {:?}", full_counts.get(k));
    }
    assert!(part.values().sum::<u64>() < n_full);
    no_temporary_files(&d);
}

/// A second signal aborts at once: no profile, the earlier file of that name as it was,
/// nothing left beside it.
#[test]
fn a_second_signal_aborts_and_keeps_the_earlier_file() {
    let Some(lua) = workloads::module("a_second_signal_aborts_and_keeps_the_earlier_file", "lua") else { return };
    let d = scratch("abort");
    let script = script(&d, 5_000_000);
    let out = d.join("keep.wpp");
    std::fs::write(&out, b"an earlier file").unwrap();
    let mut child = spawn(&lua, &script, &out, &[]);
    // Long enough that building the grammar of what ran takes well over the pause below.
    wait_running(&mut child, 1000);
    signal(&child, "INT");
    std::thread::sleep(Duration::from_millis(50));
    signal(&child, "INT");
    let (status, err) = finish(child);
    assert_eq!(status, Some(130), "{err}");
    assert!(err.contains("aborted without a profile"), "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), b"an earlier file");
    no_temporary_files(&d);
}

/// SIGKILL leaves the earlier profile intact, in the mode that writes while the guest
/// runs and in the one that writes at the end.
#[test]
fn sigkill_leaves_the_earlier_profile_intact() {
    let Some(lua) = workloads::module("sigkill_leaves_the_earlier_profile_intact", "lua") else { return };
    let d = scratch("kill");
    let short = script(&d, 1000);
    let script = script(&d, 5_000_000);
    let out = d.join("keep.wpp");
    let (status, err) = finish(spawn(&lua, &short, &out, &[]));
    assert_eq!(status, Some(0), "{err}");
    let earlier = std::fs::read(&out).unwrap();
    for mode in ["trace", "grammar"] {
        let mut child = spawn(&lua, &script, &out, &["--mode", mode]);
        wait_running(&mut child, 300);
        signal(&child, "KILL");
        let (status, _) = finish(child);
        assert_eq!(status, None, "{mode}: not killed");
        assert_eq!(std::fs::read(&out).unwrap(), earlier, "{mode}: the earlier profile changed");
        assert_eq!(stats(&out)["partial"], false);
    }
}

/// Fuel stops the guest at the same point in trace and grammar mode (the same
/// instrumented code runs): the same trace, a prefix of the full run's, exit 124.
#[test]
fn fuel_stops_at_the_same_point_in_every_trace_mode() {
    let Some(lua) = workloads::module("fuel_stops_at_the_same_point_in_every_trace_mode", "lua") else { return };
    let d = scratch("fuel");
    let script = script(&d, 100_000);
    let full = d.join("full.wpp");
    assert_eq!(finish(spawn(&lua, &script, &full, &["--mode", "trace"])).0, Some(0));
    let (n_full, _) = trace_hash(&full, 0);
    let mut hashes = Vec::new();
    for mode in ["trace", "grammar"] {
        let out = d.join(format!("{mode}.wpp"));
        let (status, err) = finish(spawn(&lua, &script, &out, &["--mode", mode, "--fuel", "100000000"]));
        assert_eq!(status, Some(124), "{mode}: {err}");
        assert!(err.contains("fuel of 100000000 ran out"), "{err}");
        let s = stats(&out);
        assert_eq!(s["partial"], true);
        let n = s["events"].as_u64().unwrap();
        assert!(n > 0 && n < n_full, "{mode}: {n} events of {n_full}");
        let (n_trace, h) = trace_hash(&out, n);
        assert_eq!(n_trace, n);
        assert_eq!(h, trace_hash(&full, n).1, "{mode}: not a prefix of the full run");
        hashes.push((n, h));
    }
    assert_eq!(hashes[0], hashes[1]);
}

/// Writing fails (the file size limit, as a full disk would): the error names the
/// profile or set file, the earlier file stays as it was, no temporary file is left.
#[test]
fn a_failed_write_keeps_the_earlier_file() {
    let Some(lua) = workloads::module("a_failed_write_keeps_the_earlier_file", "lua") else { return };
    let d = scratch("full-disk");
    let script = script(&d, 300_000);
    let profile = d.join("p.wpp");
    assert_eq!(finish(spawn(&lua, &script, &profile, &["--mode", "paths"])).0, Some(0));
    // A shell that limits the size of files it and its children write to 64 KiB; writing
    // past it fails with EFBIG (the signal it would also raise is ignored).
    let limited = |args: &[&str]| {
        let mut c = Command::new("bash");
        c.args(["-c", "trap '' XFSZ; ulimit -f 64; exec \"$@\"", "limited", env!("CARGO_BIN_EXE_wpp")]).args(args).current_dir(&d);
        c
    };
    let old = d.join("old.wpp");
    std::fs::write(&old, b"an earlier file").unwrap();
    for mode in ["trace", "grammar", "paths"] {
        let out = limited(&["record", "--mode", mode, "--spool-memory", "0", "-o", "old.wpp", lua.to_str().unwrap()])
            .stdin(std::fs::File::open(&script).unwrap())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{mode}: {err}");
        assert!(err.contains("old.wpp") && err.contains("file too large"), "{mode}: {err}");
        assert_eq!(std::fs::read(&old).unwrap(), b"an earlier file", "{mode}");
    }
    let set = d.join("old.set");
    std::fs::write(&set, b"an earlier set").unwrap();
    let out = limited(&["ppp", "select", profile.to_str().unwrap(), "--all-executed", "-o", "old.set"]).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("old.set") && err.contains("file too large"), "{err}");
    assert_eq!(std::fs::read(&set).unwrap(), b"an earlier set");
    no_temporary_files(&d);

    // An output directory that cannot exist: refused before the guest runs.
    let out = wpp().arg("record").arg("-o").arg(set.join("p.wpp")).arg(&lua).stdin(std::fs::File::open(&script).unwrap()).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("old.set/p.wpp") && err.contains("not a directory"), "{err}");
    assert!(out.stdout.is_empty(), "the guest ran");
}

/// A guest that produces path events as fast as it can, endlessly: stopped by its fuel
/// (so that the run is the same everywhere), its host memory bounded far below its
/// trace's size (the guest waits for the consumer; events wait in a spool of bounded
/// memory). The peak is sampled until the process ends (`VmHWM` is a high-water mark, so
/// only its last few milliseconds could escape).
#[test]
fn an_event_flood_runs_in_bounded_memory() {
    let Some(lua) = workloads::module("an_event_flood_runs_in_bounded_memory", "lua") else { return };
    let d = scratch("flood");
    let script = d.join("spin.lua");
    std::fs::write(&script, "io.write(\"started\\n\"); io.stdout:flush()\nlocal x = 0\nwhile true do x = (x + 1) % 1000 end\n").unwrap();
    let out = d.join("p.wpp");
    let mut child = spawn(&lua, &script, &out, &["--fuel", "10000000000", "--spool-memory", "16M"]);
    let pid = child.id();
    wait_running(&mut child, 0);
    let status_file = format!("/proc/{pid}/status");
    let mut peak_kb = 0u64;
    while let Ok(s) = std::fs::read_to_string(&status_file) {
        if let Some(kb) = s.lines().find_map(|l| l.strip_prefix("VmHWM:")).and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok()) {
            peak_kb = peak_kb.max(kb);
        }
        if child.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let (status, err) = finish(child);
    assert_eq!(status, Some(124), "{err}");
    let events = stats(&out)["events"].as_u64().unwrap();
    let trace_bytes = events * 8;
    eprintln!("{events} events ({trace_bytes} bytes as event words), peak resident memory {peak_kb} kB");
    assert!(events > 50_000_000, "only {events} events");
    assert!(peak_kb > 0 && peak_kb * 1024 < 300 << 20, "peak {peak_kb} kB against a trace of {trace_bytes} bytes");
}

/// SIGINT in the middle of each recording of memory dependences (the addresses recording,
/// the filtering run, the extended WPP with a filter from a shorter run): each exits 130
/// with a partial profile whose dependences until then `wpp deps stats` reads.
#[test]
fn a_signal_mid_run_keeps_the_dependences_until_then() {
    let Some(lua) = workloads::module("a_signal_mid_run_keeps_the_dependences_until_then", "lua") else { return };
    let d = scratch("signal-deps");
    let filter = d.join("filter.wpp");
    let (status, err) = finish(spawn(&lua, &script(&d, 100), &filter, &["--mode", "ewpp-filter"]));
    assert_eq!(status, Some(0), "{err}");
    let long = script(&d, 1_200_000);
    let filter_arg = filter.to_str().unwrap();
    for (name, args) in
        [("addresses", vec!["--mode", "addresses"]), ("filter", vec!["--mode", "ewpp-filter"]), ("ewpp", vec!["--mode", "ewpp", "--filter", filter_arg])]
    {
        let out = d.join(format!("{name}.wpp"));
        let mut child = spawn(&lua, &long, &out, &args);
        wait_running(&mut child, 300);
        signal(&child, "INT");
        let (status, err) = finish(child);
        assert_eq!(status, Some(130), "{name}: {err}");
        assert_eq!(stats(&out)["partial"], true, "{name}");
        let s = json(wpp().args(["deps", "stats"]).arg(&out).arg("--json"));
        assert!(s["load_executions"].as_u64().unwrap() > 0, "{name}: {s}");
    }
    no_temporary_files(&d);
}
