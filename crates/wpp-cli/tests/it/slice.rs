//! Zhang and Gupta's Fig. 10 (Agrawal and Horgan's example) written in C and compiled
//! without optimisation, so that every variable lives in linear memory: the slice of Z at
//! the breakpoint goes through stores and loads. The statements are the lines of `main`
//! marked `/* N */`. Approach 3 (the precise slice) leaves out statements 3 and 8 (their
//! values were overwritten before anything read them) and 10 (nothing reads what it
//! writes); approach 2 (every execution of each statement reached) keeps 8, whose Y reached
//! an earlier iteration's Z; approach 1 (the executed statements whose definitions can
//! reach) keeps 3 too, as J = 0 reaches statement 13 when the loop does not run. Without
//! the memory dependences the slice stops at the first load and says so.

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use common::{compile_c_reproducibly, json, ok, run, scratch, wpp};

/// The statement numbers of main's lines in the slice.
fn statements(slice: &serde_json::Value, marks: &[(u32, u32)]) -> BTreeSet<u32> {
    slice["lines"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| l["function"] == "__original_main")
        .filter_map(|l| l["source"].as_str()?.strip_prefix("fig10.c:")?.parse::<u32>().ok())
        .filter_map(|line| marks.iter().find(|m| m.0 == line).map(|m| m.1))
        .collect()
}

