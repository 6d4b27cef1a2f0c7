//! The grammar type: rules of symbols, the typed indices of terminals and rules, expansion,
//! and the invariant checks.

use std::collections::HashMap;
use wpp_base::index;

index! {
    /// A terminal of a grammar: one value of the sequence it derives. Terminals are dense
    /// numbers the caller gives meaning to (a path, a token, a phrase).
    ///
    /// `Debug` and `Display` show the bare number.
    pub struct Terminal(u32); bare_debug
}
index! {
    /// A rule of a grammar: its index in [`Grammar::rules`]; rule 0 is the start rule.
    ///
    /// `Debug` and `Display` show the bare number.
    pub struct RuleId(u32); bare_debug
}

/// A symbol on the right side of a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sym {
    /// A terminal: one symbol of the original sequence.
    T(Terminal),
    /// A reference to a rule.
    N(RuleId),
}

/// The rules of a grammar laid out flat: every rule's body, one after another, in one array
/// of symbols, and where each body starts. Indexing by a rule's number gives its body as a
/// slice; walking the DAG touches one array instead of a heap block per rule, and a grammar
/// is built or decoded with two allocations instead of one per rule.
///
/// Bodies are appended whole ([`Rules::push`]) or grown at the end ([`Rules::open`],
/// [`Rules::extend_last`]); a body already pushed keeps its length, its symbols can be
/// rewritten in place (`IndexMut`). At most `2^32 - 1` symbols in all.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Rules {
    syms: Vec<Sym>,
    /// `start[r]..start[r + 1]` is rule `r`'s body: one entry more than rules.
    start: Vec<u32>,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::new()
    }
}

impl Rules {
    pub fn new() -> Rules {
        Rules { syms: Vec::new(), start: vec![0] }
    }

    /// Room for `rules` rules of `symbols` symbols in all.
    pub fn with_capacity(rules: usize, symbols: usize) -> Rules {
        let mut start = Vec::with_capacity(rules + 1);
        start.push(0);
        Rules { syms: Vec::with_capacity(symbols), start }
    }

    /// Rules from their bodies and where each starts: `start` has one entry more than rules,
    /// begins at 0, never decreases and ends at `syms.len()`; `None` if it does not.
    pub fn from_parts(syms: Vec<Sym>, start: Vec<u32>) -> Option<Rules> {
        let ok = start.first() == Some(&0) && start.windows(2).all(|w| w[0] <= w[1]) && start.last().map(|&e| e as usize) == Some(syms.len());
        ok.then_some(Rules { syms, start })
    }

    /// Number of rules.
    #[inline]
    pub fn len(&self) -> usize {
        self.start.len() - 1
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every body, one after another.
    #[inline]
    pub fn symbols(&self) -> &[Sym] {
        &self.syms
    }

    /// Every body, one after another, to rewrite symbols in place.
    #[inline]
    pub fn symbols_mut(&mut self) -> &mut [Sym] {
        &mut self.syms
    }

    /// Where each body starts in [`Rules::symbols`], and the end: one entry more than rules.
    #[inline]
    pub fn starts(&self) -> &[u32] {
        &self.start
    }

    /// Rule `r`'s body, or `None` if there is no rule `r`.
    #[inline]
    pub fn get(&self, r: usize) -> Option<&[Sym]> {
        (r < self.len()).then(|| &self[r])
    }

    pub fn first(&self) -> Option<&[Sym]> {
        self.get(0)
    }

    pub fn last(&self) -> Option<&[Sym]> {
        self.len().checked_sub(1).map(|r| &self[r])
    }

    /// The bodies in rule order.
    pub fn iter(&self) -> RulesIter<'_> {
        RulesIter { rules: self, front: 0, back: self.len() }
    }

    /// Appends a rule with body `body`.
    pub fn push(&mut self, body: impl IntoIterator<Item = Sym>) {
        self.syms.extend(body);
        self.close();
    }

    /// Appends an empty rule, to be grown with [`Rules::extend_last`].
    pub fn open(&mut self) {
        self.close();
    }

    /// Appends `s` to the last rule's body.
    #[inline]
    pub fn extend_last(&mut self, s: Sym) {
        self.syms.push(s);
        *self.start.last_mut().expect("one entry more than rules") = self.end();
    }

    /// The bodies as vectors of their own.
    pub fn to_vecs(&self) -> Vec<Vec<Sym>> {
        self.iter().map(<[Sym]>::to_vec).collect()
    }

    /// Bytes held.
    pub fn heap_bytes(&self) -> usize {
        self.syms.capacity() * std::mem::size_of::<Sym>() + self.start.capacity() * 4
    }

    fn end(&self) -> u32 {
        u32::try_from(self.syms.len()).expect("a grammar of fewer than 2^32 symbols")
    }

    fn close(&mut self) {
        let end = self.end();
        self.start.push(end);
    }
}

impl std::ops::Index<usize> for Rules {
    type Output = [Sym];
    #[inline]
    fn index(&self, r: usize) -> &[Sym] {
        &self.syms[self.start[r] as usize..self.start[r + 1] as usize]
    }
}

impl std::ops::IndexMut<usize> for Rules {
    #[inline]
    fn index_mut(&mut self, r: usize) -> &mut [Sym] {
        let (a, b) = (self.start[r] as usize, self.start[r + 1] as usize);
        &mut self.syms[a..b]
    }
}

