//! Oracle for the numbering: enumerate every path of random control flow graphs directly
//! from the CFG and check that the path numbers are exactly `0..n_paths` and decode back.

use proptest::prelude::*;
use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, Target};
use wpp_paths::{number, Options};
use wpp_test_support::strategies::arb_cfg;

fn check(cfg: &Cfg, max_paths: u64) -> Result<(), TestCaseError> {
    prop_assert!(cfg.validate().is_ok(), "{:?}", cfg.validate());
    let (num, max_paths) = match number(cfg, &Options { max_paths }) {
        Ok(num) => (num, max_paths),
        Err(e) => {
            // Only possible when even a fully cut graph exceeds the limit: every block
            // then starts paths of its own, so a limit of one path per block always fits.
            prop_assert!(max_paths < cfg.n_blocks() as u64, "{}", e);
            let limit = cfg.n_blocks() as u64;
            (number(cfg, &Options { max_paths: limit }).map_err(|e| TestCaseError::fail(format!("with a limit of one path per block: {e}")))?, limit)
        }
    };
    prop_assert!(num.n_paths() <= max_paths);
    match wpp_paths::enumerate::check_numbering(cfg, &num, 1 << 20) {
        Some(Ok(_)) => Ok(()),
        Some(Err(e)) => Err(TestCaseError::fail(e)),
        None => Err(TestCaseError::fail("too many paths to enumerate")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// Path numbers are exactly 0..N-1 and decode back to their block sequences.
    #[test]
    fn numbers_are_dense_and_decode(cfg in arb_cfg()) {
        check(&cfg, u64::MAX)?;
    }

    /// With a small limit, cut points are added until the paths fit, and the numbering
    /// is still dense and decodable.
    #[test]
    fn cut_points_keep_numbering_dense(cfg in arb_cfg(), limit in 1u64..12) {
        check(&cfg, limit)?;
    }
}

/// A ladder of k diamonds has 2^k paths: 70 diamonds overflow 64 bits and must be cut.
#[test]
fn overflow_gets_cut_points() {
    let k = 70u32;
    let n = 3 * k + 1;
    let mut edges = Vec::new();
    let fwd = |f: u32, t: u32| Edge { from: BlockIdx(f), to: Target::Block(BlockIdx(t)), kind: EdgeKind::Forward };
    for d in 0..k {
        let (top, l, r, bottom) = (3 * d, 3 * d + 1, 3 * d + 2, 3 * d + 3);
        edges.push(fwd(top, l));
        edges.push(fwd(top, r));
        edges.push(fwd(l, bottom));
        edges.push(fwd(r, bottom));
    }
    edges.push(Edge { from: BlockIdx(n - 1), to: Target::Exit, kind: EdgeKind::Return });
    let cfg = Cfg { blocks: vec![Block { start: 0, end: 1, n_instrs: 1 }; n as usize], edges };
    cfg.validate().unwrap();
    let num = number(&cfg, &Options::default()).unwrap();
    assert!(!num.cut_points().is_empty());
    let all_ones: Vec<BlockIdx> = (0..n).filter(|b| b % 3 != 2).map(BlockIdx).collect();
    // The all-left path is split at the cuts; each piece must still encode and decode.
    let mut piece = Vec::new();
    for &b in &all_ones {
        if num.cut_points().contains(&b) && !piece.is_empty() {
            let id = num.encode(&piece).expect("piece is a path");
            assert_eq!(num.decode(id).unwrap(), piece);
            piece.clear();
        }
        piece.push(b);
    }
    let id = num.encode(&piece).expect("last piece is a path");
    assert_eq!(num.decode(id).unwrap(), piece);
}
