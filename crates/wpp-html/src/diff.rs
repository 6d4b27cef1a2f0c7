//! Two runs compared (`wpp diff --html`) as a page: the totals and what could not be
//! matched, then the functions and the paths by the size of the change in instructions,
//! each with both runs' counts and a bar as long as its change (red where B executes
//! more, green where less); paths only one run executed marked.

use std::fmt::Write as _;

use wpp_report::diff::Diff;
use wpp_report::format::group;

use crate::text::html;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}\
table{border-collapse:collapse}td,th{padding:.15em .6em;text-align:right;white-space:nowrap}\
th{border-bottom:1px solid #bbb}td.l,th.l{text-align:left}td.src{text-align:left;font-family:ui-monospace,monospace;font-size:12px;color:#555}\
.bar{display:inline-block;height:.8em}.up{background:#d9534f}.down{background:#5cb85c}\
.only{font-size:11px;padding:0 .3em;border-radius:3px;background:#eee}.note{color:#666}";

/// A change with a true minus sign.
fn signed(c: i128) -> String {
    wpp_report::format::signed(c).replacen('-', "−", 1)
}

fn bar(change: i128, largest: u128) -> String {
    let width = (change.unsigned_abs() * 120).checked_div(largest).unwrap_or(0).max(u128::from(change != 0));
    let class = if change > 0 { "up" } else { "down" };
    format!("<span class=\"bar {class}\" style=\"width:{width}px\"></span>")
}

/// The page of `d`.
pub fn render(d: &Diff) -> String {
    let mut o = String::new();
    let [a, b] = d.labels();
    let _ = write!(
        o,
        "<!doctype html><html><head><meta charset=\"utf-8\"><title>{} → {} — wpp diff</title><style>{STYLE}</style></head><body>",
        html(&a),
        html(&b)
    );
    let _ = write!(
        o,
        "<h1>wpp diff</h1><p>A: {}: {} path executions, {} instructions<br>B: {}: {} path executions, {} instructions<br>change in instructions: <b>{}</b>; paths only A ran: {}, only B ran: {}</p>",
        html(&a),
        group(d.executions_a),
        group(d.instructions_a),
        html(&b),
        group(d.executions_b),
        group(d.instructions_b),
        signed(d.instructions_b as i128 - d.instructions_a as i128),
        d.only_a,
        d.only_b
    );
    if d.unmatched_a.is_some() {
        o.push_str("<p class=\"note\">Two builds: functions matched by name, paths by their blocks' source lines.</p>");
    }
    for line in d.unmatched() {
        // The sentence, capitalised.
        let _ = write!(o, "<p class=\"note\">N{}.</p>", html(line.strip_prefix('n').unwrap_or(&line)));
    }
    let largest = d.functions.iter().map(|f| f.change.unsigned_abs()).max().unwrap_or(0);
    o.push_str("<h2>Functions</h2><table><tr><th>change</th><th></th><th>instructions A</th><th>instructions B</th><th>executions A</th><th>executions B</th><th class=\"l\">function</th></tr>");
    for f in &d.functions {
        let _ = write!(
            o,
            "<tr class=\"f\"><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"l\">{}</td></tr>",
            signed(f.change),
            bar(f.change, largest),
            group(f.instructions_a),
            group(f.instructions_b),
            group(f.executions_a),
            group(f.executions_b),
            html(&f.function)
        );
    }
    o.push_str("</table>");
    if let Some(note) = d.truncation.note("functions", "functions") {
        let _ = write!(o, "<p class=\"note\">{}</p>", html(&note));
    }
    let largest = d.paths.iter().map(|p| p.change.unsigned_abs()).max().unwrap_or(0);
    o.push_str("<h2>Paths</h2><table><tr><th>change</th><th></th><th>count A</th><th>count B</th><th class=\"l\">function</th><th>path</th><th>instructions</th><th class=\"l\">where</th></tr>");
    for p in &d.paths {
        let only = match p.only {
            Some("a") => " <span class=\"only\">only A</span>",
            Some(_) => " <span class=\"only\">only B</span>",
            None => "",
        };
        let id = match p.path_id_b {
            Some(b) if d.unmatched_a.is_some() => format!("{}/{b}", p.path.path_id),
            _ => p.path.path_id.to_string(),
        };
        let _ = write!(
            o,
            "<tr class=\"p\"><td>{}</td><td class=\"l\">{}</td><td>{}</td><td>{}</td><td class=\"l\">{}{only}</td><td>{}</td><td>{}</td><td class=\"src\">{}</td></tr>",
            signed(p.change),
            bar(p.change, largest),
            group(p.count_a),
            group(p.count_b),
            html(&p.path.function),
            html(&id),
            p.path.instructions,
            html(&p.path.source.join(" "))
        );
    }
    o.push_str("</table>");
    if let Some(note) = d.truncation.note("paths", "paths") {
        let _ = write!(o, "<p class=\"note\">{}</p>", html(&note));
    }
    o.push_str("</body></html>\n");
    o
}

/// Writes the page of `d` to `out` atomically (an earlier file stays as it was if it
/// cannot be written).
pub fn write(d: &Diff, out: &std::path::Path) -> Result<(), crate::Error> {
    let page = render(d);
    wpp_profile::write_atomically(out, |w| w.write_all(page.as_bytes())).map_err(|source| crate::Error::Write { path: out.to_owned(), source })
}
