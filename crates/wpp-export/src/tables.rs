//! A profile as tables of plain values, column by column, following [`crate::schema`].
//! Pure: the writer (module `parquet`) puts them on disk.

use rustc_hash::{FxHashMap, FxHashSet};
use wpp_model::{BlockIdx, FuncIdx, PathEvent, Target};
use wpp_profile::{Profile, RecordMode};
use wpp_report::export::{kind, EndingRow};
use wpp_report::heat::Heat;
use wpp_report::HotSubpaths;

use crate::schema::{self, TableSpec, Type};
use crate::walk::{path_costs, Walk};

/// A column's values (`None` only in columns the schema lets be null).
#[derive(Clone, Debug, PartialEq)]
pub enum Values {
    U32(Vec<Option<u32>>),
    U64(Vec<Option<u64>>),
    I64(Vec<Option<i64>>),
    F64(Vec<f64>),
    Bool(Vec<Option<bool>>),
    Str(Vec<Option<String>>),
    ListU32(Vec<Vec<u32>>),
    ListStr(Vec<Vec<String>>),
}

impl Values {
    pub fn ty(&self) -> Type {
        match self {
            Values::U32(_) => Type::U32,
            Values::U64(_) => Type::U64,
            Values::I64(_) => Type::I64,
            Values::F64(_) => Type::F64,
            Values::Bool(_) => Type::Bool,
            Values::Str(_) => Type::Str,
            Values::ListU32(_) => Type::ListU32,
            Values::ListStr(_) => Type::ListStr,
        }
    }

    pub fn len(&self) -> usize {
        match self {
            Values::U32(v) => v.len(),
            Values::U64(v) => v.len(),
            Values::I64(v) => v.len(),
            Values::F64(v) => v.len(),
            Values::Bool(v) => v.len(),
            Values::Str(v) => v.len(),
            Values::ListU32(v) => v.len(),
            Values::ListStr(v) => v.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether a value is null.
    pub fn has_null(&self) -> bool {
        match self {
            Values::U32(v) => v.iter().any(Option::is_none),
            Values::U64(v) => v.iter().any(Option::is_none),
            Values::I64(v) => v.iter().any(Option::is_none),
            Values::Bool(v) => v.iter().any(Option::is_none),
            Values::Str(v) => v.iter().any(Option::is_none),
            Values::F64(_) | Values::ListU32(_) | Values::ListStr(_) => false,
        }
    }
}

/// One table: its schema and its columns, in the schema's order.
#[derive(Clone, Debug)]
pub struct Table {
    pub spec: &'static TableSpec,
    pub columns: Vec<Values>,
}

impl Table {
    fn new(name: &str, columns: Vec<Values>) -> Table {
        let spec = schema::table(name).expect("a table of the schema");
        debug_assert_eq!(spec.columns.iter().map(|c| c.ty).collect::<Vec<_>>(), columns.iter().map(Values::ty).collect::<Vec<_>>(), "{name}'s columns");
        Table { spec, columns }
    }

    pub fn rows(&self) -> usize {
        self.columns.first().map_or(0, Values::len)
    }

    /// The column named `name`.
    pub fn column(&self, name: &str) -> Option<&Values> {
        self.spec.columns.iter().position(|c| c.name == name).map(|i| &self.columns[i])
    }
}

/// Which run a run's tables describe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunInfo {
    /// The run's id: unique among the runs exported to one directory.
    pub id: String,
    /// What the user called the run (`test`, `field`, ...).
    pub label: Option<String>,
    /// The profile file.
    pub profile: String,
    /// Its number in a merged profile (from 1).
    pub index: Option<u32>,
}

fn some<T>(v: impl IntoIterator<Item = T>) -> Vec<Option<T>> {
    v.into_iter().map(Some).collect()
}

fn mode_name(m: RecordMode) -> &'static str {
    match m {
        RecordMode::Paths => "paths",
        RecordMode::Trace => "trace",
        RecordMode::Ppp => "ppp",
        _ => "grammar",
    }
}

