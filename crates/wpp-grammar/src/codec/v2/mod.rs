//! Format version 2: rank lists that move used entries forward, coded by rANS with static
//! tables ([`super::rans`]) in two streams.
//!
//! The model is close to that of version 1 ([`super::v1`]) but cheap to decode.
//! Rules are written in definition order (see [`super::format`]), each with its length
//! first. Symbols fall into *classes* by the first and last terminals of their expansion. A
//! reference is coded as its class, found in a list of the classes that followed the
//! terminal before it (a path is followed by few distinct paths), and then as one of the
//! symbols of that class. A list keeps its entries newest first and moves an entry halfway
//! to the front when it is used, so recently defined and often used entries have small
//! ranks; a rank is coded as its number of binary digits, a symbol of a frequency table
//! chosen by a small context, and then its remaining digits raw. The encoder runs the model
//! once, counting the symbols of each table and keeping what it codes; the tables go first,
//! then what was kept, coded with them.
//!
//! Decoding is a table look-up and a few list operations per symbol, with no division and
//! no adaptive probability. The choice within a class goes to a stream of its own: the next
//! step depends only on the class (its last terminal is the next context), so a decoder
//! runs the control stream ahead and finds the symbols in their classes, random accesses
//! into large lists, apart.
//!
//! # Format, version 2
//!
//! The header and numbering are those of [`super::format`], with `n_symbols < 2^31`. The
//! coded grammar is
//!
//! ```text
//! varint  the length of the control stream in bytes
//! ...     the control stream
//! ...     the class stream
//! ```
//!
//! each a sequence of rANS items ([`super::rans`]). The control stream must end exactly at
//! its length; only zero bytes (the padding) may follow the class stream. The control
//! stream holds, in this order:
//!
//! 1. the 141 frequency tables, each as its codes (see [`super::rans`]), in the order
//!    `LEN[0..4]`, `STEP[0..64]`, `FIRST[0..32]`, `GLOBAL[0..8]`, `NEW_TERMINAL`,
//!    `LAST[0..8]`, `MEMBER[0..24]`; a table longer than its alphabet is an error;
//! 2. the rules, as below, less what goes to the class stream;
//! 3. with an explicit numbering, each rule's number as a raw `w`-bit number.
//!
//! The class stream holds the rank of each reference in its class (see "The rules").
//! `bits(v)` is the number of binary digits of `v` (0 for 0).
//!
//! ## Lists and ranks
//!
//! A *list* holds entries newest first; the entry at *rank* `r` is the `r`-th newest
//! (rank 0 the newest). Adding an entry makes it rank 0. *Using* the entry at rank `r`
//! swaps it with the entry at rank `r div 2`.
//!
//! A *bucketed number* `v` is coded as the symbol `b = bits(v)` of a table and, when
//! `b ≥ 2`, the offset `v - 2^(b-1)`. A rank `r` in a list of `n` entries is a bucketed
//! number whose offset is coded as a number below `min(2^(b-1), n - 2^(b-1))`; a symbol
//! `b ≥ 1` with `2^(b-1) ≥ n` is an error. A *length* is a bucketed number whose offset is a
//! raw `(b - 1)`-bit number. Bucket symbols are `0..=32`; some tables have more symbols
//! after them, `ESC = 33` and `NEW = 34`.
//!
//! ## Model
//!
//! Terminals get *local numbers* 0, 1, 2, ... in the order the stream first mentions them.
//! *Classes* get numbers 0, 1, 2, ... as they are created; class `(f, l)` holds the symbols
//! whose expansion begins with local terminal `f` and ends with `l`. The model keeps:
//!
//! * for each context `c`: `pairs[c]`, a list of classes, and `firsts[c]`, a list of local
//!   terminals, each with a state (initially 0); context 0 is "no terminal yet", context
//!   `t + 1` is "the last terminal written so far (in the expansion of the rules in the
//!   order they are written) has local number `t`";
//! * `global`, a list of all local terminals;
//! * `lasts[f]`, for each local terminal `f`, a list of the classes `(f, l)`: first
//!   `(f, f)`, then each other class `(f, l)` when it is created;
//! * `members[k]`, for each class `k`, a list of its symbols: for a class `(t, t)` first the
//!   terminal `t`; then each rule of the class when its definition ends;
//! * `next` = 0, the terminal value expected next among those not yet seen.
//!
//! A new terminal gets the next local number `t` and creates the class `(t, t)`; a rule
//! whose definition ends joins class `(f, l)` of its expansion, which is created (and added
//! to `lasts[f]`) if it does not exist yet.
//!
//! ## The rules
//!
//! A rule is written as its length and then its body, one *step* per symbol. The length is
//! coded in table `LEN[min(d, 3)]`, `d` the number of rules being written that contain this
//! one, as the length minus 1, or for rule 0 as the length itself (only rule 0 can be
//! empty). The total of the lengths must not exceed `n_symbols`.
//!
//! A step at position `pos` of a body, with `c` the context of the last terminal written so
//! far and `n` the length of `pairs[c]`, codes a symbol of table
//! `STEP[32 × min(pos, 1) + 4 × min(bits(n), 7) + state of pairs[c]]`: `NEW`, a rank in
//! `pairs[c]`, or `ESC`.
//!
//! * `NEW`: the body gets a reference to a new rule, which is written now.
//! * Otherwise the body gets a *reference* to a symbol (a terminal or a rule whose
//!   definition has ended); its class `k = (f, l)` is:
//!   * on a rank `r`, that entry of `pairs[c]`, which is used; the state of `pairs[c]`
//!     becomes `min(r, 2)`;
//!   * on `ESC`, the state of `pairs[c]` becomes 3; `f` is coded in context `c` (below);
//!     then, if `lasts[f]` has `m ≥ 2` entries, the rank of `k` in it in table
//!     `LAST[min(bits(m - 1), 8) - 1]` (with one entry, nothing is coded); that entry is
//!     used; `k` is added to `pairs[c]`.
//!
//!   Then the rank of the symbol in `members[k]`, if the list has `m ≥ 2` entries, goes to
//!   the class stream in table `MEMBER[min(bits(m - 1), 24) - 1]` (with one entry, nothing
//!   is coded); that entry is used. The last terminal written is now `l`.
//!
//! A terminal `f` is coded in context `c` as follows. With `n` the length of `firsts[c]`:
//! if `n ≥ 1`, its rank in `firsts[c]` or `ESC` in table
//! `FIRST[4 × (min(bits(n), 8) - 1) + state of firsts[c]]`; on a rank `r`, `f` is that entry,
//! which is used, and the state becomes `min(r, 2)`. Otherwise (`ESC`, or `n = 0`), the
//! state becomes 3, and, with `g` the length of `global`: if `g ≥ 1`, its rank in `global`
//! or `ESC` in table `GLOBAL[min(bits(g), 8) - 1]`; on a rank, `f` is that entry, which is
//! used. On `ESC`, or if `g = 0`, `f` is new: symbol 0 of table `NEW_TERMINAL` if its value
//! is `next`, else symbol 1 and its value as a raw `bits(n_terminals - 1)`-bit number. A new
//! terminal must be below `n_terminals` and not seen before; `next` becomes its value + 1;
//! it is added to `global`, and `pairs[t + 1]` and `firsts[t + 1]` start empty. After `ESC`
//! (or `n = 0`), `f` is added to `firsts[c]`.

