//! Data flow frequencies computed on a grammar (Scholz & Mehofer, "Dataflow Frequency
//! Analysis based on Whole Program Paths").
//!
//! A GEN/KILL problem — reaching definitions and its kin, every bi-distributive problem
//! whose functions map each fact to itself or to nothing — has, at each execution of a
//! program point, a set of facts that hold. Its *frequencies* are, per point, how often it
//! executed and how often each fact held there, summed over the whole run. They are exact
//! here: computed from the grammar of the run's path trace without expanding it.
//!
//! ## The algebra
//!
//! A [`Transfer`] is a GEN/KILL function `f(X) = (X − kill) ∪ gen`, kept as its
//! representation function (the paper's Definition 2): `f^r(Λ) = gen ∪ {Λ}`, and
//! `f^r(d) = {d}` for every fact `d` it preserves, `∅` for the facts in `gen` or `kill`.
//! Only the facts a function touches are stored (sorted lists), so the near-identity
//! functions of most paths cost nothing; [`Transfer::matrix`] gives the paper's 0/1 matrix
//! `f^A` (Definition 4). Composition is a merge of the lists.
//!
//! ## Over the grammar
//!
//! The paper's Fig. 2 computes, per CFG node `v`, a frequency matrix for every grammar
//! symbol bottom-up (`F_nt(v) = Σ F_Xi(v) · M(X1…Xi−1)^A`) and multiplies the start
//! symbol's by the initial state: `|N| · |grammar| · n²` work. Matrix products are
//! associative, so the same sum can be taken the other way round: bottom-up, only the
//! transition function `M(X)` of each rule (one sparse [`Transfer`]); then top-down, for
//! every rule, the *sum of the states* in which its occurrences are entered (a count per
//! fact: `M(prefix)` applied to the parent's sum, where Λ counts the parent's occurrences);
//! finally each terminal's entry counts are carried along its path, and every point on it
//! adds the counts it sees. That is `|grammar| · n` work for all points at once, exact
//! (integer counts, no probabilities), and equal to Fig. 2's result by Lemma 4 and 5
//! (`tests/dff.rs` checks both against the abstract run).
//!
//! Rules whose expansion holds no point of interest are never visited top-down; rules
//! that touch no fact have the identity as transfer and cost nothing to compose.
//!
//! ## Frames
//!
//! Some facts belong to a frame: the definitions of one function's local variables hold
//! in one invocation and are untouched by its callees, and a recursive call has a frame
//! of its own. The grammar's terminals do not nest — a rule can start inside one
//! invocation and end inside another — so each symbol's effect on the *framed* facts
//! (those of [`Problem::frame_facts`]) is kept as an effect on a stack of frames of the
//! framed function (a [`Summary`]): how many frames it leaves (`pops`), the transfer it
//! applies to the frame it ends in (if that is one it was entered with), and the states of
//! the frames it opens and leaves open. Terminals say whether their invocation ends after them
//! (a return) and whether an invocation of the framed function begins after them (a call
//! of it, from any function); the paths of other functions leave framed facts alone. Program-wide facts (globals, memory) take one
//! transfer per symbol, whatever the frames. Entry counts are then kept per frame level a
//! symbol reads (the levels below its start that its own points see).

use std::ops::Range;

use crate::{Grammar, GrammarError, RuleId, Sym};

/// A GEN/KILL transfer function: the facts it generates and the facts it kills (neither
/// preserved nor generated), each sorted and the two disjoint. The default is the
/// identity.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Transfer {
    gen: Vec<u32>,
    kill: Vec<u32>,
}

impl Transfer {
    pub const IDENTITY: Transfer = Transfer { gen: Vec::new(), kill: Vec::new() };

    /// The function that generates `gen` and kills `kill` (a fact in both is generated).
    pub fn new(gen: impl IntoIterator<Item = u32>, kill: impl IntoIterator<Item = u32>) -> Transfer {
        let mut gen: Vec<u32> = gen.into_iter().collect();
        gen.sort_unstable();
        gen.dedup();
        let mut kill: Vec<u32> = kill.into_iter().filter(|d| gen.binary_search(d).is_err()).collect();
        kill.sort_unstable();
        kill.dedup();
        Transfer { gen, kill }
    }

