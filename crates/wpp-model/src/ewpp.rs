//! What a recovery needs to read an extended whole program path (Tallam & Gupta): which
//! functions of the trace are the check routines, what their blocks mean, and each load's
//! candidate writers.
//!
//! The collection run calls `check(j, s, k, n, last)` before a load once per writer of its
//! bytes (adjacent bytes of one write instance reported once): `j` names the writer (0
//! the initial memory, `1..=C` the load's candidates, otherwise an unforeseen writer
//! whose site `s` a binary search spells out), then `k == n` says whether the instance is
//! the writer's latest of its `n` executions, and otherwise `gallop(n - k)` spells out the
//! distance back: the distance's bit length in unary (a loop doubling a bound), then a
//! binary search within it; `last` says whether more writers follow. The search,
//! `search(lo, hi, t)`, is a loop whose every iteration's path says lower or higher, and
//! whose last one says found.

use crate::{BlockIdx, FuncIdx};

/// What the blocks of the check routines mean.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Roles {
    /// `check`'s blocks: the writer is the initial memory; candidate `c` (1-based, index
    /// `c - 1`); an unforeseen writer, whose site a search follows.
    pub initial: BlockIdx,
    pub candidates: Vec<BlockIdx>,
    pub generic: BlockIdx,
    /// The instance is the writer's latest; an earlier one, which a search follows.
    pub latest: BlockIdx,
    pub earlier: BlockIdx,
    /// The load's last writer, or more follow.
    pub last: BlockIdx,
    pub more: BlockIdx,
    /// `search`'s blocks: the target is below the middle, above it, or the middle.
    pub lower: BlockIdx,
    pub higher: BlockIdx,
    pub found: BlockIdx,
    /// `gallop`'s blocks: the distance is at least the bound (which doubles), or below it
    /// (a search within the bound's half follows).
    pub wider: BlockIdx,
    pub narrowed: BlockIdx,
}

/// The extended WPP's own record in its profile.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EwppRecord {
    /// The check routines' indices among the profile's functions (after the module's).
    pub check: FuncIdx,
    pub search: FuncIdx,
    pub gallop: FuncIdx,
    pub roles: Roles,
    /// For each load site with candidates, its candidate writers' sites, in the order `j`
    /// numbers them (from 1); only the first `max_candidates` have a `j`, the others take
    /// the generic way.
    pub candidates: Vec<(u32, Vec<u32>)>,
    pub max_candidates: u32,
    /// The filtering run's profile the candidates came from.
    pub filter: String,
}
