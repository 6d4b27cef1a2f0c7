//! End-to-end tests of the `wpp` command line.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn wpp() -> Command {
    Command::new(env!("CARGO_BIN_EXE_wpp"))
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wpp-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Compiles one of the runtime crate's test programs into `dir`.
fn wat_program(dir: &Path, name: &str) -> PathBuf {
    let src = format!("{}/../wpp-runtime/tests/wat/{name}.wat", env!("CARGO_MANIFEST_DIR"));
    let out = dir.join(format!("{name}.wasm"));
    std::fs::write(&out, wat::parse_file(src).unwrap()).unwrap();
    out
}

fn run(cmd: &mut Command) -> Output {
    cmd.stdin(Stdio::null()).output().unwrap()
}

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
        (r#"(module (func $catcher (export "_start") (block (try_table (catch_all 0)))))"#, "catcher"),
        (r#"(module (tag $e) (func (export "_start") (throw $e)))"#, "tag section"),
        (r#"(module (memory 1 1 shared) (func (export "_start")))"#, "memory section"),
    ] {
        let wasm = d.join("m.wasm");
        std::fs::write(&wasm, wat::parse_str(src).unwrap()).unwrap();
        let out = run(wpp().args(["record", "-o"]).arg(d.join("x.wpp")).arg(&wasm));
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains("m.wasm") && stderr.contains("unsupported feature"), "{stderr}");
        assert!(stderr.contains(place), "{src}: {stderr}");
    }
}

/// The guest sees no host file or environment variable unless granted.
#[test]
fn guest_is_sandboxed() {
    let lua = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../workloads/build/lua.wasm");
    assert!(lua.exists(), "{} missing: build the workloads with `bash workloads/build.sh`", lua.display());
    let d = scratch("sandbox");
    std::fs::write(d.join("secret.txt"), "hello from the host\n").unwrap();
    let script = "local f = io.open('/data/secret.txt'); print(f and f:read('l') or 'no file'); print(os.getenv('WPP_TEST_VAR') or 'no var')\n";
    let go = |extra: &[&str]| {
        let mut c = wpp();
        c.args(["record", "-o"]).arg(d.join("s.wpp")).args(extra).arg(&lua);
        let mut child = c.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        use std::io::Write;
        child.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    std::env::set_var("WPP_TEST_VAR", "from the host");
    assert_eq!(go(&[]), "no file\nno var\n");
    let dir = format!("{}::/data", d.display());
    assert_eq!(go(&["--dir", &dir, "--env", "WPP_TEST_VAR"]), "hello from the host\nfrom the host\n");
}
