//! The model of format version 2 that the writer and the reader both run, written once:
//! the lists of the format's "Model" (see [`super`]) and their states, how each changes as
//! a symbol is coded, and which frequency table each coded symbol belongs to.
//!
//! [`Model`] holds what the control stream needs: per context the classes that followed
//! it and the first terminals escaped to, every terminal, the classes of each first
//! terminal, and the classes themselves. [`Members`] holds the symbols of each class,
//! which the class stream codes. Both sides make the same calls in the same order: the
//! writer with the ranks it finds (it keeps indices beside the lists for that), the reader
//! with the ranks it reads.

use rustc_hash::FxHashMap;

use crate::codec::format::bits_for;

// --- tables ---

/// Symbols after the rank buckets `0..=32`.
pub(super) const ESC: usize = 33;
pub(super) const NEW: usize = 34;

const LEN_TABLES: usize = 4;
const STEP_TABLES: usize = 64;
const FIRST_TABLES: usize = 32;
const GLOBAL_TABLES: usize = 8;
const LAST_TABLES: usize = 8;
const MEMBER_TABLES: usize = 24;

const LEN_BASE: usize = 0;
const STEP_BASE: usize = LEN_BASE + LEN_TABLES;
const FIRST_BASE: usize = STEP_BASE + STEP_TABLES;
const GLOBAL_BASE: usize = FIRST_BASE + FIRST_TABLES;
pub(super) const NEW_TERMINAL: usize = GLOBAL_BASE + GLOBAL_TABLES;
const LAST_BASE: usize = NEW_TERMINAL + 1;
const MEMBER_BASE: usize = LAST_BASE + LAST_TABLES;
pub(super) const N_TABLES: usize = MEMBER_BASE + MEMBER_TABLES;

/// The alphabet of each table, in table order.
pub(super) fn alphabet(table: usize) -> usize {
    match table {
        t if t < STEP_BASE => ESC,
        t if t < FIRST_BASE => NEW + 1,
        t if t < NEW_TERMINAL => ESC + 1,
        NEW_TERMINAL => 2,
        _ => ESC,
    }
}

#[inline(always)]
pub(super) fn bits(v: usize) -> usize {
    bits_for(v as u64) as usize
}

/// For the length of a rule inside `depth` rules being written.
pub(super) fn len_table(depth: usize) -> usize {
    LEN_BASE + depth.min(3)
}

#[inline(always)]
fn step_table(pos: usize, n: usize, state: u8) -> usize {
    STEP_BASE + 32 * pos.min(1) + 4 * bits(n).min(7) + state as usize
}

/// For a list of `n ≥ 1` first terminals.
fn first_table(n: usize, state: u8) -> usize {
    FIRST_BASE + 4 * (bits(n).min(8) - 1) + state as usize
}

/// For a global list of `n ≥ 1` terminals.
fn global_table(n: usize) -> usize {
    GLOBAL_BASE + bits(n).min(8) - 1
}

/// For a list of `n ≥ 2` classes.
fn last_table(n: usize) -> usize {
    LAST_BASE + bits(n - 1).min(8) - 1
}

/// For a class of `n ≥ 2` members.
#[inline(always)]
fn member_table(n: usize) -> usize {
    MEMBER_BASE + bits(n - 1).min(24) - 1
}

// --- lists ---

/// The state of a list after an escape.
const ESCAPED: u8 = 3;

/// Class members: a local terminal, or a rule with this bit set.
pub(super) const RULE_BIT: u32 = 1 << 31;

/// The two entries a use swapped, each with its index in the list after the swap.
pub(super) type Moved = [(u32, usize); 2];

/// Uses the entry at rank `r` of `list` (newest last): swaps it with the entry at rank
/// `r / 2`. Returns the entry used and the entries moved.
#[inline(always)]
fn use_rank(list: &mut [u32], r: usize) -> (u32, Moved) {
    let n = list.len();
    let (i, j) = (n - 1 - r, n - 1 - r / 2);
    let used = list[i];
    list.swap(i, j);
    (used, [(list[i], i), (list[j], j)])
}

/// Keys of the class map: the first and last terminals of a class.
fn key(f: u32, l: u32) -> u64 {
    (f as u64) << 32 | l as u64
}

