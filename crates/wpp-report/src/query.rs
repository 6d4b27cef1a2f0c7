//! Questions about a whole program path, answered on the grammar's DAG: how often a
//! sequence of paths ran, whether one path ran before another, what ran around a path.

use serde::Serialize;

use crate::row::brief_paths;
use crate::{Dag, Error, PathRow, Top, Truncation};

/// How often a sequence of paths ran consecutively; JSON `{"sequence", "frequency",
/// "disjoint"}`: every occurrence, overlapping ones included (as `wpp hot` counts a
/// subpath's frequency), and those that fit side by side, counted left to right.
#[derive(Serialize)]
pub struct Freq {
    #[serde(serialize_with = "brief_paths")]
    pub sequence: Vec<PathRow>,
    pub frequency: u64,
    pub disjoint: u64,
}

/// Whether P ran before an execution of Q; JSON `{"before", "first_p", "last_q"}` (event
/// positions, null if the path never ran).
#[derive(Serialize)]
pub struct Before {
    pub before: bool,
    pub first_p: Option<u64>,
    pub last_q: Option<u64>,
}

/// One context of a path: the paths before and after it, and how often.
#[derive(Serialize)]
pub struct ContextRow {
    pub count: u64,
    #[serde(serialize_with = "brief_paths")]
    pub before: Vec<PathRow>,
    #[serde(serialize_with = "brief_paths")]
    pub after: Vec<PathRow>,
}

/// The contexts of a path, most frequent first; JSON `{"path", "executions", "contexts",
/// "truncated", "total_contexts"}` (see [`Truncation`]).
#[derive(Serialize)]
pub struct Contexts {
    pub path: String,
    /// Executions of the path: the counts of all its contexts, listed or not.
    pub executions: u64,
    /// Distinct contexts, as many as asked for.
    pub contexts: Vec<ContextRow>,
    #[serde(flatten)]
    pub truncation: Truncation,
}

/// How often the paths `specs` (`FUNCTION:PATH_ID`) ran consecutively, in this order.
pub fn freq(dag: &Dag, specs: &[String]) -> Result<Freq, Error> {
    let parsed: Vec<_> = specs.iter().map(|p| dag.parse_path(p)).collect::<Result<_, _>>()?;
    let (frequency, disjoint) = match parsed.iter().map(|x| x.1.map(wpp_grammar::Terminal)).collect::<Option<Vec<_>>>() {
        Some(seq) => {
            let disjoint = wpp_grammar::disjoint_occurrences(&dag.grammar, &seq);
            (wpp_grammar::PatternCounts::count(&dag.grammar, &dag.grammar.rule_frequencies(), &[seq]).pattern(0), disjoint)
        }
        None => (0, 0),
    };
    Ok(Freq { sequence: parsed.iter().map(|x| dag.describe_path(x.0)).collect(), frequency, disjoint })
}

/// Whether path `p` ever ran before an execution of path `q`.
pub fn before(dag: &Dag, p: &str, q: &str) -> Result<Before, Error> {
    dag.one_run("`query before`")?;
    let (tp, tq) = (dag.parse_path(p)?.1, dag.parse_path(q)?.1);
    let first_p = tp.and_then(|t| wpp_grammar::first_and_last(&dag.grammar, wpp_grammar::Terminal(t))).map(|(f, _)| f);
    let last_q = tq.and_then(|t| wpp_grammar::first_and_last(&dag.grammar, wpp_grammar::Terminal(t))).map(|(_, l)| l);
    Ok(Before { before: matches!((first_p, last_q), (Some(f), Some(l)) if f < l), first_p, last_q })
}

/// The `k` paths before and after every execution of path `p`, aggregated, most frequent
/// first; the first `top` contexts described.
pub fn contexts(dag: &Dag, p: &str, k: usize, top: Top) -> Result<Contexts, Error> {
    dag.one_run("`query context`")?;
    let t = dag.parse_path(p)?.1;
    let mut found = t.map(|t| wpp_grammar::contexts(&dag.grammar, wpp_grammar::Terminal(t), k)).unwrap_or_default();
    let executions = found.iter().map(|c| c.1).sum();
    let mut truncation = Truncation::default();
    truncation.cut("contexts", &mut found, top);
    let contexts = found
        .iter()
        .map(|((b, a), count)| ContextRow {
            count: *count,
            before: b.iter().map(|&t| dag.describe(t.0)).collect(),
            after: a.iter().map(|&t| dag.describe(t.0)).collect(),
        })
        .collect();
    Ok(Contexts { path: p.to_string(), executions, contexts, truncation })
}