    pub fn gen(&self) -> &[u32] {
        &self.gen
    }

    pub fn kill(&self) -> &[u32] {
        &self.kill
    }

    pub fn is_identity(&self) -> bool {
        self.gen.is_empty() && self.kill.is_empty()
    }

    /// Facts the function does not preserve.
    pub fn touched(&self) -> usize {
        self.gen.len() + self.kill.len()
    }

    /// `self` followed by `next` (`next ∘ self`).
    pub fn then(&self, next: &Transfer) -> Transfer {
        if next.is_identity() {
            return self.clone();
        }
        if self.is_identity() {
            return next.clone();
        }
        // What `self` did survives where `next` leaves the fact alone.
        let touched_by_next = |d: &u32| next.gen.binary_search(d).is_err() && next.kill.binary_search(d).is_err();
        let gen = merge(self.gen.iter().copied().filter(touched_by_next), next.gen.iter().copied());
        let kill = merge(self.kill.iter().copied().filter(touched_by_next), next.kill.iter().copied());
        Transfer { gen, kill }
    }

    /// Applies the function to a state (a sorted list of the facts that hold).
    pub fn apply(&self, state: &[u32]) -> Vec<u32> {
        let kept = state.iter().copied().filter(|d| self.gen.binary_search(d).is_err() && self.kill.binary_search(d).is_err());
        merge(kept, self.gen.iter().copied())
    }

    /// Applies the function to summed states: `counts[d - offset]` is how many of `n`
    /// states held fact `d` (facts outside the slice are ignored).
    pub fn apply_counts(&self, counts: &mut [u64], offset: u32, n: u64) {
        let range = offset..offset + counts.len() as u32;
        for &d in in_range(&self.kill, &range) {
            counts[(d - offset) as usize] = 0;
        }
        for &d in in_range(&self.gen, &range) {
            counts[(d - offset) as usize] = n;
        }
    }

    /// The function restricted to the facts in `range` (identity elsewhere).
    pub fn restrict(&self, range: &Range<u32>) -> Transfer {
        Transfer { gen: in_range(&self.gen, range).to_vec(), kill: in_range(&self.kill, range).to_vec() }
    }

    /// The representation function of fact `d` (`None` for Λ): the facts it maps to,
    /// with `n` standing for Λ (the paper's Definition 2).
    pub fn representation(&self, d: Option<u32>, n: u32) -> Vec<u32> {
        match d {
            None => self.gen.iter().copied().chain([n]).collect(),
            Some(d) if self.gen.binary_search(&d).is_ok() || self.kill.binary_search(&d).is_ok() => Vec::new(),
            Some(d) => vec![d],
        }
    }

    /// The function's 0/1 matrix over `n` facts and Λ (index `n`): `a[i][j] = 1` when
    /// `d_i ∈ f^r(d_j)` (the paper's Definition 4). Dense: for checks and small examples.
    pub fn matrix(&self, n: u32) -> Vec<Vec<u64>> {
        let mut a = vec![vec![0u64; n as usize + 1]; n as usize + 1];
        for j in (0..n).map(Some).chain([None]) {
            let col = j.unwrap_or(n) as usize;
            for i in self.representation(j, n) {
                a[i as usize][col] = 1;
            }
        }
        a
    }

    /// The dual function, for a problem solved through its complement (an intersection
    /// problem as a union one): a fact generated becomes killed and the other way round.
    pub fn dual(&self) -> Transfer {
        Transfer { gen: self.kill.clone(), kill: self.gen.clone() }
    }
}

