//! Re-Pair (Larsson & Moffat, 2000): offline, "most frequent digram first" grammar
//! construction in linear expected time — the enhanced SEQUITUR of Tallam & Gupta (§4).
//!
//! The sequence lives in an array of `u32` symbols. Replacing a pair `ab` by a new
//! symbol `A` writes `A` over the `a` and leaves a hole where the `b` was; holes form
//! runs, and the first and last hole of each run point past the run, so stepping to the
//! previous or next live symbol is O(1). Every *active* pair (at least two occurrences)
//! has a record: its count, a doubly linked list of its occurrences threaded through the
//! array (the list links live beside each symbol and double as the hole pointers), and
//! links into a priority queue. The queue has one FIFO list per count `2..b` and one
//! unordered list for counts `>= b`, where `b = max(⌈√n⌉, 2)`; a hash table maps pairs to
//! records.
//!
//! Counting invariants, restored after every replacement:
//! - for a pair `xy` with `x != y`, every occurrence is on the list;
//! - for a pair `xx`, inside each maximal run `x^L` exactly the occurrences at even
//!   offsets `0, 2, 4, …` are on the list (`⌊L/2⌋` non-overlapping ones, left to right);
//! - every record's count is the length of its list, and pairs of count < 2 have no
//!   record. Pairs of old symbols never form anew (a replacement only fuses neighbours
//!   into a *new* symbol), so a pair that drops below two occurrences is forgotten for
//!   good; only pairs with the newest symbol can appear, and they are queued once the
//!   replacement pass over the chosen pair is complete.
//!
//! Ties: each list is first in, first out. A pair joins the tail of the list of its new
//! count whenever its count moves it to another list, and stays in place while its count
//! changes within the top list; the bucket head is chosen, and in the top list the first
//! pair of maximal count. Pairs that enter together enter in order of first appearance:
//! in the input for the initial count, during the pass for the new pairs of a
//! replacement pass. Occurrence lists are kept in sequence order, so each pass runs left
//! to right, and the moves happen in that order: at each occurrence replaced, the pair
//! ending at its first symbol loses an occurrence before the pair starting at its second
//! symbol, and the new pair ending at the new symbol appears before the one starting
//! there. So a pair's place depends on the occurrence at which its count last moved it,
//! and the new pairs enter in the order the pass first made them, which need not be the
//! order of their first occurrences in the result (one made early may lose that
//! occurrence to the next replacement).
//!
//! Afterwards, rule utility: a rule used once is inlined into its user, so every rule but
//! the start rule is used at least twice, and rules are renumbered breadth-first from the
//! start rule in order of first use. A rule used once is never referenced from the start
//! rule (it had two occurrences when created, and each later went into the start rule or
//! into the body of some rule), so the start rule is exactly the final Re-Pair sequence.
//!
//! Digram uniqueness: before inlining it holds by construction — a replaced pair never
//! forms again, and the loop stops only when no pair occurs twice. Inlining adds digrams
//! only where an inlined body meets its neighbours; the most frequent pair having been
//! replaced first, these did not repeat in any case the property tests generated, which
//! check every result with [`Grammar::check_sequitur_properties`], nor in the grammars of
//! the real programs' path traces, which `wpp-cli`'s tests check the same way.
//!
//! [`RePairBlocks`] bounds memory for long traces by cutting them into blocks; see there.

use rustc_hash::FxHashMap;

use crate::{Grammar, RuleId, Rules, Sym, Terminal};

/// "No position / no record" and, in the symbol array, a hole.
const NIL: u32 = u32::MAX;

/// Re-Pairs `seq` and returns the grammar (see the module documentation).
pub fn repair(seq: &[u32]) -> Grammar {
    repair_with_stats(seq).0
}

