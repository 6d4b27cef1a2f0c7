//! Line, function and branch coverage as an lcov tracefile (what `genhtml`, editors'
//! coverage gutters and coverage services read), from the path counts.
//!
//! - `DA:LINE,COUNT`: the executions of the blocks that count on the line, by the rule of
//!   `wpp annotate` ([`wpp_report::annotate::block_lines`]).
//! - `FN:LINE,NAME` / `FNDA:COUNT,NAME`: a function at its entry block's first line, with
//!   its invocations: exact with the whole program path (the calling context tree);
//!   from path counts alone, the executions of the paths that start at its entry block,
//!   which also count the iterations of a loop whose header is the entry block.
//! - `BRDA:LINE,BLOCK,BRANCH,TAKEN`: each block that ends in a branch (two or more
//!   edges inside the function), at its last line, one record per edge with its count,
//!   `-` when the block never ran. A block one of whose edges path counts alone cannot
//!   tell is left out (see [`wpp_report::heat`]); [`Lcov::unknown_branches`] counts them.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rustc_hash::FxHashMap;
use wpp_model::{BlockIdx, EdgeKind, FuncIdx, Target};
use wpp_profile::Profile;

use crate::tables::{heats, paths_by_function};
use crate::walk::Walk;

/// A tracefile and what it holds.
pub struct Lcov {
    pub text: String,
    /// Lines with a `DA` record, and those executed.
    pub lines: usize,
    pub lines_hit: usize,
    /// Functions with an `FN` record, and those invoked.
    pub functions: usize,
    pub functions_hit: usize,
    /// `BRDA` records, and those taken.
    pub branches: usize,
    pub branches_hit: usize,
    /// Branch blocks left out: an edge's count is unknown without the whole program path.
    pub unknown_branches: usize,
}

#[derive(Default)]
struct File {
    /// (line, name, invocations)
    functions: Vec<(u32, String, u64)>,
    /// line -> (block, [taken]) in order
    branches: BTreeMap<u32, Vec<Vec<Option<u64>>>>,
}

/// The test name of the profile at `path` in a tracefile: its file stem, every character
/// but letters, digits and `_` made `_` (`wpp` without a stem).
pub fn test_name(path: &std::path::Path) -> String {
    path.file_stem().map_or("wpp".into(), |s| s.to_string_lossy().replace(|c: char| !c.is_ascii_alphanumeric() && c != '_', "_"))
}

