//! SEQUITUR (Nevill-Manning & Witten, 1997): an online, linear-time builder that keeps
//! two properties after every appended symbol — no digram occurs twice, and every rule is
//! used at least twice — and Larus's SEQUITUR(1), which looks one symbol ahead before
//! making a rule.
//!
//! Symbols live in an arena as doubly linked lists, one circular list per rule headed by
//! a guard node; a hash table maps each digram (two 32-bit symbol values in one `u64`
//! key) to its first node. The classic algorithm recurses (check → match → substitute →
//! check); here every digram still to be checked goes on an explicit work stack, so deep
//! grammars cannot overflow the call stack, and nodes freed while the stack is drained are
//! recycled only once it is empty.
//!
//! A node's value is one `u32`: terminals below [`MAX_TERMINAL`], then rule references,
//! then rule guards, then a mark for freed nodes. A node is 12 bytes.

use std::collections::hash_map::Entry;

use rustc_hash::FxHashMap;

use crate::{Grammar, RuleId, Sym, Terminal};

const NIL: u32 = u32::MAX;
const RULE_BASE: u32 = 1 << 31;
const GUARD_BASE: u32 = RULE_BASE + (1 << 30);
const DEAD: u32 = u32::MAX;
/// The largest terminal a builder accepts.
pub const MAX_TERMINAL: u32 = RULE_BASE - 1;
/// Rules a builder can hold at once (live rules; freed ids are reused).
const MAX_RULES: u32 = (1 << 30) - 1;

#[derive(Clone, Copy)]
struct Node {
    /// A terminal, `RULE_BASE + r` for a reference to rule `r`, `GUARD_BASE + r` for the
    /// guard of rule `r`, or `DEAD`.
    val: u32,
    prev: u32,
    next: u32,
}

#[derive(Clone, Copy)]
struct Rule {
    guard: u32,
    uses: u32,
    /// The first terminal of the rule's expansion (expansions never change).
    first: u32,
    /// Distinguishes the rules that reuse an id; `DEAD_GEN` once freed.
    gen: u32,
}

const DEAD_GEN: u32 = u32::MAX;

/// A piece of input the predictor matched: a terminal or a rule (of generation `gen`)
/// whose expansion is the input from `start` on.
#[derive(Clone, Copy)]
struct Piece {
    val: u32,
    gen: u32,
    start: usize,
}

enum Match {
    /// The whole rule matched this many input symbols.
    Full(usize),
    /// The input differs after this many symbols; the pieces cover them.
    Partial(usize),
    /// The input ended first.
    OutOfInput,
}

enum Task {
    /// Check the digram starting at this node.
    Check(u32),
    /// Check the digram at this node; if it was new, check the one after it too.
    CheckThenNext(u32),
}

fn key(a: u32, b: u32) -> u64 {
    (a as u64) << 32 | b as u64
}

/// An online SEQUITUR grammar builder.
pub struct Sequitur {
    nodes: Vec<Node>,
    free_nodes: Vec<u32>,
    dying: Vec<u32>,
    rules: Vec<Rule>,
    free_rules: Vec<u32>,
    digrams: FxHashMap<u64, u32>,
    work: Vec<Task>,
    len: u64,
    appended: u64,
    /// SEQUITUR(1): the symbol pushed last, not yet appended, and so the look-ahead of
    /// the one being appended.
    lookahead: Option<Option<u32>>,
    /// SEQUITUR(1): a node whose duplicate digram was left for the look-ahead to resolve;
    /// it is checked again after the next append.
    deferred: Option<u32>,
    next_gen: u32,
    /// Rule prediction: input not yet matched.
    pending: Vec<u32>,
    /// Rule prediction: process `pending` once it holds this many symbols.
    pending_goal: usize,
    /// Rule prediction: per terminal, the last rule (and generation) that ended the start
    /// rule and whose expansion begins with that terminal.
    last_top: Vec<(u32, u32)>,
    predict: bool,
    chunk: usize,
    pieces: Vec<Piece>,
    stack: Vec<(u32, usize, usize)>,
}

