//! Every command given bad input says so in one line naming the file, and exits 2; wpp's
//! own failures exit 1; `--version`, completions and man pages come from the same
//! definitions as the commands.

use std::path::{Path, PathBuf};

use wpp_test_support::corpus::wat_program;

use crate::common;
use common::{run, scratch, wpp};

/// The bad inputs of the test, and two good profiles of the `recursion` program.
struct Files {
    dir: PathBuf,
    wasm: PathBuf,
    grammar: PathBuf,
    paths: PathBuf,
}

impl Files {
    fn new(name: &str) -> Files {
        let dir = scratch(name);
        let wasm = wat_program(&dir, "recursion");
        let grammar = dir.join("grammar.wpp");
        let paths = dir.join("counts.wpp");
        for (mode, out) in [("grammar", &grammar), ("paths", &paths)] {
            let o = run(wpp().args(["record", "--mode", mode, "-o"]).arg(out).arg(&wasm));
            assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        }
        std::fs::write(dir.join("empty.bin"), b"").unwrap();
        std::fs::write(dir.join("notes.txt"), "these are notes, not a program\n").unwrap();
        // The preamble of a component: `\0asm`, version 0x0d, layer 1.
        std::fs::write(dir.join("component.wasm"), b"\0asm\x0d\0\x01\0").unwrap();
        std::fs::write(dir.join("list.txt"), "fib:0\nnosuchfunction:1\n").unwrap();
        std::fs::create_dir(dir.join("a-directory")).unwrap();
        Files { dir, wasm, grammar, paths }
    }

    fn path(&self, name: &str) -> String {
        self.dir.join(name).to_str().unwrap().to_owned()
    }
}

/// Runs `wpp ARGS` and checks it failed with status `status` and one line on stderr that
/// starts `wpp: error: ` and names every one of `names`; the line.
fn one_line_error<S: AsRef<str>>(args: &[S], status: i32, names: &[&str]) -> String {
    let args: Vec<&str> = args.iter().map(|a| a.as_ref()).collect();
    let out = run(wpp().args(&args));
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(status), "wpp {args:?}: {stderr}");
    assert!(out.stdout.is_empty(), "wpp {args:?} printed on stdout");
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 1, "wpp {args:?}: not one line:\n{stderr}");
    let line = lines[0];
    assert!(line.starts_with("wpp: error: "), "wpp {args:?}: {line}");
    for n in names {
        assert!(line.contains(n), "wpp {args:?}: `{n}` is not named: {line}");
    }
    // No debug dumps, no OS error numbers, no repeated causes.
    assert!(!line.contains("os error") && !line.contains("[0x") && !line.contains("caused by"), "wpp {args:?}: {line}");
    line.to_owned()
}

