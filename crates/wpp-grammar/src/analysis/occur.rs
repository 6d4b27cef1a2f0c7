//! Counting the occurrences of given sequences in a grammar's expansion, on the DAG.
//!
//! An occurrence of a sequence of two or more symbols in the expansion lies in the
//! expansion of exactly one lowest rule occurrence: the one whose right side it spans
//! across a boundary between two symbols. So the number of occurrences of `X` is the sum,
//! over rules `R` and over the boundaries of `R`'s right side, of the frequency of `R`
//! times the occurrences of `X` that cross that boundary and no boundary before it (they
//! start in the expansion of the symbol left of it). A one-symbol sequence is a terminal,
//! counted where it stands on a right side.
//!
//! The patterns go into a trie, and the occurrences of every trie node — every prefix of
//! every pattern — are counted at once. Each rule's right side is read through the trie run
//! as an Aho-Corasick automaton (`L` the longest pattern): a rule at least `L` long leaves
//! the automaton in the same state whatever came before, so it is read once, bottom-up, and
//! afterwards stands for that state; a shorter one is read symbol by symbol. At a boundary
//! the state and its failure chain are the suffixes of what was read that begin a pattern;
//! each is continued in the trie through the expansion right of the boundary, expanded
//! lazily only as far as some match goes. Boundaries whose two neighbouring terminals are
//! adjacent in no pattern are skipped at once.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::{Grammar, RuleId, Sym, Terminal};

/// Symbols of each rule's expansion kept at hand for reading right of a boundary.
const HEAD_MAX: usize = 32;

/// A trie node: a prefix of one or more patterns.
pub type NodeId = u32;

/// The prefixes of a set of sequences, and how often each occurs in a grammar's expansion.
pub struct PatternCounts {
    /// Forward trie: (node, symbol) → child. Node 0 is the empty prefix.
    children: FxHashMap<(NodeId, u32), NodeId>,
    depth: Vec<u32>,
    counts: Vec<u64>,
    /// Node of each pattern.
    ends: Vec<NodeId>,
}

impl PatternCounts {
    /// Occurrences of each prefix of each pattern in `g`'s expansion (`freq` from
    /// [`Grammar::rule_frequencies`]). Counts saturate at `u64::MAX`.
    /// A grammar with a cycle (not valid) counts nothing.
    pub fn count(g: &Grammar, freq: &[u64], patterns: &[Vec<Terminal>]) -> Self {
        Self::count_in(g, &g.topological_order().unwrap_or_default(), freq, patterns)
    }