/// [`repair`], also reporting rules created and peak memory.
pub fn repair_with_stats(seq: &[u32]) -> (Grammar, RePairStats) {
    let binary = repair_terminals(seq);
    let mut stats = RePairStats {
        n_input: seq.len() as u64,
        n_blocks: usize::from(!seq.is_empty()),
        n_final_passes: 0,
        rules_created: binary.rules.len(),
        peak_bytes: binary.peak_bytes,
    };
    let (g, finish_bytes) = finalize(&binary.rules, &binary.start);
    stats.peak_bytes = stats.peak_bytes.max(finish_bytes + binary.bytes());
    (g, stats)
}

/// What a Re-Pair build did and needed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RePairStats {
    /// Symbols of the input sequence.
    pub n_input: u64,
    /// Blocks Re-Paired separately (0 for an empty input, 1 for [`repair`]).
    pub n_blocks: usize,
    /// Re-Pair passes over the blocks' concatenated start sequences ([`RePairBlocks`]
    /// only; more than one when merging rules made a digram repeat).
    pub n_final_passes: usize,
    /// Rules the Re-Pair passes created, before merging identical ones and inlining the
    /// ones used once.
    pub rules_created: usize,
    /// Most bytes the builder held at once (arrays, tables and the grammar under
    /// construction, from their capacities), not counting the input slice or the result.
    pub peak_bytes: usize,
}

/// Re-Pair over a long trace in bounded memory: the trace is cut into blocks of at most
/// `block_len` symbols; each block is Re-Paired as soon as it is full; rules with the same
/// body are merged across blocks (hash-consing, bottom up, so merged rules have merged
/// bodies). At the end a Re-Pair pass runs over the concatenation of the blocks' start
/// sequences, its rules merged with the existing ones the same way; if merging made two
/// of the pass's symbols one (a new rule got the body of a rule already in the sequence),
/// a digram may now repeat, and the pass runs again on its own output, which is shorter
/// each time. Rule utility and renumbering follow as for [`repair`]. Memory is
/// proportional to `block_len` plus the grammar so far (rules and the blocks' start
/// sequences), not to the trace.
///
/// What the result guarantees:
/// - it expands to the trace exactly;
/// - every rule but the start rule has at least two symbols and is used at least twice;
/// - the start rule (the last pass's sequence) contains no digram twice, except
///   overlapping occurrences inside a run `xxx`.
///
/// Digram uniqueness across rules does not hold: each block is parsed on its own, so a
/// digram that repeats inside one block becomes a rule there while a single occurrence in
/// another block stays as it is. With blocks of 4, `ababab` gives `S → AAab`, `A → ab`.
/// With a single block the result is the same as [`repair`]'s.
pub struct RePairBlocks {
    block_len: usize,
    buf: Vec<u32>,
    /// Binary rules over all blocks; `Sym::N(RuleId(i))` refers to `rules[i]`.
    rules: Vec<[Sym; 2]>,
    /// Rule bodies to rule numbers, for merging.
    bodies: FxHashMap<[Sym; 2], u32>,
    /// The blocks' start sequences, concatenated.
    start: Vec<Sym>,
    stats: RePairStats,
}

impl RePairBlocks {
    /// A builder that Re-Pairs every `block_len` symbols (at least 1).
    pub fn new(block_len: usize) -> Self {
        assert!(block_len > 0, "block length must be positive");
        RePairBlocks { block_len, buf: Vec::new(), rules: Vec::new(), bodies: FxHashMap::default(), start: Vec::new(), stats: RePairStats::default() }
    }

    /// Number of symbols appended so far.
    pub fn len(&self) -> u64 {
        self.stats.n_input
    }

    pub fn is_empty(&self) -> bool {
        self.stats.n_input == 0
    }

