//! A dynamic slice as a page (`wpp slice --html`): the source files the slice touches,
//! its lines highlighted, each linked to its instructions; every instruction with its
//! executions in the slice and its dependences, each dependence linked to the
//! instruction it comes from. Without DWARF, the instructions by function.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use wpp_report::slice::{DepSource, SliceReport};

use crate::text::html;

const STYLE: &str = "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\
h1{font-size:1.3em}h2{font-size:1.1em;margin-top:1.5em}\
pre,code,.src td{font-family:ui-monospace,monospace;font-size:13px}\
table.src{border-collapse:collapse}.src td{padding:0 .6em;white-space:pre;vertical-align:top}\
.src td.n{color:#888;text-align:right}.src tr.in{background:#fff3b0}.src tr.in td.n a{color:#a05a00;font-weight:bold}\
.ins{margin:.2em 0 .2em 1.2em}.ins:target,.line:target{background:#dff0ff}\
.deps{margin:0 0 .4em 2.5em;color:#444}.deps li{list-style:none}\
.note{color:#666}";

fn anchor(at: &str) -> String {
    format!("i-{at}")
}

fn line_anchor(source: &str) -> String {
    let clean: String = source.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '-' }).collect();
    format!("l-{clean}")
}

/// A dependence's source, linked to its instruction when it is one.
fn from(d: &DepSource) -> String {
    match (&d.place, &d.text) {
        (Some(p), text) => {
            let what = text.clone().unwrap_or_default();
            let line = p.source.as_ref().map(|s| format!(" {s}")).unwrap_or_default();
            format!("<a href=\"#{}\">{} {}</a> ({}{})", html(&anchor(&p.at)), html(&p.at), html(&what), html(&p.function), html(&line))
        }
        _ => html(d.leaf()),
    }
}

/// The page; `read` gives a source file's text by the name DWARF gives it.
pub fn render(r: &SliceReport, module: &str, read: &dyn Fn(&str) -> Option<String>) -> String {
    let c = &r.criterion;
    let mut o = String::new();
    let _ =
        write!(o, "<!doctype html><html><head><meta charset=\"utf-8\"><title>slice of {} — wpp</title><style>{STYLE}</style></head><body>", html(&c.variable));
    let _ = write!(
        o,
        "<h1>Slice of {} before {} (execution {} of {})</h1><p>{}: its value came from {}.<br>{} instructions on {} source lines, {} executions; approach {}.</p>",
        html(&c.variable),
        html(&c.place.at_function()),
        c.execution,
        c.executions,
        html(module),
        from(&c.defined_by),
        r.statements,
        r.source_lines,
        r.instances,
        r.algorithm
    );
    if !r.follows_memory {
        o.push_str("<p class=\"note\">Registers and control only: the TWPP keeps no memory dependences, so a load's value ends the slice.</p>");
    }
    if let Some(note) = r.truncation.note("lines", if r.source_lines > 0 { "source lines" } else { "functions" }) {
        let _ = write!(o, "<p class=\"note\">{}</p>", html(&note));
    }
    // The source files, their slice lines highlighted.
    let mut files: BTreeMap<String, BTreeSet<u32>> = BTreeMap::new();
    for l in &r.lines {
        if let Some((file, line)) = l.source.as_deref().and_then(|s| s.rsplit_once(':')).and_then(|(f, n)| Some((f, n.parse::<u32>().ok()?))) {
            files.entry(file.to_string()).or_default().insert(line);
        }
    }
    for (file, lines) in &files {
        let _ = write!(o, "<h2>{}</h2>", html(file));
        match read(file) {
            Some(text) => {
                o.push_str("<table class=\"src\">");
                for (i, t) in text.lines().enumerate() {
                    let n = i as u32 + 1;
                    if lines.contains(&n) {
                        let a = line_anchor(&format!("{file}:{n}"));
                        let _ = write!(o, "<tr class=\"in\"><td class=\"n\"><a href=\"#{a}\">{n}</a></td><td>{}</td></tr>", html(t));
                    } else {
                        let _ = write!(o, "<tr><td class=\"n\">{n}</td><td>{}</td></tr>", html(t));
                    }
                }
                o.push_str("</table>");
            }
            None => {
                let shown: Vec<String> = lines.iter().map(u32::to_string).collect();
                let _ = write!(o, "<p class=\"note\">(source not found; lines {})</p>", shown.join(", "));
            }
        }
    }
    // The instructions, by line (or function), each with its dependences.
    o.push_str("<h2>Instructions</h2>");
    for l in &r.lines {
        let title = l.source.as_deref().unwrap_or("(no source line)");
        let id = l.source.as_deref().map(line_anchor).unwrap_or_default();
        let _ = write!(o, "<h3 class=\"line\" id=\"{}\">{} <span class=\"note\">{}</span></h3>", html(&id), html(title), html(&l.function));
        for i in &l.instructions {
            let _ = write!(
                o,
                "<div class=\"ins\" id=\"{}\"><code>{} {}</code> ×{}</div><ul class=\"deps\">",
                html(&anchor(&i.at)),
                html(&i.at),
                html(&i.text),
                i.instances
            );
            for d in &i.deps {
                let what = match &d.register {
                    Some(reg) => format!("{} {reg}", d.kind),
                    None => d.kind.to_string(),
                };
                let _ = write!(o, "<li>{} ← {} ×{}</li>", html(&what), from(&d.from), d.count);
            }
            o.push_str("</ul>");
        }
    }
    o.push_str("</body></html>\n");
    o
}

/// Writes the page of `r` to `out` atomically (an earlier file stays as it was if it
/// cannot be written), the sources read from the files DWARF names.
pub fn write(r: &SliceReport, module: &str, out: &std::path::Path) -> Result<(), crate::Error> {
    let page = render(r, module, &|f| std::fs::read_to_string(f).ok());
    wpp_profile::write_atomically(out, |w| w.write_all(page.as_bytes())).map_err(|source| crate::Error::Write { path: out.to_owned(), source })
}
