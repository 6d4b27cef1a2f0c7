//! The Parquet tables' schema: the one place their columns are named, typed and described.
//! The tables (module `tables`) follow it, and `docs/parquet.md` is made
//! from it ([`markdown`]).

/// The schema's version, in every file's key-value metadata (`wpp.schema`) and in the
/// `runs` table. It goes up when a column changes meaning or goes away; new columns and
/// tables may appear without it.
pub const SCHEMA_VERSION: u32 = 1;

/// A column's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    U32,
    U64,
    I64,
    F64,
    Bool,
    Str,
    /// A list of `u32`.
    ListU32,
    /// A list of strings.
    ListStr,
}

impl Type {
    /// The type as SQL engines show it (DuckDB's names).
    pub fn sql(self) -> &'static str {
        match self {
            Type::U32 => "UINTEGER",
            Type::U64 => "UBIGINT",
            Type::I64 => "BIGINT",
            Type::F64 => "DOUBLE",
            Type::Bool => "BOOLEAN",
            Type::Str => "VARCHAR",
            Type::ListU32 => "UINTEGER[]",
            Type::ListStr => "VARCHAR[]",
        }
    }
}

/// One column.
#[derive(Clone, Copy, Debug)]
pub struct ColumnSpec {
    pub name: &'static str,
    pub ty: Type,
    /// May be null.
    pub nullable: bool,
    pub doc: &'static str,
}

/// What a table's files are keyed by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    /// One file per run: `TABLE/RUN.parquet`.
    Run,
    /// One file per module: `TABLE/MODULE.parquet` (the module's SHA-256).
    Module,
}

/// One table.
#[derive(Clone, Copy, Debug)]
pub struct TableSpec {
    pub name: &'static str,
    pub key: Key,
    pub doc: &'static str,
    pub columns: &'static [ColumnSpec],
}

const fn col(name: &'static str, ty: Type, doc: &'static str) -> ColumnSpec {
    ColumnSpec { name, ty, nullable: false, doc }
}

const fn opt(name: &'static str, ty: Type, doc: &'static str) -> ColumnSpec {
    ColumnSpec { name, ty, nullable: true, doc }
}

const RUN: ColumnSpec = col("run", Type::Str, "the run's id (the `runs` table)");
const MODULE: ColumnSpec = col("module", Type::Str, "the module's SHA-256, hex");
const FUNCTION: ColumnSpec = col("function", Type::U32, "function index (imports first, as in the module)");