use rustc_hash::{FxHashMap, FxHashSet};

use super::format::{
    assert_encodable, bits_for, check_explicit_numbering, get_varint, numbering_of, pad, put_varint, renumber, renumber_canonical, GrammarDecodeError, Header,
    Numbering, Result, NONE,
};
use super::rans::{below_as_raw, RansDecoder, RansEncoder, Table, MAX_ALPHABET};
use crate::{Grammar, Sym};

const VERSION: u8 = 2;

// --- tables ---

/// Symbols after the rank buckets `0..=32`.
const ESC: usize = 33;
const NEW: usize = 34;

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
const NEW_TERMINAL: usize = GLOBAL_BASE + GLOBAL_TABLES;
const LAST_BASE: usize = NEW_TERMINAL + 1;
const MEMBER_BASE: usize = LAST_BASE + LAST_TABLES;
const N_TABLES: usize = MEMBER_BASE + MEMBER_TABLES;

/// The alphabet of each table, in table order.
fn alphabet(table: usize) -> usize {
    match table {
        t if t < STEP_BASE => ESC,
        t if t < FIRST_BASE => NEW + 1,
        t if t < NEW_TERMINAL => ESC + 1,
        NEW_TERMINAL => 2,
        _ => ESC,
    }
}

#[inline(always)]
fn bits(v: usize) -> usize {
    bits_for(v as u64) as usize
}