#[test]
fn fig10_in_c() {
    let d = scratch("slice-fig10");
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/fig10.c");
    let Some(wasm) = compile_c_reproducibly(&d, &src, "-O0") else { return };
    let text = std::fs::read_to_string(&src).unwrap();
    // (line, statement) of each line marked /* N */.
    let marks: Vec<(u32, u32)> = text
        .lines()
        .enumerate()
        .filter_map(|(i, l)| {
            let mark = l.split("/* ").nth(1)?;
            let digits: String = mark.chars().take_while(char::is_ascii_digit).collect();
            Some((i as u32 + 1, digits.parse().ok()?))
        })
        .collect();
    let breakpoint = text.lines().position(|l| l.contains("void breakpoint(")).unwrap() + 1;
    let at = format!("fig10.c:{breakpoint}");
    assert_eq!(marks.len(), 14, "{marks:?}");
    let (profile, twpp) = (d.join("fig10.wpp"), d.join("fig10.twpp"));
    ok(wpp().args(["record", "--mode", "addresses", "-o"]).arg(&profile).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&profile).arg("-o").arg(&twpp));
    let module = wasm.to_str().unwrap();
    // The breakpoint's parameter, before its first instruction (on its definition's line).
    let slice = |twpp: &Path, algorithm: &str| {
        json(wpp().arg("slice").arg(twpp).args(["--module", module, "--at", &at, "--var", "local:0", "--algorithm", algorithm, "--json"]))
    };
    let precise = slice(&twpp, "3");
    assert_eq!(precise["follows_memory"], true);
    assert_eq!(statements(&precise, &marks), BTreeSet::from([1, 2, 4, 5, 6, 7, 9, 11, 12, 13, 14]), "approach 3");
    let approach2 = slice(&twpp, "2");
    assert_eq!(approach2["algorithm"], 2);
    assert_eq!(statements(&approach2, &marks), BTreeSet::from([1, 2, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]), "approach 2");
    assert!(approach2["instances"].as_u64() > precise["instances"].as_u64());
    // The page: the slice's lines highlighted (statement 3's not), every link going to an
    // instruction on the page.
    // (The page reads the source by the name DWARF gives it, from where wpp runs.)
    let page = d.join("slice.html");
    std::fs::copy(&src, d.join("fig10.c")).unwrap();
    ok(wpp().current_dir(&d).arg("slice").arg(&twpp).args(["--module", module, "--at", &at, "--var", "local:0", "--html"]).arg(&page));
    let html = std::fs::read_to_string(&page).unwrap();
    let highlighted = |line: u32| html.contains(&format!("<tr class=\"in\"><td class=\"n\"><a href=\"#l-fig10-c-{line}\">{line}</a>"));
    for &(line, statement) in &marks {
        assert_eq!(highlighted(line), ![3, 8, 10].contains(&statement), "line {line} (statement {statement}) on the page");
    }
    let ids: BTreeSet<&str> = html.split("id=\"").skip(1).map(|s| s.split('"').next().unwrap()).collect();
    let links: BTreeSet<&str> = html.split("href=\"#").skip(1).map(|s| s.split('"').next().unwrap()).collect();
    assert!(links.len() > 100 && links.is_subset(&ids), "links to nothing: {:?}", links.difference(&ids).take(5).collect::<Vec<_>>());
    // Z by its name: at -O0 it lives in main's stack frame, found from the frame base at
    // the criterion's invocation; its slice before statement 14 is the breakpoint's
    // argument's without the call, and the same as that of its bytes named by address.
    let line14 = marks.iter().find(|m| m.1 == 14).unwrap().0;
    let by_name = json(wpp().arg("slice").arg(&twpp).args(["--module", module, "--at", &format!("fig10.c:{line14}"), "--var", "Z", "--json"]));
    let named = by_name["criterion"]["variable"].as_str().unwrap().to_owned();
    assert!(named.starts_with("Z (in the stack frame, 4 bytes at local "), "{named}");
    let addr = named.rsplit(" at ").next().unwrap();
    assert!(addr.starts_with("0x"), "{named}");
    let mut want = statements(&precise, &marks);
    want.remove(&14);
    assert_eq!(statements(&by_name, &marks), want, "Z by name before statement 14");
    let by_bytes =
        json(wpp().arg("slice").arg(&twpp).args(["--module", module, "--at", &format!("fig10.c:{line14}"), "--var", &format!("mem:{addr}:4"), "--json"]));
    assert_eq!((&by_bytes["lines"], &by_bytes["instances"]), (&by_name["lines"], &by_name["instances"]), "Z by name and by its bytes");
    let approach1 = slice(&twpp, "1");
    assert_eq!(statements(&approach1, &marks), BTreeSet::from([1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13, 14]), "approach 1");
    // An extended WPP (its checks name each load's writers; the TWPP is the module's
    // paths) gives the same slices.
    let (filter, ewpp, etwpp) = (d.join("filter.wpp"), d.join("ewpp.wpp"), d.join("ewpp.twpp"));
    ok(wpp().args(["record", "--mode", "ewpp-filter", "-o"]).arg(&filter).arg(&wasm));
    ok(wpp().args(["record", "--mode", "ewpp", "--filter"]).arg(&filter).arg("-o").arg(&ewpp).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&ewpp).arg("-o").arg(&etwpp));
    for (algorithm, addresses) in [("3", &precise), ("2", &approach2)] {
        let from_ewpp = slice(&etwpp, algorithm);
        assert_eq!(from_ewpp["follows_memory"], true);
        assert_eq!(
            (&from_ewpp["lines"], &from_ewpp["instances"]),
            (&addresses["lines"], &addresses["instances"]),
            "approach {algorithm} from the extended WPP"
        );
    }
    // A TWPP of a recording without addresses: registers only, the slice stops at the
    // load of Z that the call of statement 14 passes.
    let (grammar, bare) = (d.join("bare.wpp"), d.join("bare.twpp"));
    ok(wpp().args(["record", "-o"]).arg(&grammar).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&grammar).arg("-o").arg(&bare));
    let registers = slice(&bare, "3");
    assert_eq!(registers["follows_memory"], false);
    assert_eq!(statements(&registers, &marks), BTreeSet::from([14]), "registers only");
    std::fs::remove_dir_all(&d).unwrap();
}

/// Fig. 10 compiled -O0 in `d`, its source text, and two TWPPs of its run: with the
/// memory dependences (`f.twpp`, from an addresses recording) and without (`b.twpp`).
fn fig10_twpps(d: &Path) -> Option<(std::path::PathBuf, String, std::path::PathBuf, std::path::PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/c/fig10.c");
    let wasm = compile_c_reproducibly(d, &src, "-O0")?;
    let (profile, twpp, bare_profile, bare) = (d.join("f.wpp"), d.join("f.twpp"), d.join("b.wpp"), d.join("b.twpp"));
    ok(wpp().args(["record", "--mode", "addresses", "-o"]).arg(&profile).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&profile).arg("-o").arg(&twpp));
    ok(wpp().args(["record", "-o"]).arg(&bare_profile).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&bare_profile).arg("-o").arg(&bare));
    Some((wasm, std::fs::read_to_string(&src).unwrap(), twpp, bare))
}