/// The facts of a sorted list that lie in `range`.
fn in_range<'a>(sorted: &'a [u32], range: &Range<u32>) -> &'a [u32] {
    match (sorted.first(), sorted.last()) {
        (None, _) | (_, None) => return sorted,
        (Some(&a), Some(&b)) if a >= range.start && b < range.end => return sorted,
        _ => {}
    }
    let lo = sorted.partition_point(|&d| d < range.start);
    let hi = sorted.partition_point(|&d| d < range.end);
    &sorted[lo..hi]
}

/// Merges two sorted, disjoint sequences.
fn merge(a: impl Iterator<Item = u32>, b: impl Iterator<Item = u32>) -> Vec<u32> {
    let mut out = Vec::with_capacity(a.size_hint().0 + b.size_hint().0);
    let mut b = b.peekable();
    for x in a {
        while let Some(&y) = b.peek() {
            if y < x {
                out.push(y);
                b.next();
            } else {
                break;
            }
        }
        out.push(x);
    }
    out.extend(b);
    out.dedup();
    out
}

/// A point of interest, an index below [`Problem::points`].
pub type PointIdx = u32;

/// One stretch of a terminal's path: the point observed before it (if it is one of
/// interest), then what it does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Step {
    pub point: Option<PointIdx>,
    pub transfer: Transfer,
}

/// What one terminal (an acyclic path) does.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// A path of the framed function: its transfer's framed facts apply to the innermost
    /// frame of that function. Other terminals must not touch framed facts.
    pub framed: bool,
    pub steps: Vec<Step>,
}

/// What happens between two consecutive terminals: the first one's frame of the framed
/// function closes (a return or tail call out of it), then `transfer` applies to the
/// program-wide facts (a call of an import that the first path ended in), then a frame of
/// the framed function opens (the second path begins an invocation of it).
///
/// Calls and returns are events between paths, not of one path: the same path can begin
/// an invocation or a loop iteration (a function whose body starts with a loop), end in a
/// return or a back edge (a `br_table` to both), call an import or a function of the
/// module (`call_indirect`). Every pair of consecutive terminals of the expansion meets
/// at exactly one boundary between two symbols of one rule body, where the pair is fixed:
/// the last terminal of one symbol and the first of the next.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Junction {
    pub closes: bool,
    pub transfer: Transfer,
    pub opens: bool,
}

/// A GEN/KILL problem on a run whose path trace a grammar derives.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problem {
    /// Facts are `0..facts`.
    pub facts: u32,
    /// Facts `0..frame_facts` belong to a frame of the framed function; the rest are
    /// program-wide.
    pub frame_facts: u32,
    /// Program-wide facts that hold at the start of the run (sorted).
    pub initial: Vec<u32>,
    /// Framed facts that hold when a frame opens (sorted).
    pub frame_entry: Vec<u32>,
    /// The run starts in an invocation of the framed function (a frame is open before
    /// the first terminal).
    pub open_at_start: bool,
    /// What each terminal of the grammar does, by terminal number.
    pub terminals: Vec<Terminal>,
    /// What happens between consecutive terminals (nothing for pairs not listed).
    pub junctions: rustc_hash::FxHashMap<(u32, u32), Junction>,
    /// Points of interest are `0..points`.
    pub points: u32,
}

/// Per point of interest: how often it executed, and how often each fact held there
/// (facts that never held are left out; sorted by fact).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Frequencies {
    pub executions: Vec<u64>,
    pub holds: Vec<Vec<(u32, u64)>>,
    pub stats: Stats,
}

/// How much of the grammar the computation touched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Rules of the grammar.
    pub rules: usize,
    /// Rules whose expansion holds a point of interest (visited top-down).
    pub rules_with_points: usize,
    /// Rules whose transfer is not the identity.
    pub rules_with_effect: usize,
    /// Terminals that occur in the run, and those of them holding a point of interest.
    pub terminals_run: usize,
    pub terminals_with_points: usize,
    /// Passes over the facts (each over at most `chunk` of them).
    pub passes: usize,
    /// Entries of the largest set of count vectors alive at once.
    pub peak_counts: usize,
}

