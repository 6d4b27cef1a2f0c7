//! Hot subpaths (Larus 1999, §4.2), found exactly on the DAG without expanding the sequence.
//!
//! A *subpath* is a run of consecutive symbols of the expansion. Its *frequency* is the
//! number of places it occurs (overlapping ones included), its *cost* the frequency times
//! the sum of its symbols' costs. It is *hot* if it is between `min_len` and `max_len`
//! symbols long and costs at least `min_cost`; a hot subpath is *minimal* if no shorter
//! prefix of it (of at least `min_len` symbols) is hot.
//!
//! The frequencies are those of q-grams on a straight-line program (Goto, Bannai, Inenaga
//! and Takeda): an occurrence of two or more symbols lies in exactly one lowest rule
//! occurrence, whose right side it spans across a boundary between two children; it is
//! counted at the first boundary it crosses (it starts in the child left of it), once per
//! occurrence of the rule, that is, weighted by the rule's frequency. A one-symbol subpath
//! is a terminal, counted where it stands on a right side.
//!
//! Counting every window of up to `L = max_len` symbols that way costs time proportional to
//! `L²` times the grammar's size. Most of it cannot matter, and two facts say which:
//!
//! * a window `w` is *alive* if a hot window of at most `L` symbols can hold it: one that
//!   occurs `f <= freq(w)` times, so whose other symbols each occur at least `f` times and
//!   cost at most `c(f)`, the largest cost of such a terminal, with
//!   `f × (cost(w) + (L - |w|) × c(f)) >= min_cost` ([`Bound`]). A hot window is alive, and
//!   every window inside an alive one is alive;
//! * a window that begins with a hot window (of at least `min_len` symbols) is not minimal.
//!
//! So the windows are counted level by level, by length, and an occurrence is followed to
//! the next level only while the window it has grown into *grows*: is alive and not hot.
//!
//! * level 1: every terminal, with its count;
//! * level `k`: each *site* — a boundary of a rule and a window ending there or crossing
//!   it — is extended by the next symbol of the rule's expansion to the right, and the
//!   grown window's count gains the rule's frequency. New sites start at each boundary
//!   whose left child's suffix of `k - 1` symbols grows. Sites whose window does not grow
//!   once the level's counts are complete are dropped, as are boundaries whose left
//!   child's suffix is dead (a suffix that is hot, or begins with a hot window, starts no
//!   site, but a longer one may).
//!
//! Windows are the nodes of a trie (a window is its prefix and its last symbol), so equal
//! windows found at different sites are one. A window that is alive and begins with no hot
//! window is counted at every one of its occurrences: the windows a site passes on the way
//! to it are its prefixes (alive, and not hot before its end), and the shorter suffixes
//! that keep its boundary open lie inside it (alive), so every site that leads to it is
//! followed. A window counted short
//! of its occurrences is dead by its true count too, so the bound never drops what
//! matters. Each minimal hot subpath is then a hot trie node with no hot proper prefix of
//! at least `min_len` symbols.
//!
//! Time is proportional to the sites followed (at most `L` per boundary and level, far fewer
//! as windows die), memory to the grammar, the trie, and the sites of one level.
//! [`hot_subpaths_brute`] is the oracle: every minimal hot subpath, by counting every
//! substring of the expanded sequence.

use rustc_hash::FxHashMap;

use crate::{Grammar, RuleId, Rules, Sym, Terminal};

/// What makes a subpath hot.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HotParams {
    /// Longest subpath, in symbols (at least 1).
    pub max_len: usize,
    /// Shortest subpath, in symbols.
    pub min_len: usize,
    /// Least cost: frequency × the sum of the symbols' costs.
    pub min_cost: u64,
}

/// A minimal hot subpath.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct HotSubpath {
    pub symbols: Vec<Terminal>,
    /// Occurrences in the expansion.
    pub frequency: u64,
    /// `frequency` × the sum of the symbols' costs, saturating.
    pub cost: u64,
}

fn cost_of(costs: &[u64], symbols: &[u32], frequency: u64) -> u64 {
    let sum: u128 = symbols.iter().map(|&s| costs[s as usize] as u128).sum();
    u64::try_from(sum * frequency as u128).unwrap_or(u64::MAX)
}