    /// [`PatternCounts::count`] with the grammar's topological order at hand.
    pub fn count_in(g: &Grammar, order: &[RuleId], freq: &[u64], patterns: &[Vec<Terminal>]) -> Self {
        let mut t = PatternCounts { children: FxHashMap::default(), depth: vec![0], counts: vec![0], ends: Vec::new() };
        for p in patterns {
            let mut n = 0;
            for &Terminal(s) in p {
                n = t.child_or_insert(n, s);
            }
            t.ends.push(n);
        }
        let max_len = patterns.iter().map(Vec::len).max().unwrap_or(0);
        if max_len == 0 {
            return t;
        }
        let fail = t.failure_links();
        // An occurrence crossing a boundary holds the digram (last symbol left of it, first
        // symbol right of it): boundaries whose digram is in no pattern are skipped
        // without expanding anything.
        let digrams: FxHashSet<(u32, u32)> = patterns.iter().flat_map(|p| p.windows(2).map(|w| (w[0].0, w[1].0))).collect();
        let mut in_pattern: Vec<bool> = Vec::new();
        for &Terminal(x) in patterns.iter().flatten() {
            if in_pattern.len() <= x as usize {
                in_pattern.resize(x as usize + 1, false);
            }
            in_pattern[x as usize] = true;
        }
        let mut starts: Vec<(NodeId, u32)> = Vec::new();
        let mut right: Vec<u32> = Vec::new();
        let mut cursor = Cursor::default();
        // Per rule, children first: its length and, if it is at least `max_len` long, the
        // automaton's state after reading it — the same from any starting state, since no
        // trie node is longer than `max_len`. Shorter rules are read symbol by symbol.
        let n = g.rules.len();
        let mut lengths = vec![0u64; n];
        // The last terminal of each rule's expansion (its first is the first of its head).
        let mut last = vec![u32::MAX; n];
        let last_of = |s: Sym, last: &[u32]| match s {
            Sym::T(Terminal(x)) => x,
            Sym::N(RuleId(q)) => last[q as usize],
        };
        let mut end_state = vec![0 as NodeId; n];
        // Per rule, its first symbols (at most `head_len`) in `heads`: the right side of a
        // boundary is read from these, and the grammar only where a match goes further.
        let head_len = (max_len - 1).min(HEAD_MAX);
        let mut heads: Vec<u32> = Vec::new();
        let mut head_at: Vec<(u32, u32)> = vec![(0, 0); n];
        let mut fwd = Cursor::default();
        for &RuleId(r) in order.iter().rev() {
            let r = r as usize;
            let body = &g.rules[r];
            let f = freq[r];
            let mut state: NodeId = 0;
            let mut len = 0u64;
            for (i, &s) in body.iter().enumerate() {
                // Read the symbol.
                let s_len = match s {
                    Sym::T(Terminal(x)) => {
                        state = t.advance(&fail, state, x);
                        if f > 0 {
                            if let Some(&c) = t.children.get(&(0, x)) {
                                t.counts[c as usize] = t.counts[c as usize].saturating_add(f);
                            }
                        }
                        1
                    }
                    Sym::N(RuleId(q)) if lengths[q as usize] >= max_len as u64 => {
                        state = end_state[q as usize];
                        lengths[q as usize]
                    }
                    Sym::N(RuleId(q)) => {
                        // A rule that ends in a symbol of no pattern leaves the automaton
                        // at the root.
                        if in_pattern.get(last[q as usize] as usize).copied().unwrap_or(false) {
                            cursor.start_forward(g, s);
                            while let Some(x) = cursor.next_forward(g) {
                                state = t.advance(&fail, state, x);
                            }
                        } else {
                            state = 0;
                        }
                        lengths[q as usize]
                    }
                };
                len = len.saturating_add(s_len);
                if f == 0 || max_len < 2 || i + 1 == body.len() {
                    continue;
                }
                let first_right = match body[i + 1] {
                    Sym::T(Terminal(x)) => x,
                    Sym::N(RuleId(q)) => heads[head_at[q as usize].0 as usize],
                };
                if !digrams.contains(&(last_of(s, &last), first_right)) {
                    continue;
                }
                // Starts left of the boundary: the suffixes of what was read that are
                // prefixes of a pattern — the state and its failure chain — and begin
                // inside this symbol (an occurrence that begins further left crosses an
                // earlier boundary and is counted there), as (trie node, length).
                starts.clear();
                let mut st = state;
                while st != 0 {
                    let d = t.depth[st as usize];
                    if (d as u64) <= s_len {
                        starts.push((st, d));
                    }
                    st = fail[st as usize];
                }
                if starts.is_empty() {
                    continue;
                }
                // Continue each through the expansion right of the boundary.
                right.clear();
                let mut next_sym = i + 1;
                // A rule whose expansion goes on past its cached head, and how much of it
                // `right` holds; `fwd` walks it once started.
                let mut deep: Option<(Sym, usize)> = None;
                let mut fwd_active = false;
                for &(mut n, k) in &starts {
                    let mut j = 0;
                    while (k as usize + j) < max_len {
                        if j == right.len() {
                            // One more symbol of the right side, if there is one.
                            let more = loop {
                                if fwd_active {
                                    if let Some(x) = fwd.next_forward(g) {
                                        right.push(x);
                                        break true;
                                    }
                                    fwd_active = false;
                                }
                                if let Some((s, skip)) = deep.take() {
                                    fwd.start_forward(g, s);
                                    for _ in 0..skip {
                                        fwd.next_forward(g);
                                    }
                                    fwd_active = true;
                                    continue;
                                }
                                if next_sym == body.len() {
                                    break false;
                                }
                                let s = body[next_sym];
                                next_sym += 1;
                                match s {
                                    Sym::T(Terminal(x)) => right.push(x),
                                    Sym::N(RuleId(q)) => {
                                        let (a, l) = head_at[q as usize];
                                        right.extend_from_slice(&heads[a as usize..(a + l) as usize]);
                                        if lengths[q as usize] > l as u64 {
                                            deep = Some((s, l as usize));
                                        }
                                    }
                                }
                                break true;
                            };
                            if !more {
                                break;
                            }
                        }
                        match t.children.get(&(n, right[j])) {
                            Some(&c) => {
                                n = c;
                                t.counts[n as usize] = t.counts[n as usize].saturating_add(f);
                            }
                            None => break,
                        }
                        j += 1;
                    }
                }
            }
            lengths[r] = len;
            if let Some(&s) = body.last() {
                last[r] = last_of(s, &last);
            }
            if len >= max_len as u64 {
                end_state[r] = state;
            }
            // The first `head_len` symbols, from the children's.
            let start = heads.len() as u32;
            for &s in body {
                if heads.len() - start as usize >= head_len {
                    break;
                }
                match s {
                    Sym::T(Terminal(x)) => heads.push(x),
                    Sym::N(RuleId(q)) => {
                        let (a, l) = head_at[q as usize];
                        let take = (l as usize).min(head_len - (heads.len() - start as usize));
                        heads.extend_from_within(a as usize..a as usize + take);
                    }
                }
            }
            head_at[r] = (start, heads.len() as u32 - start);
        }
        t
    }