fn len_table(depth: usize) -> usize {
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

/// The state of a list after an escape.
const ESCAPED: u8 = 3;

/// Class members: a local terminal, or a rule with this bit set.
const RULE_BIT: u32 = 1 << 31;

/// Uses the entry at rank `r` of `list` (newest last): swaps it with the entry at rank
/// `r / 2`; returns their indices.
#[inline(always)]
fn use_rank<T>(list: &mut [T], r: usize) -> (usize, usize) {
    let n = list.len();
    let (i, j) = (n - 1 - r, n - 1 - r / 2);
    list.swap(i, j);
    (i, j)
}

/// The two streams of the coded grammar.
#[derive(Clone, Copy)]
enum Stream {
    Control,
    Class,
}

// --- encoder ---

/// Where the encoder's model puts what it codes.
trait Sink {
    fn symbol(&mut self, stream: Stream, table: usize, s: usize);
    /// A raw number of at most 32 bits.
    fn raw(&mut self, stream: Stream, bits: u32, value: u32);

    /// A number below `m`.
    fn below(&mut self, stream: Stream, m: u64, value: u64) {
        let (bits, value) = below_as_raw(m, value);
        self.raw(stream, bits, value);
    }
}

/// The items of each stream in order, and the counts of each table's symbols: the model
/// runs once, and the items are coded when the counts, so the tables, are known.
struct Recorder {
    counts: Vec<[u64; MAX_ALPHABET]>,
    /// Per stream: table symbols as `table << 8 | symbol`, raw groups of at most 16 bits
    /// as `RAW_ITEM | bits << 16 | value`.
    items: [Vec<u32>; 2],
}

const RAW_ITEM: u32 = 1 << 31;

impl Sink for Recorder {
    fn symbol(&mut self, stream: Stream, table: usize, s: usize) {
        self.counts[table][s] += 1;
        self.items[stream as usize].push((table as u32) << 8 | s as u32);
    }

    fn raw(&mut self, stream: Stream, bits: u32, value: u32) {
        let items = &mut self.items[stream as usize];
        if bits > 16 {
            items.push(RAW_ITEM | (bits - 16) << 16 | value >> 16);
            items.push(RAW_ITEM | 16 << 16 | (value & 0xffff));
        } else if bits > 0 {
            items.push(RAW_ITEM | bits << 16 | value);
        }
    }
}

impl Recorder {
    /// Codes the items of `stream` into `rans` with `tables`.
    fn code(&self, stream: Stream, tables: &[Table], rans: &mut RansEncoder) {
        for &item in &self.items[stream as usize] {
            if item & RAW_ITEM != 0 {
                rans.raw(item >> 16 & 0x1f, item & 0xffff);
            } else {
                rans.symbol(&tables[(item >> 8) as usize], (item & 0xff) as usize);
            }
        }
    }
}

/// Codes rank `r` of a list of `n` entries in `table`.
fn code_rank<S: Sink>(sink: &mut S, stream: Stream, table: usize, r: usize, n: usize) {
    let b = bits(r);
    sink.symbol(stream, table, b);
    if b >= 2 {
        let base = 1 << (b - 1);
        sink.below(stream, base.min(n - base) as u64, (r - base) as u64);
    }
}

/// Keys of the class map: the first and last terminals of a class.
fn key(f: u32, l: u32) -> u64 {
    (f as u64) << 32 | l as u64
}

/// Codes the rank of `entry` in `list` (newest last) in `table` if it is there, and uses it;
/// else codes `ESC`. Returns the rank, or `None` for an escape. The entry is found by
/// scanning from the newest: lists of successors are short, or used near their front.
fn rank_or_escape<S: Sink>(sink: &mut S, list: &mut [u32], entry: Option<u32>, table: usize) -> Option<usize> {
    let n = list.len();
    match entry.and_then(|e| list.iter().rposition(|&x| x == e)) {
        Some(i) => {
            let r = n - 1 - i;
            code_rank(sink, Stream::Control, table, r, n);
            use_rank(list, r);
            Some(r)
        }
        None => {
            sink.symbol(Stream::Control, table, ESC);
            None
        }
    }
}

/// The encoder's model: the lists of the module docs, with the index of every entry.
struct EncoderModel {
    n_terminals: u32,
    local: FxHashMap<u32, u32>,
    next: u64,
    pairs: Vec<Vec<u32>>,
    pair_state: Vec<u8>,
    firsts: Vec<Vec<u32>>,
    first_state: Vec<u8>,
    global: Vec<u32>,
    global_index: Vec<u32>,
    lasts: Vec<Vec<u32>>,
    /// Per class: its first and last terminals, its index in `lasts`, its members.
    class_ends: Vec<(u32, u32)>,
    last_index: Vec<u32>,
    members: Vec<Vec<u32>>,
    /// The class of each pair of first and last terminals, keyed by [`key`].
    class_of: FxHashMap<u64, u32>,
    /// Per local terminal and per rule (input numbering): its class and its index there.
    terminal_class: Vec<(u32, u32)>,
    rule_class: Vec<(u32, u32)>,
}

impl EncoderModel {
    fn new(n_terminals: u32, n_rules: usize) -> Self {
        EncoderModel {
            n_terminals,
            local: FxHashMap::default(),
            next: 0,
            pairs: vec![Vec::new()],
            pair_state: vec![0],
            firsts: vec![Vec::new()],
            first_state: vec![0],
            global: Vec::new(),
            global_index: Vec::new(),
            lasts: Vec::new(),
            class_ends: Vec::new(),
            last_index: Vec::new(),
            members: Vec::new(),
            class_of: FxHashMap::default(),
            terminal_class: Vec::new(),
            rule_class: vec![(NONE, NONE); n_rules],
        }
    }

    /// Creates class `(f, l)`; returns its number.
    fn new_class(&mut self, f: u32, l: u32) -> u32 {
        let k = self.class_ends.len() as u32;
        self.class_of.insert(key(f, l), k);
        self.class_ends.push((f, l));
        self.last_index.push(self.lasts[f as usize].len() as u32);
        self.lasts[f as usize].push(k);
        self.members.push(Vec::new());
        k
    }

    /// Codes terminal `value` (local number `known` if seen) as a first terminal in
    /// context `c`, after an escape from `pairs[c]`; returns its local number.
    fn first<S: Sink>(&mut self, sink: &mut S, c: usize, known: Option<u32>, value: u32) -> u32 {
        let n = self.firsts[c].len();
        if n >= 1 {
            let table = first_table(n, self.first_state[c]);
            if let Some(r) = rank_or_escape(sink, &mut self.firsts[c], known, table) {
                self.first_state[c] = r.min(2) as u8;
                return known.expect("a listed terminal is known");
            }
        }
        self.first_state[c] = ESCAPED;
        let g = self.global.len();
        let t = match known {
            Some(t) => {
                let r = g - 1 - self.global_index[t as usize] as usize;
                code_rank(sink, Stream::Control, global_table(g), r, g);
                let (i, j) = use_rank(&mut self.global, r);
                for k in [i, j] {
                    self.global_index[self.global[k] as usize] = k as u32;
                }
                t
            }
            None => {
                if g >= 1 {
                    sink.symbol(Stream::Control, global_table(g), ESC);
                }
                if value as u64 == self.next {
                    sink.symbol(Stream::Control, NEW_TERMINAL, 0);
                } else {
                    sink.symbol(Stream::Control, NEW_TERMINAL, 1);
                    sink.raw(Stream::Control, bits_for(self.n_terminals as u64 - 1), value);
                }
                self.next = value as u64 + 1;
                let t = g as u32;
                self.local.insert(value, t);
                self.global_index.push(t);
                self.global.push(t);
                self.pairs.push(Vec::new());
                self.pair_state.push(0);
                self.firsts.push(Vec::new());
                self.first_state.push(0);
                self.lasts.push(Vec::new());
                let k = self.new_class(t, t);
                self.members[k as usize].push(t);
                self.terminal_class.push((k, 0));
                t
            }
        };
        self.firsts[c].push(t);
        t
    }

    /// Codes a reference to `s` at position `pos` in context `c`; returns the first and last
    /// terminals of its expansion. A rule must have ended.
    fn reference<S: Sink>(&mut self, sink: &mut S, pos: usize, c: usize, s: Sym) -> (u32, u32) {
        let known = match s {
            Sym::T(t) => self.local.get(&t).map(|&t| self.terminal_class[t as usize].0),
            Sym::N(x) => Some(self.rule_class[x as usize].0),
        };
        let table = step_table(pos, self.pairs[c].len(), self.pair_state[c]);
        let k = match rank_or_escape(sink, &mut self.pairs[c], known, table) {
            Some(r) => {
                self.pair_state[c] = r.min(2) as u8;
                known.expect("a listed class is known")
            }
            None => {
                self.pair_state[c] = ESCAPED;
                let f = match (s, known) {
                    (_, Some(k)) => {
                        let f = self.class_ends[k as usize].0;
                        self.first(sink, c, Some(f), 0)
                    }
                    (Sym::T(t), None) => self.first(sink, c, None, t),
                    (Sym::N(_), None) => unreachable!("an ended rule has a class"),
                };
                let k = known.unwrap_or_else(|| self.terminal_class[f as usize].0);
                let list = &mut self.lasts[f as usize];
                let n = list.len();
                let r = n - 1 - self.last_index[k as usize] as usize;
                if n >= 2 {
                    code_rank(sink, Stream::Control, last_table(n), r, n);
                }
                let (i, j) = use_rank(list, r);
                for e in [i, j] {
                    self.last_index[list[e] as usize] = e as u32;
                }
                self.pairs[c].push(k);
                k
            }
        };
        let list = &mut self.members[k as usize];
        let n = list.len();
        let i = match s {
            Sym::T(t) => self.terminal_class[self.local[&t] as usize].1,
            Sym::N(x) => self.rule_class[x as usize].1,
        } as usize;
        let r = n - 1 - i;
        if n >= 2 {
            code_rank(sink, Stream::Class, member_table(n), r, n);
        }
        let (i, j) = use_rank(list, r);
        for e in [i, j] {
            let m = list[e];
            if m & RULE_BIT != 0 {
                self.rule_class[(m & !RULE_BIT) as usize].1 = e as u32;
            } else {
                self.terminal_class[m as usize].1 = e as u32;
            }
        }
        self.class_ends[k as usize]
    }

    /// Adds rule `x` (input numbering), whose expansion begins with `f` and ends with `l`, to
    /// its class.
    fn add_rule(&mut self, x: usize, f: u32, l: u32) {
        let k = match self.class_of.get(&key(f, l)) {
            Some(&k) => k,
            None => self.new_class(f, l),
        };
        let list = &mut self.members[k as usize];
        self.rule_class[x] = (k, list.len() as u32);
        list.push(x as u32 | RULE_BIT);
    }
}

/// Codes the length of rule `r` at nesting depth `depth`.
fn code_length<S: Sink>(sink: &mut S, g: &Grammar, r: usize, depth: usize) {
    let v = g.rules[r].len() - (r != 0) as usize;
    let b = bits(v);
    sink.symbol(Stream::Control, len_table(depth), b);
    if b >= 2 {
        sink.raw(Stream::Control, b as u32 - 1, (v - (1 << (b - 1))) as u32);
    }
}

/// `g` with its rules in definition order (see [`super::format`]), and the input number
/// of each. The model's per-rule state is then in the order the rules are written, so
/// the rules used near each other (often defined near each other) are near in memory.
///
/// # Panics
///
/// If a rule reaches itself.
fn in_definition_order(g: &Grammar) -> (Grammar, Vec<usize>) {
    let n_rules = g.rules.len();
    let mut number = vec![NONE; n_rules];
    let mut ended = vec![false; n_rules];
    let mut order: Vec<usize> = Vec::with_capacity(n_rules);
    let mut stack: Vec<(usize, usize)> = Vec::new();
    for root in 0..n_rules {
        if number[root] != NONE {
            continue;
        }
        number[root] = order.len() as u32;
        order.push(root);
        stack.push((root, 0));
        while let Some(&mut (r, ref mut pos)) = stack.last_mut() {
            match g.rules[r].get(*pos) {
                None => {
                    ended[r] = true;
                    stack.pop();
                }
                Some(&s) => {
                    *pos += 1;
                    if let Sym::N(x) = s {
                        let x = x as usize;
                        if number[x] == NONE {
                            number[x] = order.len() as u32;
                            order.push(x);
                            stack.push((x, 0));
                        } else {
                            assert!(ended[x], "rule {x} reaches itself");
                        }
                    }
                }
            }
        }
    }
    let rules = order
        .iter()
        .map(|&r| {
            g.rules[r]
                .iter()
                .map(|&s| match s {
                    Sym::N(x) => Sym::N(number[x as usize]),
                    t => t,
                })
                .collect()
        })
        .collect();
    (Grammar { rules }, order)
}

/// Writes the rules of `g`, which are in definition order, into `sink`.
fn write_rules<S: Sink>(g: &Grammar, n_terminals: u32, sink: &mut S) {
    let n_rules = g.rules.len();
    let mut m = EncoderModel::new(n_terminals, n_rules);
    // Per rule (input numbering): whether its definition began and ended, and the local
    // numbers of the first and last terminals of its expansion.
    let mut first = vec![NONE; n_rules];
    let mut last = vec![NONE; n_rules];
    // Rules begun so far: the next new rule is rule `begun`.
    let mut begun = 0;
    let mut ctx = 0usize;
    let mut stack: Vec<(usize, usize)> = Vec::new();
    while begun < n_rules {
        code_length(sink, g, begun, 0);
        stack.push((begun, 0));
        begun += 1;
        while let Some(&mut (r, ref mut pos)) = stack.last_mut() {
            let p = *pos;
            let body = &g.rules[r];
            if p == body.len() {
                stack.pop();
                if r != 0 {
                    m.add_rule(r, first[r], last[r]);
                }
                if let Some(&(parent, _)) = stack.last() {
                    if first[parent] == NONE {
                        first[parent] = first[r];
                    }
                    last[parent] = last[r];
                }
                continue;
            }
            *pos += 1;
            let s = body[p];
            if s == Sym::N(begun as u32) {
                sink.symbol(Stream::Control, step_table(p, m.pairs[ctx].len(), m.pair_state[ctx]), NEW);
                code_length(sink, g, begun, stack.len());
                stack.push((begun, 0));
                begun += 1;
                continue;
            }
            let (f, l) = m.reference(sink, p, ctx, s);
            if first[r] == NONE {
                first[r] = f;
            }
            last[r] = l;
            ctx = l as usize + 1;
        }
    }
}

/// Encodes `g` in format version 2 (see the module docs).
///
/// # Panics
///
/// If `g` is not valid (see [`crate::encode_grammar`]), or has `2^31` symbols or more.
pub(crate) fn encode(g: &Grammar, n_terminals: u32) -> Vec<u8> {
    assert_encodable(g, n_terminals);
    let n_rules = g.rules.len();
    if n_rules == 0 {
        return Header::write(VERSION, g, n_terminals, Numbering::Canonical);
    }
    assert!(g.n_symbols() < 1 << 31, "{} symbols, more than format version 2 holds", g.n_symbols());
    let (ordered, definition_order) = in_definition_order(g);
    let numbering = numbering_of(g, &definition_order);
    let mut recorder = Recorder { counts: vec![[0; MAX_ALPHABET]; N_TABLES], items: [Vec::new(), Vec::new()] };
    write_rules(&ordered, n_terminals, &mut recorder);
    if numbering == Numbering::Explicit {
        let width = bits_for(n_rules as u64 - 1);
        for &r in &definition_order {
            recorder.raw(Stream::Control, width, r as u32);
        }
    }
    let mut control = RansEncoder::new();
    let mut tables = Vec::with_capacity(N_TABLES);
    for (t, counts) in recorder.counts.iter().enumerate() {
        let (codes, table) = Table::for_counts(&counts[..alphabet(t)]);
        control.table(&codes);
        tables.push(table);
    }
    recorder.code(Stream::Control, &tables, &mut control);
    let mut class = RansEncoder::new();
    recorder.code(Stream::Class, &tables, &mut class);
    let (control, class) = (control.finish(), class.finish());
    let mut out = Header::write(VERSION, g, n_terminals, numbering);
    put_varint(&mut out, control.len() as u64);
    out.extend_from_slice(&control);
    out.extend_from_slice(&class);
    pad(&mut out, g.n_symbols());
    out
}

// --- decoder ---
//
// The decoder runs the control stream ahead of the class stream: the control pass decodes
// the structure and the class of each reference into a batch of events, and the class pass
// then finds each reference in its class. A class pass's random accesses into large member
// lists do not hold up the control pass, and each batch's accesses overlap.

/// Events the control pass leaves for the class pass at most, before the class pass runs.
const BATCH: usize = 1 << 12;

/// What the control pass leaves for the class pass, in stream order.
#[derive(Clone, Copy)]
enum Event {
    /// Rule `rule` (definition index) gets a reference to a symbol of class `class`.
    Ref { rule: u32, class: u32 },
    /// Rule `rule` gets a reference to rule `child`, defined there.
    Child { rule: u32, child: u32 },
    /// Rule `rule` has ended and joins class `class`.
    End { rule: u32, class: u32 },
}

/// The control pass's model: the lists of the module docs but the members.
struct ControlModel<'a> {
    rans: RansDecoder<'a>,
    tables: Vec<Table>,
    n_terminals: u32,
    values: Vec<u32>,
    seen: FxHashSet<u32>,
    next: u64,
    pairs: Vec<Vec<u32>>,
    pair_state: Vec<u8>,
    firsts: Vec<Vec<u32>>,
    first_state: Vec<u8>,
    global: Vec<u32>,
    lasts: Vec<Vec<u32>>,
    /// Per class: its first and last terminals.
    class_ends: Vec<(u32, u32)>,
    class_of: FxHashMap<u64, u32>,
    /// Classes created that the class pass has not seen yet: new terminals' classes hold
    /// the terminal.
    new_classes: Vec<Option<u32>>,
}