/// Largest cost first, then most frequent, then by symbols.
fn sort(out: &mut [HotSubpath]) {
    out.sort_by(|a, b| b.cost.cmp(&a.cost).then(b.frequency.cmp(&a.frequency)).then(a.symbols.cmp(&b.symbols)));
}

/// Every minimal hot subpath of `g`'s expansion with its frequency and cost (see the module
/// doc), largest cost first: what [`hot_subpaths_brute`] finds on the expanded sequence.
/// `costs[t]` is the cost of terminal `t`; `g` must be valid over `costs.len()` terminals
/// (a grammar with a cycle has none).
pub fn hot_subpaths(g: &Grammar, costs: &[u64], p: &HotParams) -> Vec<HotSubpath> {
    let max_len = p.max_len.max(1);
    let min_len = p.min_len.max(1);
    if g.rules.is_empty() || min_len > max_len {
        return Vec::new();
    }
    let Ok(order) = g.topological_order() else { return Vec::new() };
    let windows = Windows::count(g, &order, costs, max_len, min_len, p.min_cost);
    windows.minimal_hot(min_len, p.min_cost)
}

/// No window, or no rule.
const NONE: u32 = u32::MAX;
/// A suffix that is hot or begins with a hot window.
const KEEP: u32 = u32::MAX - 1;

/// The first and last symbols of each rule's expansion kept at hand, at most this many
/// (reads beyond descend the DAG).
const ENDS_MAX: usize = 16;

/// The expansion's ends per rule, for reading a rule's expansion near its start and end.
struct Ends<'g> {
    g: &'g Grammar,
    lens: Vec<u64>,
    /// `heads[at[r]..][..n[r]]` and `tails[at[r]..][..n[r]]`: rule `r`'s first and last
    /// `n[r] = min(len, keep)` terminals.
    at: Vec<usize>,
    n: Vec<u32>,
    heads: Vec<u32>,
    tails: Vec<u32>,
}

impl<'g> Ends<'g> {
    /// The first and last `keep` terminals of every rule reachable in `order`.
    fn new(g: &'g Grammar, order: &[RuleId], reachable: &[bool], keep: usize) -> Self {
        let lens = g.rule_lengths();
        let n_rules = g.rules.len();
        let mut e = Ends { g, lens, at: vec![0; n_rules], n: vec![0; n_rules], heads: Vec::new(), tails: Vec::new() };
        for &r in order.iter().rev() {
            let r = r.idx();
            if !reachable[r] {
                continue;
            }
            let k = (e.lens[r].min(keep as u64)) as usize;
            let at = e.heads.len();
            e.at[r] = at;
            e.n[r] = k as u32;
            for &s in &g.rules[r] {
                if e.heads.len() - at == k {
                    break;
                }
                match s {
                    Sym::T(Terminal(t)) => e.heads.push(t),
                    Sym::N(c) => {
                        let (ca, cn) = (e.at[c.idx()], e.n[c.idx()] as usize);
                        let take = cn.min(k - (e.heads.len() - at));
                        e.heads.extend_from_within(ca..ca + take);
                    }
                }
            }
            // The tail, built backwards and then turned around.
            let t0 = e.tails.len();
            for &s in g.rules[r].iter().rev() {
                if e.tails.len() - t0 == k {
                    break;
                }
                match s {
                    Sym::T(Terminal(t)) => e.tails.push(t),
                    Sym::N(c) => {
                        let (ca, cn) = (e.at[c.idx()], e.n[c.idx()] as usize);
                        let take = cn.min(k - (e.tails.len() - t0));
                        for i in (cn - take..cn).rev() {
                            let x = e.tails[ca + i];
                            e.tails.push(x);
                        }
                    }
                }
            }
            e.tails[t0..].reverse();
        }
        e
    }

    fn len(&self, s: Sym) -> u64 {
        match s {
            Sym::T(_) => 1,
            Sym::N(r) => self.lens[r.idx()],
        }
    }