    /// Appends one terminal to the trace.
    pub fn push(&mut self, t: u32) {
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(self.block_len);
        }
        self.buf.push(t);
        self.stats.n_input += 1;
        if self.buf.len() == self.block_len {
            self.flush();
        }
    }

    /// Appends every terminal of `ts`.
    pub fn extend(&mut self, ts: impl IntoIterator<Item = u32>) {
        for t in ts {
            self.push(t);
        }
    }

    /// Bytes the builder holds now: the block buffer, the merged rules and the start
    /// sequences, roughly.
    pub fn memory_bytes(&self) -> usize {
        self.buf.capacity() * 4
            + self.rules.capacity() * std::mem::size_of::<[Sym; 2]>()
            + self.bodies.capacity() * (std::mem::size_of::<([Sym; 2], u32)>() + 1)
            + self.start.capacity() * std::mem::size_of::<Sym>()
    }

    /// Runs the final pass and returns the grammar.
    pub fn finish(self) -> Grammar {
        self.finish_with_stats().0
    }

    /// [`RePairBlocks::finish`], also reporting rules created and peak memory.
    pub fn finish_with_stats(mut self) -> (Grammar, RePairStats) {
        self.flush();
        self.buf = Vec::new();
        loop {
            self.stats.n_final_passes += 1;
            if self.final_pass() {
                break;
            }
        }
        let (g, finish_bytes) = finalize(&self.rules, &self.start);
        let mut stats = self.stats;
        stats.peak_bytes = stats.peak_bytes.max(self.memory_bytes() + finish_bytes);
        (g, stats)
    }

    /// Re-Pairs the start sequence and merges the new rules into the global ones. Returns
    /// false if merging made two symbols of the pass one (a new rule got the body of a
    /// rule the sequence already used, or two new rules got the same body), since then the
    /// merged sequence may hold a digram twice and needs another pass; each such pass
    /// shortens the sequence.
    fn final_pass(&mut self) -> bool {
        // The sequence's symbols, numbered densely.
        let mut alphabet: Vec<Sym> = Vec::new();
        let mut ids: FxHashMap<Sym, u32> = FxHashMap::default();
        let seq: Vec<u32> = self
            .start
            .iter()
            .map(|&s| {
                *ids.entry(s).or_insert_with(|| {
                    alphabet.push(s);
                    alphabet.len() as u32 - 1
                })
            })
            .collect();
        let table_bytes = ids.capacity() * (std::mem::size_of::<(Sym, u32)>() + 1) + alphabet.capacity() * 8;
        let held = self.memory_bytes();
        let out = RePair::run(seq, alphabet.len() as u32);
        self.stats.peak_bytes = self.stats.peak_bytes.max(held + table_bytes + out.peak_bytes);
        self.stats.rules_created += out.rules.len();
        let first = alphabet.len() as u32;
        let mut global: Vec<u32> = Vec::with_capacity(out.rules.len());
        let mut injective = true;
        for &[a, b] in &out.rules {
            let decode = |x: u32| if x < first { alphabet[x as usize] } else { Sym::N(RuleId(global[(x - first) as usize])) };
            let body = [decode(a), decode(b)];
            let r = self.intern(body);
            // Symbols of the pass are the alphabet and the earlier new rules.
            if ids.insert(Sym::N(RuleId(r)), NIL).is_some() {
                injective = false;
            }
            global.push(r);
        }
        self.start.clear();
        self.start.extend(out.start.iter().map(|&x| if x < first { alphabet[x as usize] } else { Sym::N(RuleId(global[(x - first) as usize])) }));
        self.start.shrink_to_fit();
        injective
    }

    /// Re-Pairs the buffered block and merges its rules into the global ones.
    fn flush(&mut self) {
        if self.buf.is_empty() {
            return;
        }
        self.stats.n_blocks += 1;
        let held = self.memory_bytes();
        let binary = repair_terminals(&self.buf);
        self.stats.peak_bytes = self.stats.peak_bytes.max(held + binary.peak_bytes);
        self.stats.rules_created += binary.rules.len();
        let mut global: Vec<u32> = Vec::with_capacity(binary.rules.len());
        let map = |s: Sym, global: &[u32]| match s {
            Sym::T(_) => s,
            Sym::N(RuleId(r)) => Sym::N(RuleId(global[r as usize])),
        };
        for &[a, b] in &binary.rules {
            let body = [map(a, &global), map(b, &global)];
            global.push(self.intern(body));
        }
        self.start.extend(binary.start.iter().map(|&s| map(s, &global)));
        self.buf.clear();
    }

    /// The rule with this body, created if new.
    fn intern(&mut self, body: [Sym; 2]) -> u32 {
        let next = self.rules.len() as u32;
        let r = *self.bodies.entry(body).or_insert(next);
        if r == next {
            self.rules.push(body);
        }
        r
    }
}

