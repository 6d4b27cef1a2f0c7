//! The report as one HTML page: everything inline (styles, drawings, the flame graph as a
//! data URL in a frame of its own, source lines), nothing fetched.

use std::fmt::Write as _;

use base64::Engine as _;
use wpp_model::FuncIdx;
use wpp_report::dataflow::{DffReport, FactRow, Place};
use wpp_report::PathRow;

use crate::report::Report;
use crate::text::{compact, grouped, html, percent};

const STYLE: &str = r#"
:root { --fg: #202124; --muted: #5f6368; --line: #dadce0; --accent: #1f5fd6; --hot: #d62728; --bg: #ffffff; --panel: #f8f9fa; }
* { box-sizing: border-box; }
body { font: 14px/1.45 -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
header { padding: 18px 28px 8px; border-bottom: 1px solid var(--line); }
header h1 { margin: 0 0 4px; font-size: 22px; }
header .sub { color: var(--muted); }
nav { position: sticky; top: 0; background: var(--bg); border-bottom: 1px solid var(--line); padding: 6px 28px; z-index: 2; }
nav a { margin-right: 16px; color: var(--accent); text-decoration: none; }
main { padding: 8px 28px 40px; max-width: 1400px; }
h2 { margin-top: 32px; border-bottom: 2px solid var(--line); padding-bottom: 4px; }
h3 { margin: 20px 0 6px; font-size: 15px; }
table { border-collapse: collapse; }
td, th { padding: 3px 10px; border-bottom: 1px solid var(--line); text-align: left; vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
#summary td:first-child { color: var(--muted); }
.cards { display: flex; flex-wrap: wrap; gap: 12px; margin: 12px 0; }
.card { background: var(--panel); border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; min-width: 150px; }
.card .v { font-size: 20px; font-weight: 600; }
.card .k { color: var(--muted); font-size: 12px; }
.item { border: 1px solid var(--line); border-radius: 8px; padding: 8px 14px; margin: 12px 0; background: #fff; }
.item .meta { color: var(--muted); }
.drawing { overflow: auto; max-height: 760px; border-top: 1px dashed var(--line); margin-top: 6px; padding-top: 6px; }
.drawing svg { max-width: 100%; height: auto; }
.note { color: var(--muted); font-style: italic; }
.caption { color: var(--muted); font-size: 12px; margin-bottom: 4px; }
.bar { display: inline-block; height: 10px; background: var(--hot); vertical-align: middle; border-radius: 2px; }
.bar.c { background: var(--accent); }
iframe.flame { width: 100%; height: 640px; border: 1px solid var(--line); border-radius: 6px; }
a.src { color: var(--accent); text-decoration: none; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: 12px; }
a.src:hover { text-decoration: underline; }
pre.code { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 6px 0; overflow-x: auto; font-size: 12px; line-height: 1.4; }
pre.code span.l { display: block; padding: 0 10px; white-space: pre; }
pre.code span.l:target { background: #ffd966; }
pre.code span.l::before { content: attr(data-n); display: inline-block; width: 5em; color: var(--muted); text-align: right; margin-right: 1em; }
pre.code span.gap { display: block; color: var(--muted); padding-left: 10px; }
pre.code span.x { display: inline-block; width: 5em; text-align: right; margin-right: 1em; color: var(--muted); }
details > summary { cursor: pointer; }
.legend span { margin-right: 14px; }
.sw { display: inline-block; width: 22px; height: 4px; vertical-align: middle; margin-right: 4px; }
"#;

/// The page of `r`. `svgs` holds the laid-out drawings, one per [`Report::drawings`], or
/// why there are none; `read` reads a source file by the name the DWARF gives.
pub fn render(r: &Report, svgs: Result<&[String], &str>, read: &dyn Fn(&str) -> Option<String>) -> String {
    let p = &r.profile;
    let st = &r.summary.stats;
    let sources: rustc_hash::FxHashMap<u32, String> = r.wanted_lines.keys().filter_map(|&f| Some((f, read(r.files.get(f as usize)?)?))).collect();
    let mut s = String::with_capacity(1 << 20);
    let title = format!("wpp report: {}", st.module);
    let _ = writeln!(s, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>{}</title><style>{STYLE}</style></head><body>", html(&title));
    let args = if r.summary.args.is_empty() { String::new() } else { format!(" {}", r.summary.args.join(" ")) };
    let _ = writeln!(
        s,
        "<header><h1>{}</h1><div class=\"sub\"><code>{}{}</code> · {} · {}</div></header>",
        html(&title),
        html(&st.module),
        html(&args),
        html(&st.mode),
        html(&st.ending)
    );
    s.push_str("<nav><a href=\"#summary-h\">Summary</a><a href=\"#paths\">Hottest paths</a><a href=\"#subpaths\">Hot subpaths</a><a href=\"#flame\">Flame graph</a><a href=\"#functions\">Functions</a>");
    if r.ppp.is_some() {
        s.push_str("<a href=\"#ppp\">PPP</a>");
    }
    if r.deps.is_some() {
        s.push_str("<a href=\"#deps\">Dependences</a>");
    }
    if r.extras.twpp.is_some() {
        s.push_str("<a href=\"#twpp\">TWPP</a>");
    }
    if r.extras.dataflow.is_some() {
        s.push_str("<a href=\"#dataflow\">Data flow</a>");
    }
    s.push_str("<a href=\"#sources\">Sources</a></nav>\n<main>\n");

    // Summary.
    s.push_str("<h2 id=\"summary-h\">Summary</h2>\n<div class=\"cards\">");
    let card = |s: &mut String, k: &str, v: String| {
        let _ = write!(s, "<div class=\"card\"><div class=\"v\">{}</div><div class=\"k\">{}</div></div>", html(&v), html(k));
    };
    card(&mut s, "path events", compact(st.events));
    card(&mut s, "instructions", compact(r.summary.instructions));
    card(&mut s, "distinct paths", grouped(st.distinct_paths));
    if let Some(ratio) = st.ratio {
        card(&mut s, "compression (raw trace : grammar)", format!("{ratio:.0} : 1"));
    }
    let recorded = if st.merged_runs.is_some() { "recorded runs" } else { "recorded run" };
    card(&mut s, recorded, format!("{:.2} s", r.summary.guest_nanos as f64 / 1e9));
    s.push_str("</div>\n<table id=\"summary\">\n");
    let row = |s: &mut String, key: &str, label: &str, value: String, shown: String| {
        let _ = writeln!(s, "<tr><td>{}</td><td class=\"num\" data-stat=\"{key}\" data-value=\"{}\">{}</td></tr>", html(label), html(&value), html(&shown));
    };
    row(&mut s, "module", "program", st.module.clone(), st.module.clone());
    row(&mut s, "args", "arguments", r.summary.args.join(" "), if r.summary.args.is_empty() { "(none)".into() } else { r.summary.args.join(" ") });
    row(&mut s, "mode", "mode", st.mode.clone(), st.mode.clone());
    if let Some(runs) = &st.merged_runs {
        let mut files: Vec<&str> = runs.iter().take(5).map(|r| r.file.as_str()).collect();
        let more = format!("and {} more", runs.len().saturating_sub(5));
        if runs.len() > 5 {
            files.push(&more);
        }
        row(&mut s, "runs", "runs merged", runs.len().to_string(), format!("{}: the sum of {} (--run N for one)", runs.len(), files.join(", ")));
    }
    row(&mut s, "ending", "ending", st.ending.clone(), st.ending.clone() + if st.partial { " (partial run)" } else { "" });
    row(&mut s, "events", "path events", st.events.to_string(), grouped(st.events));
    row(&mut s, "distinct_paths", "distinct paths", st.distinct_paths.to_string(), grouped(st.distinct_paths));
    row(&mut s, "instructions", "instructions executed", r.summary.instructions.to_string(), grouped(r.summary.instructions));
    row(&mut s, "functions_run", "functions run", r.summary.functions_run.to_string(), grouped(r.summary.functions_run as u64));
    if let (Some(rules), Some(symbols)) = (st.rules, st.grammar_symbols) {
        row(&mut s, "rules", "grammar rules", rules.to_string(), grouped(rules));
        row(&mut s, "grammar_symbols", "grammar symbols", symbols.to_string(), grouped(symbols));
    }
    if let Some(ratio) = st.ratio {
        row(&mut s, "ratio", "raw trace / grammar bytes", format!("{ratio}"), format!("{ratio:.1}"));
    }
    row(&mut s, "raw_trace_bytes", "raw trace (4 bytes per event)", st.raw_trace_bytes.to_string(), grouped(st.raw_trace_bytes));
    row(&mut s, "guest_nanos", "recording time", r.summary.guest_nanos.to_string(), format!("{:.3} s", r.summary.guest_nanos as f64 / 1e9));
    if let Some(sha) = &st.module_sha256 {
        row(&mut s, "module_sha256", "module SHA-256", sha.clone(), sha.clone());
    }
    s.push_str("</table>\n");

    let mut placed = vec![false; r.drawings.len()];
    let mut drawing = |s: &mut String, d: usize| {
        let dr = &r.drawings[d];
        if std::mem::replace(&mut placed[d], true) {
            let _ = writeln!(s, "<div class=\"note\">Drawn above: <a href=\"#{}\">{} with these paths</a>.</div>", dr.id, html(&func_name(r, dr.func)));
            return;
        }
        let _ = write!(
            s,
            "<div class=\"drawing\" id=\"{}\" data-function=\"{}\" data-highlighted=\"{}\">",
            dr.id,
            dr.func.0,
            dr.highlighted.iter().map(|b| b.0.to_string()).collect::<Vec<_>>().join(" ")
        );
        let _ = write!(s, "<div class=\"caption\">{}, {} blocks</div>", html(&func_name(r, dr.func)), dr.blocks_shown + dr.blocks_collapsed);
        match svgs {
            Ok(svgs) => {
                let svg = svgs.get(d).map(String::as_str).unwrap_or("");
                push_svg(s, svg);
                if dr.blocks_collapsed > 0 {
                    let _ = write!(
                        s,
                        "<div class=\"note\">{} of {} blocks drawn; the rest, neither on the path nor next to it, collapsed into dashed notes.</div>",
                        dr.blocks_shown,
                        dr.blocks_shown + dr.blocks_collapsed
                    );
                }
            }
            Err(why) => {
                let _ = write!(
                    s,
                    "<div class=\"note\">Not drawn: {}. Blocks on the path: {}.</div>",
                    html(why),
                    dr.highlighted.iter().map(|b| format!("b{}", b.0)).collect::<Vec<_>>().join(", ")
                );
            }
        }
        s.push_str("</div>\n");
    };
    let legend = "<div class=\"legend note\"><span><i class=\"sw\" style=\"background:#1f5fd6\"></i>the path's edges (blocks filled yellow)</span><span><i class=\"sw\" style=\"background:#d62728\"></i>hot edge</span><span><i class=\"sw\" style=\"background:#9aa0a6\"></i>cold edge</span><span>dashed: loop back edge; dot head: call; dotted: exception (thrown, or caught by a handler); edge labels: times taken; <code>×N</code>: block executions</span></div>\n";

    // Hottest paths.
    let _ = write!(s, "<h2 id=\"paths\">Hottest paths</h2>\n<p class=\"note\">The {} paths that executed the most instructions (runs × instructions per run), each drawn on its function's control flow graph.</p>\n{legend}", r.hot_paths.len());
    for (i, h) in r.hot_paths.iter().enumerate() {
        let _ = write!(
            s,
            "<div class=\"item hot-path\" data-rank=\"{i}\" data-function=\"{}\" data-path=\"{}\"><h3>#{} {} <span class=\"meta\">— {} runs × {} instructions = {} ({} of the run)</span></h3><div>{}</div>",
            h.row.function_index,
            h.row.path_id,
            i + 1,
            html(&h.row.name()),
            grouped(h.row.count.unwrap_or(0)),
            h.row.instructions,
            compact(h.cost),
            percent(h.cost, r.summary.instructions),
            source_links(r, &h.row),
        );
        drawing(&mut s, h.drawing);
        s.push_str("</div>\n");
    }
    if r.hot_paths.is_empty() {
        s.push_str("<p class=\"note\">No path ran.</p>\n");
    }

    // Hot subpaths.
    s.push_str("<h2 id=\"subpaths\">Hot subpaths</h2>\n");
    match &r.subpaths {
        None => s.push_str(
            "<p class=\"note\">The profile holds path counts only: hot subpaths need the whole program path (record with <code>--mode grammar</code>).</p>\n",
        ),
        Some((rows, total, params)) => {
            let _ = writeln!(
                s,
                "<p class=\"note\">Minimal sequences of {} to {} consecutive paths that cost at least {} instructions in all, found on the grammar without expanding it ({} found, {} shown). A subpath's paths are drawn on their functions.</p>",
                params.min_len,
                params.max_len,
                grouped(params.min_cost),
                grouped(*total as u64),
                rows.len()
            );
            for (i, sp) in rows.iter().enumerate() {
                // A subpath that overlaps itself: its share from the occurrences side by side.
                let meta = if sp.row.disjoint == sp.row.frequency {
                    format!(
                        "{} paths, {} times, {} instructions ({} of the run)",
                        sp.row.length,
                        grouped(sp.row.frequency),
                        compact(sp.row.cost),
                        percent(sp.row.disjoint_cost, r.summary.instructions)
                    )
                } else {
                    format!(
                        "{} paths, {} times overlapping, {} side by side: {} instructions ({} of the run)",
                        sp.row.length,
                        grouped(sp.row.frequency),
                        grouped(sp.row.disjoint),
                        compact(sp.row.disjoint_cost),
                        percent(sp.row.disjoint_cost, r.summary.instructions)
                    )
                };
                let _ = write!(s, "<div class=\"item subpath\"><h3>#{} <span class=\"meta\">— {meta}</span></h3><ol>", i + 1);
                for pr in &sp.row.paths {
                    let _ = write!(s, "<li>{} {}</li>", html(&pr.name()), source_links(r, pr));
                }
                s.push_str("</ol>");
                for &d in &sp.drawings {
                    drawing(&mut s, d);
                }
                s.push_str("</div>\n");
            }
        }
    }

    // The flame graph.
    s.push_str("<h2 id=\"flame\">Flame graph</h2>\n");
    match &r.flame {
        Some(f) if !f.svg.is_empty() => {
            let _ = writeln!(
                s,
                "<p class=\"note\">The calls of the run, read off the whole program path: each frame is a call stack, as wide as the instructions executed in it and in what it called ({} stacks; the root, <code>all</code>, is the run's <span id=\"flame-total\" data-value=\"{}\">{}</span> instructions). Click a frame to zoom.</p>",
                grouped(f.stacks as u64),
                f.instructions,
                grouped(f.instructions)
            );
            if f.ambiguous > 0 {
                let _ =
                    writeln!(s, "<p class=\"note\">{} returns could not be told from loop iterations and were read as iterations.</p>", grouped(f.ambiguous));
            }
            let data = base64::engine::general_purpose::STANDARD.encode(f.svg.as_bytes());
            let _ = writeln!(s, "<iframe class=\"flame\" id=\"flame-frame\" title=\"flame graph\" src=\"data:image/svg+xml;base64,{data}\"></iframe>");
        }
        Some(_) => s.push_str("<p class=\"note\">No instructions ran.</p>\n"),
        None => {
            let _ = writeln!(s, "<p class=\"note\">No flame graph: {}.</p>", html(r.no_flame.as_deref().unwrap_or("no whole program path")));
        }
    }

    // The function table.
    let _ = writeln!(s, "<h2 id=\"functions\">Functions</h2>\n<p class=\"note\">How concentrated each function's execution is: of the paths that ran, how few make 90% of its executions, and how few 90% of its instructions. The {} functions that executed the most instructions of {} that ran (<code>wpp functions</code> lists them all); open one for its paths.</p>", r.functions.len(), grouped(r.functions_total as u64));
    s.push_str("<table id=\"functions-table\"><tr><th>function</th><th class=\"num\">instructions</th><th class=\"num\">share</th><th class=\"num\">executions</th><th class=\"num\">paths</th><th class=\"num\">paths to 90% of executions</th><th class=\"num\">of instructions</th><th>source</th></tr>\n");
    for d in &r.functions {
        let _ = write!(s, "<tr data-function=\"{}\"><td><details><summary>{}</summary><table>", d.function_index, html(&d.function));
        for &(e, count) in d.path_counts.iter().take(12) {
            let row = PathRow::new(p, e, Some(count));
            let _ = write!(
                s,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                html(&row.name()),
                grouped(count),
                percent(count, d.executions),
                source_links(r, &row)
            );
        }
        if d.path_counts.len() > 12 {
            let _ = write!(s, "<tr><td colspan=\"4\" class=\"note\">and {} more paths</td></tr>", d.path_counts.len() - 12);
        }
        let _ = writeln!(
            s,
            "</table></details></td><td class=\"num\">{}</td><td class=\"num\"><span class=\"bar\" style=\"width:{:.0}px\"></span> {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\" data-paths-to-90=\"{}\">{} <span class=\"bar c\" style=\"width:{:.0}px\"></span></td><td class=\"num\" data-paths-to-90-instructions=\"{}\">{}</td><td>{}</td></tr>",
            grouped(d.instructions),
            d.share * 80.0,
            percent(d.instructions, r.summary.instructions),
            grouped(d.executions),
            d.paths,
            d.paths_to_90_executions,
            d.paths_to_90_executions,
            (d.paths_to_90_executions as f64 / d.paths.max(1) as f64) * 60.0,
            d.paths_to_90_instructions,
            d.paths_to_90_instructions,
            d.path_counts.first().map(|&(e, _)| source_links(r, &PathRow::new(p, e, None))).unwrap_or_default(),
        );
    }
    s.push_str("</table>\n");

    // Preferential path profiling.
    if let Some(ppp) = &r.ppp {
        let _ = writeln!(
            s,
            "<h2 id=\"ppp\">Preferential path profiling</h2>\n<p class=\"note\">Interesting paths: {} ({}). {} of them ran, {} times in all; {} residual executions of paths outside the set.</p>",
            html(&ppp.set),
            html(&ppp.selection),
            grouped(ppp.interesting_executed as u64),
            grouped(ppp.interesting_executions),
            grouped(ppp.residual_executions)
        );
        s.push_str("<h3>Functions (compactness ρ = (max id - min id + 1) / interesting paths; 1 is perfect)</h3><table id=\"ppp-functions\"><tr><th>function</th><th class=\"num\">interesting</th><th class=\"num\">ρ</th><th class=\"num\">slots</th><th>counters</th></tr>\n");
        for f in &ppp.functions {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{:.4}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                html(&f.function),
                f.n_interesting,
                f.rho,
                grouped(f.slots),
                f.counters
            );
        }
        s.push_str("</table>\n<h3>Interesting paths</h3><table id=\"ppp-interesting\"><tr><th>path</th><th class=\"num\">PPP id</th><th class=\"num\">count</th><th>counted in</th><th>source</th></tr>\n");
        for i in &ppp.interesting {
            let row = PathRow::new(p, wpp_model::PathEvent { func: FuncIdx(i.function_index), path: wpp_model::PathId(i.path_id) }, Some(i.count));
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
                html(&row.name()),
                i.ppp_id,
                grouped(i.count),
                i.counted,
                source_links(r, &row)
            );
        }
        s.push_str("</table>\n<h3>Residual paths (ran, though not interesting)</h3><table id=\"ppp-residual\"><tr><th>path</th><th class=\"num\">count</th><th>source</th></tr>\n");
        for row in &ppp.residual {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                html(&row.name()),
                grouped(row.count.unwrap_or(0)),
                source_links(r, row)
            );
        }
        s.push_str("</table>\n");
        if ppp.truncation.truncated() {
            let _ = writeln!(
                s,
                "<p class=\"note\">Lists cut to their first rows: {} interesting, {} residual paths in all.</p>",
                grouped(ppp.truncation.total("interesting") as u64),
                grouped(ppp.truncation.total("residual") as u64)
            );
        }
    }

    if let Some(d) = &r.deps {
        deps_section(&mut s, r, d);
    }
    if let Some(t) = &r.extras.twpp {
        twpp_section(&mut s, r, t);
    }
    if let Some(d) = &r.extras.dataflow {
        dataflow_section(&mut s, r, d);
    }

    // Sources.
    s.push_str("<h2 id=\"sources\">Sources</h2>\n");
    if r.files.is_empty() {
        s.push_str("<p class=\"note\">The module has no DWARF line table: blocks are named by their bytes in the module.</p>\n");
    } else {
        s.push_str("<p class=\"note\">Beside each line: how often its code ran (the blocks on it) and, on hover, the instructions it executed (<code>wpp annotate</code> gives the same counts; a block on lines far apart counts on its first and last).</p>\n");
    }
    let max_instructions = r.line_counts.values().map(|c| c.instructions).max().unwrap_or(0).max(1);
    // The counts of line `n` of `file`, as attributes and a cell.
    let counts = |file: u32, n: u32| -> (String, String) {
        match r.line_counts.get(&(file, n)) {
            Some(c) => {
                let heat = (c.instructions as f64 / max_instructions as f64).sqrt() * 0.6;
                (
                    format!(" data-executions=\"{}\" data-instructions=\"{}\"", c.executions, c.instructions),
                    format!(
                        "<span class=\"x\" style=\"background:rgba(214,39,40,{heat:.2})\" title=\"{} executions, {} instructions ({} of the run)\">{}</span>",
                        grouped(c.executions),
                        grouped(c.instructions),
                        percent(c.instructions, r.summary.instructions),
                        compact(c.executions)
                    ),
                )
            }
            None => (String::new(), "<span class=\"x\"></span>".to_string()),
        }
    };
    let mut files: Vec<(&u32, &Vec<(u32, u32)>)> = r.wanted_lines.iter().collect();
    files.sort();
    for (&file, ranges) in files {
        let name = &r.files[file as usize];
        let _ = writeln!(s, "<h3 id=\"F{file}\">{}</h3>", html(name));
        let Some(text) = sources.get(&file) else {
            // The links still land here, on the file's name; the counts by line number.
            s.push_str(
                "<p class=\"note\">Not readable on the machine that made this report (see <code>wpp report --source-map</code>); the counts by line number:",
            );
            for &(a, b) in ranges {
                for n in a..=b {
                    let _ = write!(s, "<a id=\"L{file}-{n}\"></a>");
                }
            }
            s.push_str("</p>\n<pre class=\"code\">");
            for &(a, b) in ranges {
                for n in a..=b {
                    if r.line_counts.contains_key(&(file, n)) {
                        let (attrs, cell) = counts(file, n);
                        let _ = write!(s, "<span class=\"l\" data-n=\"{n}\"{attrs}>{cell}</span>");
                    }
                }
            }
            s.push_str("</pre>\n");
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        s.push_str("<pre class=\"code\">");
        for (i, &(a, b)) in ranges.iter().enumerate() {
            if i > 0 || a > 1 {
                s.push_str("<span class=\"gap\">⋮</span>");
            }
            for n in a..=b.min(lines.len() as u32) {
                let (attrs, cell) = counts(file, n);
                let _ = write!(s, "<span class=\"l\" id=\"L{file}-{n}\" data-n=\"{n}\"{attrs}>{cell}{}</span>", html(lines[n as usize - 1]));
            }
        }
        s.push_str("</pre>\n");
    }
    let _ = writeln!(
        s,
        "<p class=\"note\">Made by wpp {} from <code>{}</code>.</p>\n</main></body></html>",
        env!("CARGO_PKG_VERSION"),
        html(&p.path.display().to_string())
    );
    s
}

fn func_name(r: &Report, f: FuncIdx) -> String {
    r.profile.meta.func_name(f)
}

/// Links to a path's source lines in the page (or its bytes, unlinked).
fn source_links(r: &Report, row: &PathRow) -> String {
    row.source.iter().map(|loc| loc_link(r, loc) + " ").collect()
}

/// A link to `FILE:LINE` or `FILE:FIRST-LAST` in the page: to the first line where the page
/// has it, else to the file; unlinked text when the page has neither.
fn loc_link(r: &Report, loc: &str) -> String {
    let target = loc.rsplit_once(':').and_then(|(file, lines)| {
        let first: u32 = lines.split('-').next()?.parse().ok()?;
        let idx = r.files.iter().position(|f| f == file)? as u32;
        let shown = r.wanted_lines.get(&idx)?.iter().any(|&(a, b)| a <= first && first <= b);
        Some(if shown { format!("#L{idx}-{first}") } else { format!("#F{idx}") })
    });
    let short = loc.rsplit('/').next().unwrap_or(loc);
    match target {
        Some(t) => format!("<a class=\"src\" href=\"{t}\" title=\"{}\">{}</a>", html(loc), html(short)),
        None => format!("<span class=\"src\">{}</span>", html(short)),
    }
}

/// The memory dependences: the most executed loads, each with the writers it read.
fn deps_section(s: &mut String, r: &Report, d: &wpp_report::deps::DepsReport) {
    let shown = d.loads.len();
    let total = d.truncation.total("loads").max(shown);
    let _ = writeln!(
        s,
        "<h2 id=\"deps\">Memory dependences</h2>\n<p class=\"note\">{} load executions and {} dependences (writer, load), recovered from the {}. {} of {} loads, the most executed, each with the writers of the bytes it read: stores, bulk writes, host calls, or the initial memory; a dependence counts once per execution of the load and instance of the writer it read. <code>wpp deps PROFILE --use 0xOFFSET --chain --module M.wasm</code> follows the chains back from one.</p>",
        grouped(d.load_executions),
        grouped(d.dependences as u64),
        html(d.from),
        grouped(shown as u64),
        grouped(total as u64)
    );
    s.push_str("<table id=\"deps-loads\"><tr><th>load</th><th class=\"num\">ran</th><th>source</th><th>writer</th><th class=\"num\">dependences</th><th class=\"num\">%</th><th class=\"num\">on an earlier instance</th><th>writer's source</th></tr>\n");
    for l in &d.loads {
        let all: u64 = l.writers.iter().map(|w| w.count).sum();
        let rows = l.writers.len().max(1);
        let _ = write!(
            s,
            "<tr class=\"load\"><td rowspan=\"{rows}\"><code>{}+{:#x}</code></td><td class=\"num\" rowspan=\"{rows}\">{}</td><td rowspan=\"{rows}\">{}</td>",
            html(&l.function),
            l.offset,
            grouped(l.executions),
            loc_link(r, &l.source)
        );
        if l.writers.is_empty() {
            s.push_str("<td colspan=\"5\">(nothing: it read no byte, or never ran)</td></tr>\n");
        }
        for (i, w) in l.writers.iter().enumerate() {
            if i > 0 {
                s.push_str("<tr>");
            }
            let _ = writeln!(
                s,
                "<td><code>{}</code></td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
                html(&w.writer),
                grouped(w.count),
                percent(w.count, all),
                grouped(w.earlier_instance),
                w.source.as_deref().map(|src| loc_link(r, src)).unwrap_or_default()
            );
        }
    }
    s.push_str("</table>\n");
}

/// The whole program path reorganised by call: invocations against distinct traces.
fn twpp_section(s: &mut String, r: &Report, t: &crate::TwppView) {
    let _ = writeln!(
        s,
        "<h2 id=\"twpp\">Timestamped whole program path</h2>\n<p class=\"note\"><code>{}</code> ({} KiB): the run's {} path events as {} invocations of {} functions, each function's distinct path traces kept once (<code>wpp trace FILE --func F</code> lists them). The {} most invoked functions:</p>",
        html(&t.file.display().to_string()),
        grouped(t.file_bytes.div_ceil(1024)),
        grouped(t.events),
        grouped(t.invocations),
        grouped(t.functions_total as u64),
        t.functions.len()
    );
    s.push_str("<table id=\"twpp-functions\"><tr><th>function</th><th class=\"num\">invocations</th><th class=\"num\">distinct traces</th><th class=\"num\">invocations per trace</th><th class=\"num\">section bytes</th></tr>\n");
    for f in &t.functions {
        let _ = writeln!(
            s,
            "<tr data-function=\"{}\"><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{:.1}</td><td class=\"num\">{}</td></tr>",
            f.func.0,
            html(&func_name(r, f.func)),
            grouped(f.invocations),
            grouped(f.distinct_traces as u64),
            f.invocations as f64 / f.distinct_traces.max(1) as f64,
            grouped(f.bytes)
        );
    }
    s.push_str("</table>\n");
    for f in t.functions.iter().filter(|f| !f.top_traces.is_empty()) {
        let _ = writeln!(s, "<h3>{}: its most frequent traces</h3><ol>", html(&func_name(r, f.func)));
        for (blocks, len, n) in &f.top_traces {
            let shown: Vec<String> = blocks.iter().map(|b| format!("b{}", b.0)).collect();
            let more = if *len > blocks.len() { format!(" … ({len} blocks)") } else { String::new() };
            let _ = write!(s, "<li><span class=\"meta\">{} invocations:</span> <code>{}{more}</code></li>", grouped(*n), shown.join(" "));
        }
        s.push_str("</ol>\n");
    }
}

/// Exact data flow frequencies at one function's points, against the edge profile's
/// estimate.
fn dataflow_section(s: &mut String, r: &Report, d: &DffReport) {
    let func = FuncIdx(d.function_index);
    let c = &d.coverage;
    let coverage = format!(
        "{} blocks: {} executed and analysed, {} executed with nothing to analyse, {} not executed; {} facts; {} of {} grammar rules held a point.",
        c.blocks, c.executed_and_analysed, c.executed_not_analysed, c.not_executed, c.facts, c.rules_with_points, c.grammar_rules
    );
    let _ = writeln!(
        s,
        "<h2 id=\"dataflow\">Data flow frequencies: {} in {}</h2>\n<p class=\"note\">How often each fact held at each point, summed over the run, exactly (from the grammar), beside what an edge profile estimates. {}</p>",
        html(d.problem),
        html(&func_name(r, func)),
        html(&coverage)
    );
    let fact_cells = |f: &FactRow| {
        let site = match &f.place {
            Some(p) => match &p.source {
                Some(src) => format!("{} {}", html(&p.at), loc_link(r, src)),
                None => html(&p.at),
            },
            None => html(f.site),
        };
        let estimate = f.estimate.map_or_else(|| "—".to_string(), |e| format!("{e:.1}"));
        format!(
            "<td title=\"{}\">{}</td><td>{site}</td><td class=\"num\">{}</td><td class=\"num\">{estimate}</td>",
            html(f.kind),
            html(&f.variable),
            grouped(f.exact)
        )
    };
    let point_cells = |p: &Place, block: u32, executions: u64| {
        let src = p.source.as_deref().map(|l| loc_link(r, l)).unwrap_or_default();
        format!("<td>b{block} {} {src}</td><td class=\"num\">{}</td>", html(&p.at), grouped(executions))
    };
    // The differences the page lists, largest first.
    const DIFFERENCES: usize = 100;
    if !d.differences.is_empty() {
        let shown = d.differences.len().min(DIFFERENCES);
        let _ = write!(s, "<h3>Where the edge profile is furthest off ({shown} of {} facts it gets wrong)</h3>", grouped(d.differences.len() as u64));
        s.push_str("<table id=\"dataflow-differences\"><tr><th>point</th><th class=\"num\">executions</th><th>fact</th><th>from</th><th class=\"num\">exact</th><th class=\"num\">estimate</th><th class=\"num\">error</th></tr>\n");
        for x in &d.differences[..shown] {
            let _ = writeln!(s, "<tr>{}{}<td class=\"num\">{:+.1}</td></tr>", point_cells(&x.point, x.block, x.executions), fact_cells(&x.fact), x.error);
        }
        s.push_str("</table>\n");
    }
    s.push_str("<h3>Every point</h3><table id=\"dataflow-points\"><tr><th>point</th><th class=\"num\">executions</th><th>fact</th><th>from</th><th class=\"num\">exact</th><th class=\"num\">estimate</th></tr>\n");
    // A function with thousands of facts would make the page unreadable: the first rows,
    // and the command that gives them all.
    const ROWS: usize = 3000;
    let mut rows = 0;
    let all: usize = d.points.iter().map(|p| p.facts.len().max(1)).sum();
    for p in &d.points {
        if rows >= ROWS {
            let _ = writeln!(s, "<tr><td colspan=\"6\" class=\"note\">The first {} of {} rows; <code>wpp dff PROFILE --module M.wasm --func {} --json</code> gives them all.</td></tr>", grouped(rows as u64), grouped(all as u64), html(&func_name(r, func)));
            break;
        }
        rows += p.facts.len().max(1);
        if p.facts.is_empty() {
            let _ = writeln!(s, "<tr>{}<td colspan=\"4\" class=\"note\">nothing to analyse</td></tr>", point_cells(&p.point, p.block, p.executions));
        }
        for (i, f) in p.facts.iter().enumerate() {
            let head = if i == 0 { point_cells(&p.point, p.block, p.executions) } else { "<td></td><td></td>".to_string() };
            let _ = writeln!(s, "<tr>{head}{}</tr>", fact_cells(f));
        }
    }
    s.push_str("</table>\n");
}

/// A laid-out drawing without its XML prolog and Graphviz's comments.
fn push_svg(s: &mut String, svg: &str) {
    let mut rest = svg.find("<svg").map_or(svg, |i| &svg[i..]);
    while let Some(i) = rest.find("<!--") {
        s.push_str(&rest[..i]);
        rest = rest[i..].find("-->").map_or("", |j| &rest[i + j + 3..]);
    }
    s.push_str(rest);
}
