//! What a recovery needs to read an extended whole program path (Tallam & Gupta): which
//! functions of the trace are the check routines, what their blocks mean, and each load's
//! candidate writers.
//!
//! The collection run calls `check(j, s, k, n, last)` before a load once per writer of its
//! bytes (adjacent bytes of one write instance reported once): `j` names the writer (0
//! the initial memory, `1..=C` the load's candidates, otherwise an unforeseen writer
//! whose site `s` is spelled out), then `k == n` says whether the instance is the
//! writer's latest of its `n` executions, and otherwise the distance back, `n - k`, is
//! spelled out; `last` says whether more writers follow. A number is spelled in base 256,
//! most significant digit first, one loop iteration (one 256-way branch) per digit.

use crate::{BlockIdx, FuncIdx};

/// The blocks of a number spelled out in base 256, most significant digit first: one
/// per digit value, each path through one naming eight bits, and the end.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Spelling {
    pub digits: Vec<BlockIdx>,
    pub done: BlockIdx,
}

/// What the blocks of the check routine mean.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Roles {
    /// The writer is the initial memory; candidate `c` (1-based, index `c - 1`); an
    /// unforeseen writer, whose site is spelled out next.
    pub initial: BlockIdx,
    pub candidates: Vec<BlockIdx>,
    pub generic: BlockIdx,
    pub site: Spelling,
    /// The instance is the writer's latest; an earlier one, whose distance back from the
    /// latest is spelled out next.
    pub latest: BlockIdx,
    pub earlier: BlockIdx,
    pub distance: Spelling,
    /// The load's last writer, or more follow.
    pub last: BlockIdx,
    pub more: BlockIdx,
}

/// The extended WPP's own record in its profile.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct EwppRecord {
    /// The check routine's index among the profile's functions (after the module's).
    pub check: FuncIdx,
    pub roles: Roles,
    /// For each load site with candidates, its candidate writers' sites, in the order `j`
    /// numbers them (from 1); only the first `max_candidates` have a `j`, the others take
    /// the generic way.
    pub candidates: Vec<(crate::SiteIdx, Vec<crate::SiteIdx>)>,
    pub max_candidates: u32,
    /// The filtering run's profile the candidates came from.
    pub filter: String,
}
