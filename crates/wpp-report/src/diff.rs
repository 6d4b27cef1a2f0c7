//! Two runs side by side: per function and per path, each side's executions and
//! instructions, and the change from the first to the second. Runs of one module are
//! matched path by path; runs of two builds of a program by function name and source
//! lines (module `builds`).

pub mod builds;

use serde::Serialize;
use wpp_profile::Profile;

use crate::row::path_instructions;
use crate::{Error, PathRow, Top, Truncation};

/// One path in both runs.
#[derive(Debug, Serialize)]
pub struct PathDiff {
    /// The path (in the first run's module, unless only the second ran it).
    #[serde(flatten)]
    pub path: PathRow,
    /// Two builds: a path of the second build's with the same source lines (null if none
    /// ran); absent for one module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path_id_b: Option<u64>,
    /// Executions in the first run and in the second (0 where it did not run).
    pub count_a: u64,
    pub count_b: u64,
    /// Instructions the path executed in each run (count × instructions per run).
    pub instructions_a: u64,
    pub instructions_b: u64,
    /// `instructions_b - instructions_a`.
    pub change: i128,
    /// `a` or `b` for a path only that run executed; null for a path both did.
    pub only: Option<&'static str>,
}

/// One function in both runs: its paths' executions and instructions added up.
#[derive(Debug, Serialize)]
pub struct FunctionDiff {
    pub function: String,
    pub function_index: u32,
    /// Two builds: its index in the second build's module; absent for one module.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub function_index_b: Option<u32>,
    pub executions_a: u64,
    pub executions_b: u64,
    pub instructions_a: u64,
    pub instructions_b: u64,
    pub change: i128,
}

/// A diff of two runs, paths and functions sorted by the size of the change in
/// instructions (largest first).
#[derive(Debug, Serialize)]
pub struct Diff {
    pub profile_a: String,
    pub profile_b: String,
    /// The run of a merged profile compared, when one was chosen (set by the caller).
    pub run_a: Option<usize>,
    pub run_b: Option<usize>,
    /// `module` (one module: paths by number) or `source lines` (two builds: functions by
    /// name, paths by source lines).
    pub matched_by: &'static str,
    /// Two builds: what each ran that could not be matched (absent for one module).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_a: Option<builds::Unmatched>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unmatched_b: Option<builds::Unmatched>,
    pub executions_a: u64,
    pub executions_b: u64,
    pub instructions_a: u64,
    pub instructions_b: u64,
    /// Distinct paths only the first run executed, and only the second.
    pub only_a: usize,
    pub only_b: usize,
    pub functions: Vec<FunctionDiff>,
    pub paths: Vec<PathDiff>,
    #[serde(flatten)]
    pub truncation: Truncation,
}

impl Diff {
    /// Keeps the first `top` functions and paths (of those kept so far), and says so.
    pub fn cut(&mut self, top: Top) {
        self.truncation = Truncation::default();
        self.truncation.cut("functions", &mut self.functions, top);
        self.truncation.cut("paths", &mut self.paths, top);
    }

    /// The two runs as reports name them: `FILE`, or `FILE (run N)` of a merged profile.
    pub fn labels(&self) -> [String; 2] {
        let name = |file: &str, run: Option<usize>| run.map_or(file.to_owned(), |n| format!("{file} (run {n})"));
        [name(&self.profile_a, self.run_a), name(&self.profile_b, self.run_b)]
    }

    /// Two builds: what could not be matched, a sentence each, side by side (`A`, `B`).
    pub fn unmatched(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (side, u) in [("A", &self.unmatched_a), ("B", &self.unmatched_b)] {
            out.extend(u.as_ref().into_iter().flat_map(|u| u.sentences(side)));
        }
        out
    }
}

/// The diff of `a` and `b`, the first `top` paths and functions described: runs of one
/// module (by the module's SHA-256, numbered alike) path by path; otherwise, as two builds
/// of a program, by function name and source lines ([`builds`]).
pub fn diff(a: &Profile, b: &Profile, top: Top) -> Result<Diff, Error> {
    a.require_program("diff")?;
    b.require_program("diff")?;
    let (ida, idb) = (a.module_id()?, b.module_id()?);
    // The same code, numbered alike (a profile of an older wpp may count instructions
    // otherwise).
    let same_code = a.meta.functions.len() == b.meta.functions.len()
        && a.meta.functions.iter().zip(&b.meta.functions).all(|(f, g)| {
            f.name == g.name
                && match (&f.cfg, &g.cfg) {
                    (Some(x), Some(y)) => x.same_code(y),
                    (x, y) => x.is_none() && y.is_none(),
                }
        });
    let same = ida.is_some() && ida == idb && a.meta.max_paths == b.meta.max_paths && same_code;
    let (functions, paths, unmatched) = if same {
        let (f, p) = one_module(a, b);
        (f, p, None)
    } else {
        let (f, p, u) = builds::matched(a, b);
        (f, p, Some(u))
    };
    Ok(sorted(a, b, functions, paths, unmatched, top))
}