/// Every command that reads a file, on every kind of bad file: one clear line, exit 2.
#[test]
fn bad_inputs_give_one_line_naming_the_file() {
    let f = Files::new("bad-inputs");
    let missing = f.path("missing.wpp");
    let (empty, text, component, dir) = (f.path("empty.bin"), f.path("notes.txt"), f.path("component.wasm"), f.path("a-directory"));
    let (wasm, grammar, paths) = (f.wasm.to_str().unwrap(), f.grammar.to_str().unwrap(), f.paths.to_str().unwrap());
    let out = f.path("out.wpp");
    let page = f.path("page.html");

    // Commands reading a profile, each with what it says of a file that is no profile.
    let profile_commands: Vec<Vec<&str>> = vec![
        vec!["stats"],
        vec!["paths"],
        vec!["paths", "--json"],
        vec!["expand"],
        vec!["export", "--json"],
        vec!["hot", "--max-len", "4", "--min-cost", "1"],
        vec!["query", "freq", "fib:0"],
        vec!["ppp", "report"],
        vec!["ppp", "select", "--all-executed", "-o", &out],
        vec!["twpp", "build", "-o", &out],
        vec!["twpp", "stats"],
        vec!["trace", "--func", "fib"],
        vec!["dff", "--func", "fib", "--module", wasm],
        vec!["report", "-o", &page],
    ];
    for cmd in &profile_commands {
        let with = |file: &str| -> Vec<String> {
            // The file goes right after the (sub)command's name.
            let at = if cmd[0] == "ppp" || cmd[0] == "twpp" { 2 } else { 1 };
            let mut v: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
            v.insert(at, file.to_owned());
            v
        };
        let l = one_line_error(&with(&missing), 2, &["missing.wpp"]);
        assert!(l.contains("no such file"), "{l}");
        let l = one_line_error(&with(&dir), 2, &["a-directory"]);
        assert!(l.contains("is a directory"), "{l}");
        let l = one_line_error(&with(&empty), 2, &["empty.bin", "not a wpp profile"]);
        assert!(l.contains("an empty file"), "{l}");
        let l = one_line_error(&with(&text), 2, &["notes.txt", "not a wpp profile"]);
        assert!(l.contains("text starting \"these are notes"), "{l}");
        let l = one_line_error(&with(&component), 2, &["component.wasm", "not a wpp profile"]);
        assert!(l.contains("a WebAssembly component"), "{l}");
        let l = one_line_error(&with(wasm), 2, &["recursion.wasm", "not a wpp profile"]);
        assert!(l.contains("a WebAssembly module") && l.contains("wpp record"), "{l}");
    }
    // A profile of another kind: counts where the trace is needed, or not a PPP profile.
    for cmd in [vec!["expand", paths], vec!["hot", paths, "--max-len", "4", "--min-cost", "1"], vec!["query", paths, "freq", "fib:0"]] {
        let l = one_line_error(&cmd, 2, &["counts.wpp", "--mode paths"]);
        assert!(l.contains("--mode grammar or trace"), "{l}");
    }
    one_line_error(&["ppp", "report", grammar], 2, &["grammar.wpp", "--mode ppp"]);
    one_line_error(&["twpp", "build", paths, "-o", &out], 2, &["counts.wpp", "--mode paths"]);
    one_line_error(&["twpp", "stats", grammar], 2, &["grammar.wpp", "not a TWPP file", "wpp twpp build"]);
    one_line_error(&["trace", grammar, "--func", "fib"], 2, &["grammar.wpp", "not a TWPP file"]);
    one_line_error(&["dff", paths, "--func", "fib", "--module", wasm], 2, &["counts.wpp", "--mode paths"]);

    // `wpp record` and the module.
    let record = |program: &str| vec!["record".to_owned(), "-o".into(), out.clone(), program.to_owned()];
    one_line_error(&record(&missing), 2, &["missing.wpp", "no such file"]);
    one_line_error(&record(&dir), 2, &["a-directory", "is a directory"]);
    one_line_error(&record(&empty), 2, &["empty.bin", "not a WebAssembly module (an empty file)"]);
    one_line_error(&record(&text), 2, &["notes.txt", "not a WebAssembly module (text starting \"these are notes"]);
    one_line_error(&record(&component), 2, &["component.wasm", "WebAssembly component", "core modules"]);
    one_line_error(&record(grammar), 2, &["grammar.wpp", "not a WebAssembly module (a wpp profile)"]);
    // A module cut short: the parser's message, with its offset, once.
    let cut = f.path("cut.wasm");
    let bytes = std::fs::read(&f.wasm).unwrap();
    std::fs::write(&cut, &bytes[..bytes.len() / 2]).unwrap();
    let l = one_line_error(&record(&cut), 2, &["cut.wasm", "invalid module", "offset"]);
    assert_eq!(l.matches("invalid module").count(), 1, "{l}");
    // Modules wpp reads but cannot run: an import WASI does not provide, no `_start`.
    for (name, src, says) in [
        ("imports.wasm", r#"(module (import "env" "foo" (func)) (func (export "_start") (call 0)))"#, "`env::foo`"),
        ("library.wasm", r#"(module (func (export "main")))"#, "no `_start` function"),
    ] {
        let file = f.path(name);
        std::fs::write(&file, wat::parse_str(src).unwrap()).unwrap();
        one_line_error(&record(&file), 2, &[name, says]);
    }
    assert!(!Path::new(&out).exists(), "a profile was written");
    // Its set file.
    for (set, says) in [(missing.as_str(), "no such file"), (grammar, "not a set file of `wpp ppp select` (a wpp profile)"), (&text, "not a set file")] {
        one_line_error(&["record", "--mode", "ppp", "--interesting", set, "-o", &out, wasm], 2, &[Path::new(set).file_name().unwrap().to_str().unwrap(), says]);
    }
    // `wpp compress` and its input.
    one_line_error(&["compress", &missing, "-o", &out], 2, &["missing.wpp", "no such file"]);
    one_line_error(&["compress", &text, "--format", "text", "-o", &out], 2, &["notes.txt"]);
}

/// A name that names nothing: the profile and the name in one line, exit 2.
#[test]
fn unknown_names_give_one_line() {
    let f = Files::new("unknown-names");
    let (grammar, paths) = (f.grammar.to_str().unwrap(), f.paths.to_str().unwrap());
    one_line_error(&["paths", paths, "--func", "nosuchfunction"], 2, &["counts.wpp", "no function named `nosuchfunction`"]);
    one_line_error(&["query", grammar, "freq", "nosuchfunction:0"], 2, &["grammar.wpp", "nosuchfunction"]);
    one_line_error(&["query", grammar, "context", "fib:999999"], 2, &["fib", "no path 999999"]);
    one_line_error(&["query", grammar, "before", "fib", "fib:0"], 2, &["`fib`"]);
    let out = f.path("set.json");
    one_line_error(&["ppp", "select", paths, "--paths", &f.path("list.txt"), "-o", &out], 2, &["list.txt:2", "nosuchfunction"]);
}

/// What wpp could not write is a failure of wpp's (exit 1), naming the file.
#[test]
fn write_failures_exit_1() {
    let f = Files::new("write-failures");
    let into_file = f.dir.join("notes.txt").join("p.wpp");
    let into_file = into_file.to_str().unwrap();
    let l = one_line_error(&["record", "-o", into_file, f.wasm.to_str().unwrap()], 1, &["notes.txt/p.wpp"]);
    assert!(l.contains("not a directory"), "{l}");
    one_line_error(&["ppp", "select", f.paths.to_str().unwrap(), "--all-executed", "-o", into_file], 1, &["notes.txt/p.wpp", "not a directory"]);
    one_line_error(&["man", into_file], 1, &["notes.txt/p.wpp"]);
    one_line_error(&["export", f.grammar.to_str().unwrap(), "--parquet", into_file], 1, &["notes.txt/p.wpp", "not a directory"]);
}

/// Usage errors are clap's, on one line: exit 2, with the usage.
#[test]
fn usage_errors_exit_2() {
    let out = run(wpp().args(["paths"]));
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("wpp: error: ") && err.contains("(usage: wpp paths <PROFILE>)") && err.lines().count() == 1, "{err}");
    let out = run(wpp().args(["record", "--mode", "sideways", "x.wasm"]));
    assert_eq!(out.status.code(), Some(2));
}

/// `wpp --version` names the profile format it writes.
#[test]
fn version_names_the_profile_format() {
    let out = run(wpp().arg("--version"));
    assert!(out.status.success());
    let v = String::from_utf8(out.stdout).unwrap();
    assert!(v.starts_with(&format!("wpp {} ", env!("CARGO_PKG_VERSION"))), "{v}");
    assert!(v.contains(&format!("profile format {}", wpp_profile::VERSION)), "{v}");
}

/// Completion scripts for each shell, the bash one valid bash that completes the
/// subcommands and their options.
#[test]
fn completions() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = run(wpp().args(["completions", shell]));
        assert!(out.status.success(), "{shell}: {}", String::from_utf8_lossy(&out.stderr));
        let script = String::from_utf8(out.stdout).unwrap();
        for word in ["record", "spool-memory", "max-len"] {
            assert!(script.contains(word), "{shell}: no `{word}`");
        }
    }
    let d = scratch("completions");
    let script = d.join("wpp.bash");
    std::fs::write(&script, run(wpp().args(["completions", "bash"])).stdout).unwrap();
    // Load it and ask what `wpp rec<TAB>` and `wpp record --ti<TAB>` complete to.
    let probe = format!(
        "source {}; COMP_WORDS=(wpp rec); COMP_CWORD=1; _wpp wpp rec wpp; echo \"${{COMPREPLY[@]}}\"; COMP_WORDS=(wpp record --ti); COMP_CWORD=2; _wpp wpp --ti record; echo \"${{COMPREPLY[@]}}\"",
        script.display()
    );
    let out = run(std::process::Command::new("bash").args(["-c", &probe]));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let replies = String::from_utf8(out.stdout).unwrap();
    assert_eq!(replies, "record\n--timeout\n", "{replies}");
}

/// `wpp man DIR` writes a page per command, with the options and the exit statuses.
#[test]
fn man_pages() {
    let d = scratch("man");
    let out = run(wpp().arg("man").arg(&d));
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let page = |name: &str| std::fs::read_to_string(d.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let top = page("wpp.1");
    assert!(top.starts_with(".ie") || top.contains(".TH wpp 1"), "{top}");
    assert!(top.contains("Exit status") && top.contains("124"), "no exit statuses in wpp.1");
    let record = page("wpp-record.1");
    for option in ["\\-\\-timeout", "\\-\\-spool\\-memory", "ARGS"] {
        assert!(record.contains(option), "wpp-record.1 lacks {option}");
    }
    for sub in ["wpp-paths.1", "wpp-hot.1", "wpp-ppp-select.1", "wpp-query-freq.1", "wpp-completions.1"] {
        assert!(page(sub).contains(".SH NAME"), "{sub}");
    }
}
