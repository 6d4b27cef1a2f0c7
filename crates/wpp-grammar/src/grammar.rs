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

/// A context-free grammar whose start rule (rule 0) derives exactly one sequence.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Grammar {
    pub rules: Vec<Vec<Sym>>,
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
    /// [`Grammar::expand`] yields, faster for long walks, over a copy of the rules in one
    /// array (the rule bodies apart cost a cache miss each time one is entered).
    pub fn for_each_terminal(&self, mut f: impl FnMut(u32)) {
        const RULE: u32 = 1 << 31;
        if self.rules.iter().flatten().any(|s| matches!(*s, Sym::T(Terminal(t)) if t >= RULE)) {
            self.expand().for_each(f);
            return;
        }
        let mut start: Vec<u32> = Vec::with_capacity(self.rules.len() + 1);
        let mut syms: Vec<u32> = Vec::with_capacity(self.n_symbols());
        start.push(0);
        for body in &self.rules {
            syms.extend(body.iter().map(|s| match *s {
                Sym::T(Terminal(t)) => t,
                Sym::N(RuleId(r)) => RULE | r,
            }));
            start.push(syms.len() as u32);
        }
        let Some(&end) = start.get(1) else { return };
        let mut stack: Vec<(u32, u32)> = vec![(0, end)];
        while let Some(top) = stack.last_mut() {
            if top.0 == top.1 {
                stack.pop();
                continue;
            }
            let s = syms[top.0 as usize];
            top.0 += 1;
            if s & RULE == 0 {
                f(s);
            } else {
                let r = (s & !RULE) as usize;
                // A rule last in its parent's body replaces it on the stack.
                if top.0 == top.1 {
                    stack.pop();
                }
                stack.push((start[r], start[r + 1]));
            }
        }
    }

    /// Numbers the rules breadth-first by first use from rule 0 (rules that rule 0 does not
    /// reach follow, in their old order): the numbering [`crate::Sequitur`] produces and
    /// the grammar encoding stores for free. The derived sequence does not change.
    pub fn renumber_by_first_use(&mut self) {
        let num = crate::codec::format::canonical_numbering(&self.rules, 0..self.rules.len());
        let mut rules = vec![Vec::new(); self.rules.len()];
        for (r, body) in std::mem::take(&mut self.rules).into_iter().enumerate() {
            rules[num[r] as usize] = body;
        }
        for body in &mut rules {
            for s in body.iter_mut() {
                if let Sym::N(RuleId(x)) = s {
                    *x = num[*x as usize];
                }
            }
        }
        self.rules = rules;
    }

    /// Number of symbols on all right sides.
    pub fn n_symbols(&self) -> usize {
        self.rules.iter().map(Vec::len).sum()
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