/// A Re-Pair result before rule utility: binary rules (`Sym::N(RuleId(i))` is `rules[i]`; each
/// body refers only to earlier rules) and the final sequence.
struct Binary {
    rules: Vec<[Sym; 2]>,
    start: Vec<Sym>,
    peak_bytes: usize,
}

impl Binary {
    fn bytes(&self) -> usize {
        self.rules.capacity() * std::mem::size_of::<[Sym; 2]>() + self.start.capacity() * std::mem::size_of::<Sym>()
    }
}

/// Re-Pairs a sequence of terminals. Terminals keep their numbers and rules are numbered
/// after the largest one when that fits in `u32`; otherwise terminals are renumbered
/// densely first.
fn repair_terminals(seq: &[u32]) -> Binary {
    assert!(seq.len() < NIL as usize, "sequence too long");
    let max = seq.iter().copied().max().unwrap_or(0) as u64;
    // Every replacement shortens the sequence by at least two symbols, so there are at
    // most n/2 rules.
    let fits = max + 1 + seq.len() as u64 / 2 + 1 < NIL as u64;
    let (ids, first, alphabet) = if fits {
        (seq.to_vec(), max as u32 + 1, Vec::new())
    } else {
        let mut alphabet = Vec::new();
        let mut dense: FxHashMap<u32, u32> = FxHashMap::default();
        let ids = seq
            .iter()
            .map(|&t| {
                *dense.entry(t).or_insert_with(|| {
                    alphabet.push(t);
                    alphabet.len() as u32 - 1
                })
            })
            .collect();
        (ids, alphabet.len() as u32, alphabet)
    };
    let out = RePair::run(ids, first);
    let decode = |x: u32| {
        if x >= first {
            Sym::N(RuleId(x - first))
        } else if fits {
            Sym::T(Terminal(x))
        } else {
            Sym::T(Terminal(alphabet[x as usize]))
        }
    };
    let rules = out.rules.iter().map(|&[a, b]| [decode(a), decode(b)]).collect();
    let start = out.start.iter().map(|&x| decode(x)).collect();
    Binary { rules, start, peak_bytes: out.peak_bytes + alphabet.capacity() * 4 }
}

/// The raw output of one Re-Pair run over symbol ids: rule `k` has id `first + k`.
struct RePairOut {
    rules: Vec<[u32; 2]>,
    start: Vec<u32>,
    peak_bytes: usize,
}

/// An active pair.
#[derive(Clone, Copy)]
struct Record {
    left: u32,
    right: u32,
    count: u32,
    /// First and last occurrence (positions in the sequence).
    first: u32,
    last: u32,
    /// Neighbours in the priority queue list.
    q_prev: u32,
    q_next: u32,
}

fn key(a: u32, b: u32) -> u64 {
    (a as u64) << 32 | b as u64
}

/// The Re-Pair engine over symbol ids; ids `>= first` are rules.
struct RePair {
    /// Symbol at each position, or `NIL` for a hole.
    sym: Vec<u32>,
    /// For a live position: its links in the occurrence list of the pair starting there
    /// (`NIL` if that occurrence is not on a list). For the first hole of a run,
    /// `next_occ` is the next live position (or `NIL`); for the last hole of a run,
    /// `prev_occ` is the previous live position.
    prev_occ: Vec<u32>,
    next_occ: Vec<u32>,
    records: Vec<Record>,
    free_records: Vec<u32>,
    index: FxHashMap<u64, u32>,
    /// Heads and tails of the queue lists; list `c` holds counts `c`, list `high` counts
    /// `>= high`.
    heads: Vec<u32>,
    tails: Vec<u32>,
    high: usize,
    /// No bucket above `top` (below `high`) is non-empty.
    top: usize,
    first: u32,
    /// The symbol being introduced, during a replacement pass.
    current: u32,
    /// Records created during the current replacement pass, in creation order.
    fresh: Vec<u32>,
    rules: Vec<[u32; 2]>,
    peak_bytes: usize,
}