/// The tracefile of `p` (test name `test`), with the calls of `walk` when it has a whole
/// program path.
pub fn lcov(p: &Profile, test: &str, walk: Option<&Walk>) -> Lcov {
    let Some(src) = &p.source else {
        return Lcov { text: String::new(), lines: 0, lines_hit: 0, functions: 0, functions_hit: 0, branches: 0, branches_hit: 0, unknown_branches: 0 };
    };
    let mut files: BTreeMap<u32, File> = BTreeMap::new();
    // Invocations.
    let mut calls: FxHashMap<FuncIdx, u64> = FxHashMap::default();
    match walk {
        Some(w) => {
            for n in &w.tree.nodes {
                if let Some(f) = n.func {
                    *calls.entry(f).or_default() += n.calls;
                }
            }
        }
        None => {
            for c in &p.counts {
                if p.path_blocks(c.func, c.path).and_then(|b| b.first().copied()) == Some(BlockIdx(0)) {
                    *calls.entry(c.func).or_default() += c.count;
                }
            }
        }
    }
    for (i, f) in p.meta.functions.iter().enumerate() {
        let func = FuncIdx(i as u32);
        let Some(cfg) = &f.cfg else { continue };
        let entry = (0..cfg.blocks.len() as u32).find_map(|b| src.block(func, BlockIdx(b)));
        if let Some(r) = entry {
            files.entry(r.file).or_default().functions.push((r.first, f.name.clone(), calls.get(&func).copied().unwrap_or(0)));
        }
    }
    // Branches.
    let by_func = paths_by_function(p);
    let heat: FxHashMap<FuncIdx, _> = heats(p, &by_func, walk).into_iter().collect();
    let mut unknown = 0;
    for (i, f) in p.meta.functions.iter().enumerate() {
        let func = FuncIdx(i as u32);
        let Some(cfg) = &f.cfg else { continue };
        let mut out: Vec<Vec<usize>> = vec![Vec::new(); cfg.blocks.len()];
        for (e, edge) in cfg.edges.iter().enumerate() {
            if matches!(edge.kind, EdgeKind::Forward | EdgeKind::Back) && matches!(edge.to, Target::Block(_)) {
                out[edge.from.idx()].push(e);
            }
        }
        for (b, edges) in out.iter().enumerate().filter(|(_, e)| e.len() >= 2) {
            let Some(r) = src.block(func, BlockIdx(b as u32)) else { continue };
            let taken: Vec<Option<u64>> = match heat.get(&func) {
                // A function that never ran: its blocks never ran.
                None => vec![None; edges.len()],
                Some(h) if h.blocks[b] == 0 => vec![None; edges.len()],
                Some(h) => {
                    let t: Option<Vec<u64>> = edges.iter().map(|&e| h.edges[e]).collect();
                    match t {
                        Some(t) => t.into_iter().map(Some).collect(),
                        None => {
                            unknown += 1;
                            continue;
                        }
                    }
                }
            };
            files.entry(r.file).or_default().branches.entry(r.last).or_default().push(taken);
        }
    }
    // Lines.
    let lines = wpp_report::annotate::program_lines(p);
    let mut by_file: BTreeMap<u32, Vec<(u32, u64)>> = BTreeMap::new();
    for ((file, line), c) in lines {
        by_file.entry(file).or_default().push((line, c.executions));
        files.entry(file).or_default();
    }
    let mut l = Lcov { text: String::new(), lines: 0, lines_hit: 0, functions: 0, functions_hit: 0, branches: 0, branches_hit: 0, unknown_branches: unknown };
    let t = &mut l.text;
    for (file, f) in &mut files {
        let name = src.files.get(*file as usize).cloned().unwrap_or_else(|| format!("file[{file}]"));
        let _ = writeln!(t, "TN:{test}\nSF:{name}");
        f.functions.sort();
        for (line, name, _) in &f.functions {
            let _ = writeln!(t, "FN:{line},{name}");
        }
        for (_, name, n) in &f.functions {
            let _ = writeln!(t, "FNDA:{n},{name}");
        }
        let hit = f.functions.iter().filter(|x| x.2 > 0).count();
        let _ = writeln!(t, "FNF:{}\nFNH:{hit}", f.functions.len());
        (l.functions, l.functions_hit) = (l.functions + f.functions.len(), l.functions_hit + hit);
        let (mut brf, mut brh) = (0, 0);
        for (line, blocks) in &f.branches {
            for (b, taken) in blocks.iter().enumerate() {
                for (e, n) in taken.iter().enumerate() {
                    let n = n.map_or("-".to_owned(), |n| n.to_string());
                    let _ = writeln!(t, "BRDA:{line},{b},{e},{n}");
                }
                brf += taken.len();
                brh += taken.iter().filter(|n| n.unwrap_or(0) > 0).count();
            }
        }
        let _ = writeln!(t, "BRF:{brf}\nBRH:{brh}");
        (l.branches, l.branches_hit) = (l.branches + brf, l.branches_hit + brh);
        let da = by_file.remove(file).unwrap_or_default();
        for (line, n) in &da {
            let _ = writeln!(t, "DA:{line},{n}");
        }
        let hit = da.iter().filter(|x| x.1 > 0).count();
        let _ = writeln!(t, "LF:{}\nLH:{hit}\nend_of_record", da.len());
        (l.lines, l.lines_hit) = (l.lines + da.len(), l.lines_hit + hit);
    }
    l
}