/// The class pass's model: the members of each class (as the symbols they decode to, rules
/// by definition index).
struct ClassModel<'a> {
    rans: RansDecoder<'a>,
    members: Members,
}

/// Lists of symbols, one per class, kept together in one arena so that the random
/// accesses into them stay within a small part of memory.
#[derive(Default)]
struct Members {
    arena: Vec<u32>,
    /// Per class: where its list starts in the arena, its length and its capacity.
    lists: Vec<(usize, usize, usize)>,
}

impl Members {
    fn add_class(&mut self, first: Option<u32>) {
        let k = self.lists.len();
        self.lists.push((self.arena.len(), 0, 0));
        if let Some(s) = first {
            self.push(k, s);
        }
    }

    /// Appends `s` to list `k`, moving the list to the end of the arena with twice the
    /// room when it is full.
    fn push(&mut self, k: usize, s: u32) {
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
    fn list(&mut self, k: usize) -> &mut [u32] {
        let (start, len, _) = self.lists[k];
        &mut self.arena[start..start + len]
    }
}

/// Decodes the offset of a rank in a list of `n` entries after its bucket symbol `b`.
#[inline(always)]
fn rank(rans: &mut RansDecoder, b: usize, n: usize) -> Result<usize> {
    let base = (1usize << b) >> 1;
    if base >= n {
        return Err(GrammarDecodeError::Corrupt("a rank beyond the end of its list"));
    }
    if b < 2 {
        return Ok(base);
    }
    Ok(base + rans.below(base.min(n - base) as u64)? as usize)
}

impl ControlModel<'_> {
    fn length(&mut self, depth: usize) -> Result<usize> {
        let b = self.rans.symbol(&self.tables[len_table(depth)])?;
        if b < 2 {
            return Ok(b);
        }
        Ok((1 << (b - 1)) + self.rans.raw(b as u32 - 1)? as usize)
    }