    /// Aho-Corasick failure links: for each node, the node of its longest proper suffix
    /// that is in the trie.
    fn failure_links(&self) -> Vec<NodeId> {
        let n = self.depth.len();
        let mut kids: Vec<Vec<(u32, NodeId)>> = vec![Vec::new(); n];
        for (&(p, s), &c) in &self.children {
            kids[p as usize].push((s, c));
        }
        let mut fail = vec![0 as NodeId; n];
        let mut queue = std::collections::VecDeque::new();
        for &(_, c) in &kids[0] {
            queue.push_back(c);
        }
        while let Some(v) = queue.pop_front() {
            for &(s, c) in &kids[v as usize] {
                fail[c as usize] = if v == 0 { 0 } else { self.advance(&fail, fail[v as usize], s) };
                queue.push_back(c);
            }
        }
        fail
    }

    /// The Aho-Corasick transition from `state` on `x`.
    #[inline]
    fn advance(&self, fail: &[NodeId], mut state: NodeId, x: u32) -> NodeId {
        loop {
            if let Some(&c) = self.children.get(&(state, x)) {
                return c;
            }
            if state == 0 {
                return 0;
            }
            state = fail[state as usize];
        }
    }

    fn child_or_insert(&mut self, n: NodeId, s: u32) -> NodeId {
        let next = self.depth.len() as NodeId;
        let depth = self.depth[n as usize] + 1;
        let c = *self.children.entry((n, s)).or_insert(next);
        if c == next {
            self.depth.push(depth);
            self.counts.push(0);
        }
        c
    }

    /// Occurrences of pattern `i`.
    pub fn pattern(&self, i: usize) -> u64 {
        self.counts[self.ends[i] as usize]
    }

    /// Occurrences of each prefix of `seq` (which must be a prefix of a pattern), by length:
    /// element `j` is the count of `seq[..=j]`.
    pub fn prefixes(&self, seq: &[Terminal]) -> Vec<u64> {
        let mut n = 0;
        seq.iter()
            .map(|&Terminal(s)| {
                n = self.children[&(n, s)];
                self.counts[n as usize]
            })
            .collect()
    }
}

/// A lazy walk over one symbol's expansion, forwards or backwards, with an explicit stack
/// of (rule, next position) frames.
#[derive(Default)]
pub(crate) struct Cursor {
    stack: Vec<(u32, usize)>,
    pending: Option<u32>,
}

impl Cursor {
    pub(crate) fn start_forward(&mut self, _g: &Grammar, s: Sym) {
        self.stack.clear();
        self.pending = None;
        match s {
            Sym::T(Terminal(x)) => self.pending = Some(x),
            Sym::N(RuleId(r)) => self.stack.push((r, 0)),
        }
    }

    pub(crate) fn next_forward(&mut self, g: &Grammar) -> Option<u32> {
        if let Some(x) = self.pending.take() {
            return Some(x);
        }
        loop {
            let (r, pos) = self.stack.last_mut()?;
            let body = &g.rules[*r as usize];
            if *pos == body.len() {
                self.stack.pop();
                continue;
            }
            let s = body[*pos];
            *pos += 1;
            match s {
                Sym::T(Terminal(x)) => return Some(x),
                Sym::N(RuleId(q)) => self.stack.push((q, 0)),
            }
        }
    }

    pub(crate) fn start_backward(&mut self, g: &Grammar, s: Sym) {
        self.stack.clear();
        self.pending = None;
        match s {
            Sym::T(Terminal(x)) => self.pending = Some(x),
            Sym::N(RuleId(r)) => self.stack.push((r, g.rules[r as usize].len())),
        }
    }

    pub(crate) fn next_backward(&mut self, g: &Grammar) -> Option<u32> {
        if let Some(x) = self.pending.take() {
            return Some(x);
        }
        loop {
            let (r, pos) = self.stack.last_mut()?;
            if *pos == 0 {
                self.stack.pop();
                continue;
            }
            *pos -= 1;
            match g.rules[*r as usize][*pos] {
                Sym::T(Terminal(x)) => return Some(x),
                Sym::N(RuleId(q)) => self.stack.push((q, g.rules[q as usize].len())),
            }
        }
    }
}

/// Occurrences of `pattern` in `g`'s expansion that do not overlap, counted left to right
/// (each occurrence taken as soon as it ends, the next searched for after it): the most
/// occurrences that fit side by side, so that `disjoint × cost(pattern)` never exceeds the
/// cost of the whole expansion. [`PatternCounts`] counts every occurrence, overlapping
/// ones included (`a a` occurs twice in `a a a`, disjointly once).
///
/// Read on the DAG with the pattern's KMP automaton, restarted after each match: each
/// rule, entered in a state, leaves it in one state having matched some number of times,
/// and that is worked out once per rule and state reached (`O(|g| · |pattern|)` at most).
/// Counts saturate at `u64::MAX`; an empty pattern or an invalid grammar counts 0.
pub fn disjoint_occurrences(g: &Grammar, pattern: &[Terminal]) -> u64 {
    if g.validate(None).is_err() {
        return 0;
    }
    disjoint_in_valid(g, pattern)
}