/// Each function's paths that ran, with their blocks and counts.
pub fn paths_by_function(p: &Profile) -> FxHashMap<FuncIdx, Vec<(Vec<BlockIdx>, u64)>> {
    let mut by_func: FxHashMap<FuncIdx, Vec<(Vec<BlockIdx>, u64)>> = FxHashMap::default();
    for c in p.counts.iter().filter(|c| c.count > 0) {
        by_func.entry(c.func).or_default().push((p.path_blocks(c.func, c.path).unwrap_or_default(), c.count));
    }
    by_func
}

/// The block and edge counts of every function that ran (`by_func`, from
/// [`paths_by_function`]), by function index: from the path counts, and with the whole
/// program path (`walk`) also from its consecutive pairs, which tell the edges taken
/// between paths ([`wpp_report::heat`]).
pub fn heats(p: &Profile, by_func: &FxHashMap<FuncIdx, Vec<(Vec<BlockIdx>, u64)>>, walk: Option<&Walk>) -> Vec<(FuncIdx, Heat)> {
    let mut pairs_by_func: FxHashMap<FuncIdx, FxHashMap<(PathEvent, PathEvent), u64>> = FxHashMap::default();
    if let Some(w) = walk {
        for (&(a, b), &c) in w.pairs.iter().filter(|((a, b), _)| a.func == b.func) {
            pairs_by_func.entry(a.func).or_default().insert((a, b), c);
        }
    }
    let mut ran: Vec<FuncIdx> = by_func.keys().copied().collect();
    ran.sort();
    let mut out = Vec::new();
    for f in ran {
        let Some(cfg) = p.meta.functions.get(f.idx()).and_then(|x| x.cfg.as_ref()) else { continue };
        let cut = p.numberings.get(f).map_or(&[][..], |n| n.cut_points());
        let fp = walk.map(|_| pairs_by_func.get(&f).map(|pairs| wpp_report::heat::function_pairs(p, pairs, f)).unwrap_or_default());
        out.push((f, wpp_report::heat::heat(cfg, cut, &by_func[&f], fp.as_deref())));
    }
    out
}

/// The first 8 bytes of a module's SHA-256 (`module`, in hex) as a number.
pub fn module_key(module: &str) -> u64 {
    module.get(..16).and_then(|h| u64::from_str_radix(h, 16).ok()).unwrap_or(0)
}