/// What cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DffError {
    Grammar(GrammarError),
    /// The grammar derives a terminal the problem does not describe.
    NoTerminal(u32),
    /// The run closes a frame of the framed function that it never opened.
    Unbalanced,
}

impl std::fmt::Display for DffError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DffError::Grammar(e) => write!(f, "{e}"),
            DffError::NoTerminal(t) => write!(f, "the grammar derives terminal {t}, which the problem does not describe"),
            DffError::Unbalanced => f.write_str("the run leaves an invocation of the analysed function that it never entered"),
        }
    }
}

impl std::error::Error for DffError {}

/// A symbol's effect on the stack of frames of the framed function (framed facts only)
/// and on the program-wide facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Frames it leaves that were open when it started.
    pub pops: u32,
    /// What it does to the innermost frame it started with that it does not leave (the
    /// frame `pops` levels below its start).
    pub frame: Transfer,
    /// The states of the frames it opens and leaves open, innermost last.
    pub pushed: Vec<Vec<u32>>,
    /// What it does to the program-wide facts.
    pub global: Transfer,
}

impl Summary {
    fn of_terminal(t: &Terminal, frame_facts: u32) -> Summary {
        let all = t.steps.iter().fold(Transfer::IDENTITY, |acc, s| acc.then(&s.transfer));
        let global = all.restrict(&(frame_facts..u32::MAX));
        let frame = if t.framed { all.restrict(&(0..frame_facts)) } else { Transfer::IDENTITY };
        Summary { frame, global, ..Summary::default() }
    }

    fn of_junction(j: &Junction, frame_entry: &[u32]) -> Summary {
        Summary {
            pops: u32::from(j.closes),
            frame: Transfer::IDENTITY,
            pushed: if j.opens { vec![frame_entry.to_vec()] } else { Vec::new() },
            global: j.transfer.clone(),
        }
    }

    fn is_identity(&self) -> bool {
        self.pops == 0 && self.pushed.is_empty() && self.frame.is_identity() && self.global.is_identity()
    }
}

/// The level of a rule's start that a child's entry level `l` is, given the summary
/// `prefix` of what comes before the child in the rule: `None` when it is a frame the
/// prefix opened.
fn locate(prefix_pushed: usize, prefix_pops: u32, l: u32) -> Option<u32> {
    let p = prefix_pushed as u32;
    (l >= p).then(|| l - p + prefix_pops)
}

/// A transfer being composed, dense: per fact, preserved (0), generated (1) or killed (2),
/// and the facts touched.
struct Dense {
    state: Vec<u8>,
    touched: Vec<u32>,
}

impl Dense {
    fn new(n: u32) -> Dense {
        Dense { state: vec![0; n as usize], touched: Vec::new() }
    }

    fn then(&mut self, t: &Transfer) {
        for (list, v) in [(&t.kill, 2u8), (&t.gen, 1u8)] {
            for &d in list {
                let s = &mut self.state[d as usize];
                if *s == 0 {
                    self.touched.push(d);
                }
                *s = v;
            }
        }
    }

    fn clear(&mut self) {
        for &d in &self.touched {
            self.state[d as usize] = 0;
        }
        self.touched.clear();
    }

    /// The composed transfer; the accumulator is left empty.
    fn take(&mut self) -> Transfer {
        self.touched.sort_unstable();
        let (mut gen, mut kill) = (Vec::new(), Vec::new());
        for &d in &self.touched {
            if self.state[d as usize] == 1 {
                gen.push(d);
            } else {
                kill.push(d);
            }
        }
        self.clear();
        Transfer { gen, kill }
    }
}

/// A rule's [`Summary`] being composed from its children's, with dense transfers.
struct Acc {
    pops: u32,
    frame: Dense,
    pushed: Vec<Vec<u32>>,
    global: Dense,
}

