//! Writing format version 2: the rules in definition order, each reference coded by the
//! shared [`Model`] and [`Members`] into two recorded streams, then the frequency tables
//! counted from what was recorded, and both streams coded with them.
//!
//! The writer keeps beside the model the index of every entry in the lists it must find
//! ranks in without a scan (`global`, `lasts`, the members), and each terminal's local
//! number.

use rustc_hash::FxHashMap;

use super::model::{alphabet, bits, len_table, Members, Model, Moved, ESC, NEW, NEW_TERMINAL, N_TABLES, RULE_BIT};
use crate::codec::format::{assert_encodable, bits_for, numbering_of, pad, put_varint, Header, Numbering, NONE};
use crate::codec::rans::{below_as_raw, RansEncoder, Table, MAX_ALPHABET};
use crate::{Grammar, RuleId, Sym, Terminal};

const VERSION: u8 = 2;

/// The two streams of the coded grammar.
#[derive(Clone, Copy)]
enum Stream {
    Control,
    Class,
}

/// Where the writer puts what it codes.
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

/// The rank of `entry` in `list` (newest last), found by scanning from the newest: most
/// lists of successors are short, or used near their front.
fn rank_in(list: &[u32], entry: Option<u32>) -> Option<usize> {
    entry.and_then(|e| list.iter().rposition(|&x| x == e)).map(|i| list.len() - 1 - i)
}

/// Lists longer than this have their entries' positions indexed ([`Positions`]).
const LONG: usize = 32;

/// Where the entries of the long lists of one family (`pairs` or `firsts`, one list per
/// context) stand, so that an entry's rank is found without a scan. An address trace has
/// contexts with thousands of successors, where scanning made encoding quadratic. A list
/// is indexed when it is first searched after growing past [`LONG`], and kept up to date
/// from then on; short lists are scanned.
struct Positions {
    /// Lists longer than this are indexed ([`LONG`]; the tests scan every list).
    long: usize,
    /// (context, entry) to the entry's index in the context's list.
    at: FxHashMap<u64, u32>,
    /// Per context: whether its list is indexed.
    indexed: Vec<bool>,
}

impl Positions {
    fn new(long: usize) -> Self {
        Positions { long, at: FxHashMap::default(), indexed: Vec::new() }
    }

    fn key(c: usize, e: u32) -> u64 {
        (c as u64) << 32 | e as u64
    }

    fn is_indexed(&self, c: usize) -> bool {
        self.indexed.get(c).copied().unwrap_or(false)
    }

    /// The rank of `entry` in `list`, the list of context `c`.
    fn rank(&mut self, c: usize, list: &[u32], entry: Option<u32>) -> Option<usize> {
        if list.len() <= self.long {
            return rank_in(list, entry);
        }
        if !self.is_indexed(c) {
            if self.indexed.len() <= c {
                self.indexed.resize(c + 1, false);
            }
            self.indexed[c] = true;
            self.at.extend(list.iter().enumerate().map(|(i, &e)| (Self::key(c, e), i as u32)));
        }
        let i = self.at.get(&Self::key(c, entry?))?;
        Some(list.len() - 1 - *i as usize)
    }

    /// Notes the entries a use moved in the list of context `c`.
    fn moved(&mut self, c: usize, moved: Moved) {
        if self.is_indexed(c) {
            for (e, i) in moved {
                self.at.insert(Self::key(c, e), i as u32);
            }
        }
    }

    /// Notes that `e` was appended to the list of context `c` at index `i`.
    fn pushed(&mut self, c: usize, e: u32, i: usize) {
        if self.is_indexed(c) {
            self.at.insert(Self::key(c, e), i as u32);
        }
    }
}

/// Records the new index of each entry a use moved.
fn reindex(index: &mut [u32], moved: Moved) {
    for (e, i) in moved {
        index[e as usize] = i as u32;
    }
}

/// The shared model, and the indices the writer keeps to find ranks in it.
struct Writer {
    n_terminals: u32,
    model: Model,
    members: Members,
    /// The local number of each terminal value seen.
    local: FxHashMap<u32, u32>,
    /// Per local terminal: its index in `global`.
    global_index: Vec<u32>,
    /// Per class: its index in `lasts` of its first terminal.
    last_index: Vec<u32>,
    /// Per local terminal and per rule (input numbering): its class and its index there.
    terminal_class: Vec<(u32, u32)>,
    rule_class: Vec<(u32, u32)>,
    /// Positions in the long lists of `pairs` and of `firsts`.
    pair_at: Positions,
    first_at: Positions,
}