    /// The terminal at `pos` in the expansion of `s` (`pos < len(s)`).
    fn at(&self, s: Sym, pos: u64) -> u32 {
        let r = match s {
            Sym::T(Terminal(t)) => return t,
            Sym::N(r) => r.idx(),
        };
        let (len, n) = (self.lens[r], self.n[r] as u64);
        if pos < n {
            return self.heads[self.at[r] + pos as usize];
        }
        if pos >= len - n {
            return self.tails[self.at[r] + (pos - (len - n)) as usize];
        }
        // Deep inside a long rule: descend.
        let (mut r, mut pos) = (r, pos);
        loop {
            let mut next = None;
            for &c in &self.g.rules[r] {
                let l = self.len(c);
                if pos < l {
                    next = Some(c);
                    break;
                }
                pos -= l;
            }
            match next {
                Some(Sym::T(Terminal(t))) => return t,
                Some(Sym::N(c)) => r = c.idx(),
                None => unreachable!("a position inside the expansion"),
            }
        }
    }
}

/// Whether a window can be part of a hot one. A hot window `v` that holds `w` occurs
/// `f <= freq(w)` times, and so does each of its symbols at least; so each symbol it has
/// beyond `w` costs at most `c(f)`, the largest cost of a terminal that occurs at least `f`
/// times, and `f × (cost(w) + (max_len - |w|) × c(f)) >= min_cost` for some `f <= freq(w)`.
/// A window for which no such `f` exists is dead, and so is every window that holds it.
/// (With `c(f)` the largest cost of all, this is the bound the module doc states; taking
/// the frequency into account keeps a rare costly path from keeping every window alive.)
struct Bound {
    /// `(n, c)`: the largest cost `c` of the terminals that occur at least `n` times, at
    /// each `n` where it grows (`n` decreasing, `c` increasing).
    steps: Vec<(u64, u64)>,
    max_len: usize,
    min_cost: u64,
}

impl Bound {
    /// The bound for terminals occurring `counts[t]` times at cost `costs[t]`.
    fn new(counts: &[u64], costs: &[u64], max_len: usize, min_cost: u64) -> Self {
        let mut by_count: Vec<(u64, u64)> = counts.iter().zip(costs).filter(|(&n, _)| n > 0).map(|(&n, &c)| (n, c)).collect();
        by_count.sort_by_key(|&(n, _)| std::cmp::Reverse(n));
        let mut steps: Vec<(u64, u64)> = Vec::new();
        for (n, c) in by_count {
            match steps.last_mut() {
                Some(last) if c <= last.1 => {}
                // The same count, costlier: the step's cost grows.
                Some(last) if n == last.0 => last.1 = c,
                _ => steps.push((n, c)),
            }
        }
        Bound { steps, max_len, min_cost }
    }

    fn alive(&self, freq: u64, cost: u64, len: usize) -> bool {
        let need = self.min_cost as u128;
        let room = (self.max_len - len) as u128;
        if freq as u128 * cost as u128 >= need {
            return true;
        }
        // Each step (n, c) bounds the windows that occur f in (next step's n, n] times;
        // the best f there is the largest, min(n, freq).
        self.steps.iter().any(|&(n, c)| {
            let f = n.min(freq) as u128;
            f * (cost as u128 + room * c as u128) >= need
        })
    }
}

/// A site: an occurrence, in a rule's right side, of a window that starts in a child and
/// ends in it or right of it, and where to read on: the child, the position in its
/// expansion, and the stretch of [`Ends`]' heads still to read there (empty when the
/// next symbol is not among them).
#[derive(Clone, Copy)]
struct Site {
    rule: u32,
    child: u32,
    pos: u32,
    window: u32,
    head: u32,
    head_end: u32,
}

impl Site {
    /// At the start of child `child` of `body`.
    fn at_child(rule: u32, child: u32, window: u32, body: &[Sym], ends: &Ends) -> Site {
        let (head, head_end) = match body.get(child as usize) {
            Some(Sym::N(c)) => {
                let at = ends.at[c.idx()] as u32;
                (at, at + ends.n[c.idx()])
            }
            Some(Sym::T(_)) => (0, 0),
            // Past the last child: nothing more to read.
            None => return Site { rule, child: NONE, pos: 0, window, head: 0, head_end: 0 },
        };
        Site { rule, child, pos: 0, window, head, head_end }
    }
}

