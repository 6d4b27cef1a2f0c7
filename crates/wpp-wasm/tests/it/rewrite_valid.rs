//! Every test program rewrites to a valid module in every mode; on failure the rewritten
//! module is printed around the offending offset.

use wpp_wasm::{decode, instrument, instrument_block_log, Mode, Options};

fn programs() -> Vec<(String, Vec<u8>)> {
    let dir = wpp_test_support::corpus::dir();
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "wat"))
        .map(|p| (p.file_name().unwrap().to_string_lossy().into_owned(), wat::parse_file(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn rewrites_validate() {
    for (name, wasm) in programs() {
        let program = decode(&wasm).unwrap();
        for opts in [
            Options { mode: Mode::Trace, ..Options::default() },
            Options { mode: Mode::Count, ..Options::default() },
            Options { mode: Mode::Count, force_hash: true, ..Options::default() },
            Options { mode: Mode::Trace, accesses: true, ..Options::default() },
            Options { mode: Mode::Trace, ewpp: Some(wpp_wasm::EwppPlan::default()), ..Options::default() },
        ] {
            if let Err(e) = instrument(&wasm, &program, &opts) {
                panic!("{name} ({:?}, hash {}, accesses {}): {e}\n{}", opts.mode, opts.force_hash, opts.accesses, dump(&wasm, &program, &opts));
            }
        }
        instrument_block_log(&wasm, &program).unwrap_or_else(|e| panic!("{name} (block log): {e}"));
    }
}

/// The rewritten module as text, for diagnosing an invalid rewrite.
fn dump(wasm: &[u8], program: &wpp_wasm::Program, opts: &Options) -> String {
    let Err(wpp_wasm::Error::InvalidRewrite { module, .. }) = instrument(wasm, program, opts) else {
        return "(the rewrite did not produce an invalid module)".into();
    };
    let mut cfg = wasmprinter::Config::new();
    cfg.print_offsets(true);
    let mut out = String::new();
    let _ = cfg.print(&module, &mut wasmprinter::PrintFmtWrite(&mut out));
    out
}
