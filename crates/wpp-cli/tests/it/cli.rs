//! End-to-end tests of the `wpp` command line.

use std::path::Path;
use std::process::Stdio;

use wpp_test_support::corpus::wat_program;
use wpp_test_support::workloads;

use crate::common;
use common::{run, scratch, wpp};

fn paths_json(profile: &Path) -> serde_json::Value {
    let out = run(wpp().args(["paths", "--json", "--top", "0"]).arg(profile));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Both recording modes write profiles that `wpp paths` reads, with equal counts, and the
/// JSON has the documented shape.
#[test]
fn both_modes_give_the_same_profile() {
    let d = scratch("modes");
    let wasm = wat_program(&d, "br_table");
    let mut outputs = Vec::new();
    for mode in ["paths", "trace"] {
        let profile = d.join(format!("{mode}.wpp"));
        let out = run(wpp().args(["record", "--mode", mode, "-o"]).arg(&profile).arg(&wasm));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("distinct ->"), "no summary line: {stderr}");
        outputs.push((out.stdout, paths_json(&profile)));
    }
    assert_eq!(outputs[0], outputs[1]);
    let paths = outputs[0].1["paths"].as_array().unwrap();
    assert!(paths.len() >= 8);
    for p in paths {
        for key in ["function", "function_index", "path_id", "count", "instructions", "blocks"] {
            assert!(p.get(key).is_some(), "missing {key} in {p}");
        }
        assert!(p["count"].as_u64().unwrap() > 0);
        assert!(!p["blocks"].as_array().unwrap().is_empty());
    }
    // Hottest first.
    let counts: Vec<u64> = paths.iter().map(|p| p["count"].as_u64().unwrap()).collect();
    assert!(counts.windows(2).all(|w| w[0] >= w[1]));
}

#[test]
fn exit_status_passes_through() {
    let d = scratch("exit");
    let wasm = wat_program(&d, "early_exit");
    let out = run(wpp().args(["record", "-o"]).arg(d.join("p.wpp")).arg(&wasm));
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    let json = paths_json(&d.join("p.wpp"));
    assert!(!json["paths"].as_array().unwrap().is_empty());
}

/// A trap prints the trap and a backtrace with function names, exits 134, and leaves a
/// valid profile holding the path that ran into the trap.
#[test]
fn trap_keeps_the_profile() {
    let d = scratch("trap");
    let wasm = wat_program(&d, "unreachable");
    let out = run(wpp().args(["record", "--mode", "trace", "-o"]).arg(d.join("t.wpp")).arg(&wasm));
    assert_eq!(out.status.code(), Some(134));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("trapped") && stderr.contains("unreachable"), "{stderr}");
    assert!(stderr.contains("check"), "no function name in the backtrace: {stderr}");
    let json = paths_json(&d.join("t.wpp"));
    assert!(json["paths"].as_array().unwrap().iter().any(|p| p["function"] == "check"));
}