/// [`disjoint_occurrences`] of each of `patterns`, the grammar checked once and the
/// patterns shared out among the cores.
pub fn disjoint_occurrences_of(g: &Grammar, patterns: &[&[Terminal]]) -> Vec<u64> {
    if g.validate(None).is_err() {
        return vec![0; patterns.len()];
    }
    // Each pattern is a walk of its own: the patterns are shared out among the cores.
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(patterns.len());
    if threads < 2 {
        return patterns.iter().map(|p| disjoint_in_valid(g, p)).collect();
    }
    let share = patterns.len().div_ceil(threads);
    std::thread::scope(|s| {
        let workers: Vec<_> = patterns.chunks(share).map(|part| s.spawn(move || part.iter().map(|p| disjoint_in_valid(g, p)).collect::<Vec<u64>>())).collect();
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    })
}

fn disjoint_in_valid(g: &Grammar, pattern: &[Terminal]) -> u64 {
    let m = pattern.len();
    if m == 0 || g.rules.is_empty() {
        return 0;
    }
    // KMP failure function: fail[i] is the longest proper border of pattern[..i].
    let mut fail = vec![0usize; m + 1];
    let mut k = 0;
    for i in 1..m {
        while k > 0 && pattern[i] != pattern[k] {
            k = fail[k];
        }
        if pattern[i] == pattern[k] {
            k += 1;
        }
        fail[i + 1] = k;
    }
    // One symbol read in `state` (a prefix matched): the next state and whether the
    // pattern ended there (and the automaton restarted).
    let step = |mut state: usize, t: Terminal| -> (usize, bool) {
        while state > 0 && pattern[state] != t {
            state = fail[state];
        }
        if pattern[state] == t {
            state += 1;
        }
        if state == m {
            (0, true)
        } else {
            (state, false)
        }
    };
    // (rule, state entered in) → (state left in, matches).
    let mut memo: FxHashMap<(u32, u32), (u32, u64)> = FxHashMap::default();
    // Frames: rule, position in its right side, state entered in, current state, matches.
    struct Frame {
        rule: u32,
        pos: usize,
        entered: u32,
        state: u32,
        matches: u64,
    }
    let mut stack = vec![Frame { rule: 0, pos: 0, entered: 0, state: 0, matches: 0 }];
    loop {
        let top = stack.last_mut().expect("the start rule's frame is popped last");
        let body = &g.rules[top.rule as usize];
        if top.pos == body.len() {
            let done = stack.pop().expect("a frame");
            memo.insert((done.rule, done.entered), (done.state, done.matches));
            match stack.last_mut() {
                Some(parent) => {
                    parent.state = done.state;
                    parent.matches = parent.matches.saturating_add(done.matches);
                    parent.pos += 1;
                }
                None => return done.matches,
            }
            continue;
        }
        match body[top.pos] {
            Sym::T(t) => {
                let (state, matched) = step(top.state as usize, t);
                top.state = state as u32;
                top.matches = top.matches.saturating_add(matched as u64);
                top.pos += 1;
            }
            Sym::N(r) => match memo.get(&(r.0, top.state)) {
                Some(&(state, matches)) => {
                    top.state = state;
                    top.matches = top.matches.saturating_add(matches);
                    top.pos += 1;
                }
                None => {
                    let entered = top.state;
                    stack.push(Frame { rule: r.0, pos: 0, entered, state: entered, matches: 0 });
                }
            },
        }
    }
}

/// Whether two occurrences of `pattern` can overlap: whether it has a border (a nonempty
/// proper prefix that is also a suffix). If not, its occurrences all lie side by side, and
/// [`disjoint_occurrences`] is its frequency.
pub fn can_overlap(pattern: &[Terminal]) -> bool {
    (1..pattern.len()).any(|k| pattern[..k] == pattern[pattern.len() - k..])
}

/// [`disjoint_occurrences`] on the expanded sequence, the obvious way: scan, and after each
/// match go on past its end.
pub fn disjoint_occurrences_brute(seq: &[u32], pattern: &[Terminal]) -> u64 {
    let p: Vec<u32> = pattern.iter().map(|t| t.0).collect();
    if p.is_empty() {
        return 0;
    }
    let (mut i, mut n) = (0, 0);
    while i + p.len() <= seq.len() {
        if seq[i..i + p.len()] == p[..] {
            n += 1;
            i += p.len();
        } else {
            i += 1;
        }
    }
    n
}