/// Every table, in the order they are written (`runs` last, so that a run is listed only
/// once its other tables are on disk).
pub const SCHEMA: &[TableSpec] = &[
    TableSpec {
        name: "functions",
        key: Key::Module,
        doc: "Every function of the module.",
        columns: &[
            MODULE,
            FUNCTION,
            col("name", Type::Str, "its name (the name section's, or `func[N]`)"),
            col("imported", Type::Bool, "an import: no body, no blocks, no paths"),
            col("blocks", Type::U32, "basic blocks"),
            col("edges", Type::U32, "control flow edges"),
            opt("numbered_paths", Type::U64, "acyclic paths in the Ball-Larus numbering (null for imports)"),
        ],
    },
    TableSpec {
        name: "blocks",
        key: Key::Module,
        doc: "Every basic block, with its source lines where DWARF gives them.",
        columns: &[
            MODULE,
            FUNCTION,
            col("block", Type::U32, "block index in the function"),
            col("start", Type::U32, "byte offset of its first instruction in the module"),
            col("end", Type::U32, "byte offset past its last instruction"),
            col("instructions", Type::U32, "instructions of one execution"),
            opt("file", Type::Str, "source file of its first instruction"),
            opt("first_line", Type::U32, "least source line of its instructions in that file"),
            opt("last_line", Type::U32, "greatest such line"),
        ],
    },
    TableSpec {
        name: "paths",
        key: Key::Run,
        doc: "Every path that ran, with its count.",
        columns: &[
            RUN,
            FUNCTION,
            col("path", Type::U64, "Ball-Larus path id in the function"),
            col("count", Type::U64, "executions"),
            col("instructions", Type::U64, "instructions of one execution"),
            col("blocks", Type::ListU32, "its blocks in order"),
            opt("interesting", Type::Bool, "a PPP run: in the interesting set; null for other runs"),
        ],
    },
    TableSpec {
        name: "edges",
        key: Key::Run,
        doc: "Every control flow edge of every function that ran, with how often it was taken.",
        columns: &[
            RUN,
            FUNCTION,
            col("edge", Type::U32, "edge index in the function's CFG"),
            col("from_block", Type::U32, "the block it leaves"),
            opt("to_block", Type::U32, "the block it enters; null for leaving the function"),
            col("kind", Type::Str, "`forward`, `back`, `call`, `return` or `trap`"),
            opt("count", Type::U64, "times taken; null where path counts alone cannot tell (a back edge into a header with several, in a run without its whole program path)"),
        ],
    },
    TableSpec {
        name: "lines",
        key: Key::Run,
        doc: "Every source line of the program's blocks (DWARF), with its executions and instructions by the rule of `wpp annotate`; lines that never ran have 0.",
        columns: &[
            RUN,
            col("file", Type::Str, "source file, as DWARF names it"),
            col("line", Type::U32, "line"),
            col("executions", Type::U64, "executions of the blocks that count on it"),
            col("instructions", Type::U64, "its share of those blocks' instructions"),
        ],
    },
    TableSpec {
        name: "hot_subpaths",
        key: Key::Run,
        doc: "A grammar run's minimal hot subpaths (`wpp hot`'s defaults: cost in instructions, at least 1% of the run, at most 32 paths long), one row per path of each.",
        columns: &[
            RUN,
            col("subpath", Type::U32, "rank, from 1, in the search's order"),
            col("frequency", Type::U64, "occurrences, overlapping ones included"),
            col("cost", Type::U64, "frequency × instructions of one run of it"),
            col("share", Type::F64, "share of the run's instructions spent in it (non-overlapping occurrences), 0 to 1"),
            col("position", Type::U32, "position of this path in the subpath, from 0"),
            FUNCTION,
            col("path", Type::U64, "Ball-Larus path id"),
        ],
    },
    TableSpec {
        name: "residual_paths",
        key: Key::Run,
        doc: "A PPP run's residual paths: those that ran but are not in the interesting set (the paths nobody expected).",
        columns: &[RUN, FUNCTION, col("path", Type::U64, "Ball-Larus path id"), col("count", Type::U64, "executions")],
    },
    TableSpec {
        name: "call_tree",
        key: Key::Run,
        doc: "A run's calling context tree (runs with a whole program path): every distinct call stack.",
        columns: &[
            RUN,
            col("node", Type::U32, "node id; 0 is the root (the host)"),
            opt("parent", Type::U32, "the calling stack's node; null for the root"),
            opt("function", Type::U32, "the innermost function; null for the root"),
            col("depth", Type::U32, "frames on the stack"),
            col("calls", Type::U64, "invocations with this stack"),
            col("paths", Type::U64, "paths executed with this stack innermost"),
            col("own_instructions", Type::U64, "instructions executed with this stack innermost"),
            col("instructions", Type::U64, "instructions executed with this stack or one above it"),
        ],
    },
    TableSpec {
        name: "runs",
        key: Key::Run,
        doc: "One row per run: what was run and how it ended.",
        columns: &[
            RUN,
            opt("label", Type::Str, "what the exporter called it (`wpp export --label`), e.g. `test` or `field`"),
            MODULE,
            col("module_key", Type::U64, "the first 8 bytes of the module's SHA-256 as a number: a compact key to group runs by module"),
            col("module_name", Type::Str, "the module's file name when recorded"),
            col("profile", Type::Str, "the profile file exported"),
            opt("run_index", Type::U32, "in a merged profile, the run's number (from 1); null for a single run"),
            col("mode", Type::Str, "`paths`, `trace`, `grammar` or `ppp`"),
            col("args", Type::ListStr, "the program's arguments"),
            col("ending", Type::Str, "`exited`, `trapped`, `signal`, `timeout`, `fuel` or `memory`"),
            opt("exit_code", Type::I64, "the exit status, when it exited"),
            col("events", Type::U64, "path events"),
            col("instructions", Type::U64, "instructions executed (from the path counts)"),
            col("guest_nanos", Type::U64, "time the guest ran, in nanoseconds"),
            col("schema_version", Type::U32, "this schema's version"),
        ],
    },
];

/// The table named `name`.
pub fn table(name: &str) -> Option<&'static TableSpec> {
    SCHEMA.iter().find(|t| t.name == name)
}

/// The schema as Markdown: a section per table with its columns (what `docs/parquet.md`
/// holds between its markers).
pub fn markdown() -> String {
    let mut out = String::new();
    for t in SCHEMA {
        let key = match t.key {
            Key::Run => "one file per run: `{}/RUN.parquet`",
            Key::Module => "one file per module: `{}/MODULE.parquet`",
        };
        out.push_str(&format!("### `{}`\n\n{} Files: {}.\n\n", t.name, t.doc, key.replace("{}", t.name)));
        out.push_str("| column | type | null | meaning |\n| --- | --- | --- | --- |\n");
        for c in t.columns {
            out.push_str(&format!("| `{}` | {} | {} | {} |\n", c.name, c.ty.sql(), if c.nullable { "yes" } else { "" }, c.doc));
        }
        out.push('\n');
    }
    out
}