    /// Decodes a step at position `pos` in context `c`: `None` for a new rule, or the class
    /// of a reference.
    #[inline(always)]
    fn step(&mut self, pos: usize, c: usize) -> Result<Option<u32>> {
        let n = self.pairs[c].len();
        let b = self.rans.symbol(&self.tables[step_table(pos, n, self.pair_state[c])])?;
        Ok(Some(match b {
            NEW => return Ok(None),
            ESC => {
                self.pair_state[c] = ESCAPED;
                let k = self.escaped_class(c)?;
                self.pairs[c].push(k);
                k
            }
            b => {
                let r = rank(&mut self.rans, b, n)?;
                self.pair_state[c] = r.min(2) as u8;
                let list = &mut self.pairs[c];
                let k = list[n - 1 - r];
                use_rank(list, r);
                k
            }
        }))
    }

    /// Decodes the class of a reference after an escape from `pairs[c]`.
    fn escaped_class(&mut self, c: usize) -> Result<u32> {
        let f = self.first(c)?;
        let list = &self.lasts[f as usize];
        let n = list.len();
        let r = if n >= 2 {
            let b = self.rans.symbol(&self.tables[last_table(n)])?;
            rank(&mut self.rans, b, n)?
        } else {
            0
        };
        let list = &mut self.lasts[f as usize];
        let k = list[n - 1 - r];
        use_rank(list, r);
        Ok(k)
    }