impl Writer {
    /// A writer whose lists longer than `long` are indexed.
    fn new(n_terminals: u32, n_rules: usize, long: usize) -> Self {
        Writer {
            n_terminals,
            model: Model::new(),
            members: Members::default(),
            local: FxHashMap::default(),
            global_index: Vec::new(),
            last_index: Vec::new(),
            terminal_class: Vec::new(),
            rule_class: vec![(NONE, NONE); n_rules],
            pair_at: Positions::new(long),
            first_at: Positions::new(long),
        }
    }

    /// Notes that the model created class `k` (the newest of `lasts` of its first terminal)
    /// holding `first` if given.
    fn class_created(&mut self, k: u32, first: Option<u32>) {
        let f = self.model.class_ends(k).0;
        self.last_index.push(self.model.n_lasts(f) as u32 - 1);
        self.members.add_class(first);
    }

    /// Codes terminal `value` (local number `known` if seen) as a first terminal in
    /// context `c`, after an escape from `pairs[c]`; returns its local number.
    fn first<S: Sink>(&mut self, sink: &mut S, c: usize, known: Option<u32>, value: u32) -> u32 {
        if let Some(table) = self.model.first_table(c) {
            match self.first_at.rank(c, self.model.firsts(c), known) {
                Some(r) => {
                    code_rank(sink, Stream::Control, table, r, self.model.firsts(c).len());
                    let (t, moved) = self.model.use_first(c, r);
                    self.first_at.moved(c, moved);
                    return t;
                }
                None => sink.symbol(Stream::Control, table, ESC),
            }
        }
        self.model.escape_firsts(c);
        let g = self.model.n_global();
        let t = match known {
            Some(t) => {
                let r = g - 1 - self.global_index[t as usize] as usize;
                code_rank(sink, Stream::Control, self.model.global_table().expect("a known terminal is listed"), r, g);
                let (_, moved) = self.model.use_global(r);
                reindex(&mut self.global_index, moved);
                t
            }
            None => {
                if let Some(table) = self.model.global_table() {
                    sink.symbol(Stream::Control, table, ESC);
                }
                if value as u64 == self.model.next_terminal() {
                    sink.symbol(Stream::Control, NEW_TERMINAL, 0);
                } else {
                    sink.symbol(Stream::Control, NEW_TERMINAL, 1);
                    sink.raw(Stream::Control, bits_for(self.n_terminals as u64 - 1), value);
                }
                let (t, k) = self.model.add_terminal(value);
                self.local.insert(value, t);
                self.global_index.push(g as u32);
                self.class_created(k, Some(t));
                self.terminal_class.push((k, 0));
                t
            }
        };
        self.first_at.pushed(c, t, self.model.firsts(c).len());
        self.model.add_first(c, t);
        t
    }

    /// Codes a reference to `s` at position `pos` in context `c`; returns the first and last
    /// terminals of its expansion. A rule must have ended.
    fn reference<S: Sink>(&mut self, sink: &mut S, pos: usize, c: usize, s: Sym) -> (u32, u32) {
        let known = match s {
            Sym::T(Terminal(t)) => self.local.get(&t).map(|&t| self.terminal_class[t as usize].0),
            Sym::N(RuleId(x)) => Some(self.rule_class[x as usize].0),
        };
        let table = self.model.step_table(pos, c);
        let k = match self.pair_at.rank(c, self.model.pairs(c), known) {
            Some(r) => {
                code_rank(sink, Stream::Control, table, r, self.model.pairs(c).len());
                let (k, moved) = self.model.use_pair(c, r);
                self.pair_at.moved(c, moved);
                k
            }
            None => {
                sink.symbol(Stream::Control, table, ESC);
                self.model.escape_pairs(c);
                let f = match (s, known) {
                    (_, Some(k)) => {
                        let f = self.model.class_ends(k).0;
                        self.first(sink, c, Some(f), 0)
                    }
                    (Sym::T(Terminal(t)), None) => self.first(sink, c, None, t),
                    (Sym::N(_), None) => unreachable!("an ended rule has a class"),
                };
                let k = known.unwrap_or_else(|| self.terminal_class[f as usize].0);
                let n = self.model.n_lasts(f);
                let r = n - 1 - self.last_index[k as usize] as usize;
                if let Some(table) = self.model.last_table(f) {
                    code_rank(sink, Stream::Control, table, r, n);
                }
                let (_, moved) = self.model.use_last(f, r);
                reindex(&mut self.last_index, moved);
                self.pair_at.pushed(c, k, self.model.pairs(c).len());
                self.model.add_pair(c, k);
                k
            }
        };
        let n = self.members.len(k as usize);
        let i = match s {
            Sym::T(Terminal(t)) => self.terminal_class[self.local[&t] as usize].1,
            Sym::N(RuleId(x)) => self.rule_class[x as usize].1,
        } as usize;
        let r = n - 1 - i;
        if let Some(table) = Members::table(n) {
            code_rank(sink, Stream::Class, table, r, n);
        }
        let (_, moved) = self.members.use_member(k as usize, r);
        for (m, e) in moved {
            if m & RULE_BIT != 0 {
                self.rule_class[(m & !RULE_BIT) as usize].1 = e as u32;
            } else {
                self.terminal_class[m as usize].1 = e as u32;
            }
        }
        self.model.class_ends(k)
    }

