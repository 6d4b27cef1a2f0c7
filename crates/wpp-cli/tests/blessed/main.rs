//! Blessed tests of what `wpp` prints for a person to read: every program of `tests/cli/`
//! runs through the commands its header lists, and their output is compared with the
//! expected output checked in beside it, so a change to any command's text shows in
//! review as a change to a `.out` file. (The `--json` forms are checked field by field by
//! the other tests.)
//!
//! # A test program
//!
//! `tests/cli/NAME.wat`, or `NAME.c` for what needs DWARF source lines, opens with a
//! comment saying what shape it exercises, in which the commands are listed one a line:
//!
//! ```text
//! ;; RUN: record -o %t.wpp %s
//! ;; RUN: paths %t.wpp --top 3
//! ```
//!
//! (`// RUN:` in C). Only the opening comment is read. A command is the arguments of
//! `wpp`, split at whitespace: there is no shell and no quoting. The commands run in order,
//! each in the same fresh scratch directory, which is also their current directory, with
//!
//! * `%s`: the program compiled to `NAME.wasm` in the scratch directory (a `.wat` file by
//!   the `wat` crate; a `.c` file by clang `--target=wasm32-wasi -O1 -g`, reproducibly:
//!   see [`common::compile_c_reproducibly`]);
//! * `%t`: the path prefix `t` in the scratch directory: `%t.wpp`, `%t.set.json`.
//!
//! The program's source is copied into the scratch directory too: a C program's where
//! the name its debugging information gives it (`NAME.c`) finds it, for the commands that
//! show source text (`annotate`); a `.wat` program's for the commands given the module in
//! the text format (`record NAME.wat`).
//!
//! A fixture file `NAME.input` beside the program, if there is one, is copied into the
//! scratch directory under its own name, for the commands that read a file of their own
//! (`compress NAME.input -o %t.wpp --format text`, a list for `ppp select --paths`).
//!
//! A C program needs clang for wasm32-wasi with wasi-libc: without it the program is
//! skipped with a note, or fails the test under `WPP_FULL_SUITE=1`. Its expected output
//! is that of the compiler it was blessed with (clang 14): another one lays the module out
//! differently.
//!
//! # The expected output
//!
//! `NAME.wat.out` (`NAME.c.out`) holds, for every command in order, separated by a blank
//! line: `$ wpp ARGS` as the header writes them (`%s`, `%t` and all), then its stdout as
//! it is, then each line of its stderr prefixed `stderr: ` (an empty one as `stderr:`),
//! then `exit: N` if its exit status is not 0. A stdout that does not end in a newline is followed by the line
//! `\ no newline at end of stdout`; control characters other than newline and tab are
//! written as Rust escapes (`\u{1b}`), bytes that are not UTF-8 as U+FFFD.
//!
//! Everything is compared exactly, except what depends on the machine or the clock, which
//! [`normalise`] replaces by these rules, in this order, by plain string search:
//!
//! 1. the path of `%s` becomes `%s`, and then the path prefix of `%t` becomes `%t`;
//! 2. a duration, a decimal number with a fraction followed by ` s` (`0.12 s`), becomes
//!    `<secs>`;
//! 3. a throughput, a decimal number with a fraction followed by ` M/s` (`3.75 M/s`),
//!    becomes `<rate> M/s`;
//! 4. the sizes that hold the run's time, as a variable-length number in the profile's
//!    `meta` section (and a merged profile's `merged-runs`, which also holds each run's
//!    file name, and an extended WPP's `ewpp`, which holds its filtering run's) and in
//!    decimal on the HTML page: the number at the end of a line `  meta ... N bytes`
//!    (`wpp stats`, `wpp twpp stats`), of `  merged-runs ... N bytes`, of
//!    `  ewpp ... N bytes` and of `wpp: wrote ... (N KiB)`
//!    (`wpp report`) becomes `<n>`.
//!
//! A number counts only where it is not part of a longer word (`v1.0 s` and `1.5 steps` are
//! left alone). Output that still names the scratch directory after rule 1 fails the test:
//! it would differ from run to run.
//!
//! # Blessing
//!
//! `BLESS=1 cargo test --release -p wpp-cli --test blessed` rewrites every `.out` file
//! from the current output (a skipped C program's is left as it is); review the change
//! with `git diff`.
//!
//! # Trials
//!
//! Each program is a test of its own, named by its file (libtest-mimic is the harness), so
//! `cargo test -p wpp-cli --test blessed -- slice.wat` runs one and `-- .c` the C ones;
//! `orphans` checks that every expected output has its program.

#[path = "../it/common/mod.rs"]
mod common;

use std::path::{Path, PathBuf};
use std::process::Output;

use common::{compile_c_reproducibly, run, scratch, wpp};
use libtest_mimic::{Arguments, Failed, Trial};
use wpp_test_support::line_diff::line_diff;