    /// Decodes a first terminal in context `c`.
    fn first(&mut self, c: usize) -> Result<u32> {
        let n = self.firsts[c].len();
        if n >= 1 {
            let b = self.rans.symbol(&self.tables[first_table(n, self.first_state[c])])?;
            if b != ESC {
                let r = rank(&mut self.rans, b, n)?;
                self.first_state[c] = r.min(2) as u8;
                let list = &mut self.firsts[c];
                let f = list[n - 1 - r];
                use_rank(list, r);
                return Ok(f);
            }
        }
        self.first_state[c] = ESCAPED;
        let g = self.global.len();
        let b = if g >= 1 { self.rans.symbol(&self.tables[global_table(g)])? } else { ESC };
        let f = if b != ESC {
            let r = rank(&mut self.rans, b, g)?;
            let f = self.global[g - 1 - r];
            use_rank(&mut self.global, r);
            f
        } else {
            self.new_terminal()?
        };
        self.firsts[c].push(f);
        Ok(f)
    }

    fn new_terminal(&mut self) -> Result<u32> {
        let value = match self.rans.symbol(&self.tables[NEW_TERMINAL])? {
            0 => self.next,
            _ => self.rans.raw(bits_for(self.n_terminals.saturating_sub(1) as u64))? as u64,
        };
        if value >= self.n_terminals as u64 {
            return Err(GrammarDecodeError::Corrupt("terminal out of range"));
        }
        let value = value as u32;
        if !self.seen.insert(value) {
            return Err(GrammarDecodeError::Corrupt("a terminal is introduced twice"));
        }
        self.next = value as u64 + 1;
        let t = self.values.len() as u32;
        self.values.push(value);
        self.global.push(t);
        self.pairs.push(Vec::new());
        self.pair_state.push(0);
        self.firsts.push(Vec::new());
        self.first_state.push(0);
        self.lasts.push(Vec::new());
        self.new_class(t, t, Some(t));
        Ok(t)
    }