/// Rule prediction processes input in chunks of at least this many symbols...
const CHUNK: usize = 1 << 12;
/// ... and holds back at most this many waiting for a match to complete.
const MAX_PENDING: usize = 1 << 22;

impl Default for Sequitur {
    fn default() -> Self {
        Self::new()
    }
}

impl Sequitur {
    /// A SEQUITUR builder.
    pub fn new() -> Self {
        let mut s = Sequitur {
            nodes: Vec::new(),
            free_nodes: Vec::new(),
            dying: Vec::new(),
            rules: Vec::new(),
            free_rules: Vec::new(),
            digrams: FxHashMap::default(),
            work: Vec::new(),
            len: 0,
            appended: 0,
            lookahead: None,
            deferred: None,
            next_gen: 0,
            pending: Vec::new(),
            pending_goal: CHUNK,
            last_top: Vec::new(),
            predict: false,
            chunk: CHUNK,
            pieces: Vec::new(),
            stack: Vec::new(),
        };
        s.new_rule();
        s
    }

    /// A SEQUITUR(1) builder (Larus 1999, §3.2): when the last two symbols of the start
    /// rule repeat a digram and would make a new rule, but the second of them and the
    /// next input symbol form the whole right side of an existing rule, the builder
    /// applies that rule first instead. Each pushed symbol is held back until the next
    /// one arrives; [`Sequitur::finish`] appends the last.
    pub fn with_lookahead() -> Self {
        let mut s = Self::new();
        s.lookahead = Some(None);
        s
    }

    /// Turns on rule prediction, a front end that makes long repetitive inputs much
    /// cheaper: when the next input symbol begins the expansion of a rule that recently
    /// ended the start rule, the input is compared with that expansion symbol by symbol,
    /// and on a match the rule is appended as one symbol instead of its whole expansion;
    /// on a partial match, the largest complete pieces of it are. The grammar still
    /// derives the input exactly and has both SEQUITUR properties, but it can differ from
    /// the one symbol-by-symbol SEQUITUR builds. Input is buffered in chunks; `finish`
    /// processes the rest.
    pub fn predicting(self) -> Self {
        self.predicting_in_chunks(CHUNK)
    }

    /// Rule prediction on chunks of at least `chunk` symbols (smaller chunks give the
    /// predictor less input to match against at a time).
    pub fn predicting_in_chunks(mut self, chunk: usize) -> Self {
        self.predict = true;
        self.chunk = chunk.max(1);
        self.pending_goal = self.chunk;
        self
    }

    /// Number of symbols pushed so far.
    pub fn len(&self) -> u64 {
        self.len
    }

