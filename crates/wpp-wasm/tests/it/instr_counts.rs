//! The instructions of every basic block, as the CFG builder counts them (`n_instrs`, the
//! cost of a path in instructions), equal an independent count: the operators wasmparser
//! reads in the block's byte range. The blocks of a function cover its body: their counts
//! add up to the body's operators. Checked on the `.wat` programs, on random modules from
//! `wasm-smith`, and on the real programs.

use arbitrary::Unstructured;
use wpp_test_support::operators::Operators;
use wpp_test_support::{corpus, Rng};

/// Checks every block of every defined function of `wasm`; returns the blocks checked.
fn check(name: &str, wasm: &[u8]) -> usize {
    let program = match wpp_wasm::decode(wasm) {
        Ok(p) => p,
        Err(wpp_wasm::Error::Unsupported { .. }) => return 0,
        Err(e) => panic!("{name}: {e}"),
    };
    let ops = Operators::of(wasm).unwrap_or_else(|e| panic!("{name}: {e}"));
    let defined: Vec<_> = program.functions.iter().filter_map(|f| f.cfg.as_ref().map(|c| (f, c))).collect();
    assert_eq!(defined.len(), ops.n_bodies(), "{name}: defined functions");
    let mut blocks = 0;
    for (i, (f, cfg)) in defined.iter().enumerate() {
        let body = ops.body(i);
        let mut sum = 0u64;
        for (b, block) in cfg.blocks.iter().enumerate() {
            let want = ops.count(block.start, block.end);
            assert_eq!(block.n_instrs as u64, want, "{name}: function {} block {b} ({:#x}..{:#x})", f.name, block.start, block.end);
            assert!(body.start <= block.start && block.end <= body.end, "{name}: function {} block {b} lies outside the body", f.name);
            sum += want;
        }
        assert_eq!(sum, ops.count(body.start, body.end), "{name}: the blocks of function {} do not cover its body", f.name);
        blocks += cfg.blocks.len();
    }
    blocks
}

#[test]
fn wat_programs() {
    for name in corpus::names() {
        assert!(check(&name, &corpus::bytes(&name)) > 0, "{name}: no blocks");
    }
}

#[test]
#[allow(clippy::field_reassign_with_default)] // One knob a line reads best.
fn random_modules() {
    let mut blocks = 0;
    for seed in 0..200u64 {
        let mut rng = Rng::new(seed);
        let data = rng.bytes(4096);
        // Every feature wpp handles; what it refuses turned off.
        let mut config = wasm_smith::Config::default();
        config.exceptions_enabled = false;
        config.gc_enabled = false;
        config.threads_enabled = false;
        config.shared_everything_threads_enabled = false;
        config.custom_descriptors_enabled = false;
        config.simd_enabled = true;
        config.relaxed_simd_enabled = true;
        config.tail_call_enabled = true;
        config.memory64_enabled = true;
        config.min_funcs = 1;
        let Ok(m) = wasm_smith::Module::new(config, &mut Unstructured::new(&data)) else { continue };
        blocks += check(&format!("wasm-smith seed {seed}"), &m.to_bytes());
    }
    eprintln!("{blocks} blocks of random modules checked");
    assert!(blocks > 1000, "only {blocks} blocks checked");
}

wpp_test_support::real_programs!(real_programs, |m, _, p| {
    let path = m.dir.join(&p.wasm);
    let wasm = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let blocks = check(&p.name, &wasm);
    assert!(blocks > 1000, "{}: only {blocks} blocks", p.name);
});