/// Functions and paths of two runs of one module.
fn one_module(a: &Profile, b: &Profile) -> (Vec<FunctionDiff>, Vec<PathDiff>) {
    let rows = wpp_profile::merge::side_by_side(&a.counts, &b.counts);
    let mut functions: Vec<FunctionDiff> = Vec::new();
    let mut paths: Vec<PathDiff> = Vec::with_capacity(rows.len());
    for &(e, count_a, count_b) in &rows {
        let per_run = path_instructions(a, e);
        let (instructions_a, instructions_b) = (per_run.saturating_mul(count_a), per_run.saturating_mul(count_b));
        let only = match (count_a, count_b) {
            (_, 0) => Some("a"),
            (0, _) => Some("b"),
            _ => None,
        };
        if functions.last().is_none_or(|f| f.function_index != e.func.0) {
            functions.push(FunctionDiff {
                function: a.meta.func_name(e.func),
                function_index: e.func.0,
                function_index_b: None,
                executions_a: 0,
                executions_b: 0,
                instructions_a: 0,
                instructions_b: 0,
                change: 0,
            });
        }
        let f = functions.last_mut().expect("pushed above");
        f.executions_a += count_a;
        f.executions_b += count_b;
        f.instructions_a = f.instructions_a.saturating_add(instructions_a);
        f.instructions_b = f.instructions_b.saturating_add(instructions_b);
        f.change = f.instructions_b as i128 - f.instructions_a as i128;
        paths.push(PathDiff {
            path: PathRow::new(a, e, None),
            path_id_b: None,
            count_a,
            count_b,
            instructions_a,
            instructions_b,
            change: instructions_b as i128 - instructions_a as i128,
            only,
        });
    }
    (functions, paths)
}

/// The diff of the rows, sorted by the size of the change, the first `top` kept.
fn sorted(a: &Profile, b: &Profile, mut functions: Vec<FunctionDiff>, mut paths: Vec<PathDiff>, unmatched: Option<[builds::Unmatched; 2]>, top: Top) -> Diff {
    let only_a = paths.iter().filter(|p| p.only == Some("a")).count();
    let only_b = paths.iter().filter(|p| p.only == Some("b")).count();
    let by_change = |x: i128, fx: u32, px: u64, y: i128, fy: u32, py: u64| y.abs().cmp(&x.abs()).then(fx.cmp(&fy)).then(px.cmp(&py));
    paths.sort_by(|x, y| by_change(x.change, x.path.function_index, x.path.path_id, y.change, y.path.function_index, y.path.path_id));
    functions.sort_by(|x, y| by_change(x.change, x.function_index, 0, y.change, y.function_index, 0));
    // Whole runs: what was matched and what was not.
    let total = |f: fn(&FunctionDiff) -> u64| functions.iter().map(f).fold(0u64, u64::saturating_add);
    let lost = |s: usize, f: fn(&builds::Unmatched) -> u64| unmatched.as_ref().map_or(0, |u| f(&u[s]));
    let executions_a = total(|f| f.executions_a) + lost(0, |u| u.function_executions);
    let executions_b = total(|f| f.executions_b) + lost(1, |u| u.function_executions);
    let instructions_a = total(|f| f.instructions_a).saturating_add(lost(0, |u| u.function_instructions));
    let instructions_b = total(|f| f.instructions_b).saturating_add(lost(1, |u| u.function_instructions));

    let matched_by = if unmatched.is_some() { "source lines" } else { "module" };
    let [unmatched_a, unmatched_b] = unmatched.map_or([None, None], |[x, y]| [Some(x), Some(y)]);
    let mut d = Diff {
        profile_a: a.path.display().to_string(),
        profile_b: b.path.display().to_string(),
        run_a: None,
        run_b: None,
        matched_by,
        unmatched_a,
        unmatched_b,
        executions_a,
        executions_b,
        instructions_a,
        instructions_b,
        only_a,
        only_b,
        functions,
        paths,
        truncation: Truncation::default(),
    };
    d.cut(top);
    d
}