impl Acc {
    /// What has been composed so far, followed by `next`. With `p` frames opened so far
    /// and `r` left by `next`: if `r < p`, `next` ends in a frame opened here, which takes
    /// its transfer; if `r == p`, in the frame this ends in, whose transfer composes; if
    /// `r > p`, it leaves that frame too, and `r - p - 1` more below.
    fn then(&mut self, next: &Summary) {
        self.global.then(&next.global);
        let p = self.pushed.len();
        let r = next.pops as usize;
        if r < p {
            self.pushed.truncate(p - r);
            let last = self.pushed.last_mut().expect("r < p");
            *last = next.frame.apply(last);
        } else if r == p {
            self.pushed.clear();
            self.frame.then(&next.frame);
        } else {
            self.pushed.clear();
            self.pops += (r - p) as u32;
            self.frame.clear();
            self.frame.then(&next.frame);
        }
        self.pushed.extend(next.pushed.iter().cloned());
    }

    fn take(&mut self) -> Summary {
        let s = Summary { pops: self.pops, frame: self.frame.take(), pushed: std::mem::take(&mut self.pushed), global: self.global.take() };
        self.pops = 0;
        s
    }
}

/// The computation, with its bottom-up part done once for every chunk of facts.
pub struct Solver<'a> {
    grammar: &'a Grammar,
    problem: &'a Problem,
    order: Vec<RuleId>,
    freq: Vec<u64>,
    /// Per terminal, its count in the run.
    terminal_count: Vec<u64>,
    terminal_summary: Vec<Summary>,
    junction_summary: rustc_hash::FxHashMap<(u32, u32), Summary>,
    /// Each rule's first and last terminal.
    first: Vec<u32>,
    last: Vec<u32>,
    rule_summary: Vec<Summary>,
    /// Per symbol: whether its expansion holds a point, and how many levels of framed
    /// frames below its start its points read.
    rule_points: Vec<bool>,
    rule_levels: Vec<u32>,
    terminal_points: Vec<bool>,
    terminal_levels: Vec<u32>,
}