/// The module's tables, `functions` and `blocks`, for the module whose SHA-256 is `module`.
pub fn module_tables(p: &Profile, module: &str) -> Vec<Table> {
    let (mut f_idx, mut names, mut imported, mut n_blocks, mut n_edges, mut n_paths) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    let (mut b_func, mut b_idx, mut start, mut end, mut instrs, mut file, mut first, mut last) =
        (vec![], vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
    for (i, f) in p.meta.functions.iter().enumerate() {
        let func = FuncIdx(i as u32);
        f_idx.push(func.0);
        names.push(f.name.clone());
        imported.push(f.cfg.is_none());
        n_blocks.push(f.cfg.as_ref().map_or(0, |c| c.blocks.len() as u32));
        n_edges.push(f.cfg.as_ref().map_or(0, |c| c.edges.len() as u32));
        n_paths.push(p.numberings.get(func).map(|n| n.n_paths()));
        for (b, block) in f.cfg.iter().flat_map(|c| c.blocks.iter()).enumerate() {
            let lines = p.source.as_ref().and_then(|s| Some((s, s.block(func, BlockIdx(b as u32))?)));
            b_func.push(func.0);
            b_idx.push(b as u32);
            start.push(block.start);
            end.push(block.end);
            instrs.push(block.n_instrs);
            file.push(lines.and_then(|(s, r)| s.files.get(r.file as usize).cloned()));
            first.push(lines.map(|(_, r)| r.first));
            last.push(lines.map(|(_, r)| r.last));
        }
    }
    let m = |n: usize| Values::Str(vec![Some(module.to_owned()); n]);
    vec![
        Table::new(
            "functions",
            vec![
                m(f_idx.len()),
                Values::U32(some(f_idx)),
                Values::Str(some(names)),
                Values::Bool(some(imported)),
                Values::U32(some(n_blocks)),
                Values::U32(some(n_edges)),
                Values::U64(n_paths),
            ],
        ),
        Table::new(
            "blocks",
            vec![
                m(b_func.len()),
                Values::U32(some(b_func)),
                Values::U32(some(b_idx)),
                Values::U32(some(start)),
                Values::U32(some(end)),
                Values::U32(some(instrs)),
                Values::Str(file),
                Values::U32(first),
                Values::U32(last),
            ],
        ),
    ]
}

/// A run's tables that `want` names, in the schema's order, `runs` (always) last: `paths`,
/// `edges`, `lines`; with a whole program path (`walk`) `call_tree`; a grammar run's
/// `hot_subpaths` (`hot`); a PPP run's `residual_paths`.
pub fn run_tables(p: &Profile, module: &str, run: &RunInfo, walk: Option<&Walk>, hot: Option<&HotSubpaths>, want: &dyn Fn(&str) -> bool) -> Vec<Table> {
    let want = |t: &str| t == "runs" || want(t);
    let costs = path_costs(p);
    let interesting: Option<FxHashSet<PathEvent>> =
        p.ppp.as_ref().map(|r| r.functions.iter().flat_map(|f| f.paths.iter().map(move |x| PathEvent { func: f.func, path: x.path })).collect());
    let mut out = Vec::new();
    let id = |n: usize| Values::Str(vec![Some(run.id.clone()); n]);

    // paths, and each function's paths for its edges.
    let mut by_func: FxHashMap<FuncIdx, Vec<(Vec<BlockIdx>, u64)>> = FxHashMap::default();
    let (mut func, mut path, mut count, mut instrs, mut blocks, mut is_int) = (vec![], vec![], vec![], vec![], vec![], vec![]);
    let mut total = 0u64;
    for c in p.counts.iter().filter(|c| c.count > 0) {
        let e = PathEvent { func: c.func, path: c.path };
        let bl = p.path_blocks(c.func, c.path).unwrap_or_default();
        let n = costs.get(&e).copied().unwrap_or(0);
        total = total.saturating_add(n.saturating_mul(c.count));
        func.push(c.func.0);
        path.push(c.path.0);
        count.push(c.count);
        instrs.push(n);
        blocks.push(bl.iter().map(|b| b.0).collect());
        is_int.push(interesting.as_ref().map(|s| s.contains(&e)));
        by_func.entry(c.func).or_default().push((bl, c.count));
    }
    let n = func.len();

    if want("paths") {
        out.push(Table::new(
            "paths",
            vec![
                id(n),
                Values::U32(some(func)),
                Values::U64(some(path)),
                Values::U64(some(count)),
                Values::U64(some(instrs)),
                Values::ListU32(blocks),
                Values::Bool(is_int),
            ],
        ));
    }

    // edges
    if want("edges") {
        let (mut func, mut edge, mut from, mut to, mut kinds, mut count) = (vec![], vec![], vec![], vec![], vec![], vec![]);
        for (f, h) in heats(p, &by_func, walk) {
            let cfg = p.meta.functions[f.idx()].cfg.as_ref().expect("a function with paths has a CFG");
            for (i, (e, c)) in cfg.edges.iter().zip(h.edges).enumerate() {
                func.push(f.0);
                edge.push(i as u32);
                from.push(e.from.0);
                to.push(match e.to {
                    Target::Block(b) => Some(b.0),
                    Target::Exit => None,
                });
                kinds.push(kind(e.kind).to_owned());
                count.push(c);
            }
        }
        let n = func.len();
        out.push(Table::new(
            "edges",
            vec![
                id(n),
                Values::U32(some(func)),
                Values::U32(some(edge)),
                Values::U32(some(from)),
                Values::U32(to),
                Values::Str(some(kinds)),
                Values::U64(count),
            ],
        ));
    }

    // lines
    if want("lines") {
        let files = p.source.as_ref().map_or(&[][..], |s| &s.files[..]);
        let lines = wpp_report::annotate::program_lines(p);
        let (mut file, mut line, mut execs, mut instrs) = (vec![], vec![], vec![], vec![]);
        for ((f, l), c) in lines {
            file.push(files.get(f as usize).cloned().unwrap_or_else(|| format!("file[{f}]")));
            line.push(l);
            execs.push(c.executions);
            instrs.push(c.instructions);
        }
        let n = file.len();
        out.push(Table::new("lines", vec![id(n), Values::Str(some(file)), Values::U32(some(line)), Values::U64(some(execs)), Values::U64(some(instrs))]));
    }

    if let Some(hot) = hot.filter(|_| want("hot_subpaths")) {
        let (mut rank, mut freq, mut cost, mut share, mut pos, mut func, mut path) = (vec![], vec![], vec![], vec![], vec![], vec![], vec![]);
        for (i, s) in hot.subpaths.iter().enumerate() {
            for (j, r) in s.paths.iter().enumerate() {
                rank.push(i as u32 + 1);
                freq.push(s.frequency);
                cost.push(s.cost);
                share.push(s.share);
                pos.push(j as u32);
                func.push(r.function_index);
                path.push(r.path_id);
            }
        }
        let n = rank.len();
        out.push(Table::new(
            "hot_subpaths",
            vec![
                id(n),
                Values::U32(some(rank)),
                Values::U64(some(freq)),
                Values::U64(some(cost)),
                Values::F64(share),
                Values::U32(some(pos)),
                Values::U32(some(func)),
                Values::U64(some(path)),
            ],
        ));
    }

    if let Some(set) = interesting.as_ref().filter(|_| want("residual_paths")) {
        let residual: Vec<_> = p.counts.iter().filter(|c| c.count > 0 && !set.contains(&PathEvent { func: c.func, path: c.path })).collect();
        let n = residual.len();
        out.push(Table::new(
            "residual_paths",
            vec![
                id(n),
                Values::U32(some(residual.iter().map(|c| c.func.0))),
                Values::U64(some(residual.iter().map(|c| c.path.0))),
                Values::U64(some(residual.iter().map(|c| c.count))),
            ],
        ));
    }

    if let Some(w) = walk.filter(|_| want("call_tree")) {
        let t = &w.tree;
        let inclusive = t.inclusive();
        let mut depth = vec![0u32; t.nodes.len()];
        for (i, n) in t.nodes.iter().enumerate().skip(1) {
            depth[i] = n.parent.map_or(0, |q| depth[q.0 as usize] + 1);
        }
        let n = t.nodes.len();
        out.push(Table::new(
            "call_tree",
            vec![
                id(n),
                Values::U32(some(0..n as u32)),
                Values::U32(t.nodes.iter().map(|x| x.parent.map(|q| q.0)).collect()),
                Values::U32(t.nodes.iter().map(|x| x.func.map(|f| f.0)).collect()),
                Values::U32(some(depth)),
                Values::U64(some(t.nodes.iter().map(|x| x.calls))),
                Values::U64(some(t.nodes.iter().map(|x| x.paths))),
                Values::U64(some(t.nodes.iter().map(|x| x.own))),
                Values::U64(some(inclusive)),
            ],
        ));
    }

    let ending = EndingRow::of(&p.meta.ending);
    out.push(Table::new(
        "runs",
        vec![
            id(1),
            Values::Str(vec![run.label.clone()]),
            Values::Str(vec![Some(module.to_owned())]),
            Values::U64(vec![Some(module_key(module))]),
            Values::Str(vec![Some(p.meta.module.clone())]),
            Values::Str(vec![Some(run.profile.clone())]),
            Values::U32(vec![run.index]),
            Values::Str(vec![Some(mode_name(p.meta.mode).to_owned())]),
            Values::ListStr(vec![p.meta.args.clone()]),
            Values::Str(vec![Some(ending.kind.to_owned())]),
            Values::I64(vec![ending.code.map(i64::from)]),
            Values::U64(vec![Some(p.meta.events)]),
            Values::U64(vec![Some(total)]),
            Values::U64(vec![Some(p.meta.guest_nanos)]),
            Values::U32(vec![Some(schema::SCHEMA_VERSION)]),
        ],
    ));
    out
}