    /// Number of symbols appended to the start rule so far: with rule prediction, a
    /// matched rule counts once however long its expansion.
    pub fn appended(&self) -> u64 {
        self.appended
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Appends one terminal to the sequence.
    ///
    /// # Panics
    /// If `t > MAX_TERMINAL`, or the grammar outgrows 2^30 - 1 live rules.
    pub fn push(&mut self, t: u32) {
        assert!(t <= MAX_TERMINAL, "terminal {t} is above the builder's limit {MAX_TERMINAL}");
        self.len += 1;
        if self.predict {
            self.pending.push(t);
            if self.pending.len() >= self.pending_goal {
                self.process_pending(false);
            }
        } else {
            self.feed(t);
        }
    }

    /// Appends a symbol (a terminal, or a reference to a live rule), through the
    /// look-ahead if there is one.
    fn feed(&mut self, v: u32) {
        // Counted now: a rule held for look-ahead must not be inlined meanwhile.
        if let Some(r) = self.rule_val(v) {
            self.rules[r as usize].uses += 1;
        }
        match self.lookahead {
            None => self.append(v, None),
            Some(None) => self.lookahead = Some(Some(v)),
            Some(Some(held)) => {
                self.lookahead = Some(Some(v));
                self.append(held, Some(v));
            }
        }
    }

    /// Appends every terminal of `ts`.
    pub fn extend(&mut self, ts: impl IntoIterator<Item = u32>) {
        for t in ts {
            self.push(t);
        }
    }

    /// Appends any symbol still held for look-ahead and returns the grammar, leaving the
    /// builder as new (look-ahead and rule prediction as they were), with its memory kept
    /// for the next sequence.
    pub fn take(&mut self) -> Grammar {
        if self.predict {
            self.process_pending(true);
        }
        if let Some(Some(held)) = self.lookahead {
            self.lookahead = Some(None);
            self.append(held, None);
        }
        let g = self.grammar();
        self.nodes.clear();
        self.free_nodes.clear();
        self.dying.clear();
        self.rules.clear();
        self.free_rules.clear();
        self.digrams.clear();
        self.work.clear();
        self.len = 0;
        self.appended = 0;
        self.deferred = None;
        self.next_gen = 0;
        self.pending.clear();
        self.pending_goal = self.chunk;
        self.last_top.clear();
        self.pieces.clear();
        self.stack.clear();
        self.new_rule();
        g
    }

    /// Appends any symbol still held for look-ahead and returns the grammar.
    pub fn finish(mut self) -> Grammar {
        if self.predict {
            self.process_pending(true);
        }
        if let Some(Some(held)) = self.lookahead {
            self.lookahead = Some(None);
            self.append(held, None);
        }
        self.grammar()
    }

    /// The grammar of the symbols appended so far (with look-ahead, the last pushed
    /// symbol is still held back), rules numbered in order of first use from the start
    /// rule, breadth first.
    pub fn grammar(&self) -> Grammar {
        let mut number: FxHashMap<u32, u32> = FxHashMap::default();
        number.insert(0, 0);
        let mut order = vec![0u32];
        let mut rules = crate::Rules::new();
        let mut i = 0;
        while i < order.len() {
            let r = order[i];
            i += 1;
            let g = self.rules[r as usize].guard;
            rules.open();
            let mut n = self.next(g);
            while n != g {
                let v = self.val(n);
                rules.extend_last(if v < RULE_BASE {
                    Sym::T(Terminal(v))
                } else {
                    let target = v - RULE_BASE;
                    let next = number.len() as u32;
                    let id = *number.entry(target).or_insert_with(|| {
                        order.push(target);
                        next
                    });
                    Sym::N(RuleId(id))
                });
                n = self.next(n);
            }
        }
        Grammar { rules }
    }

    /// Bytes of memory the builder holds (arena, rules, digram table), roughly.
    pub fn memory_bytes(&self) -> usize {
        self.nodes.capacity() * std::mem::size_of::<Node>()
            + self.rules.capacity() * std::mem::size_of::<Rule>()
            + (self.free_nodes.capacity() + self.free_rules.capacity()) * 4
            + self.digrams.capacity() * (std::mem::size_of::<(u64, u32)>() + 1)
    }

    // --- arena ---

    fn new_node(&mut self, val: u32) -> u32 {
        let node = Node { val, prev: NIL, next: NIL };
        match self.free_nodes.pop() {
            Some(i) => {
                self.nodes[i as usize] = node;
                i
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() as u32 - 1
            }
        }
    }

    fn new_rule(&mut self) -> u32 {
        let r = self.free_rules.pop().unwrap_or(self.rules.len() as u32);
        assert!(r <= MAX_RULES, "the grammar outgrew {MAX_RULES} rules");
        let g = self.new_node(GUARD_BASE + r);
        self.nodes[g as usize].prev = g;
        self.nodes[g as usize].next = g;
        let gen = self.next_gen;
        self.next_gen = self.next_gen.wrapping_add(1) % DEAD_GEN;
        let rule = Rule { guard: g, uses: 0, first: 0, gen };
        if (r as usize) < self.rules.len() {
            self.rules[r as usize] = rule;
        } else {
            self.rules.push(rule);
        }
        r
    }

    fn kill(&mut self, n: u32) {
        self.nodes[n as usize].val = DEAD;
        self.dying.push(n);
    }

    // --- symbols ---

    fn val(&self, n: u32) -> u32 {
        self.nodes[n as usize].val
    }
    fn next(&self, n: u32) -> u32 {
        self.nodes[n as usize].next
    }
    fn prev(&self, n: u32) -> u32 {
        self.nodes[n as usize].prev
    }
    fn is_dead(&self, n: u32) -> bool {
        self.val(n) == DEAD
    }
    fn is_guard(&self, n: u32) -> bool {
        let v = self.val(n);
        (GUARD_BASE..DEAD).contains(&v)
    }
    fn rule_of(&self, n: u32) -> Option<u32> {
        self.rule_val(self.val(n))
    }
    fn rule_val(&self, v: u32) -> Option<u32> {
        (RULE_BASE..GUARD_BASE).contains(&v).then(|| v - RULE_BASE)
    }
    /// The first terminal of a symbol's expansion.
    fn first_terminal(&self, v: u32) -> u32 {
        match self.rule_val(v) {
            Some(r) => self.rules[r as usize].first,
            None => v,
        }
    }

    fn digram(&self, n: u32) -> u64 {
        key(self.val(n), self.val(self.next(n)))
    }

    /// True if the digram at `n` is the whole right side of a rule.
    fn is_whole_rule(&self, n: u32) -> bool {
        self.is_guard(self.prev(n)) && self.is_guard(self.next(self.next(n)))
    }

    /// Forgets the digram starting at `n` if the table points at `n`.
    fn delete_digram(&mut self, n: u32) {
        let nx = self.next(n);
        if nx == NIL || self.is_guard(n) || self.is_guard(nx) {
            return;
        }
        let d = self.digram(n);
        if let Entry::Occupied(e) = self.digrams.entry(d) {
            if *e.get() == n {
                e.remove();
            }
        }
    }

    /// Links `left` to `right`, forgetting the digram `left` started, and restoring the
    /// table entry of an overlapping run (`aaa`) whose other digram remains.
    fn join(&mut self, left: u32, right: u32) {
        if self.next(left) != NIL {
            self.delete_digram(left);
            let (rp, rn) = (self.prev(right), self.next(right));
            if rp != NIL && rn != NIL && self.val(right) == self.val(rp) && self.val(right) == self.val(rn) {
                let d = self.digram(right);
                self.digrams.insert(d, right);
            }
            let (lp, ln) = (self.prev(left), self.next(left));
            if lp != NIL && ln != NIL && self.val(left) == self.val(ln) && self.val(left) == self.val(lp) {
                let d = self.digram(lp);
                self.digrams.insert(d, lp);
            }
        }
        self.nodes[left as usize].next = right;
        self.nodes[right as usize].prev = left;
    }

    fn insert_after(&mut self, a: u32, b: u32) {
        let an = self.next(a);
        self.join(b, an);
        self.join(a, b);
    }

    /// Unlinks and frees a symbol node.
    fn remove(&mut self, n: u32) {
        let (p, nx) = (self.prev(n), self.next(n));
        self.join(p, nx);
        self.delete_digram(n);
        if let Some(r) = self.rule_of(n) {
            self.rules[r as usize].uses -= 1;
        }
        self.kill(n);
    }

    fn new_symbol_like(&mut self, model: u32) -> u32 {
        let v = self.val(model);
        if let Some(r) = self.rule_of(model) {
            self.rules[r as usize].uses += 1;
        }
        self.new_node(v)
    }

    // --- the algorithm ---

    /// Appends `t` (whose use, if a rule, is already counted) to the start rule and
    /// restores the two properties; `lookahead` is the symbol that will follow, if known
    /// (SEQUITUR(1) only).
    fn append(&mut self, t: u32, lookahead: Option<u32>) {
        self.appended += 1;
        let n = self.new_node(t);
        let last = self.prev(self.rules[0].guard);
        self.insert_after(last, n);
        if let Some(d) = self.deferred.take() {
            // Checked last: by then the look-ahead has either resolved it or not.
            self.work.push(Task::Check(d));
        }
        self.work.push(Task::Check(last));
        self.drain(lookahead);
        if self.predict {
            let tail = self.prev(self.rules[0].guard);
            if let Some(r) = self.rule_of(tail) {
                let rule = self.rules[r as usize];
                let f = rule.first as usize;
                if f >= self.last_top.len() {
                    self.last_top.resize(f + 1, (NIL, DEAD_GEN));
                }
                self.last_top[f] = (r, rule.gen);
            }
        }
    }

    fn drain(&mut self, lookahead: Option<u32>) {
        while let Some(task) = self.work.pop() {
            match task {
                Task::Check(n) => {
                    self.check(n, lookahead);
                }
                Task::CheckThenNext(q) => {
                    if !self.is_dead(q) && !self.check(q, lookahead) {
                        let nx = self.next(q);
                        self.work.push(Task::Check(nx));
                    }
                }
            }
        }
        self.free_nodes.append(&mut self.dying);
    }

    /// Enforces digram uniqueness for the digram at `n`; true if it was a repeat.
    fn check(&mut self, n: u32, lookahead: Option<u32>) -> bool {
        if self.is_dead(n) || self.is_guard(n) {
            return false;
        }
        let nx = self.next(n);
        if self.is_guard(nx) {
            return false;
        }
        let d = self.digram(n);
        let m = match self.digrams.entry(d) {
            Entry::Vacant(v) => {
                v.insert(n);
                return false;
            }
            Entry::Occupied(o) => *o.get(),
        };
        if m == n {
            return false;
        }
        if self.next(m) != n {
            if let Some(l) = lookahead {
                if self.defer_to_lookahead(n, m, l) {
                    self.deferred = Some(n);
                    return true;
                }
            }
            self.matched(n, m);
        }
        true
    }

    /// SEQUITUR(1): true if the repeat at `n` (of the digram at `m`) ends the start rule,
    /// would need a new rule, and its second symbol with the look-ahead `l` is the whole
    /// right side of an existing rule — which the next append will apply.
    fn defer_to_lookahead(&self, n: u32, m: u32, l: u32) -> bool {
        let y = self.next(n);
        if self.next(y) != self.rules[0].guard || self.is_whole_rule(m) {
            return false;
        }
        match self.digrams.get(&key(self.val(y), l)) {
            Some(&k) => self.is_whole_rule(k),
            None => false,
        }
    }

    /// Replaces the digram at `n`, which repeats the one at `m`, by a rule.
    fn matched(&mut self, n: u32, m: u32) {
        let r = if self.is_whole_rule(m) {
            // The earlier occurrence is a whole rule: use it.
            let r = self.val(self.prev(m)) - GUARD_BASE;
            self.substitute(n, r);
            r
        } else {
            let r = self.new_rule();
            let g = self.rules[r as usize].guard;
            let a = self.new_symbol_like(n);
            let b = self.new_symbol_like(self.next(n));
            self.insert_after(g, a);
            self.insert_after(a, b);
            self.rules[r as usize].first = self.first_terminal(self.val(a));
            self.substitute(m, r);
            self.substitute(n, r);
            let first = self.next(g);
            let d = self.digram(first);
            self.digrams.insert(d, first);
            r
        };
        // Rule utility: a rule whose body now holds its only use is inlined.
        let g = self.rules[r as usize].guard;
        for end in [self.next(g), self.prev(g)] {
            if let Some(inner) = self.rule_of(end) {
                if self.rules[inner as usize].uses == 1 {
                    self.expand(end);
                }
            }
        }
    }

    /// Replaces the digram at `n` by a reference to rule `r`.
    fn substitute(&mut self, n: u32, r: u32) {
        let q = self.prev(n);
        let second = self.next(n);
        self.remove(n);
        self.remove(second);
        let s = self.new_node(RULE_BASE + r);
        self.rules[r as usize].uses += 1;
        self.insert_after(q, s);
        self.work.push(Task::CheckThenNext(q));
    }

    /// Inlines the rule referenced by `n`, its only use.
    fn expand(&mut self, n: u32) {
        let r = self.rule_of(n).expect("a rule reference");
        let (left, right) = (self.prev(n), self.next(n));
        let g = self.rules[r as usize].guard;
        let (f, l) = (self.next(g), self.prev(g));
        self.delete_digram(left);
        self.delete_digram(n);
        self.kill(n);
        self.kill(g);
        self.free_rules.push(r);
        self.rules[r as usize].gen = DEAD_GEN;
        self.nodes[left as usize].next = f;
        self.nodes[f as usize].prev = left;
        self.nodes[l as usize].next = right;
        self.nodes[right as usize].prev = l;
        self.work.push(Task::Check(l));
        self.work.push(Task::Check(left));
    }

    // --- rule prediction ---

    /// Matches pending input against predicted rules and appends the pieces. Unless
    /// `last`, input that a match attempt ran out of stays pending.
    fn process_pending(&mut self, last: bool) {
        let input = std::mem::take(&mut self.pending);
        let mut pieces = std::mem::take(&mut self.pieces);
        let mut i = 0;
        while i < input.len() {
            let t = input[i];
            let candidate = match self.last_top.get(t as usize) {
                Some(&(r, gen)) if r != NIL && self.rules[r as usize].gen == gen => Some(r),
                _ => None,
            };
            pieces.clear();
            let consumed = match candidate {
                None => {
                    pieces.push(Piece { val: t, gen: 0, start: 0 });
                    1
                }
                Some(r) => match self.match_rule(r, &input[i..], &mut pieces) {
                    Match::Full(k) => {
                        pieces.clear();
                        pieces.push(Piece { val: RULE_BASE + r, gen: self.rules[r as usize].gen, start: 0 });
                        k
                    }
                    Match::Partial(k) if k > 0 => k,
                    Match::Partial(_) => {
                        // Unreachable while `first` is right; appending the terminal
                        // keeps the loop going regardless.
                        pieces.clear();
                        pieces.push(Piece { val: t, gen: 0, start: 0 });
                        1
                    }
                    Match::OutOfInput if !last && input.len() - i < MAX_PENDING => {
                        // Wait for more input, and for twice as much before trying again,
                        // so a long match is not rescanned more than a constant number of
                        // times.
                        self.pending = input[i..].to_vec();
                        self.pending_goal = (2 * self.pending.len()).max(self.chunk);
                        self.pieces = pieces;
                        return;
                    }
                    Match::OutOfInput => input.len() - i,
                },
            };
            for j in 0..pieces.len() {
                let p = pieces[j];
                let end = pieces.get(j + 1).map_or(consumed, |q| q.start);
                match self.rule_val(p.val) {
                    Some(r) if self.rules[r as usize].gen != p.gen => {
                        // The rule was inlined while earlier pieces were appended: append
                        // its expansion instead.
                        for &x in &input[i + p.start..i + end] {
                            self.feed(x);
                        }
                    }
                    _ => self.feed(p.val),
                }
            }
            i += consumed;
        }
        self.pending = input;
        self.pending.clear();
        self.pending_goal = self.chunk;
        self.pieces = pieces;
    }

    /// Compares `input` with the expansion of rule `r`. On a partial match (or when the
    /// input runs out), `pieces` is the left part of the derivation that matched: for each
    /// level, the complete symbols before the mismatch.
    fn match_rule(&mut self, r: u32, input: &[u32], pieces: &mut Vec<Piece>) -> Match {
        let mut stack = std::mem::take(&mut self.stack);
        stack.clear();
        // Per level: the current node, and where the level's pieces and input begin.
        stack.push((self.next(self.rules[r as usize].guard), 0, 0));
        let mut k = 0usize;
        let result = loop {
            let (n, mark, start) = *stack.last().expect("a level");
            let v = self.val(n);
            if v >= GUARD_BASE {
                // A level is complete: its symbol at the parent level is one piece.
                stack.pop();
                let Some(parent) = stack.last_mut() else { break Match::Full(k) };
                let child = parent.0;
                parent.0 = self.next(child);
                pieces.truncate(mark);
                let c = self.val(child) - RULE_BASE;
                pieces.push(Piece { val: RULE_BASE + c, gen: self.rules[c as usize].gen, start });
            } else if v >= RULE_BASE {
                stack.push((self.next(self.rules[(v - RULE_BASE) as usize].guard), pieces.len(), k));
            } else {
                let Some(&x) = input.get(k) else { break Match::OutOfInput };
                if x != v {
                    break Match::Partial(k);
                }
                pieces.push(Piece { val: v, gen: 0, start: k });
                k += 1;
                stack.last_mut().expect("a level").0 = self.next(n);
            }
        };
        self.stack = stack;
        result
    }
}
