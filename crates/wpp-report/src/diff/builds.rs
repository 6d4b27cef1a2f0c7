//! Two builds of one program compared: functions matched by name, paths by their blocks'
//! source lines, and what could not be matched said.
//!
//! A function is matched when each build has exactly one function of its name with a
//! body. A path of a matched function is keyed by its source lines (`FILE:FIRST-LAST`
//! runs, as [`crate::source_of`] gives them); paths of one build with the same key are
//! one row, and a row is matched when both builds have the key. A path with a block
//! without source lines cannot be keyed, nor can any path of a module without DWARF; its
//! function's totals still count it.

use std::collections::{BTreeMap, HashMap};

use serde::Serialize;
use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::Profile;

use super::{FunctionDiff, PathDiff};
use crate::row::path_instructions;
use crate::PathRow;

/// What one build ran that could not be matched with the other.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Unmatched {
    /// Functions that ran whose name the other build has not (or has more than once).
    pub functions: Vec<String>,
    /// Their executions and instructions.
    pub function_executions: u64,
    pub function_instructions: u64,
    /// Distinct paths of matched functions without source lines for every block.
    pub lineless_paths: usize,
    pub lineless_executions: u64,
    pub lineless_instructions: u64,
}

impl Unmatched {
    /// What build `side` ran that could not be matched, a sentence each (none if nothing).
    pub fn sentences(&self, side: &str) -> Vec<String> {
        let mut out = Vec::new();
        if !self.functions.is_empty() {
            let names = self.functions.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
            let more = if self.functions.len() > 5 { format!(" and {} more", self.functions.len() - 5) } else { String::new() };
            out.push(format!(
                "not matched in {side}: {} functions ({names}{more}) whose name the other build lacks or a build has twice, {} instructions",
                self.functions.len(),
                crate::format::group(self.function_instructions)
            ));
        }
        if self.lineless_paths > 0 {
            out.push(format!(
                "not matched in {side}: {} paths with a block without source lines, {} instructions",
                self.lineless_paths,
                crate::format::group(self.lineless_instructions)
            ));
        }
        out
    }
}

/// The names of `p`'s functions with a body that no other function of `p` shares.
fn unique_names(p: &Profile) -> HashMap<&str, FuncIdx> {
    let mut seen: HashMap<&str, Option<FuncIdx>> = HashMap::new();
    for (i, f) in p.meta.functions.iter().enumerate().filter(|(_, f)| f.cfg.is_some()) {
        seen.entry(f.name.as_str()).and_modify(|x| *x = None).or_insert(Some(FuncIdx(i as u32)));
    }
    seen.into_iter().filter_map(|(n, f)| Some((n, f?))).collect()
}

/// A path's key: its source lines, when every block has some.
fn key(p: &Profile, e: PathEvent) -> Option<String> {
    let map = p.source.as_ref()?;
    let blocks = p.path_blocks(e.func, e.path)?;
    blocks.iter().all(|&b| map.block(e.func, b).is_some()).then(|| crate::source_of(p, e.func, e.path).join(" "))
}

/// One row being summed: per side (executions, instructions, a path of it).
#[derive(Default)]
struct Row {
    count: [u64; 2],
    instructions: [u64; 2],
    path: [Option<PathEvent>; 2],
}

/// The functions and paths of `a` and `b` matched as the module documentation says, and
/// what each build ran that was not.
pub fn matched(a: &Profile, b: &Profile) -> (Vec<FunctionDiff>, Vec<PathDiff>, [Unmatched; 2]) {
    let sides = [a, b];
    let names = [unique_names(a), unique_names(b)];
    let mut unmatched = [Unmatched::default(), Unmatched::default()];
    let mut functions: BTreeMap<String, FunctionDiff> = BTreeMap::new();
    let mut rows: BTreeMap<(String, String), Row> = BTreeMap::new();
    for (s, p) in sides.iter().enumerate() {
        let other = &names[1 - s];
        let mut lost: BTreeMap<String, ()> = BTreeMap::new();
        for c in p.counts.iter().filter(|c| c.count > 0) {
            let e = PathEvent { func: c.func, path: c.path };
            let name = p.meta.func_name(c.func);
            let instrs = path_instructions(p, e).saturating_mul(c.count);
            let u = &mut unmatched[s];
            if !(names[s].get(name.as_str()) == Some(&c.func) && other.contains_key(name.as_str())) {
                lost.insert(name, ());
                u.function_executions += c.count;
                u.function_instructions = u.function_instructions.saturating_add(instrs);
                continue;
            }
            let f = functions.entry(name.clone()).or_insert_with(|| FunctionDiff {
                function: name.clone(),
                function_index: names[0][name.as_str()].0,
                function_index_b: Some(names[1][name.as_str()].0),
                executions_a: 0,
                executions_b: 0,
                instructions_a: 0,
                instructions_b: 0,
                change: 0,
            });
            let (ex, ins) = if s == 0 { (&mut f.executions_a, &mut f.instructions_a) } else { (&mut f.executions_b, &mut f.instructions_b) };
            *ex += c.count;
            *ins = ins.saturating_add(instrs);
            f.change = f.instructions_b as i128 - f.instructions_a as i128;
            match key(p, e) {
                Some(k) => {
                    let r = rows.entry((name, k)).or_default();
                    r.count[s] += c.count;
                    r.instructions[s] = r.instructions[s].saturating_add(instrs);
                    r.path[s].get_or_insert(e);
                }
                None => {
                    u.lineless_paths += 1;
                    u.lineless_executions += c.count;
                    u.lineless_instructions = u.lineless_instructions.saturating_add(instrs);
                }
            }
        }
        unmatched[s].functions = lost.into_keys().collect();
    }
    let paths = rows
        .into_values()
        .map(|r| {
            let (s, e) = match r.path {
                [Some(e), _] => (0, e),
                [None, Some(e)] => (1, e),
                [None, None] => unreachable!("a row has a path of one side"),
            };
            PathDiff {
                path: PathRow::new(sides[s], e, None),
                path_id_b: r.path[1].map(|e| e.path.0),
                count_a: r.count[0],
                count_b: r.count[1],
                instructions_a: r.instructions[0],
                instructions_b: r.instructions[1],
                change: r.instructions[1] as i128 - r.instructions[0] as i128,
                only: match r.count {
                    [_, 0] => Some("a"),
                    [0, _] => Some("b"),
                    _ => None,
                },
            }
        })
        .collect();
    (functions.into_values().collect(), paths, unmatched)
}