/// A precise slice keeps the dependences it found in `FILE.deps`; the next slice of the
/// run starts from them (and adds what it finds), and gives the same answer as a slice
/// without the cache. A cache written for another TWPP, or damaged, is not used (and is
/// written anew); `--no-cache` neither reads nor writes it.
#[test]
fn the_dependence_cache_is_reused_and_checked() {
    let d = scratch("slice-cache");
    let Some((wasm, text, twpp, bare)) = fig10_twpps(&d) else { return };
    let line = |what: &str| format!("fig10.c:{}", text.lines().position(|l| l.contains(what)).unwrap() + 1);
    let (at, f3) = (line("void breakpoint("), line("int f3("));
    let (cache, module) = (d.join("f.twpp.deps"), wasm.to_str().unwrap());
    // (stdout as JSON, stderr)
    let slice = |twpp: &Path, var: &str, extra: &[&str]| {
        // global:0 (the stack pointer) in f3's first invocation; local:0 (Z) at the breakpoint.
        let at: &[&str] = if var == "global:0" { &["--at", &f3, "--instance", "1"] } else { &["--at", &at] };
        let out = run(wpp().arg("slice").arg(twpp).args(["--module", module, "--var", var, "--json"]).args(at).args(extra));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(out.status.success(), "{err}");
        (serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap(), err)
    };
    let (z, err) = slice(&twpp, "local:0", &["--no-cache"]);
    assert!(!cache.exists() && err.is_empty(), "--no-cache: {err}");
    let (sp, _) = slice(&twpp, "global:0", &["--no-cache"]);
    assert_ne!(z["instances"], sp["instances"]);
    // First: found and kept.
    let (first, err) = slice(&twpp, "global:0", &[]);
    assert_eq!(first, sp);
    assert!(err.contains("nodes kept in") && !err.contains("read from"), "{err}");
    let kept = std::fs::read(&cache).unwrap();
    // Again: read, nothing new.
    let (again, err) = slice(&twpp, "global:0", &[]);
    assert_eq!(again, sp);
    assert!(err.contains("nodes read from") && !err.contains("kept in"), "{err}");
    assert_eq!(std::fs::read(&cache).unwrap(), kept, "a slice that found nothing new rewrote the cache");
    // Another criterion: read, and what it found added.
    let (other, err) = slice(&twpp, "local:0", &[]);
    assert_eq!(other, z);
    assert!(err.contains("nodes read from") && err.contains("kept in"), "{err}");
    assert!(std::fs::read(&cache).unwrap().len() > kept.len());
    for (var, want) in [("local:0", &z), ("global:0", &sp)] {
        let (got, err) = slice(&twpp, var, &[]);
        assert_eq!(&got, want);
        assert!(err.contains("read from") && !err.contains("kept in"), "{err}");
    }
    // Damaged: not used, the answer the same, the cache written anew and read next time.
    let mut bytes = std::fs::read(&cache).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x20;
    std::fs::write(&cache, &bytes).unwrap();
    let (after, err) = slice(&twpp, "local:0", &[]);
    assert_eq!(after, z);
    assert!(err.contains("not used: its checksum does not match") && err.contains("kept in"), "{err}");
    assert!(slice(&twpp, "local:0", &[]).1.contains("read from"));
    // Another TWPP's cache: not used.
    std::fs::copy(&cache, d.join("b.twpp.deps")).unwrap();
    let (registers, err) = slice(&bare, "local:0", &[]);
    assert_eq!(registers["follows_memory"], false);
    assert!(err.contains("not used: it was written for another TWPP") && err.contains("kept in"), "{err}");
    // Only precise slices use it.
    let (_, err) = slice(&twpp, "local:0", &["--algorithm", "2"]);
    assert!(err.is_empty(), "{err}");
    std::fs::remove_dir_all(&d).unwrap();
}