impl RePair {
    fn run(seq: Vec<u32>, first: u32) -> RePairOut {
        let n = seq.len();
        let high = ((n as f64).sqrt().ceil() as usize).max(2);
        let mut rp = RePair {
            prev_occ: vec![NIL; n],
            next_occ: vec![NIL; n],
            sym: seq,
            records: Vec::new(),
            free_records: Vec::new(),
            index: FxHashMap::default(),
            heads: vec![NIL; high + 1],
            tails: vec![NIL; high + 1],
            high,
            top: high - 1,
            first,
            current: NIL,
            fresh: Vec::new(),
            rules: Vec::new(),
            peak_bytes: 0,
        };
        rp.count_pairs();
        rp.note_memory();
        while let Some(r) = rp.pop_max() {
            rp.replace_all(r);
            rp.note_memory();
        }
        let mut start = Vec::new();
        let mut p = if n == 0 { NIL } else { 0 };
        while p != NIL {
            start.push(rp.sym[p as usize]);
            p = rp.next_pos(p);
        }
        let peak_bytes = rp.peak_bytes.max(rp.memory_bytes() + start.capacity() * 4);
        RePairOut { rules: rp.rules, start, peak_bytes }
    }

    fn memory_bytes(&self) -> usize {
        (self.sym.capacity() + self.prev_occ.capacity() + self.next_occ.capacity()) * 4
            + self.records.capacity() * std::mem::size_of::<Record>()
            + (self.free_records.capacity() + self.fresh.capacity()) * 4
            + self.index.capacity() * (std::mem::size_of::<(u64, u32)>() + 1)
            + (self.heads.capacity() + self.tails.capacity()) * 4
            + self.rules.capacity() * 8
    }

    fn note_memory(&mut self) {
        self.peak_bytes = self.peak_bytes.max(self.memory_bytes());
    }

    // --- the sequence ---

    fn next_pos(&self, p: u32) -> u32 {
        let j = p as usize + 1;
        if j >= self.sym.len() {
            NIL
        } else if self.sym[j] == NIL {
            self.next_occ[j]
        } else {
            j as u32
        }
    }

    fn prev_pos(&self, p: u32) -> u32 {
        if p == 0 {
            return NIL;
        }
        let j = p as usize - 1;
        if self.sym[j] == NIL {
            self.prev_occ[j]
        } else {
            j as u32
        }
    }

    /// Turns live position `q`, off every occurrence list, into a hole, merging it with
    /// the hole runs on either side.
    fn make_hole(&mut self, q: u32) {
        let p = self.prev_pos(q);
        let r = self.next_pos(q);
        self.sym[q as usize] = NIL;
        let end = if r == NIL { self.sym.len() } else { r as usize };
        self.next_occ[p as usize + 1] = r;
        self.prev_occ[end - 1] = p;
    }

    // --- occurrence lists ---

    fn find(&self, a: u32, b: u32) -> Option<u32> {
        self.index.get(&key(a, b)).copied()
    }

    /// Whether the occurrence at `p` of record `r`'s pair (which must start at `p`) is on
    /// its list.
    fn on_list(&self, r: u32, p: u32) -> bool {
        self.records[r as usize].first == p || self.prev_occ[p as usize] != NIL
    }

    fn occ_append(&mut self, r: u32, p: u32) {
        let rec = &mut self.records[r as usize];
        let last = rec.last;
        rec.last = p;
        rec.count += 1;
        if last == NIL {
            rec.first = p;
        } else {
            self.next_occ[last as usize] = p;
        }
        self.prev_occ[p as usize] = last;
        self.next_occ[p as usize] = NIL;
    }

