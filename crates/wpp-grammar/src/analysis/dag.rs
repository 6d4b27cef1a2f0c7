//! The grammar as a DAG: rule `A` has an edge to rule `B` for every occurrence of `B` on
//! `A`'s right side. The analyses here walk the DAG once, in topological order, and never
//! expand the sequence.
//!
//! All of them assume a valid grammar ([`Grammar::validate`]); grammars from a builder
//! or from a checked decoder are valid.

use crate::{Grammar, RuleId, Sym, Terminal};

/// What is wrong with a grammar that is not a DAG with a start rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GrammarError {
    /// A rule other than the start rule has an empty right side.
    EmptyRule { rule: RuleId },
    /// A reference to a rule that does not exist, or to the start rule.
    BadReference { rule: RuleId, target: RuleId },
    /// A terminal at or above the declared number of terminals.
    BadTerminal { rule: RuleId, terminal: Terminal },
    /// A rule derives itself, so its expansion would be infinite.
    Cycle { rule: RuleId },
}

impl std::fmt::Display for GrammarError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            GrammarError::EmptyRule { rule } => write!(f, "rule {rule} is empty"),
            GrammarError::BadReference { rule, target } => write!(f, "rule {rule} refers to rule {target}, which is not a rule it may use"),
            GrammarError::BadTerminal { rule, terminal } => write!(f, "rule {rule} holds terminal {terminal}, beyond the symbol table"),
            GrammarError::Cycle { rule } => write!(f, "rule {rule} derives itself"),
        }
    }
}

impl std::error::Error for GrammarError {}

/// Summary numbers of a grammar.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrammarStats {
    /// Rules, the start rule included.
    pub rules: usize,
    /// Symbols on all right sides.
    pub symbols: usize,
    /// Length of the derived sequence.
    pub length: u64,
    /// Longest chain of rule references from the start rule (0 if it holds only terminals).
    pub depth: usize,
    /// Distinct terminals that occur.
    pub distinct_terminals: usize,
}

impl Grammar {
    /// Checks that the grammar is a DAG rooted at rule 0: references in range and never to
    /// rule 0, no rule deriving itself, no empty rule but the start rule, and (if given)
    /// every terminal below `n_terminals`.
    pub fn validate(&self, n_terminals: Option<u32>) -> Result<(), GrammarError> {
        self.validated_order(n_terminals).map(|_| ())
    }

    /// [`Grammar::validate`], then [`Grammar::rule_lengths`], the rules put in order once.
    pub fn validated_lengths(&self, n_terminals: Option<u32>) -> Result<Vec<u64>, GrammarError> {
        let order = self.validated_order(n_terminals)?;
        Ok(self.costs_in(&order, |_| 1))
    }

    fn validated_order(&self, n_terminals: Option<u32>) -> Result<Vec<RuleId>, GrammarError> {
        let n = self.rules.len() as u64;
        for (r, body) in self.rules.iter().enumerate() {
            let rule = RuleId(r as u32);
            if r > 0 && body.is_empty() {
                return Err(GrammarError::EmptyRule { rule });
            }
            for &s in body {
                match s {
                    Sym::N(target) if target.0 == 0 || target.0 as u64 >= n => return Err(GrammarError::BadReference { rule, target }),
                    Sym::T(terminal) if n_terminals.is_some_and(|k| terminal.0 >= k) => return Err(GrammarError::BadTerminal { rule, terminal }),
                    _ => {}
                }
            }
        }
        self.topological_order()
    }

    /// Every rule, each before the rules it uses (rule 0 first). Rules nothing reaches
    /// from rule 0 come after those it reaches. Fails on a cycle; references must be in
    /// range.
    pub fn topological_order(&self) -> Result<Vec<RuleId>, GrammarError> {
        // Kahn's algorithm on in-degrees: no recursion, and a cycle leaves rules unvisited.
        let n = self.rules.len();
        let mut indegree = vec![0u32; n];
        for body in &self.rules {
            for &s in body {
                if let Sym::N(RuleId(t)) = s {
                    indegree[t as usize] += 1;
                }
            }
        }
        let mut order: Vec<RuleId> = (0..n as u32).filter(|&r| indegree[r as usize] == 0).map(RuleId).collect();
        // Rule 0 first when it is a root (it always is in a valid grammar).
        if let Some(p) = order.iter().position(|&r| r == RuleId(0)) {
            order[..=p].rotate_right(1);
        }
        let mut i = 0;
        while i < order.len() {
            let r = order[i].idx();
            i += 1;
            for &s in &self.rules[r] {
                if let Sym::N(t) = s {
                    indegree[t.idx()] -= 1;
                    if indegree[t.idx()] == 0 {
                        order.push(t);
                    }
                }
            }
        }
        if order.len() < n {
            let rule = (0..n as u32).find(|&r| indegree[r as usize] > 0).unwrap_or(0);
            return Err(GrammarError::Cycle { rule: RuleId(rule) });
        }
        Ok(order)
    }

    fn order(&self) -> Vec<RuleId> {
        self.topological_order().expect("a valid grammar is acyclic")
    }

    /// Per rule, the length of its expansion (saturating at `u64::MAX`).
    pub fn rule_lengths(&self) -> Vec<u64> {
        self.rule_costs(|_| 1)
    }