impl std::fmt::Debug for Rules {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl From<Vec<Vec<Sym>>> for Rules {
    fn from(bodies: Vec<Vec<Sym>>) -> Rules {
        let mut rules = Rules::with_capacity(bodies.len(), bodies.iter().map(Vec::len).sum());
        for body in bodies {
            rules.push(body);
        }
        rules
    }
}

impl<B: IntoIterator<Item = Sym>> FromIterator<B> for Rules {
    fn from_iter<I: IntoIterator<Item = B>>(bodies: I) -> Rules {
        let mut rules = Rules::new();
        for body in bodies {
            rules.push(body);
        }
        rules
    }
}

/// The bodies of [`Rules`] in rule order.
#[derive(Clone)]
pub struct RulesIter<'a> {
    rules: &'a Rules,
    front: usize,
    back: usize,
}

impl<'a> Iterator for RulesIter<'a> {
    type Item = &'a [Sym];
    #[inline]
    fn next(&mut self) -> Option<&'a [Sym]> {
        (self.front < self.back).then(|| {
            self.front += 1;
            &self.rules[self.front - 1]
        })
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.back - self.front, Some(self.back - self.front))
    }
    fn nth(&mut self, n: usize) -> Option<&'a [Sym]> {
        self.front = self.front.saturating_add(n).min(self.back);
        self.next()
    }
}

impl DoubleEndedIterator for RulesIter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        (self.front < self.back).then(|| {
            self.back -= 1;
            &self.rules[self.back]
        })
    }
}

impl ExactSizeIterator for RulesIter<'_> {}

impl<'a> IntoIterator for &'a Rules {
    type Item = &'a [Sym];
    type IntoIter = RulesIter<'a>;
    fn into_iter(self) -> RulesIter<'a> {
        self.iter()
    }
}

/// A context-free grammar whose start rule (rule 0) derives exactly one sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grammar {
    pub rules: Rules,
}

impl From<Rules> for Grammar {
    fn from(rules: Rules) -> Grammar {
        Grammar { rules }
    }
}

impl From<Vec<Vec<Sym>>> for Grammar {
    fn from(bodies: Vec<Vec<Sym>>) -> Grammar {
        Grammar { rules: bodies.into() }
    }
}

impl Grammar {
    /// The derived sequence, lazily, with an explicit stack (deep grammars cannot
    /// overflow the call stack).
    pub fn expand(&self) -> impl Iterator<Item = u32> + '_ {
        let mut stack: Vec<(u32, usize)> = if self.rules.is_empty() { Vec::new() } else { vec![(0, 0)] };
        std::iter::from_fn(move || loop {
            let (rule, pos) = stack.last_mut()?;
            let body = &self.rules[*rule as usize];
            if *pos == body.len() {
                stack.pop();
                continue;
            }
            let s = body[*pos];
            *pos += 1;
            match s {
                Sym::T(Terminal(t)) => return Some(t),
                Sym::N(RuleId(r)) => stack.push((r, 0)),
            }
        })
    }

    /// Calls `f` with each terminal of the derived sequence, in order: what
    /// [`Grammar::expand`] yields, faster for long walks.
    pub fn for_each_terminal(&self, mut f: impl FnMut(u32)) {
        let (syms, start) = (self.rules.symbols(), self.rules.starts());
        let Some(&end) = start.get(1) else { return };
        let mut stack: Vec<(u32, u32)> = vec![(0, end)];
        while let Some(top) = stack.last_mut() {
            if top.0 == top.1 {
                stack.pop();
                continue;
            }
            let s = syms[top.0 as usize];
            top.0 += 1;
            match s {
                Sym::T(Terminal(t)) => f(t),
                Sym::N(RuleId(r)) => {
                    let r = r as usize;
                    // A rule last in its parent's body replaces it on the stack.
                    if top.0 == top.1 {
                        stack.pop();
                    }
                    stack.push((start[r], start[r + 1]));
                }
            }
        }
    }

    /// Numbers the rules breadth-first by first use from rule 0 (rules that rule 0 does not
    /// reach follow, in their old order): the numbering [`crate::Sequitur`] produces and
    /// the grammar encoding stores for free. The derived sequence does not change.
    pub fn renumber_by_first_use(&mut self) {
        let num = crate::codec::format::canonical_numbering(&self.rules, 0..self.rules.len());
        self.rules = crate::codec::format::renumber(&self.rules, &num).rules;
    }

    /// Number of symbols on all right sides.
    pub fn n_symbols(&self) -> usize {
        self.rules.symbols().len()
    }

    /// Checks SEQUITUR's two properties: no digram occurs twice (overlapping occurrences
    /// inside a run like `aaa` excepted), and every rule but the start rule is used at
    /// least twice. Also checks that every rule has at least two symbols and that rule
    /// references are in range.
    pub fn check_sequitur_properties(&self) -> Result<(), String> {
        let mut uses = vec![0usize; self.rules.len()];
        let mut seen: HashMap<(Sym, Sym), (usize, usize)> = HashMap::new();
        for (r, body) in self.rules.iter().enumerate() {
            if r > 0 && body.len() < 2 {
                return Err(format!("rule {r} has {} symbols", body.len()));
            }
            for &s in body {
                if let Sym::N(RuleId(x)) = s {
                    let x = x as usize;
                    if x == 0 || x >= self.rules.len() {
                        return Err(format!("rule {r} refers to rule {x}"));
                    }
                    uses[x] += 1;
                }
            }
            for i in 0..body.len().saturating_sub(1) {
                let d = (body[i], body[i + 1]);
                if let Some(&(r0, i0)) = seen.get(&d) {
                    let overlapping = r0 == r && i0 + 1 == i && body[i] == body[i + 1];
                    if !overlapping {
                        return Err(format!("digram {d:?} occurs in rule {r0} at {i0} and in rule {r} at {i}"));
                    }
                } else {
                    seen.insert(d, (r, i));
                }
            }
        }
        for (r, &u) in uses.iter().enumerate().skip(1) {
            if u < 2 {
                return Err(format!("rule {r} is used {u} times"));
            }
        }
        Ok(())
    }
}