    fn occ_unlink(&mut self, r: u32, p: u32) {
        let (pp, pn) = (self.prev_occ[p as usize], self.next_occ[p as usize]);
        let rec = &mut self.records[r as usize];
        if pp == NIL {
            rec.first = pn;
        } else {
            self.next_occ[pp as usize] = pn;
        }
        if pn == NIL {
            rec.last = pp;
        } else {
            self.prev_occ[pn as usize] = pp;
        }
        self.prev_occ[p as usize] = NIL;
        self.next_occ[p as usize] = NIL;
    }

    /// Puts position `new` in the place of `old` on record `r`'s list (no other
    /// occurrence lies between them, so the list stays in sequence order).
    fn occ_move(&mut self, r: u32, old: u32, new: u32) {
        let (pp, pn) = (self.prev_occ[old as usize], self.next_occ[old as usize]);
        let rec = &mut self.records[r as usize];
        if pp == NIL {
            rec.first = new;
        } else {
            self.next_occ[pp as usize] = new;
        }
        if pn == NIL {
            rec.last = new;
        } else {
            self.prev_occ[pn as usize] = new;
        }
        self.prev_occ[new as usize] = pp;
        self.next_occ[new as usize] = pn;
        self.prev_occ[old as usize] = NIL;
        self.next_occ[old as usize] = NIL;
    }

    // --- records and the priority queue ---

    fn new_record(&mut self, a: u32, b: u32) -> u32 {
        let rec = Record { left: a, right: b, count: 0, first: NIL, last: NIL, q_prev: NIL, q_next: NIL };
        match self.free_records.pop() {
            Some(r) => {
                self.records[r as usize] = rec;
                r
            }
            None => {
                self.records.push(rec);
                self.records.len() as u32 - 1
            }
        }
    }

    /// Forgets a record of count < 2; its remaining occurrence, if any, is alone on its
    /// list and so already has no links.
    fn drop_record(&mut self, r: u32) {
        let rec = self.records[r as usize];
        debug_assert!(rec.count < 2);
        self.index.remove(&key(rec.left, rec.right));
        self.free_records.push(r);
    }

    fn list_of(&self, count: u32) -> usize {
        (count as usize).min(self.high)
    }

    fn q_push(&mut self, r: u32) {
        let l = self.list_of(self.records[r as usize].count);
        debug_assert!(l == self.high || l <= self.top, "a count above the last one chosen");
        let tail = self.tails[l];
        self.records[r as usize].q_prev = tail;
        self.records[r as usize].q_next = NIL;
        if tail == NIL {
            self.heads[l] = r;
        } else {
            self.records[tail as usize].q_next = r;
        }
        self.tails[l] = r;
    }

    fn q_remove(&mut self, r: u32) {
        let l = self.list_of(self.records[r as usize].count);
        let Record { q_prev, q_next, .. } = self.records[r as usize];
        if q_prev == NIL {
            self.heads[l] = q_next;
        } else {
            self.records[q_prev as usize].q_next = q_next;
        }
        if q_next == NIL {
            self.tails[l] = q_prev;
        } else {
            self.records[q_next as usize].q_prev = q_prev;
        }
    }

    /// Removes and returns the most frequent pair (ties as in the module documentation).
    fn pop_max(&mut self) -> Option<u32> {
        let mut best = NIL;
        let mut r = self.heads[self.high];
        while r != NIL {
            if best == NIL || self.records[r as usize].count > self.records[best as usize].count {
                best = r;
            }
            r = self.records[r as usize].q_next;
        }
        if best == NIL {
            // Counts of bucketed pairs never rise above the last count chosen.
            while self.top >= 2 && self.heads[self.top] == NIL {
                self.top -= 1;
            }
            if self.top < 2 {
                return None;
            }
            best = self.heads[self.top];
        }
        self.q_remove(best);
        Some(best)
    }