impl Site {
    /// Reads the next symbol and moves past it.
    #[inline]
    fn step(&mut self, rules: &Rules, ends: &Ends) -> u32 {
        if self.head < self.head_end {
            let t = ends.heads[self.head as usize];
            self.head += 1;
            self.pos += 1;
            if self.head == self.head_end && ends.len(rules[self.rule as usize][self.child as usize]) == self.pos as u64 {
                *self = Site::at_child(self.rule, self.child + 1, self.window, &rules[self.rule as usize], ends);
            }
            t
        } else {
            let body = &rules[self.rule as usize];
            let c = body[self.child as usize];
            let t = ends.at(c, self.pos as u64);
            self.pos += 1;
            if self.pos as u64 == ends.len(c) {
                *self = Site::at_child(self.rule, self.child + 1, self.window, body, ends);
            }
            t
        }
    }
}

/// Steps every site of `sites`, its next symbol into `next`: on `threads` threads when
/// there are enough sites to share.
fn step_all(sites: &mut [Site], next: &mut [u32], rules: &Rules, ends: &Ends, threads: usize) {
    const SHARED_FROM: usize = 1 << 14;
    if threads < 2 || sites.len() < SHARED_FROM {
        for (s, t) in sites.iter_mut().zip(next) {
            *t = s.step(rules, ends);
        }
        return;
    }
    let share = sites.len().div_ceil(threads);
    std::thread::scope(|scope| {
        for (part, out) in sites.chunks_mut(share).zip(next.chunks_mut(share)) {
            scope.spawn(move || {
                for (s, t) in part.iter_mut().zip(out) {
                    *t = s.step(rules, ends);
                }
            });
        }
    });
}

/// A boundary still open for new sites: a rule, its child left of the boundary, and that
/// child's length (saturating).
#[derive(Clone, Copy)]
struct Open {
    rule: u32,
    child: u32,
    left_len: u32,
}

/// The windows counted, as a trie.
struct Windows {
    /// Per window: its prefix (less the last symbol), its last symbol, length, the sum of
    /// its symbols' costs, and its frequency. Window 0 is the empty one; window `t + 1` is
    /// terminal `t`.
    prefix: Vec<u32>,
    last: Vec<u32>,
    len: Vec<u32>,
    cost: Vec<u64>,
    freq: Vec<u64>,
    alive: Vec<bool>,
    grows: Vec<bool>,
    children: FxHashMap<(u32, u32), u32>,
}

impl Windows {
    fn child(&self, w: u32, t: u32) -> Option<u32> {
        self.children.get(&(w, t)).copied()
    }

