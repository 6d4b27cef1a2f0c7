//! Static classes of a memory dependence (store site → load site), as Tallam and Gupta
//! sort them by what recovering its instances costs:
//!
//! - **fully free**: the store and the load always touch the same bytes, and every path
//!   from the store to the load on which the dependence can be exercised is free of writes
//!   that may touch them: the control flow alone says when it was exercised;
//! - **partially free**: the same location, but only some of those paths are clear;
//! - **fixed cost**: the store always writes one location (a constant address, as C
//!   globals are): only its last instance can be the one, and one address comparison at
//!   the load says whether it was;
//! - **variable cost**: both vary: any earlier instance of the store may be the one.
//!
//! "The same location" is the same address expression (`wpp_model::effects`): the same
//! constant, or the same variable plus a constant with the variable not redefined on the
//! way, and byte ranges that overlap. A write that covers the overlap through the same
//! expression ends the dependence on that path (it is not exercised there); one that may
//! touch it (another base, an unknown address, a bulk write, a call, a redefinition of
//! the base) makes the path not clear. Calls are taken to write anything.

use std::collections::HashMap;

use wpp_model::effects::{Access, Action, Base, FuncEffects};
use wpp_model::{Cfg, EdgeKind, FuncIdx, FuncMap, Target};

/// How the instances of a dependence are recovered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum DepClass {
    FullyFree,
    PartiallyFree,
    FixedCost,
    VariableCost,
}

impl DepClass {
    pub fn name(self) -> &'static str {
        match self {
            DepClass::FullyFree => "fully free",
            DepClass::PartiallyFree => "partially free",
            DepClass::FixedCost => "fixed cost",
            DepClass::VariableCost => "variable cost",
        }
    }
}

/// An instruction of a function: block `block`, action `index` of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Site {
    pub block: u32,
    pub index: u32,
}

/// What an action does to a pair's location.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    None,
    /// Writes every byte of the overlap through the same expression: the dependence is
    /// not exercised past it.
    Kills,
    /// May write some of them.
    MayWrite,
}

/// The bytes a store and a load share, through one address expression.
pub(crate) struct Location {
    memory: u32,
    base: Base,
    lo: u64,
    hi: u64,
}

impl Location {
    /// The overlap of `store` and `load` when both name the same location.
    pub(crate) fn of(store: &Access, load: &Access) -> Option<Location> {
        if store.memory != load.memory || store.base != load.base || store.base == Base::Unknown {
            return None;
        }
        let lo = store.offset.max(load.offset);
        let hi = store.offset.saturating_add(store.width as u64).min(load.offset.saturating_add(load.width as u64));
        (lo < hi).then_some(Location { memory: store.memory, base: store.base, lo, hi })
    }

    pub(crate) fn effect(&self, action: &Action) -> Effect {
        match *action {
            // A new value of the base variable moves the location.
            Action::Def { var, .. } if self.base == Base::Var(var) => Effect::MayWrite,
            Action::Store { access: w, .. } if w.memory == self.memory => {
                let (wlo, whi) = (w.offset, w.offset.saturating_add(w.width as u64));
                if w.base == self.base && w.base != Base::Unknown {
                    if wlo <= self.lo && self.hi <= whi {
                        Effect::Kills
                    } else if wlo < self.hi && self.lo < whi {
                        Effect::MayWrite
                    } else {
                        Effect::None
                    }
                } else {
                    // Another expression (or a constant against a variable) may reach the
                    // same bytes; two distinct constants that do not overlap cannot.
                    match (w.base, self.base) {
                        (Base::Const, Base::Const) => Effect::None,
                        _ => Effect::MayWrite,
                    }
                }
            }
            Action::Clobber { memory, .. } if memory == self.memory => Effect::MayWrite,
            _ => Effect::None,
        }
    }
}

/// The class of the dependence of the load at `load` on the store at `store`, both in the
/// function with CFG `cfg` and effects `fx` (their actions must be a `Store` and a `Load`).
pub fn classify_local(cfg: &Cfg, fx: &FuncEffects, store: Site, load: Site) -> DepClass {
    let action = |s: Site| &fx.blocks[s.block as usize][s.index as usize];
    let (Action::Store { access: w, .. }, Action::Load { access: r, .. }) = (*action(store), *action(load)) else {
        panic!("classify_local: {store:?} is not a store or {load:?} not a load");
    };
    let fallback = if w.base == Base::Const { DepClass::FixedCost } else { DepClass::VariableCost };
    let Some(loc) = Location::of(&w, &r) else { return fallback };
    let (clear, dirty) = reach(cfg, fx, &loc, store, load);
    match (clear, dirty) {
        (true, false) => DepClass::FullyFree,
        (true, true) => DepClass::PartiallyFree,
        (false, _) => fallback,
    }
}