/// The environment variable that rewrites the expected outputs.
const BLESS: &str = "BLESS";

/// The placeholder of a duration.
const SECS: &str = "<secs>";

/// The lines whose last number is a size that depends on the run's time: (how the line
/// starts, what follows the number at its end).
const TIMED_SIZES: [(&str, &str); 4] = [("  meta ", " bytes"), ("  merged-runs ", " bytes"), ("  ewpp ", " bytes"), ("wpp: wrote ", " KiB)")];

fn main() {
    let args = Arguments::from_args();
    let programs = programs();
    assert!(!programs.is_empty(), "no programs in {}", cli_dir().display());
    let mut trials: Vec<Trial> = programs.into_iter().map(|p| Trial::test(p.file_name.clone(), move || check(&p))).collect();
    trials.push(Trial::test("orphans", || match orphans() {
        o if o.is_empty() => Ok(()),
        o => Err(o.join("\n").into()),
    }));
    trials.push(Trial::test("a_wrong_expectation_is_a_mismatch", || {
        a_wrong_expectation_is_a_mismatch();
        Ok(())
    }));
    trials.push(Trial::test("normalisation_rules", || {
        normalisation_rules();
        Ok(())
    }));
    libtest_mimic::run(&args, trials).exit();
}

/// Runs one program's commands and compares (or, blessing, writes) the expected output.
fn check(p: &Program) -> Result<(), Failed> {
    let bless = std::env::var_os(BLESS).is_some_and(|v| v == "1");
    let Some(actual) = run_program(p) else { return Ok(()) };
    let out = p.expected();
    if bless {
        std::fs::write(&out, &actual).map_err(|e| format!("writing {}: {e}", out.display()))?;
        return Ok(());
    }
    let expected =
        std::fs::read_to_string(&out).map_err(|e| format!("{}: cannot read the expected output ({e}); run with {BLESS}=1 to write it", out.display()))?;
    Ok(compare(&out, &expected, &actual)?)
}

/// A program of `tests/cli/`.
struct Program {
    /// Its source file.
    path: PathBuf,
    /// Its file name, `NAME.wat` or `NAME.c`.
    file_name: String,
    /// Its name, the file name without the extension.
    name: String,
    /// Whether it is C (otherwise it is WebAssembly text).
    is_c: bool,
}

impl Program {
    /// The expected output beside it, `NAME.wat.out` or `NAME.c.out`.
    fn expected(&self) -> PathBuf {
        cli_dir().join(format!("{}.out", self.file_name))
    }

    /// Its fixture file, `NAME.input`, which need not exist.
    fn input(&self) -> PathBuf {
        cli_dir().join(format!("{}.input", self.name))
    }

    /// The comment marker of its language.
    fn comment(&self) -> &'static str {
        if self.is_c {
            "//"
        } else {
            ";;"
        }
    }
}

fn cli_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli")
}