    /// Per rule, the sum of `cost(t)` over the terminals of its expansion (saturating).
    pub fn rule_costs(&self, cost: impl Fn(Terminal) -> u64) -> Vec<u64> {
        self.costs_in(&self.order(), cost)
    }

    /// [`Grammar::rule_costs`] with the rules in topological order `order`.
    fn costs_in(&self, order: &[RuleId], cost: impl Fn(Terminal) -> u64) -> Vec<u64> {
        let mut out = vec![0u64; self.rules.len()];
        for &r in order.iter().rev() {
            let mut sum = 0u64;
            for &s in &self.rules[r.idx()] {
                let c = match s {
                    Sym::T(t) => cost(t),
                    Sym::N(c) => out[c.idx()],
                };
                sum = sum.saturating_add(c);
            }
            out[r.idx()] = sum;
        }
        out
    }

    /// Per rule, how often its expansion occurs in the derived sequence as that rule: the
    /// number of DAG paths from rule 0 to it (saturating). Rule 0 has frequency 1.
    pub fn rule_frequencies(&self) -> Vec<u64> {
        self.rule_frequencies_in(&self.order())
    }

    /// [`Grammar::rule_frequencies`] with the topological order already at hand.
    pub fn rule_frequencies_in(&self, order: &[RuleId]) -> Vec<u64> {
        let mut freq = vec![0u64; self.rules.len()];
        if let Some(f) = freq.first_mut() {
            *f = 1;
        }
        for &r in order {
            let f = freq[r.idx()];
            if f == 0 {
                continue;
            }
            for &s in &self.rules[r.idx()] {
                if let Sym::N(RuleId(c)) = s {
                    freq[c as usize] = freq[c as usize].saturating_add(f);
                }
            }
        }
        freq
    }

    /// How often each terminal below `n_terminals` occurs in the derived sequence.
    pub fn terminal_counts(&self, n_terminals: u32) -> Vec<u64> {
        let freq = self.rule_frequencies();
        let mut counts = vec![0u64; n_terminals as usize];
        for (r, body) in self.rules.iter().enumerate() {
            for &s in body {
                if let Sym::T(Terminal(t)) = s {
                    if let Some(c) = counts.get_mut(t as usize) {
                        *c = c.saturating_add(freq[r]);
                    }
                }
            }
        }
        counts
    }

    /// Per rule, the longest chain of rule references below it (0 for a rule of
    /// terminals only).
    pub fn rule_depths(&self) -> Vec<usize> {
        let mut depth = vec![0usize; self.rules.len()];
        for &r in self.order().iter().rev() {
            depth[r.idx()] = self.rules[r.idx()]
                .iter()
                .filter_map(|s| match s {
                    Sym::N(RuleId(c)) => Some(depth[*c as usize] + 1),
                    Sym::T(_) => None,
                })
                .max()
                .unwrap_or(0);
        }
        depth
    }

    /// The grammar of the derived sequence with the terminals `drop` names left out, in one
    /// pass over the DAG: each rule keeps its other symbols; a rule left empty goes, with
    /// every reference to it; the rules that remain keep their order. Rule 0 stays, empty
    /// if every terminal went.
    pub fn without_terminals(&self, mut drop: impl FnMut(Terminal) -> bool) -> Result<Grammar, GrammarError> {
        let n = self.rules.len();
        let mut bodies: Vec<Option<Vec<Sym>>> = vec![None; n];
        // Children before parents, so each reference knows whether its rule survived.
        for &RuleId(r) in self.topological_order()?.iter().rev() {
            let body: Vec<Sym> = self.rules[r as usize]
                .iter()
                .copied()
                .filter(|&s| match s {
                    Sym::T(t) => !drop(t),
                    Sym::N(RuleId(c)) => bodies[c as usize].as_ref().is_some_and(|b| !b.is_empty()),
                })
                .collect();
            bodies[r as usize] = Some(body);
        }
        // The surviving rules' new numbers: rule 0, then the non-empty ones in order.
        let mut number = vec![u32::MAX; n];
        let mut next = 0u32;
        for (r, b) in bodies.iter().enumerate() {
            if r == 0 || b.as_ref().is_some_and(|b| !b.is_empty()) {
                number[r] = next;
                next += 1;
            }
        }
        let rules = bodies
            .into_iter()
            .enumerate()
            .filter(|&(r, _)| number[r] != u32::MAX)
            .map(|(_, b)| {
                b.unwrap_or_default().into_iter().map(|s| match s {
                    Sym::N(RuleId(c)) => Sym::N(RuleId(number[c as usize])),
                    t => t,
                })
            })
            .collect();
        Ok(Grammar { rules })
    }

    /// Summary numbers, in one pass over the DAG each.
    pub fn stats(&self) -> GrammarStats {
        let mut seen = rustc_hash::FxHashSet::default();
        for body in &self.rules {
            for &s in body {
                if let Sym::T(Terminal(t)) = s {
                    seen.insert(t);
                }
            }
        }
        GrammarStats {
            rules: self.rules.len(),
            symbols: self.n_symbols(),
            length: self.rule_lengths().first().copied().unwrap_or(0),
            depth: self.rule_depths().first().copied().unwrap_or(0),
            distinct_terminals: seen.len(),
        }
    }
}