/// The lists of the format's model but the members, with the states of the lists kept
/// per context. Terminals are local numbers; contexts are `0` (no terminal yet) and
/// `t + 1` (the last terminal written is `t`).
pub(super) struct Model {
    /// The terminal value expected next among those not yet seen.
    next: u64,
    pairs: Vec<Vec<u32>>,
    pair_state: Vec<u8>,
    firsts: Vec<Vec<u32>>,
    first_state: Vec<u8>,
    global: Vec<u32>,
    lasts: Vec<Vec<u32>>,
    /// Per class: its first and last terminals.
    class_ends: Vec<(u32, u32)>,
    /// The class of each pair of first and last terminals, keyed by [`key`].
    class_of: FxHashMap<u64, u32>,
}

impl Model {
    pub(super) fn new() -> Model {
        Model {
            next: 0,
            pairs: vec![Vec::new()],
            pair_state: vec![0],
            firsts: vec![Vec::new()],
            first_state: vec![0],
            global: Vec::new(),
            lasts: Vec::new(),
            class_ends: Vec::new(),
            class_of: FxHashMap::default(),
        }
    }

    /// The table of a step at position `pos` of a body in context `c`.
    #[inline(always)]
    pub(super) fn step_table(&self, pos: usize, c: usize) -> usize {
        step_table(pos, self.pairs[c].len(), self.pair_state[c])
    }

    /// `pairs[c]`, newest last.
    #[inline(always)]
    pub(super) fn pairs(&self, c: usize) -> &[u32] {
        &self.pairs[c]
    }

    /// Uses the class at rank `r` of `pairs[c]`; returns it and the entries moved.
    #[inline(always)]
    pub(super) fn use_pair(&mut self, c: usize, r: usize) -> (u32, Moved) {
        self.pair_state[c] = r.min(2) as u8;
        use_rank(&mut self.pairs[c], r)
    }

    /// An escape from `pairs[c]`: the class is coded by its first terminal and its rank in
    /// `lasts` of that terminal, then added with [`Model::add_pair`].
    pub(super) fn escape_pairs(&mut self, c: usize) {
        self.pair_state[c] = ESCAPED;
    }

    pub(super) fn add_pair(&mut self, c: usize, k: u32) {
        self.pairs[c].push(k);
    }

    /// The table of a first terminal in context `c`, or `None` if `firsts[c]` is empty.
    pub(super) fn first_table(&self, c: usize) -> Option<usize> {
        let n = self.firsts[c].len();
        (n >= 1).then(|| first_table(n, self.first_state[c]))
    }

    /// `firsts[c]`, newest last.
    pub(super) fn firsts(&self, c: usize) -> &[u32] {
        &self.firsts[c]
    }

    /// Uses the terminal at rank `r` of `firsts[c]`; returns it and the entries moved.
    pub(super) fn use_first(&mut self, c: usize, r: usize) -> (u32, Moved) {
        self.first_state[c] = r.min(2) as u8;
        use_rank(&mut self.firsts[c], r)
    }

    /// An escape from `firsts[c]` (or an empty one): the terminal is coded by its rank in
    /// `global`, or as new, then added with [`Model::add_first`].
    pub(super) fn escape_firsts(&mut self, c: usize) {
        self.first_state[c] = ESCAPED;
    }

    pub(super) fn add_first(&mut self, c: usize, f: u32) {
        self.firsts[c].push(f);
    }

    /// Terminals seen so far.
    pub(super) fn n_global(&self) -> usize {
        self.global.len()
    }

    /// The table of a rank in `global`, or `None` if no terminal was seen yet.
    pub(super) fn global_table(&self) -> Option<usize> {
        let n = self.global.len();
        (n >= 1).then(|| global_table(n))
    }

    /// Uses the terminal at rank `r` of `global`.
    pub(super) fn use_global(&mut self, r: usize) -> (u32, Moved) {
        use_rank(&mut self.global, r)
    }

    /// The value a new terminal is coded against (symbol 0 of `NEW_TERMINAL` stands for it).
    pub(super) fn next_terminal(&self) -> u64 {
        self.next
    }