    /// Takes the occurrence at `p` off record `r`'s list and lowers its count, requeueing
    /// or forgetting the record (records of the current pass wait until its end).
    fn remove_occurrence(&mut self, r: u32, p: u32) {
        self.occ_unlink(r, p);
        let rec = self.records[r as usize];
        if rec.left == self.current || rec.right == self.current {
            self.records[r as usize].count -= 1;
            return;
        }
        let moves = self.list_of(rec.count - 1) != self.list_of(rec.count);
        if moves {
            self.q_remove(r);
        }
        self.records[r as usize].count -= 1;
        if rec.count - 1 < 2 {
            self.drop_record(r);
        } else if moves {
            self.q_push(r);
        }
    }

    /// Records a new occurrence of `ab` (a pair with the current symbol) at `p`.
    fn add_fresh(&mut self, p: u32, a: u32, b: u32) {
        let r = match self.find(a, b) {
            Some(r) => r,
            None => {
                let r = self.new_record(a, b);
                self.index.insert(key(a, b), r);
                self.fresh.push(r);
                r
            }
        };
        self.occ_append(r, p);
    }

    // --- the algorithm ---

    /// Counts the pairs of the initial sequence (runs left to right, without overlap)
    /// and queues those occurring at least twice.
    fn count_pairs(&mut self) {
        let n = self.sym.len();
        let mut prev_on_list = false;
        let mut created = Vec::new();
        for i in 0..n.saturating_sub(1) {
            let (a, b) = (self.sym[i], self.sym[i + 1]);
            if prev_on_list && a == b && self.sym[i - 1] == a {
                prev_on_list = false;
                continue;
            }
            let r = match self.find(a, b) {
                Some(r) => r,
                None => {
                    let r = self.new_record(a, b);
                    self.index.insert(key(a, b), r);
                    created.push(r);
                    r
                }
            };
            self.occ_append(r, i as u32);
            prev_on_list = true;
        }
        self.note_memory();
        for r in created {
            if self.records[r as usize].count >= 2 {
                self.q_push(r);
            } else {
                self.drop_record(r);
            }
        }
        self.index.shrink_to_fit();
    }

    /// Replaces every listed occurrence of record `r0`'s pair by a new rule.
    fn replace_all(&mut self, r0: u32) {
        let Record { left: a, right: b, first: head, .. } = self.records[r0 as usize];
        self.index.remove(&key(a, b));
        let new = self.first + self.rules.len() as u32;
        assert!(new < NIL, "too many symbols");
        self.rules.push([a, b]);
        self.current = new;
        let mut p = head;
        while p != NIL {
            let following = self.next_occ[p as usize];
            self.prev_occ[p as usize] = NIL;
            self.next_occ[p as usize] = NIL;
            self.replace_at(p, a, b, new);
            p = following;
        }
        self.free_records.push(r0);
        self.current = NIL;
        for i in 0..self.fresh.len() {
            let r = self.fresh[i];
            if self.records[r as usize].count >= 2 {
                self.q_push(r);
            } else {
                self.drop_record(r);
            }
        }
        self.fresh.clear();
    }

    /// Replaces the occurrence of `ab` at `p` (already off its list) by `new`.
    fn replace_at(&mut self, p: u32, a: u32, b: u32, new: u32) {
        let q = self.next_pos(p);
        let x = self.prev_pos(p);
        let y = self.next_pos(q);
        // The pairs `xa` and `by` disappear.
        if x != NIL {
            if let Some(r) = self.find(self.sym[x as usize], a) {
                if self.on_list(r, x) {
                    self.remove_occurrence(r, x);
                }
            }
        }
        if y != NIL {
            let sy = self.sym[y as usize];
            if sy == b {
                // With a == b, `q` sits at an odd offset of its run and is not listed.
                // With a != b, `q` starts a run of b's that loses its first symbol.
                if a != b {
                    self.shorten_run_from_left(q);
                }
            } else if let Some(r) = self.find(b, sy) {
                if self.on_list(r, q) {
                    self.remove_occurrence(r, q);
                }
            }
        }
        self.sym[p as usize] = new;
        self.make_hole(q);
        // The pairs `x new` and `new y` appear.
        if x != NIL {
            let sx = self.sym[x as usize];
            if sx == new {
                // A run of new symbols grows to the right: list `x` unless the symbol
                // before it starts a listed occurrence.
                let w = self.prev_pos(x);
                let skip = w != NIL && self.sym[w as usize] == new && self.find(new, new).is_some_and(|r| self.on_list(r, w));
                if !skip {
                    self.add_fresh(x, new, new);
                }
            } else {
                self.add_fresh(x, sx, new);
            }
        }
        if y != NIL {
            self.add_fresh(p, new, self.sym[y as usize]);
        }
    }