    /// Creates class `(f, l)`, whose members begin with `first` if given; returns its
    /// number.
    fn new_class(&mut self, f: u32, l: u32, first: Option<u32>) -> u32 {
        let k = self.class_ends.len() as u32;
        self.class_of.insert(key(f, l), k);
        self.class_ends.push((f, l));
        self.lasts[f as usize].push(k);
        self.new_classes.push(first);
        k
    }

    /// The class of a rule whose expansion begins with `f` and ends with `l`.
    fn class_of(&mut self, f: u32, l: u32) -> u32 {
        match self.class_of.get(&key(f, l)) {
            Some(&k) => k,
            None => self.new_class(f, l, None),
        }
    }
}

impl ClassModel<'_> {
    /// Runs the class pass over `events`, completing the bodies of `rules`.
    fn run(&mut self, tables: &[Table], values: &[u32], events: &[Event], new_classes: &mut Vec<Option<u32>>, rules: &mut [Vec<Sym>]) -> Result<()> {
        for first in new_classes.drain(..) {
            self.members.add_class(first);
        }
        for &e in events {
            match e {
                Event::Ref { rule, class } => {
                    let list = self.members.list(class as usize);
                    let n = list.len();
                    let r = if n >= 2 {
                        let b = self.rans.symbol(&tables[member_table(n)])?;
                        rank(&mut self.rans, b, n)?
                    } else {
                        0
                    };
                    let e = list[n - 1 - r];
                    use_rank(list, r);
                    rules[rule as usize].push(if e & RULE_BIT != 0 { Sym::N(e & !RULE_BIT) } else { Sym::T(values[e as usize]) });
                }
                Event::Child { rule, child } => rules[rule as usize].push(Sym::N(child)),
                Event::End { rule, class } => self.members.push(class as usize, rule | RULE_BIT),
            }
        }
        Ok(())
    }
}

/// Decodes the coded grammar after `header` (see the module docs).
pub(crate) fn decode(bytes: &[u8], header: &Header) -> Result<Grammar> {
    if header.n_symbols >= 1 << 31 {
        return Err(GrammarDecodeError::Corrupt("2^31 symbols or more"));
    }
    let mut pos = header.body;
    let control_len = get_length(bytes, &mut pos)?;
    let (control, class) = bytes[pos..].split_at(control_len);
    let mut c = ControlModel {
        rans: RansDecoder::new(control)?,
        tables: Vec::with_capacity(N_TABLES),
        n_terminals: header.n_terminals,
        values: Vec::new(),
        seen: FxHashSet::default(),
        next: 0,
        pairs: vec![Vec::new()],
        pair_state: vec![0],
        firsts: vec![Vec::new()],
        first_state: vec![0],
        global: Vec::new(),
        lasts: Vec::new(),
        class_ends: Vec::new(),
        class_of: FxHashMap::default(),
        new_classes: Vec::new(),
    };
    let mut k = ClassModel { rans: RansDecoder::new(class)?, members: Members::default() };
    let (rules, num) = match read_grammar(&mut c, &mut k, header) {
        Ok(decoded) => decoded,
        // Whatever went wrong, reading past the end of a stream says why.
        Err(_) if c.rans.overran() || k.rans.overran() => return Err(GrammarDecodeError::Truncated),
        Err(e) => return Err(e),
    };
    if c.rans.finish()? != control.len() {
        return Err(GrammarDecodeError::Corrupt("the control stream ends before its length"));
    }
    let end = k.rans.finish()?;
    if class[end..].iter().any(|&b| b != 0) {
        return Err(GrammarDecodeError::Corrupt("bytes after the grammar"));
    }
    Ok(match num {
        None => renumber_canonical(rules),
        Some(num) => renumber(rules, &num),
    })
}

