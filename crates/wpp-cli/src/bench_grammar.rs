//! `wpp bench-grammar`: SEQUITUR's speed and memory on a synthetic path trace.

use std::io::Write as _;
use std::time::Instant;

use clap::Args;

/// Build a SEQUITUR grammar from a synthetic path trace and report throughput and size.
///
/// The trace imitates a program's path trace: nested loops whose iterations run one of a
/// few hot path sequences (skewed choice), with occasional calls into other sequences and
/// rare one-off paths. The generator is seeded, so runs are comparable.
#[derive(Args)]
pub struct Opts {
    /// Number of symbols in the trace.
    #[arg(long, default_value_t = 10_000_000)]
    symbols: u64,
    /// Seed of the generator.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A seeded synthetic path trace of `n` symbols.
pub fn synthetic_trace(n: u64, seed: u64) -> impl Iterator<Item = u32> {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
    let templates: Vec<Vec<u32>> = (0..64)
        .map(|_| {
            let len = 2 + rng.below(12) as usize;
            (0..len).map(|_| rng.below(4000) as u32).collect()
        })
        .collect();
    let mut out: Vec<u32> = Vec::new();
    let mut produced = 0u64;
    std::iter::from_fn(move || {
        if produced >= n {
            return None;
        }
        if out.is_empty() {
            // One outer iteration: an inner loop of some iterations over a hot template,
            // with calls and the odd cold path.
            let hot = (rng.below(8) * rng.below(8) / 7) as usize;
            let iters = 1 + rng.below(40);
            for _ in 0..iters {
                out.extend(&templates[hot]);
                match rng.below(100) {
                    0..=9 => out.extend(&templates[8 + rng.below(16) as usize]),
                    10 => out.push(4000 + rng.below(1000) as u32),
                    _ => {}
                }
            }
            out.reverse();
        }
        produced += 1;
        out.pop()
    })
}

pub fn run(o: Opts) -> anyhow::Result<()> {
    let mut out = std::io::stdout().lock();
    writeln!(out, "{:<10} {:>12} {:>9} {:>12} {:>10} {:>12} {:>12} {:>9}", "builder", "symbols", "build s", "Msymbols/s", "rules", "grammar syms", "builder MiB", "ratio")?;
    for (name, lookahead) in [("sequitur", false), ("sequitur1", true)] {
        let t = Instant::now();
        let mut s = if lookahead { wpp_grammar::Sequitur::with_lookahead() } else { wpp_grammar::Sequitur::new() };
        s.extend(synthetic_trace(o.symbols, o.seed));
        let memory = s.memory_bytes();
        let g = s.finish();
        let build = t.elapsed().as_secs_f64();
        writeln!(
            out,
            "{:<10} {:>12} {:>9.2} {:>12.2} {:>10} {:>12} {:>12.1} {:>9.1}",
            name,
            o.symbols,
            build,
            o.symbols as f64 / build / 1e6,
            g.rules.len(),
            g.n_symbols(),
            memory as f64 / (1 << 20) as f64,
            o.symbols as f64 / g.n_symbols().max(1) as f64
        )?;
    }
    Ok(())
}