    /// Adds rule `x` (input numbering), whose expansion begins with `f` and ends with `l`, to
    /// its class.
    fn add_rule(&mut self, x: usize, f: u32, l: u32) {
        let (k, new) = self.model.class_for(f, l);
        if new {
            self.class_created(k, None);
        }
        self.rule_class[x] = (k, self.members.len(k as usize) as u32);
        self.members.push(k as usize, x as u32 | RULE_BIT);
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

/// `g` with its rules in definition order (see [`crate::codec::format`]), and the input
/// number of each. The model's per-rule state is then in the order the rules are written,
/// so the rules used near each other (often defined near each other) are near in memory.
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
                    if let Sym::N(RuleId(x)) = s {
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
            g.rules[r].iter().map(|&s| match s {
                Sym::N(RuleId(x)) => Sym::N(RuleId(number[x as usize])),
                t => t,
            })
        })
        .collect();
    (Grammar { rules }, order)
}

/// Writes the rules of `g`, which are in definition order, into `sink`.
fn write_rules<S: Sink>(g: &Grammar, n_terminals: u32, sink: &mut S, long: usize) {
    let n_rules = g.rules.len();
    let mut w = Writer::new(n_terminals, n_rules, long);
    // Per rule (input numbering): the local numbers of the first and last terminals of its
    // expansion.
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
                    w.add_rule(r, first[r], last[r]);
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
            if s == Sym::N(RuleId(begun as u32)) {
                sink.symbol(Stream::Control, w.model.step_table(p, ctx), NEW);
                code_length(sink, g, begun, stack.len());
                stack.push((begun, 0));
                begun += 1;
                continue;
            }
            let (f, l) = w.reference(sink, p, ctx, s);
            if first[r] == NONE {
                first[r] = f;
            }
            last[r] = l;
            ctx = l as usize + 1;
        }
    }
}

/// Encodes `g` in format version 2 (see [`super`]).
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
    write_rules(&ordered, n_terminals, &mut recorder, LONG);
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

#[cfg(test)]
mod tests {
    use super::*;

    fn items(g: &Grammar, n_terminals: u32, long: usize) -> (Vec<[u64; MAX_ALPHABET]>, [Vec<u32>; 2]) {
        let (ordered, _) = in_definition_order(g);
        let mut recorder = Recorder { counts: vec![[0; MAX_ALPHABET]; N_TABLES], items: [Vec::new(), Vec::new()] };
        write_rules(&ordered, n_terminals, &mut recorder, long);
        (recorder.counts, recorder.items)
    }

    /// Ranks found through the indexed positions are the ranks a scan finds: the writer
    /// codes the same items, on grammars whose contexts have hundreds of successors (the
    /// shape of an address trace) and on one of a short alphabet.
    #[test]
    fn indexed_ranks_are_the_scanned_ranks() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for (n, alphabet) in [(100_000, 600u32), (60_000, 20), (200_000, 2_000)] {
            let seq: Vec<u32> = (0..n)
                .map(|i| {
                    x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
                    // Runs of a counter among random values, so that rules form too.
                    if (x >> 60) < 4 {
                        i % alphabet
                    } else {
                        (x >> 33) as u32 % alphabet
                    }
                })
                .collect();
            let mut successors = std::collections::HashSet::new();
            successors.extend(seq.windows(2).map(|w| (w[0], w[1])));
            let most = (0..alphabet).map(|t| successors.iter().filter(|s| s.0 == t).count()).max().unwrap();
            assert!(alphabet < LONG as u32 || most > 2 * LONG, "alphabet {alphabet}: at most {most} successors, no long list");
            let g = crate::repair(&seq);
            let indexed = items(&g, alphabet, LONG);
            assert!(indexed == items(&g, alphabet, usize::MAX), "alphabet {alphabet}: the indexed writer coded other items");
            let bytes = encode(&g, alphabet);
            assert_eq!(crate::decode_grammar(&bytes).unwrap().expand().collect::<Vec<_>>(), seq, "alphabet {alphabet}");
        }
    }
}