/// Reads the length of the control stream, which must fit in the input.
fn get_length(bytes: &[u8], pos: &mut usize) -> Result<usize> {
    let len = get_varint(bytes, pos)?;
    if len > (bytes.len() - *pos) as u64 {
        return Err(GrammarDecodeError::Truncated);
    }
    Ok(len as usize)
}

/// The rules in definition order, and the explicit numbering if there is one.
type RulesRead = (Vec<Vec<Sym>>, Option<Vec<u32>>);

/// The rules decoded so far, in definition order, and those being written.
struct Rules {
    rules: Vec<Vec<Sym>>,
    /// The local numbers of the first and last terminals of each rule's expansion.
    first: Vec<u32>,
    last: Vec<u32>,
    /// The rules being written, innermost last, with their lengths and the symbols each
    /// has left.
    stack: Vec<(usize, usize, usize)>,
    /// Symbols the lengths so far declare.
    symbols: usize,
}

impl Rules {
    /// Starts the definition of the next rule; returns its definition index.
    fn begin(&mut self, c: &mut ControlModel, header: &Header) -> Result<u32> {
        if self.rules.len() == header.n_rules {
            return Err(GrammarDecodeError::Corrupt("more rules than declared"));
        }
        let x = self.rules.len();
        let len = c.length(self.stack.len())? + (x != 0) as usize;
        if len > header.n_symbols - self.symbols {
            return Err(GrammarDecodeError::Corrupt("more symbols than declared"));
        }
        self.symbols += len;
        self.rules.push(Vec::with_capacity(len));
        self.first.push(NONE);
        self.last.push(NONE);
        self.stack.push((x, len, len));
        Ok(x as u32)
    }
}

/// Reads the tables, the rules (in definition order, referring to each other by definition
/// index) and the numbering, if explicit.
fn read_grammar(c: &mut ControlModel, k: &mut ClassModel, header: &Header) -> Result<RulesRead> {
    for t in 0..N_TABLES {
        let table = c.rans.table(alphabet(t))?;
        c.tables.push(table);
    }
    let n_rules = header.n_rules;
    let mut d =
        Rules { rules: Vec::with_capacity(n_rules), first: Vec::with_capacity(n_rules), last: Vec::with_capacity(n_rules), stack: Vec::new(), symbols: 0 };
    let mut events: Vec<Event> = Vec::new();
    let mut ctx = 0usize;
    while d.rules.len() < n_rules {
        d.begin(c, header)?;
        while let Some(&mut (r, len, ref mut left)) = d.stack.last_mut() {
            if *left == 0 {
                d.stack.pop();
                let (f, l) = (d.first[r], d.last[r]);
                if r != 0 {
                    events.push(Event::End { rule: r as u32, class: c.class_of(f, l) });
                }
                if let Some(&(parent, _, _)) = d.stack.last() {
                    if d.first[parent] == NONE {
                        d.first[parent] = f;
                    }
                    d.last[parent] = l;
                }
            } else {
                let pos = len - *left;
                *left -= 1;
                match c.step(pos, ctx)? {
                    None => {
                        let child = d.begin(c, header)?;
                        events.push(Event::Child { rule: r as u32, child });
                    }
                    Some(class) => {
                        let (f, l) = c.class_ends[class as usize];
                        events.push(Event::Ref { rule: r as u32, class });
                        if d.first[r] == NONE {
                            d.first[r] = f;
                        }
                        d.last[r] = l;
                        ctx = l as usize + 1;
                    }
                }
            }
            if events.len() >= BATCH {
                k.run(&c.tables, &c.values, &events, &mut c.new_classes, &mut d.rules)?;
                events.clear();
            }
        }
    }
    k.run(&c.tables, &c.values, &events, &mut c.new_classes, &mut d.rules)?;
    if d.symbols != header.n_symbols {
        return Err(GrammarDecodeError::Corrupt("fewer symbols than declared"));
    }
    let num = match header.numbering {
        Numbering::Canonical => None,
        Numbering::Explicit => {
            let width = bits_for(n_rules as u64 - 1);
            let num = (0..n_rules).map(|_| c.rans.raw(width)).collect::<Result<Vec<u32>>>()?;
            check_explicit_numbering(&num)?;
            Some(num)
        }
    };
    Ok((d.rules, num))
}