/// The programs, sorted by file name.
fn programs() -> Vec<Program> {
    let mut v: Vec<Program> = std::fs::read_dir(cli_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter_map(|path| {
            let ext = path.extension()?.to_str()?;
            let is_c = match ext {
                "wat" => false,
                "c" => true,
                _ => return None,
            };
            let file_name = path.file_name()?.to_str()?.to_string();
            let name = path.file_stem()?.to_str()?.to_string();
            Some(Program { path, file_name, name, is_c })
        })
        .collect();
    v.sort_by(|a, b| a.file_name.cmp(&b.file_name));
    v
}

/// The expected outputs and fixtures with no program beside them, as failures.
fn orphans() -> Vec<String> {
    let dir = cli_dir();
    let mut v = Vec::new();
    for e in std::fs::read_dir(&dir).unwrap() {
        let name = e.unwrap().file_name().to_string_lossy().into_owned();
        let program = if let Some(p) = name.strip_suffix(".out") {
            vec![p.to_string()]
        } else if let Some(stem) = name.strip_suffix(".input") {
            vec![format!("{stem}.wat"), format!("{stem}.c")]
        } else {
            continue;
        };
        if !program.iter().any(|p| dir.join(p).is_file()) {
            v.push(format!("{}: no program {} beside it", dir.join(&name).display(), program.join(" or ")));
        }
    }
    v.sort();
    v
}

/// The commands of the program's opening comment: the text after each `RUN:`.
fn commands(p: &Program, source: &str) -> Vec<String> {
    let marker = format!("{} RUN:", p.comment());
    source
        .lines()
        .map(str::trim_start)
        .take_while(|l| l.starts_with(p.comment()))
        .filter_map(|l| l.strip_prefix(&marker))
        .map(|c| c.trim().to_string())
        .collect()
}

/// Runs the program's commands in a fresh scratch directory; their output as the expected
/// output file holds it, or `None` when the program is skipped (C without a compiler).
fn run_program(p: &Program) -> Option<String> {
    let source = std::fs::read_to_string(&p.path).unwrap_or_else(|e| panic!("{}: {e}", p.path.display()));
    let commands = commands(p, &source);
    assert!(!commands.is_empty(), "{}: no `{} RUN:` line in its opening comment", p.path.display(), p.comment());
    let dir = scratch(&format!("blessed-{}", p.file_name));
    let module = if p.is_c {
        let Some(module) = compile_c_reproducibly(&dir, &p.path, "-O1") else {
            std::fs::remove_dir_all(&dir).unwrap();
            return None;
        };
        module
    } else {
        let bytes = wat::parse_str(&source).unwrap_or_else(|e| panic!("{}: {e}", p.path.display()));
        let module = dir.join(format!("{}.wasm", p.name));
        std::fs::write(&module, bytes).unwrap();
        module
    };
    std::fs::copy(&p.path, dir.join(&p.file_name)).unwrap();
    let input = p.input();
    if input.is_file() {
        std::fs::copy(&input, dir.join(input.file_name().unwrap())).unwrap();
    }
    let places =
        Places { module: module.to_str().unwrap().to_string(), prefix: dir.join("t").to_str().unwrap().to_string(), dir: dir.to_str().unwrap().to_string() };
    let mut blocks = Vec::new();
    for c in &commands {
        let args: Vec<String> = c.split_whitespace().map(|a| places.substitute(a)).collect();
        let out = run(wpp().args(&args).current_dir(&dir));
        blocks.push(render(c, &out, &places).unwrap_or_else(|e| panic!("{}: `{c}`: {e} (the scratch directory {} is kept)", p.path.display(), dir.display())));
    }
    std::fs::remove_dir_all(&dir).unwrap();
    Some(blocks.join("\n"))
}

/// Where `%s` and `%t` are for one program, and the scratch directory they are in.
struct Places {
    module: String,
    prefix: String,
    dir: String,
}

impl Places {
    /// A command's argument with `%s` and `%t` replaced by their paths.
    fn substitute(&self, arg: &str) -> String {
        arg.replace("%s", &self.module).replace("%t", &self.prefix)
    }
}

/// A command's block of the expected output: `$ wpp ARGS`, its stdout, its stderr lines and
/// its exit status, normalised; an error if the output still names the scratch directory.
fn render(command: &str, out: &Output, places: &Places) -> Result<String, String> {
    let mut s = format!("$ wpp {command}\n");
    let stdout = normalise(&printable(&out.stdout), places);
    s.push_str(&stdout);
    if !stdout.is_empty() && !stdout.ends_with('\n') {
        s.push_str("\n\\ no newline at end of stdout\n");
    }
    for line in normalise(&printable(&out.stderr), places).lines() {
        s.push_str(if line.is_empty() { "stderr:\n".to_string() } else { format!("stderr: {line}\n") }.as_str());
    }
    match out.status.code() {
        Some(0) => {}
        Some(n) => s.push_str(&format!("exit: {n}\n")),
        None => s.push_str(&format!("exit: {}\n", out.status)),
    }
    if s.contains(&places.dir) {
        return Err(format!("its output names the scratch directory other than as %s or %t:\n{s}"));
    }
    Ok(s)
}

/// `bytes` as text: not UTF-8 as U+FFFD, control characters but newline and tab escaped.
fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        if c.is_control() && c != '\n' && c != '\t' {
            s.extend(c.escape_default());
        } else {
            s.push(c);
        }
    }
    s
}

/// `text` with what depends on the machine or the clock replaced by the rules of the
/// module documentation: the paths of `%s` and `%t`, durations, throughputs and the sizes
/// that hold the run's time.
fn normalise(text: &str, places: &Places) -> String {
    let text = text.replace(&places.module, "%s").replace(&places.prefix, "%t");
    let text = replace_numbers(&text, " s", SECS);
    let text = replace_numbers(&text, " M/s", "<rate> M/s");
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let (line, newline) = line.strip_suffix('\n').map_or((line, ""), |l| (l, "\n"));
        out.push_str(&timed_size(line));
        out.push_str(newline);
    }
    out
}

/// `line` with its size replaced by `<n>` if it is one of [`TIMED_SIZES`].
fn timed_size(line: &str) -> String {
    for (start, end) in TIMED_SIZES {
        let Some(body) = line.strip_suffix(end).filter(|_| line.starts_with(start)) else { continue };
        let digits = body.chars().rev().take_while(|c| c.is_ascii_digit() || *c == ',').count();
        if digits > 0 {
            return format!("{}<n>{end}", &body[..body.len() - digits]);
        }
    }
    line.to_string()
}