    /// Every window that can be part of a hot one, counted (see the module doc).
    fn count(g: &Grammar, order: &[RuleId], costs: &[u64], max_len: usize, min_len: usize, min_cost: u64) -> Windows {
        let rule_freq = g.rule_frequencies_in(order);
        let reachable: Vec<bool> = rule_freq.iter().map(|&f| f > 0).collect();
        // A window grows (its sites go on) while it can be part of a hot one and is not hot
        // itself: what begins with a hot window is not minimal.
        let hot = |freq: u64, cost: u64, len: usize| len >= min_len && freq as u128 * cost as u128 >= min_cost as u128;
        let n_terminals = costs.len();
        let mut w = Windows {
            prefix: vec![NONE],
            last: vec![NONE],
            len: vec![0],
            cost: vec![0],
            freq: vec![0],
            alive: vec![false],
            grows: vec![false],
            children: FxHashMap::default(),
        };
        // Level 1: the terminals.
        let mut counts = vec![0u64; n_terminals];
        for (r, body) in g.rules.iter().enumerate() {
            for &s in body {
                if let Sym::T(Terminal(t)) = s {
                    if let Some(c) = counts.get_mut(t as usize) {
                        *c = c.saturating_add(rule_freq[r]);
                    }
                }
            }
        }
        let bound = Bound::new(&counts, costs, max_len, min_cost);
        for (t, &c) in counts.iter().enumerate() {
            let id = w.prefix.len() as u32;
            w.prefix.push(0);
            w.last.push(t as u32);
            w.len.push(1);
            w.cost.push(costs[t]);
            w.freq.push(c);
            let alive = bound.alive(c, costs[t], 1);
            w.alive.push(alive);
            w.grows.push(alive && !hot(c, costs[t], 1));
            w.children.insert((0, t as u32), id);
        }
        if max_len == 1 {
            return w;
        }
        let ends = Ends::new(g, order, &reachable, ENDS_MAX.min(max_len - 1));
        // Per rule, its suffix of the current length: the window if it grows, KEEP if it
        // is hot or begins with a hot window (no site starts there, but a longer suffix
        // may grow), NONE if it is dead (and so is every longer one). The rules whose
        // suffix is not dead.
        let mut suffix = vec![NONE; g.rules.len()];
        let mut suffix_open: Vec<u32> = Vec::new();
        let state = |w: &Windows, id: u32| match id {
            _ if w.grows[id as usize] => id,
            _ if w.alive[id as usize] => KEEP,
            _ => NONE,
        };
        // Children before parents: a rule whose last child is long enough has that child's
        // suffix, worked out just before.
        for &r in order.iter().rev() {
            let r = r.idx();
            if !reachable[r] || g.rules[r].is_empty() {
                continue;
            }
            let t = ends.at(Sym::N(RuleId(r as u32)), ends.lens[r] - 1);
            suffix[r] = state(&w, t + 1);
            if suffix[r] != NONE {
                suffix_open.push(r as u32);
            }
        }
        let suffix_of = |suffix: &[u32], s: Sym, w: &Windows, len: usize| -> u32 {
            match s {
                Sym::T(Terminal(t)) if len == 1 => state(w, t + 1),
                Sym::T(_) => NONE,
                Sym::N(r) => suffix[r.idx()],
            }
        };
        // The boundaries of every reachable rule, as (rule, left child).
        let mut open: Vec<Open> = Vec::new();
        for (r, body) in g.rules.iter().enumerate() {
            if reachable[r] {
                for (j, &left) in body.iter().enumerate().take(body.len().saturating_sub(1)) {
                    let left_len = ends.len(left).min(u32::MAX as u64) as u32;
                    open.push(Open { rule: r as u32, child: j as u32, left_len });
                }
            }
        }
        let mut sites: Vec<Site> = Vec::new();
        let mut next: Vec<u32> = Vec::new();
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        for k in 2..=max_len {
            // New sites: boundaries whose left child's suffix of k - 1 symbols is alive.
            let d = (k - 1) as u32;
            open.retain(|o| {
                let body = &g.rules[o.rule as usize];
                let id = suffix_of(&suffix, body[o.child as usize], &w, k - 1);
                if id == NONE {
                    return false;
                }
                if id != KEEP && o.left_len >= d {
                    sites.push(Site::at_child(o.rule, o.child + 1, id, body, &ends));
                }
                // A child of k - 1 symbols has no longer suffix.
                o.left_len > d
            });
            if sites.is_empty() {
                break;
            }
            // Grow every site by one symbol. The symbols are read for all sites first, on
            // every core: the reads miss the cache, and independent ones overlap.
            let level_start = w.prefix.len();
            next.clear();
            next.resize(sites.len(), 0);
            step_all(&mut sites, &mut next, &g.rules, &ends, threads);
            for (s, &t) in sites.iter_mut().zip(&next) {
                let f = rule_freq[s.rule as usize];
                let id = match w.children.get(&(s.window, t)) {
                    Some(&id) => id,
                    None => {
                        let id = w.prefix.len() as u32;
                        w.prefix.push(s.window);
                        w.last.push(t);
                        w.len.push(k as u32);
                        w.cost.push(w.cost[s.window as usize].saturating_add(costs[t as usize]));
                        w.freq.push(0);
                        w.alive.push(false);
                        w.grows.push(false);
                        w.children.insert((s.window, t), id);
                        id
                    }
                };
                w.freq[id as usize] = w.freq[id as usize].saturating_add(f);
                s.window = id;
            }
            for id in level_start..w.prefix.len() {
                w.alive[id] = bound.alive(w.freq[id], w.cost[id], k);
                w.grows[id] = w.alive[id] && !hot(w.freq[id], w.cost[id], k);
            }
            if k == max_len {
                break;
            }
            // Sites go on while their window is alive and the rule has more to read.
            sites.retain(|s| s.child != NONE && w.grows[s.window as usize]);
            // Suffixes of k symbols, for the next level's new sites.
            suffix_open.retain(|&r| {
                let r = r as usize;
                let len = ends.lens[r];
                let mut st = NONE;
                let last = *g.rules[r].last().expect("rules with a suffix are not empty");
                match last {
                    // The same symbols as the last child's suffix.
                    Sym::N(c) if ends.lens[c.idx()] >= k as u64 => st = suffix[c.idx()],
                    _ if len < k as u64 => {}
                    _ => {
                        let rule = Sym::N(RuleId(r as u32));
                        let mut id = 0u32;
                        for i in 0..k as u64 {
                            st = match w.child(id, ends.at(rule, len - k as u64 + i)) {
                                Some(x) => state(&w, x),
                                // Not counted although its prefix grows: it never occurs.
                                None => NONE,
                            };
                            if st == NONE || st == KEEP {
                                break;
                            }
                            id = st;
                        }
                    }
                }
                suffix[r] = st;
                st != NONE
            });
        }
        w
    }