    /// Adds a new terminal of value `value`: the next local number `t`, in `global`, with
    /// empty lists for context `t + 1` and the class `(t, t)`. Returns `t` and its class.
    pub(super) fn add_terminal(&mut self, value: u32) -> (u32, u32) {
        self.next = value as u64 + 1;
        let t = self.global.len() as u32;
        self.global.push(t);
        self.pairs.push(Vec::new());
        self.pair_state.push(0);
        self.firsts.push(Vec::new());
        self.first_state.push(0);
        self.lasts.push(Vec::new());
        (t, self.new_class(t, t))
    }

    /// Classes of first terminal `f`.
    pub(super) fn n_lasts(&self, f: u32) -> usize {
        self.lasts[f as usize].len()
    }

    /// The table of a rank in `lasts[f]`, or `None` if it has one entry (nothing is coded).
    pub(super) fn last_table(&self, f: u32) -> Option<usize> {
        let n = self.lasts[f as usize].len();
        (n >= 2).then(|| last_table(n))
    }

    /// Uses the class at rank `r` of `lasts[f]`.
    pub(super) fn use_last(&mut self, f: u32, r: usize) -> (u32, Moved) {
        use_rank(&mut self.lasts[f as usize], r)
    }

    /// The first and last terminals of class `k`.
    #[inline(always)]
    pub(super) fn class_ends(&self, k: u32) -> (u32, u32) {
        self.class_ends[k as usize]
    }

    /// The class `(f, l)` that a rule whose definition ends joins, and whether it is new.
    pub(super) fn class_for(&mut self, f: u32, l: u32) -> (u32, bool) {
        match self.class_of.get(&key(f, l)) {
            Some(&k) => (k, false),
            None => (self.new_class(f, l), true),
        }
    }

    /// Creates class `(f, l)`, the newest of `lasts[f]`; returns its number.
    fn new_class(&mut self, f: u32, l: u32) -> u32 {
        let k = self.class_ends.len() as u32;
        self.class_of.insert(key(f, l), k);
        self.class_ends.push((f, l));
        self.lasts[f as usize].push(k);
        k
    }
}

/// The members of each class, newest last: local terminals, and rules (as the caller
/// numbers them) with [`RULE_BIT`] set. The lists are kept together in one arena, so that
/// the random accesses into them stay within a small part of memory.
#[derive(Default)]
pub(super) struct Members {
    arena: Vec<u32>,
    /// Per class: where its list starts in the arena, its length and its capacity.
    lists: Vec<(usize, usize, usize)>,
}

impl Members {
    /// Adds the list of the next class, which holds `first` if given (a terminal's class
    /// holds the terminal from the start).
    pub(super) fn add_class(&mut self, first: Option<u32>) {
        let k = self.lists.len();
        self.lists.push((self.arena.len(), 0, 0));
        if let Some(s) = first {
            self.push(k, s);
        }
    }

    /// Appends `s` to list `k`, moving the list to the end of the arena with twice the
    /// room when it is full.
    pub(super) fn push(&mut self, k: usize, s: u32) {
        let (start, len, cap) = self.lists[k];
        let start = if len == cap {
            let moved = self.arena.len();
            self.arena.extend_from_within(start..start + len);
            self.arena.resize(moved + (2 * cap).max(4), 0);
            self.lists[k].2 = (2 * cap).max(4);
            moved
        } else {
            start
        };
        self.arena[start + len] = s;
        self.lists[k].0 = start;
        self.lists[k].1 = len + 1;
    }

    #[inline(always)]
    pub(super) fn len(&self, k: usize) -> usize {
        self.lists[k].1
    }

    /// The table of a rank in list `k` of `n` members, or `None` if it has one entry
    /// (nothing is coded).
    #[inline(always)]
    pub(super) fn table(n: usize) -> Option<usize> {
        (n >= 2).then(|| member_table(n))
    }

    /// Uses the member at rank `r` of list `k`.
    #[inline(always)]
    pub(super) fn use_member(&mut self, k: usize, r: usize) -> (u32, Moved) {
        let (start, len, _) = self.lists[k];
        use_rank(&mut self.arena[start..start + len], r)
    }
}