    /// The run of b's starting at `start` is about to lose its first symbol: shift its
    /// listed `bb` occurrences one to the right so that they again sit at even offsets of
    /// the shortened run, dropping the last if the run had even length. Costs the length
    /// of the run, which is at most about twice the count of the pair being replaced
    /// (that pair was the most frequent, `bb` included).
    fn shorten_run_from_left(&mut self, start: u32) {
        let b = self.sym[start as usize];
        let Some(r) = self.find(b, b) else { return };
        let mut pos = start;
        loop {
            let p1 = self.next_pos(pos);
            if p1 == NIL || self.sym[p1 as usize] != b {
                return;
            }
            debug_assert!(self.on_list(r, pos));
            let p2 = self.next_pos(p1);
            if p2 != NIL && self.sym[p2 as usize] == b {
                self.occ_move(r, pos, p1);
                pos = p2;
            } else {
                self.remove_occurrence(r, pos);
                return;
            }
        }
    }
}

/// Rule utility and renumbering: inlines every rule used once (counting uses in the rules
/// reachable from `start`), numbers the remaining rules breadth-first from the start rule
/// in order of first use, and drops unreachable ones. Returns the grammar and the bytes
/// of the work arrays.
fn finalize(rules: &[[Sym; 2]], start: &[Sym]) -> (Grammar, usize) {
    let n = rules.len();
    // Reachability and uses, with an explicit stack.
    let mut uses = vec![0u32; n];
    let mut stack: Vec<u32> = Vec::new();
    for &s in start {
        if let Sym::N(RuleId(r)) = s {
            uses[r as usize] += 1;
            if uses[r as usize] == 1 {
                stack.push(r);
            }
        }
    }
    while let Some(r) = stack.pop() {
        for s in rules[r as usize] {
            if let Sym::N(RuleId(c)) = s {
                uses[c as usize] += 1;
                if uses[c as usize] == 1 {
                    stack.push(c);
                }
            }
        }
    }
    // New numbers, given on first use; rules used once are never numbered.
    let mut number = vec![NIL; n];
    let mut order: Vec<u32> = Vec::new();
    let mut out = Rules::new();
    let mut work: Vec<Sym> = Vec::new();
    let mut i = 0;
    loop {
        // Body of the next rule to emit: the start rule, then `order[i - 1]`.
        out.open();
        if i == 0 {
            work.extend(start.iter().rev());
        } else {
            work.extend(rules[order[i - 1] as usize].iter().rev());
        }
        while let Some(s) = work.pop() {
            match s {
                Sym::T(_) => out.extend_last(s),
                Sym::N(RuleId(r)) if uses[r as usize] < 2 => work.extend(rules[r as usize].iter().rev()),
                Sym::N(RuleId(r)) => {
                    if number[r as usize] == NIL {
                        order.push(r);
                        number[r as usize] = order.len() as u32;
                    }
                    out.extend_last(Sym::N(RuleId(number[r as usize])));
                }
            }
        }
        if i == order.len() {
            break;
        }
        i += 1;
    }
    let bytes =
        (uses.capacity() + number.capacity() + order.capacity() + stack.capacity()) * 4 + work.capacity() * std::mem::size_of::<Sym>() + out.heap_bytes();
    (Grammar { rules: out }, bytes)
}