impl<'a> Solver<'a> {
    /// Checks the grammar and computes every symbol's summary (bottom-up).
    pub fn new(grammar: &'a Grammar, problem: &'a Problem) -> Result<Solver<'a>, DffError> {
        let order = grammar.topological_order().map_err(DffError::Grammar)?;
        let freq = grammar.rule_frequencies_in(&order);
        let nt = problem.terminals.len();
        let mut terminal_count = vec![0u64; nt];
        for (r, body) in grammar.rules.iter().enumerate() {
            for &s in body {
                if let Sym::T(crate::Terminal(t)) = s {
                    let c = terminal_count.get_mut(t as usize).ok_or(DffError::NoTerminal(t))?;
                    *c = c.saturating_add(freq[r]);
                }
            }
        }
        let terminal_summary: Vec<Summary> = problem.terminals.iter().map(|t| Summary::of_terminal(t, problem.frame_facts)).collect();
        let junction_summary: rustc_hash::FxHashMap<(u32, u32), Summary> =
            problem.junctions.iter().map(|(&k, j)| (k, Summary::of_junction(j, &problem.frame_entry))).collect();
        let terminal_points: Vec<bool> = problem.terminals.iter().map(|t| t.steps.iter().any(|s| s.point.is_some())).collect();
        let terminal_levels: Vec<u32> = problem.terminals.iter().zip(&terminal_points).map(|(t, &p)| u32::from(p && t.framed)).collect();
        let n = grammar.rules.len();
        let (mut first, mut last) = (vec![u32::MAX; n], vec![u32::MAX; n]);
        let mut rule_summary = vec![Summary::default(); n];
        let mut rule_points = vec![false; n];
        let mut rule_levels = vec![0u32; n];
        let mut acc = Acc { pops: 0, frame: Dense::new(problem.frame_facts), pushed: Vec::new(), global: Dense::new(problem.facts) };
        for &RuleId(r) in order.iter().rev() {
            let mut points = false;
            let mut levels = 0u32;
            let mut prev = u32::MAX;
            for &s in &grammar.rules[r as usize] {
                let (fst, lst) = match s {
                    Sym::T(crate::Terminal(t)) => (t, t),
                    Sym::N(RuleId(c)) => (first[c as usize], last[c as usize]),
                };
                if prev != u32::MAX {
                    if !junction_summary.is_empty() {
                        if let Some(j) = junction_summary.get(&(prev, fst)) {
                            acc.then(j);
                        }
                    }
                } else {
                    first[r as usize] = fst;
                }
                prev = lst;
                let (sum, p, l) = match s {
                    Sym::T(crate::Terminal(t)) => (&terminal_summary[t as usize], terminal_points[t as usize], terminal_levels[t as usize]),
                    Sym::N(RuleId(c)) => (&rule_summary[c as usize], rule_points[c as usize], rule_levels[c as usize]),
                };
                if p {
                    points = true;
                    if l > 0 {
                        if let Some(level) = locate(acc.pushed.len(), acc.pops, l - 1) {
                            levels = levels.max(level + 1);
                        }
                    }
                }
                if !sum.is_identity() {
                    acc.then(sum);
                }
            }
            last[r as usize] = prev;
            rule_summary[r as usize] = acc.take();
            rule_points[r as usize] = points;
            rule_levels[r as usize] = levels;
        }
        let open = u32::from(problem.open_at_start);
        if rule_levels.first().copied().unwrap_or(0) > open || rule_summary.first().is_some_and(|s| s.pops > open) {
            return Err(DffError::Unbalanced);
        }
        Ok(Solver {
            grammar,
            problem,
            order,
            freq,
            terminal_count,
            terminal_summary,
            junction_summary,
            first,
            last,
            rule_summary,
            rule_points,
            rule_levels,
            terminal_points,
            terminal_levels,
        })
    }

    /// The summary of rule `r` (its transition function on the frames and on program-wide
    /// facts).
    pub fn rule_summary(&self, r: RuleId) -> &Summary {
        &self.rule_summary[r.idx()]
    }

    /// Frequencies of every fact at every point, computed in passes over at most `chunk`
    /// facts each (memory: the count vectors of one pass, `chunk` entries per rule with
    /// points and level it reads).
    pub fn solve(&self, chunk: u32) -> Frequencies {
        let p = self.problem;
        let chunk = chunk.max(1);
        let mut out = Frequencies {
            executions: vec![0; p.points as usize],
            holds: vec![Vec::new(); p.points as usize],
            stats: Stats {
                rules: self.grammar.rules.len(),
                rules_with_points: self.rule_points.iter().filter(|&&x| x).count(),
                rules_with_effect: self.rule_summary.iter().filter(|s| !s.is_identity()).count(),
                terminals_run: self.terminal_count.iter().filter(|&&c| c > 0).count(),
                terminals_with_points: self.terminal_points.iter().zip(&self.terminal_count).filter(|(&x, &c)| x && c > 0).count(),
                ..Stats::default()
            },
        };
        for (t, term) in p.terminals.iter().enumerate() {
            let c = self.terminal_count[t];
            for s in &term.steps {
                if let Some(pt) = s.point {
                    out.executions[pt as usize] += c;
                }
            }
        }
        if self.grammar.rules.is_empty() {
            return out;
        }
        let mut start = 0u32;
        while start < p.facts {
            let end = start.saturating_add(chunk).min(p.facts);
            // A chunk lies within the framed facts or within the program-wide ones.
            let end = if start < p.frame_facts { end.min(p.frame_facts) } else { end };
            self.pass(start..end, start < p.frame_facts, &mut out);
            out.stats.passes += 1;
            start = end;
        }
        out
    }

    /// One pass over the facts in `range`: framed ones (kept per frame level) or
    /// program-wide ones (one level).
    fn pass(&self, range: Range<u32>, framed: bool, out: &mut Frequencies) {
        let p = self.problem;
        let width = (range.end - range.start) as usize;
        let off = range.start;
        let levels_of = |s: Sym| -> usize {
            match s {
                Sym::T(crate::Terminal(t)) => {
                    if framed {
                        self.terminal_levels[t as usize] as usize
                    } else {
                        usize::from(self.terminal_points[t as usize])
                    }
                }
                Sym::N(RuleId(r)) => {
                    if framed {
                        self.rule_levels[r as usize] as usize
                    } else {
                        usize::from(self.rule_points[r as usize])
                    }
                }
            }
        };
        // Entry counts per symbol with points: `levels × width`, level-major.
        let mut rule_in: Vec<Vec<u64>> = vec![Vec::new(); self.grammar.rules.len()];
        let mut term_in: Vec<Vec<u64>> = vec![Vec::new(); p.terminals.len()];
        let (mut alive, mut peak) = (0usize, 0usize);
        if levels_of(Sym::N(RuleId(0))) > 0 {
            let mut v = vec![0u64; width];
            let start = if framed { &p.frame_entry } else { &p.initial };
            for &d in in_range(start, &range) {
                v[(d - off) as usize] = 1;
            }
            alive += v.len();
            rule_in[0] = v;
        }
        for &RuleId(r) in &self.order {
            if !self.rule_points[r as usize] {
                continue;
            }
            let f = self.freq[r as usize];
            let parent = std::mem::take(&mut rule_in[r as usize]);
            // The summed states as the rule's children are entered, one after the other:
            // program-wide facts in one vector; framed facts as the stack of frames the
            // rule's points can read (innermost last), below which lie `virtual_pops`
            // frames no point of the rule reads.
            let mut running: Vec<Vec<u64>> = if framed {
                (0..parent.len() / width.max(1)).rev().map(|l| parent[l * width..(l + 1) * width].to_vec()).collect()
            } else {
                vec![parent.clone()]
            };
            let mut prev = u32::MAX;
            for &s in &self.grammar.rules[r as usize] {
                let (fst, lst) = match s {
                    Sym::T(crate::Terminal(t)) => (t, t),
                    Sym::N(RuleId(c)) => (self.first[c as usize], self.last[c as usize]),
                };
                if prev != u32::MAX && !self.junction_summary.is_empty() {
                    if let Some(j) = self.junction_summary.get(&(prev, fst)) {
                        advance(&mut running, j, framed, &range, f);
                    }
                }
                prev = lst;
                let nl = levels_of(s);
                if nl > 0 {
                    let dest = match s {
                        Sym::T(crate::Terminal(t)) => &mut term_in[t as usize],
                        Sym::N(RuleId(c)) => &mut rule_in[c as usize],
                    };
                    if dest.is_empty() {
                        *dest = vec![0u64; nl * width];
                        alive += nl * width;
                        peak = peak.max(alive);
                    }
                    for l in 0..nl {
                        let src = &running[running.len() - 1 - l];
                        add(&mut dest[l * width..(l + 1) * width], src);
                    }
                }
                let sum = match s {
                    Sym::T(crate::Terminal(t)) => &self.terminal_summary[t as usize],
                    Sym::N(RuleId(c)) => &self.rule_summary[c as usize],
                };
                if !sum.is_identity() {
                    advance(&mut running, sum, framed, &range, f);
                }
            }
            alive -= parent.len();
        }
        out.stats.peak_counts = out.stats.peak_counts.max(peak);
        // Along each terminal's path.
        let mut acc: Vec<Vec<u64>> = vec![Vec::new(); p.points as usize];
        for (t, term) in p.terminals.iter().enumerate() {
            let n = self.terminal_count[t];
            if n == 0 || !self.terminal_points[t] {
                continue;
            }
            let mut counts = vec![0u64; width];
            // Points outside the framed function see no framed facts.
            if !framed || term.framed {
                counts.copy_from_slice(&term_in[t][..width]);
            }
            for s in &term.steps {
                if let Some(pt) = s.point {
                    let a = &mut acc[pt as usize];
                    if a.is_empty() {
                        *a = vec![0u64; width];
                    }
                    add(a, &counts);
                }
                s.transfer.apply_counts(&mut counts, off, n);
            }
        }
        for (pt, a) in acc.into_iter().enumerate() {
            out.holds[pt].extend(a.into_iter().enumerate().filter(|&(_, c)| c > 0).map(|(i, c)| (off + i as u32, c)));
        }
    }
}

