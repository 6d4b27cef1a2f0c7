//! Ball-Larus path numbering.
//!
//! An acyclic path runs from a path start to a path end inside one function. Path-ending
//! edges are loop back edges, the edge out of a call block, returns and traps (see
//! [`EdgeKind::ends_path`]), plus every edge into a *cut point*: a block chosen by
//! [`number`] when the function has too many paths for the configured limit.
//!
//! The numbering works on the DAG that replaces each path-ending edge `v → w` by
//! `ENTRY → w` and `v → EXIT` (one of each per block, however many edges they stand for).
//! Every edge of the DAG gets a value such that the sum along any ENTRY-to-EXIT path is a
//! distinct number in `0..n_paths` (Ball & Larus, "Efficient path profiling", 1996). The
//! instrumentation does not add the values themselves: it adds increments that sum to the
//! same number along every path and are zero on a maximum spanning tree of the DAG, so
//! that the edges expected to run most (the deepest in loops) carry no code.
//!
//! ```
//! use wpp_model::{Block, BlockIdx, Cfg, Edge, EdgeKind, Target};
//! // if/else diamond: 0 → {1, 2} → 3 → exit
//! let b = Block { start: 0, end: 0, n_instrs: 1 };
//! let e = |f: u32, t: Target, kind| Edge { from: BlockIdx(f), to: t, kind };
//! let cfg = Cfg {
//!     blocks: vec![b; 4],
//!     edges: vec![
//!         e(0, Target::Block(BlockIdx(1)), EdgeKind::Forward),
//!         e(0, Target::Block(BlockIdx(2)), EdgeKind::Forward),
//!         e(1, Target::Block(BlockIdx(3)), EdgeKind::Forward),
//!         e(2, Target::Block(BlockIdx(3)), EdgeKind::Forward),
//!         e(3, Target::Exit, EdgeKind::Return),
//!     ],
//! };
//! let n = wpp_paths::number(&cfg, &wpp_paths::Options::default()).unwrap();
//! assert_eq!(n.n_paths(), 2);
//! let blocks: Vec<u32> = n.decode(wpp_model::PathId(1)).unwrap().iter().map(|b| b.0).collect();
//! assert_eq!(blocks, [0, 2, 3]);
//! ```
//!
//! ## Code map
//!
//! `number_program`: the one `ProgramNumbering` of a program (a `FuncMap` of numberings,
//! computed once and shared by the rewrite, the profile reader and PPP); `number`:
//! Ball-Larus DAG, edge values, cut points, `encode`/`decode`, the edges' actions;
//! `increments`: the additions on the chords of a maximum spanning tree (Ball & Larus's
//! placement, by potentials); `enumerate`: the brute-force oracle (it also runs the actions
//! along every path); `split`: turns the oracle's block log into paths; `ppp`: preferential path
//! numbering (compact ids for a set of interesting paths, Vaswani et al. Fig. 10).

pub mod enumerate;
mod increments;
mod numbering;
mod ppp;
mod program;
pub mod split;

pub use numbering::{number, DecodeError, EdgeAction, Numbering, NumberingError, Options};
pub use ppp::{ppp_number, PppAction, PppError, PppNumbering};
pub use program::{number_program, ProgramNumbering, ProgramNumberingError};