    /// The hot windows of at least `min_len` symbols with no hot proper prefix of at least
    /// `min_len` symbols, largest cost first.
    fn minimal_hot(&self, min_len: usize, min_cost: u64) -> Vec<HotSubpath> {
        let n = self.prefix.len();
        let cost = |id: usize| u64::try_from(self.cost[id] as u128 * self.freq[id] as u128).unwrap_or(u64::MAX);
        let hot = |id: usize| self.len[id] as usize >= min_len && cost(id) >= min_cost;
        // Windows come after their prefixes, so one pass in order marks them.
        let mut covered = vec![false; n];
        let mut out = Vec::new();
        for id in 1..n {
            let p = self.prefix[id] as usize;
            covered[id] = p != 0 && (covered[p] || hot(p));
            if hot(id) && !covered[id] {
                let mut symbols = Vec::with_capacity(self.len[id] as usize);
                let mut x = id;
                while x != 0 {
                    symbols.push(Terminal(self.last[x]));
                    x = self.prefix[x] as usize;
                }
                symbols.reverse();
                out.push(HotSubpath { symbols, frequency: self.freq[id], cost: cost(id) });
            }
        }
        sort(&mut out);
        out
    }
}

/// The oracle: every minimal hot subpath of `seq`, by counting each of its substrings of
/// at most `max_len` symbols. Time and memory O(n · max_len).
pub fn hot_subpaths_brute(seq: &[u32], costs: &[u64], p: &HotParams) -> Vec<HotSubpath> {
    let max_len = p.max_len.max(1);
    let min_len = p.min_len.max(1);
    let mut counts: FxHashMap<&[u32], u64> = FxHashMap::default();
    for i in 0..seq.len() {
        for len in 1..=max_len.min(seq.len() - i) {
            *counts.entry(&seq[i..i + len]).or_insert(0) += 1;
        }
    }
    let hot = |s: &[u32]| s.len() >= min_len && cost_of(costs, s, counts[s]) >= p.min_cost;
    let mut out: Vec<HotSubpath> = counts
        .iter()
        .filter(|(s, _)| hot(s) && !(min_len..s.len()).any(|k| hot(&s[..k])))
        .map(|(s, &frequency)| HotSubpath { symbols: s.iter().map(|&x| Terminal(x)).collect(), frequency, cost: cost_of(costs, s, frequency) })
        .collect();
    sort(&mut out);
    out
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn arb_input() -> impl Strategy<Value = Vec<u32>> {
        proptest::collection::vec((proptest::collection::vec(0u32..6, 1..8), 1usize..12), 1..10)
            .prop_map(|parts| parts.into_iter().flat_map(|(body, k)| std::iter::repeat_n(body, k).flatten()).collect())
    }

    proptest! {
        /// The ends kept per rule and the descent below them read the expansion.
        #[test]
        fn ends_read_the_expansion(input in arb_input(), keep in 1usize..6) {
            let mut s = crate::Sequitur::with_lookahead();
            s.extend(input.iter().copied());
            let g = s.finish();
            let order = g.topological_order().unwrap();
            let reachable = vec![true; g.rules.len()];
            let ends = Ends::new(&g, &order, &reachable, keep);
            let got: Vec<u32> = (0..input.len() as u64).map(|i| ends.at(Sym::N(RuleId(0)), i)).collect();
            prop_assert_eq!(got, input);
        }
    }
}