/// Moves summed states past a symbol: `running` holds the program-wide counts (one
/// vector), or the framed counts of the frames still readable (innermost last), each out
/// of `n` states.
fn advance(running: &mut Vec<Vec<u64>>, sum: &Summary, framed: bool, range: &Range<u32>, n: u64) {
    let off = range.start;
    if !framed {
        sum.global.apply_counts(&mut running[0], off, n);
        return;
    }
    // Frames left: a frame below the readable ones is one no later point reads.
    let pops = (sum.pops as usize).min(running.len());
    running.truncate(running.len() - pops);
    if let Some(top) = running.last_mut() {
        sum.frame.apply_counts(top, off, n);
    }
    let width = (range.end - range.start) as usize;
    for state in &sum.pushed {
        let mut v = vec![0u64; width];
        for &d in in_range(state, range) {
            v[(d - off) as usize] = n;
        }
        running.push(v);
    }
}

fn add(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d += s;
    }
}

/// The abstract run: the facts simulated along the expanded trace, frame by frame, every
/// point's state counted as it executes — the slow, obviously right computation the
/// grammar one must equal (`Mehofer & Scholz`'s abstract run; time proportional to the
/// run).
pub fn abstract_run(trace: impl IntoIterator<Item = u32>, problem: &Problem) -> Result<Frequencies, DffError> {
    let n = problem.facts as usize;
    let mut global = vec![false; n];
    for &d in &problem.initial {
        global[d as usize] = true;
    }
    let fresh = || {
        let mut f = vec![false; n];
        for &d in &problem.frame_entry {
            f[d as usize] = true;
        }
        f
    };
    let mut frames: Vec<Vec<bool>> = Vec::new();
    if problem.open_at_start {
        frames.push(fresh());
    }
    let mut executions = vec![0u64; problem.points as usize];
    let mut holds = vec![vec![0u64; n]; problem.points as usize];
    let mut prev: Option<u32> = None;
    for t in trace {
        let term = problem.terminals.get(t as usize).ok_or(DffError::NoTerminal(t))?;
        if let Some(j) = prev.and_then(|p| problem.junctions.get(&(p, t))) {
            if j.closes && frames.pop().is_none() {
                return Err(DffError::Unbalanced);
            }
            for &d in j.transfer.kill() {
                global[d as usize] = false;
            }
            for &d in j.transfer.gen() {
                global[d as usize] = true;
            }
            if j.opens {
                frames.push(fresh());
            }
        }
        prev = Some(t);
        for s in &term.steps {
            if let Some(pt) = s.point {
                executions[pt as usize] += 1;
                for d in 0..n {
                    let holds_now = if (d as u32) < problem.frame_facts { term.framed && frames.last().is_some_and(|f| f[d]) } else { global[d] };
                    if holds_now {
                        holds[pt as usize][d] += 1;
                    }
                }
            }
            for &d in s.transfer.kill() {
                set(d, false, problem, term.framed, &mut frames, &mut global)?;
            }
            for &d in s.transfer.gen() {
                set(d, true, problem, term.framed, &mut frames, &mut global)?;
            }
        }
    }
    let holds = holds.into_iter().map(|h| h.into_iter().enumerate().filter(|&(_, c)| c > 0).map(|(d, c)| (d as u32, c)).collect()).collect();
    Ok(Frequencies { executions, holds, stats: Stats::default() })
}

fn set(d: u32, v: bool, problem: &Problem, framed: bool, frames: &mut [Vec<bool>], global: &mut [bool]) -> Result<(), DffError> {
    if d < problem.frame_facts {
        if !framed {
            return Ok(());
        }
        let f = frames.last_mut().ok_or(DffError::Unbalanced)?;
        f[d as usize] = v;
    } else {
        global[d as usize] = v;
    }
    Ok(())
}