/// `text` with every decimal number with a fraction that `unit` follows, the unit included,
/// replaced by `by`: where the number does not continue a word before it (a letter, digit
/// or `_`) and the unit does not continue into one after it.
fn replace_numbers(text: &str, unit: &str, by: &str) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(unit) {
        let (before, after) = (&rest[..at], &rest[at + unit.len()..]);
        let number_len = before.chars().rev().take_while(|c| c.is_ascii_digit() || *c == '.').count();
        let number = &before[before.len() - number_len..];
        let head = &before[..before.len() - number_len];
        let is_decimal = number.split_once('.').is_some_and(|(i, f)| !i.is_empty() && !f.is_empty() && !f.contains('.'));
        let starts_word = !head.ends_with(word);
        let ends_word = !after.starts_with(word);
        if is_decimal && starts_word && ends_word {
            out.push_str(head);
            out.push_str(by);
        } else {
            out.push_str(before);
            out.push_str(unit);
        }
        rest = after;
    }
    out.push_str(rest);
    out
}

/// Whether `actual` is the expected output `expected` of the file `path`; if not, what
/// differs, in which command's output it starts, and how to accept the change.
fn compare(path: &Path, expected: &str, actual: &str) -> Result<(), String> {
    if expected == actual {
        return Ok(());
    }
    let first = expected.lines().zip(actual.lines()).take_while(|(e, a)| e == a).count();
    let command = expected.lines().take(first + 1).filter(|l| l.starts_with("$ wpp")).last();
    let place = command.map(|c| format!(", first in the output of `{c}`")).unwrap_or_default();
    Err(format!(
        "{} differs from the output{place} (- expected, + actual):\n{}if the change is intended, re-run with {BLESS}=1 to rewrite it: {BLESS}=1 cargo test --release -p wpp-cli --test it blessed\n",
        path.display(),
        line_diff(expected, actual)
    ))
}

/// The harness can fail: a wrong expectation is reported with the differing lines and the
/// way to bless, and equal texts pass.
fn a_wrong_expectation_is_a_mismatch() {
    let path = Path::new("tests/cli/x.wat.out");
    let expected = "$ wpp stats %t.wpp\nevents          12\n";
    let actual = "$ wpp stats %t.wpp\nevents          13\n";
    let why = compare(path, expected, actual).unwrap_err();
    assert!(why.contains("tests/cli/x.wat.out differs from the output, first in the output of `$ wpp stats %t.wpp`"), "{why}");
    assert!(why.contains("- events          12\n+ events          13\n"), "{why}");
    assert!(why.contains("re-run with BLESS=1"), "{why}");
    assert!(compare(path, expected, expected).is_ok());
    // A missing final newline differs too.
    assert!(compare(path, expected, expected.trim_end()).is_err());
}

/// Each rule of the normalisation, and what it leaves alone.
fn normalisation_rules() {
    let places = Places { module: "/tmp/d/calls.wasm".into(), prefix: "/tmp/d/t".into(), dir: "/tmp/d".into() };
    let n = |s: &str| normalise(s, &places);
    assert_eq!(n("wpp: 1,234 paths in 0.12 s, 10.00 s more -> /tmp/d/t.wpp"), "wpp: 1,234 paths in <secs>, <secs> more -> %t.wpp");
    assert_eq!(n("module /tmp/d/calls.wasm (12.50 M/s)"), "module %s (<rate> M/s)");
    assert_eq!(n("3 s, v1.5 s, 1.5 steps, 1.5 s."), "3 s, v1.5 s, 1.5 steps, <secs>.");
    assert_eq!(n("2.5 s"), SECS);
    assert_eq!(n("  meta                     1,052 bytes\n  module  34 bytes\n"), "  meta                     <n> bytes\n  module  34 bytes\n");
    assert_eq!(n("wpp: wrote /tmp/d/t.html (40 KiB)"), "wpp: wrote %t.html (<n> KiB)");
    let out = Output { status: exit_status(2), stdout: b"a\x1bb".to_vec(), stderr: b"wpp: error: /tmp/d/t.x: missing\n".to_vec() };
    assert_eq!(
        render("stats %t.x", &out, &places).unwrap(),
        "$ wpp stats %t.x\na\\u{1b}b\n\\ no newline at end of stdout\nstderr: wpp: error: %t.x: missing\nexit: 2\n"
    );
    let leak = Output { status: exit_status(0), stdout: b"/tmp/d/other\n".to_vec(), stderr: Vec::new() };
    assert!(render("stats %t.x", &leak, &places).is_err());
}

/// An exit status with code `code`.
fn exit_status(code: i32) -> std::process::ExitStatus {
    use std::os::unix::process::ExitStatusExt as _;
    std::process::ExitStatus::from_raw(code << 8)
}