/// Whether the load is reached from just after the store on a clear path, and on a path
/// that is not clear, without passing a write that kills the location.
fn reach(cfg: &Cfg, fx: &FuncEffects, loc: &Location, store: Site, load: Site) -> (bool, bool) {
    let out = cfg.out_ranges();
    let n = cfg.blocks.len();
    // Block entries seen, per flag (clear, not clear).
    let mut seen = vec![[false; 2]; n];
    let mut found = [false; 2];
    // Walk the rest of a block from `from` with flag `dirty`; returns the flag at its end,
    // or `None` when the location was killed.
    let walk = |block: u32, from: u32, mut dirty: bool, found: &mut [bool; 2]| -> Option<bool> {
        for (i, a) in fx.blocks[block as usize].iter().enumerate().skip(from as usize) {
            if block == load.block && i as u32 == load.index {
                found[dirty as usize] = true;
            }
            match loc.effect(a) {
                Effect::Kills => return None,
                Effect::MayWrite => dirty = true,
                Effect::None => {}
            }
        }
        Some(dirty)
    };
    let mut stack: Vec<(u32, bool)> = Vec::new();
    let successors = |b: u32, dirty: bool, stack: &mut Vec<(u32, bool)>| {
        for e in &cfg.edges[out[b as usize].clone()] {
            if let Target::Block(t) = e.to {
                // The callee ran in between (also when its exception lands in a handler
                // here): it may have written anything.
                stack.push((t.0, dirty || matches!(e.kind, EdgeKind::Call | EdgeKind::Catch)));
            }
        }
    };
    if let Some(d) = walk(store.block, store.index + 1, false, &mut found) {
        successors(store.block, d, &mut stack);
    }
    while let Some((b, dirty)) = stack.pop() {
        if std::mem::replace(&mut seen[b as usize][dirty as usize], true) {
            continue;
        }
        if let Some(d) = walk(b, 0, dirty, &mut found) {
            successors(b, d, &mut stack);
        }
    }
    (found[0], found[1])
}

/// Classes of dependences named by their instructions' byte offsets, across a module.
pub struct Classifier<'a> {
    cfgs: Vec<Option<&'a Cfg>>,
    effects: &'a FuncMap<FuncEffects>,
    /// Every load, store and bulk write: its function and place.
    sites: HashMap<u32, (FuncIdx, Site)>,
}

impl<'a> Classifier<'a> {
    /// For a module whose functions have CFGs `cfgs` (by function index) and effects
    /// `effects`.
    pub fn new(cfgs: Vec<Option<&'a Cfg>>, effects: &'a FuncMap<FuncEffects>) -> Classifier<'a> {
        let mut sites = HashMap::new();
        for (f, fx) in effects.iter() {
            for (b, actions) in fx.blocks.iter().enumerate() {
                for (i, a) in actions.iter().enumerate() {
                    if !matches!(a, Action::Def { .. }) {
                        sites.insert(a.at(), (f, Site { block: b as u32, index: i as u32 }));
                    }
                }
            }
        }
        Classifier { cfgs, effects, sites }
    }

    /// The class of the dependence of the load at byte offset `load` on the write at
    /// `store` (a store or a bulk write); `None` when either names no such instruction.
    pub fn classify(&self, store: u32, load: u32) -> Option<DepClass> {
        let (&(sf, ss), &(lf, ls)) = (self.sites.get(&store)?, self.sites.get(&load)?);
        let fx = self.effects.get(sf)?;
        let write = fx.blocks[ss.block as usize][ss.index as usize];
        let read = self.effects.get(lf)?.blocks[ls.block as usize][ls.index as usize];
        match (write, read) {
            (Action::Store { .. }, Action::Load { .. }) if sf == lf => Some(classify_local(self.cfgs.get(sf.idx()).copied().flatten()?, fx, ss, ls)),
            (Action::Store { access, .. }, _) if access.base == Base::Const => Some(DepClass::FixedCost),
            (Action::Store { .. } | Action::Clobber { .. }, _) => Some(DepClass::VariableCost),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests;