#[test]
fn func_filter_and_unknown_function() {
    let d = scratch("func");
    let wasm = wat_program(&d, "recursion");
    let profile = d.join("r.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    let out = run(wpp().args(["paths", "--json", "--func", "fib"]).arg(&profile));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let paths = json["paths"].as_array().unwrap();
    assert!(!paths.is_empty() && paths.iter().all(|p| p["function"] == "fib"));
    let out = run(wpp().args(["paths", "--func", "nosuchfunction"]).arg(&profile));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no function named `nosuchfunction`"));
}

#[test]
fn damaged_profile_is_a_clear_error() {
    let d = scratch("damaged");
    let wasm = wat_program(&d, "loops");
    let profile = d.join("l.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm)).status.success());
    let mut bytes = std::fs::read(&profile).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x40;
    std::fs::write(&profile, &bytes).unwrap();
    let out = run(wpp().arg("paths").arg(&profile));
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("l.wpp") && stderr.contains("damaged"), "{stderr}");
    let out = run(wpp().arg("paths").arg(&wasm));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a wpp profile"));
}

/// A module using a feature wpp does not handle is refused, naming the feature and where
/// it is used: the function, or the section when it is outside any function.
#[test]
fn unsupported_feature_is_refused() {
    let d = scratch("unsupported");
    for (src, place) in [
        // The legacy exception-handling instructions: named, with the supported form.
        (r#"(module (tag $e) (func $catcher (export "_start") try throw $e catch $e end))"#, "catcher"),
        (r#"(module (type (struct (field i32))) (func (export "_start")))"#, "type section"),
        (r#"(module (memory 1 1 shared) (func (export "_start")))"#, "memory section"),
    ] {
        let wasm = d.join("m.wasm");
        std::fs::write(&wasm, wat::parse_str(src).unwrap()).unwrap();
        let out = run(wpp().args(["record", "-o"]).arg(d.join("x.wpp")).arg(&wasm));
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("m.wasm") && stderr.contains("unsupported feature"), "{stderr}");
        assert!(stderr.contains(place), "{src}: {stderr}");
        if place == "catcher" {
            assert!(stderr.contains("legacy exception-handling instructions") && stderr.contains("try_table"), "{stderr}");
        }
    }
}

/// The guest sees no host file or environment variable unless granted.
#[test]
fn guest_is_sandboxed() {
    let Some(lua) = workloads::module("guest_is_sandboxed", "lua") else { return };
    let d = scratch("sandbox");
    std::fs::write(d.join("secret.txt"), "hello from the host\n").unwrap();
    let script = "local f = io.open('/data/secret.txt'); print(f and f:read('l') or 'no file'); print(os.getenv('WPP_TEST_VAR') or 'no var')\n";
    let go = |extra: &[&str]| {
        let mut c = wpp();
        c.args(["record", "-o"]).arg(d.join("s.wpp")).args(extra).arg(&lua).env("WPP_TEST_VAR", "from the host");
        let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(go(&[]), "no file\nno var\n");
    let dir = format!("{}::/data", d.display());
    assert_eq!(go(&["--dir", &dir, "--env", "WPP_TEST_VAR"]), "hello from the host\nfrom the host\n");
}

fn expand(profile: &Path, decode: bool) -> Vec<u8> {
    let mut cmd = wpp();
    cmd.arg("expand").arg(profile);
    if decode {
        cmd.arg("--decode");
    }
    let out = run(&mut cmd);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

fn stats_json(profile: &Path) -> serde_json::Value {
    let out = run(wpp().args(["stats", "--json"]).arg(profile));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Grammar profiles from every builder hold exactly the trace a trace-mode recording
/// holds: `wpp expand` prints the same events, decoded or not, and the counts agree. This
/// includes a program that traps, and a spool kept on disk.
#[test]
fn grammar_profiles_expand_to_the_trace() {
    let d = scratch("grammar");
    for name in ["loops", "recursion", "br_table", "trap"] {
        let wasm = wat_program(&d, name);
        let trace = d.join(format!("{name}-trace.wpp"));
        let out = run(wpp().args(["record", "--mode", "trace", "-o"]).arg(&trace).arg(&wasm));
        assert!(out.status.code().is_some(), "{}", String::from_utf8_lossy(&out.stderr));
        let expected = expand(&trace, false);
        let expected_decoded = expand(&trace, true);
        assert!(!expected.is_empty(), "{name}: empty trace");
        let n_events = expected.iter().filter(|&&b| b == b'\n').count() as u64;
        for builder in ["sequitur", "sequitur1", "sequitur1+p", "repair", "sequitur1+disk"] {
            let g = d.join(format!("{name}-{builder}.wpp"));
            let mut cmd = wpp();
            cmd.args(["record", "--grammar", builder.trim_end_matches("+p").trim_end_matches("+disk")]);
            if builder.ends_with("+p") {
                cmd.arg("--predict");
            }
            if builder.ends_with("+disk") {
                // The spool goes through its temporary file.
                cmd.args(["--spool-memory", "0"]);
            }
            let out = run(cmd.arg("-o").arg(&g).arg(&wasm));
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(stderr.contains("grammar"), "{name}/{builder}: no grammar summary: {stderr}");
            assert_eq!(expand(&g, false), expected, "{name}/{builder}");
            assert_eq!(expand(&g, true), expected_decoded, "{name}/{builder}");
            assert_eq!(paths_json(&g), paths_json(&trace), "{name}/{builder}");
            let s = stats_json(&g);
            assert_eq!(s["events"], n_events, "{name}/{builder}");
            assert_eq!(s["distinct_paths"].as_u64().unwrap() as usize, paths_json(&trace)["paths"].as_array().unwrap().len());
            assert!(s["rules"].as_u64().unwrap() >= 1);
            assert!(s["grammar_symbols"].as_u64().unwrap() >= 1);
            for section in ["meta", "counts", "symbols", "grammar", "module"] {
                assert!(s["sections"][section].as_u64().is_some(), "{name}/{builder}: no section {section} in {s}");
            }
        }
    }
}

/// A recording in every mode records the SHA-256 of its module, and `wpp stats` shows it,
/// also for a TWPP file built from it; a profile from `wpp compress` has none.
#[test]
fn stats_show_the_module_hash() {
    let d = scratch("module_hash");
    let wasm = wat_program(&d, "loops");
    let expected = wpp_profile::ModuleId::of(&std::fs::read(&wasm).unwrap()).sha256_hex();
    for mode in ["paths", "trace", "grammar"] {
        let profile = d.join(format!("{mode}.wpp"));
        assert!(run(wpp().args(["record", "--mode", mode, "-o"]).arg(&profile).arg(&wasm)).status.success());
        assert_eq!(stats_json(&profile)["module_sha256"], expected.as_str(), "{mode}");
        let out = run(wpp().arg("stats").arg(&profile));
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.lines().any(|l| l == format!("module sha256   {expected}")), "{mode}: {text}");
    }
    let twpp = d.join("grammar.twpp");
    assert!(run(wpp().args(["twpp", "build", "-o"]).arg(&twpp).arg(d.join("grammar.wpp"))).status.success());
    assert_eq!(stats_json(&twpp)["module_sha256"], expected.as_str(), "the TWPP file keeps the module's hash");

    let symbols = d.join("symbols.txt");
    std::fs::write(&symbols, "1\n2\n1\n2\n").unwrap();
    let compressed = d.join("compressed.wpp");
    assert!(run(wpp().args(["compress", "--format", "text", "-o"]).arg(&compressed).arg(&symbols)).status.success());
    let out = run(wpp().arg("stats").arg(&compressed));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.lines().any(|l| l == "module sha256   not recorded"), "{text}");
}

/// The JSON export holds the grammar and its symbol table; expanding the exported rules by
/// hand gives what `wpp expand` prints.
#[test]
fn export_holds_the_grammar() {
    let d = scratch("export");
    let wasm = wat_program(&d, "loops");
    let g = d.join("loops.wpp");
    assert!(run(wpp().args(["record", "-o"]).arg(&g).arg(&wasm)).status.success());
    let out = run(wpp().args(["export", "--json"]).arg(&g));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let rules = e["grammar"]["rules"].as_array().unwrap();
    let symbols = e["symbols"].as_array().unwrap();
    let mut text = String::new();
    let mut stack = vec![(0usize, 0usize)];
    while let Some((r, i)) = stack.pop() {
        let body = rules[r].as_array().unwrap();
        if i == body.len() {
            continue;
        }
        stack.push((r, i + 1));
        if let Some(t) = body[i]["t"].as_u64() {
            let s = &symbols[t as usize];
            text.push_str(&format!("{} {}\n", s["function"], s["path_id"]));
        } else {
            stack.push((body[i]["r"].as_u64().unwrap() as usize, 0));
        }
    }
    assert_eq!(text.as_bytes(), &expand(&g, false)[..]);
    assert!(e["functions"].as_array().unwrap().len() > 1);
    assert_eq!((&e["mode"], &e["builder"], &e["prediction"]), (&serde_json::json!("grammar"), &serde_json::json!("sequitur1"), &serde_json::json!("off")));
    // Plain tags and safe numbers: an edge's kind is a snake_case string, its target a
    // block number or null, no limit is null, the ending is data.
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("\"Block\"") && !text.contains("\"Forward\"") && !text.contains("18446744073709551615"), "{text}");
    let kinds: std::collections::BTreeSet<&str> =
        e["functions"].as_array().unwrap().iter().flat_map(|f| f["edges"].as_array().unwrap()).map(|x| x["kind"].as_str().unwrap()).collect();
    assert!(kinds.iter().all(|k| ["forward", "back", "call", "return", "trap"].contains(k)) && kinds.contains("back"), "{kinds:?}");
    assert_eq!(e["max_paths"], serde_json::Value::Null);
    assert_eq!((&e["ending"]["kind"], &e["ending"]["code"]), (&serde_json::json!("exited"), &serde_json::json!(0)));
    // A trace profile's export holds its trace (and JSON is the default).
    let t = d.join("loops-trace.wpp");
    assert!(run(wpp().args(["record", "--mode", "trace", "-o"]).arg(&t).arg(&wasm)).status.success());
    let out = run(wpp().arg("export").arg(&t));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let e: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let text: String = e["trace"].as_array().unwrap().iter().map(|ev| format!("{} {}\n", ev[0], ev[1])).collect();
    assert_eq!(text.as_bytes(), &expand(&t, false)[..]);
    assert_eq!(e["events"].as_u64(), Some(e["trace"].as_array().unwrap().len() as u64));
}

/// `wpp compress` turns a symbol trace from elsewhere into a grammar profile that expands
/// back to the input, from binary and text input, with every builder; bad input is a
/// clear error naming the file.
#[test]
fn compress_round_trips() {
    let d = scratch("compress");
    let mut symbols: Vec<u32> = Vec::new();
    for i in 0..20_000u32 {
        symbols.extend([7, 1 << 31, i % 5, 4_000_000_000]);
        if i % 97 == 0 {
            symbols.push(i);
        }
    }
    let bin = d.join("trace.u32");
    std::fs::write(&bin, symbols.iter().flat_map(|s| s.to_le_bytes()).collect::<Vec<u8>>()).unwrap();
    let txt = d.join("trace.txt");
    std::fs::write(&txt, symbols.iter().map(|s| format!("{s}\n")).collect::<String>()).unwrap();
    let expected: String = symbols.iter().map(|s| format!("{s}\n")).collect();
    for builder in ["sequitur", "sequitur1", "repair"] {
        for (input, format) in [(&bin, "u32le"), (&txt, "text")] {
            let g = d.join(format!("{builder}-{format}.wpp"));
            let out = run(wpp().args(["compress", "--grammar", builder, "--format", format, "-o"]).arg(&g).arg(input));
            assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
            assert_eq!(String::from_utf8(expand(&g, false)).unwrap(), expected, "{builder}/{format}");
            let s = stats_json(&g);
            assert_eq!(s["events"], symbols.len() as u64);
            let distinct: std::collections::HashSet<u32> = symbols.iter().copied().collect();
            assert_eq!(s["distinct_paths"], distinct.len());
            assert!(s["ratio"].as_f64().unwrap() > 20.0, "{builder}/{format}: {s}");
            assert!(s["module_sha256"].is_null(), "{builder}/{format}: a compressed trace has no module: {s}");
        }
    }
    let odd = d.join("odd.u32");
    std::fs::write(&odd, [1u8, 0, 0, 0, 2, 0]).unwrap();
    let out = run(wpp().args(["compress", "-o"]).arg(d.join("x.wpp")).arg(&odd));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr.contains("odd.u32") && stderr.contains("6 bytes"), "{stderr}");
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "1 2\n3 x4\n").unwrap();
    let out = run(wpp().args(["compress", "--format", "text", "-o"]).arg(d.join("x.wpp")).arg(&bad));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.txt:2") && stderr.contains("x4"), "{stderr}");
}

/// `wpp expand`'s output is `wpp compress --format events`' input: a recorded profile whose
/// path numbers pass 32 bits (a function of 36 diamonds) expands, compresses and expands
/// again to the same events; read as `--format text`, the same file is an error that names
/// the line and the format that reads it.
#[test]
fn expand_then_compress_round_trips() {
    let d = scratch("expand-compress");
    let diamonds: String = (0..36)
        .map(|k| {
            format!(
                "(if (i64.ne (i64.and (i64.shr_u (local.get $x) (i64.const {k})) (i64.const 1)) (i64.const 0))
                   (then (local.set $acc (i64.add (local.get $acc) (i64.const {k}))))
                   (else (local.set $acc (i64.sub (local.get $acc) (i64.const 1)))))\n"
            )
        })
        .collect();
    let wat = format!(
        r#"(module (memory (export "memory") 1)
             (func $many (param $x i64) (result i64) (local $acc i64) {diamonds} (local.get $acc))
             (func (export "_start") (local $i i64)
               (loop $l
                 (drop (call $many (i64.mul (local.get $i) (i64.const 0x9E3779B97F4A7C15))))
                 (local.set $i (i64.add (local.get $i) (i64.const 1)))
                 (br_if $l (i64.lt_u (local.get $i) (i64.const 300))))))"#
    );
    let wasm = d.join("many.wasm");
    std::fs::write(&wasm, wat::parse_str(&wat).unwrap()).unwrap();
    let profile = d.join("many.wpp");
    let out = run(wpp().args(["record", "-o"]).arg(&profile).arg(&wasm));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let events = expand(&profile, false);
    let text = String::from_utf8(events.clone()).unwrap();
    assert!(text.lines().any(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap() > u32::MAX as u64), "no path number past 32 bits");
    let listed = d.join("events.txt");
    std::fs::write(&listed, &events).unwrap();
    let again = d.join("again.wpp");
    let out = run(wpp().args(["compress", "--format", "events", "-o"]).arg(&again).arg(&listed));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8(expand(&again, false)).unwrap(), text);
    assert_eq!(stats_json(&again)["events"], stats_json(&profile)["events"]);
    let out = run(wpp().args(["compress", "--format", "text", "-o"]).arg(d.join("x.wpp")).arg(&listed));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("events.txt:") && stderr.contains("--format events"), "{stderr}");
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "1 2\n3\n").unwrap();
    let out = run(wpp().args(["compress", "--format", "events", "-o"]).arg(d.join("x.wpp")).arg(&bad));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.txt:2") && stderr.contains("FUNCTION PATH"), "{stderr}");
}