/// `--var mem:ADDR:LEN`: the bytes of Fig. 10's statics (the input table, then `pos`,
/// `out` and `seen`) just before the breakpoint's call: the table as the module
/// initialised it, `out` from the store of statement 10, `pos` from `read`'s increment;
/// the slice of `out`'s bytes is statement 10's. Without the writes' addresses the
/// criterion is refused, naming the recording that gives them.
#[test]
fn memory_criteria() {
    let d = scratch("slice-mem");
    let Some((wasm, text, twpp, bare)) = fig10_twpps(&d) else { return };
    let line = |what: &str| text.lines().position(|l| l.contains(what)).unwrap() as u32 + 1;
    let module = wasm.to_str().unwrap();
    let at = format!("fig10.c:{}", line("breakpoint(Z);"));
    let slice = |twpp: &Path, var: &str| run(wpp().arg("slice").arg(twpp).args(["--module", module, "--at", &at, "--var", var, "--json", "--no-cache"]));
    let out = slice(&twpp, "mem:0x400:32");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let runs = v["criterion"]["bytes"].as_array().unwrap();
    let total: u64 = runs.iter().map(|r| r["len"].as_u64().unwrap()).sum();
    assert_eq!(total, 32, "{runs:?}");
    let from_line = |r: &serde_json::Value| r["from"]["place"]["source"].as_str().and_then(|s| s.rsplit(':').next()?.parse::<u32>().ok());
    assert_eq!(runs[0]["from"]["kind"], "initial memory", "the input table: {runs:?}");
    assert!(runs[0]["len"].as_u64().unwrap() >= 16);
    let out_run = runs.iter().find(|r| from_line(r) == Some(line("/* 10: write Z */"))).unwrap_or_else(|| panic!("no bytes from statement 10: {runs:?}"));
    assert_eq!(out_run["len"], 4);
    assert!(runs.iter().any(|r| from_line(r) == Some(line("static int read(void)"))), "no bytes from read's pos++: {runs:?}");
    // The slice of `out`: statement 10's, without statement 13 (which comes after).
    let out_bytes = format!("mem:{}:4", out_run["first"].as_str().unwrap());
    let o = slice(&twpp, &out_bytes);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let lines: BTreeSet<u32> = v["lines"].as_array().unwrap().iter().filter_map(|l| l["source"].as_str()?.strip_prefix("fig10.c:")?.parse().ok()).collect();
    for s in ["/* 9 */", "/* 10: write Z */", "/* 5 */"] {
        assert!(lines.contains(&line(s)), "{s} not in the slice of {out_bytes}: {lines:?}");
    }
    assert!(!lines.contains(&line("/* 13 */")), "{lines:?}");
    // Refused: no memory dependences; bytes out of range.
    let e = slice(&bare, "mem:0x400:4");
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("--mode addresses"), "{}", String::from_utf8_lossy(&e.stderr));
    let e = slice(&twpp, "mem:0x400:0");
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("the length must be 1 to 4096 bytes"));
    std::fs::remove_dir_all(&d).unwrap();
}

/// A slice that outgrows `--max-memory` stops with an error saying so, before it holds the
/// machine's memory; without a limit (`0`) or under a generous one the same slice is
/// answered.
#[test]
fn a_slice_stops_at_its_memory_limit() {
    let d = scratch("slice-memory-limit");
    let wasm = d.join("slice.wasm");
    std::fs::write(&wasm, wat::parse_file(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli/slice.wat")).unwrap()).unwrap();
    let (profile, twpp) = (d.join("s.wpp"), d.join("s.twpp"));
    ok(wpp().arg("record").arg("-o").arg(&profile).arg(&wasm));
    ok(wpp().args(["twpp", "build"]).arg(&profile).arg("-o").arg(&twpp));
    let slice = |limit: &str| {
        run(wpp().arg("slice").arg(&twpp).arg("--module").arg(&wasm).args(["--at", "main:0x106", "--var", "local:5", "--no-cache", "--max-memory", limit]))
    };
    let o = slice("1K");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("wpp: error: ") && err.contains("the slice outgrew the memory allowed it") && err.contains("over the 0 MiB of --max-memory"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    for limit in ["0", "64G"] {
        let o = slice(limit);
        assert!(o.status.success(), "--max-memory {limit}: {}", String::from_utf8_lossy(&o.stderr));
        assert!(String::from_utf8_lossy(&o.stdout).starts_with("slice of local 5"), "--max-memory {limit}");
    }
}