/// Output cut short by the reader (`wpp export --json ... | head -c 100`) is not an error,
/// whether the writer is the JSON encoder or a plain line writer. The outputs are several
/// megabytes, far beyond what a pipe buffers, so the writer does meet the closed pipe.
#[test]
fn closed_pipe_is_quiet() {
    use std::io::Read as _;
    let d = scratch("pipe");
    let mut x = 1u32;
    let symbols: String = (0..300_000)
        .map(|_| {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            format!("{}\n", x >> 12)
        })
        .collect();
    let input = d.join("trace.txt");
    std::fs::write(&input, symbols).unwrap();
    let g = d.join("trace.wpp");
    let out = run(wpp().args(["compress", "--format", "text", "-o"]).arg(&g).arg(&input));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for args in [&["export", "--json"][..], &["expand"][..]] {
        let full = run(wpp().args(args).arg(&g));
        assert!(full.stdout.len() > 1 << 20, "{args:?}: only {} bytes of output", full.stdout.len());
        let mut child = wpp().args(args).arg(&g).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = [0u8; 10];
        child.stdout.take().unwrap().read_exact(&mut first).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(out.stderr.is_empty(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    }
    // The bash completion script is more than a pipe holds (64 KiB), so the closed pipe
    // is met while it is written.
    let full = run(wpp().args(["completions", "bash"]));
    assert!(full.stdout.len() > 64 << 10, "completions bash: only {} bytes", full.stdout.len());
    let mut child = wpp().args(["completions", "bash"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut first = [0u8; 10];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success() && out.stderr.is_empty(), "completions bash | head: {:?} {}", out.status, String::from_utf8_lossy(&out.stderr));
}

/// Everything after the program is the program's, even what looks like wpp's options, as
/// with `wasmtime run`; a `--` right after the program is accepted and not passed on.
#[test]
fn arguments_after_the_program_are_the_programs() {
    let d = scratch("guest-args");
    let wasm = wat_program(&d, "echo_args");
    let profile = d.join("p.wpp");
    let echo = |args: &[&str]| {
        let out = run(wpp().args(["record", "--mode", "paths", "-o"]).arg(&profile).arg(&wasm).args(args));
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    assert_eq!(echo(&["-e", "print(1)", "--mode", "trace", "-o", "x.wpp", "--help"]), "-e\nprint(1)\n--mode\ntrace\n-o\nx.wpp\n--help\n");
    assert_eq!(echo(&["--", "-e", "x"]), "-e\nx\n");
    assert_eq!(echo(&["a", "--", "b"]), "a\n--\nb\n");
    assert_eq!(echo(&[]), "");
    // The options before the program are wpp's: paths mode, written to -o.
    assert_eq!(stats_json(&profile)["mode"], "paths");
    assert!(!d.join("x.wpp").exists());
}

/// Without -o the profile is `STEM.wpp` in the current directory, not beside the program
/// (whose directory may be read-only).
#[test]
fn default_output_is_in_the_current_directory() {
    let d = scratch("default-output");
    let programs = d.join("programs");
    std::fs::create_dir(&programs).unwrap();
    let wasm = wat_program(&programs, "loops");
    let cwd = d.join("work");
    std::fs::create_dir(&cwd).unwrap();
    let out = run(wpp().arg("record").arg(&wasm).current_dir(&cwd));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(cwd.join("loops.wpp").is_file());
    assert!(!programs.join("loops.wpp").exists());
    assert!(String::from_utf8_lossy(&out.stderr).contains("-> loops.wpp"));
}
