//! The run's calls as a flame graph: one frame per call stack of the calling context tree,
//! as wide as the instructions executed in it and above it (drawn by inferno, whose SVG
//! zooms on a click and searches).

use wpp_twpp::stacks::{CallTree, StackIdx};

/// The tree as folded stacks, `outer;inner;innermost COST`, one line per stack that ran
/// instructions of its own. Function names lose their `;` (the separator).
pub fn folded(tree: &CallTree, name: &dyn Fn(wpp_model::FuncIdx) -> String) -> Vec<String> {
    let mut names: Vec<String> = Vec::with_capacity(tree.nodes.len());
    for n in &tree.nodes {
        let own = match n.func {
            Some(f) => name(f).replace(';', ":"),
            None => String::new(),
        };
        let full = match n.parent {
            Some(StackIdx(0)) | None => own,
            Some(p) => format!("{};{own}", names[p.0 as usize]),
        };
        names.push(full);
    }
    tree.nodes.iter().zip(&names).skip(1).filter(|(n, _)| n.own > 0).map(|(n, s)| format!("{s} {}", n.own)).collect()
}

/// The flame graph of folded stacks, as a standalone SVG document.
pub fn svg(lines: &[String], title: &str) -> std::io::Result<String> {
    let mut opts = inferno::flamegraph::Options::default();
    title.clone_into(&mut opts.title);
    opts.count_name = "instructions".into();
    opts.name_type = "Function:".into();
    opts.hash = true;
    opts.subtitle = Some("Click a frame to zoom in; Ctrl-F or Search to highlight functions".into());
    let mut out = Vec::new();
    inferno::flamegraph::from_lines(&mut opts, lines.iter().map(String::as_str), &mut out)?;
    let svg = String::from_utf8(out).map_err(std::io::Error::other)?;
    Ok(keep_history(&svg))
}

/// The page shows the flame graph in a frame of its own, from a data URL, whose history
/// cannot be written (an opaque origin): inferno's script keeps the zoom in the URL and
/// would fail there. A script ahead of it makes that a no-op.
fn keep_history(svg: &str) -> String {
    const SHIM: &str = "<script type=\"text/ecmascript\"><![CDATA[History.prototype.replaceState = function () {};]]></script>";
    let Some(open) = svg.find("<svg") else { return svg.to_owned() };
    let Some(end) = svg[open..].find('>') else { return svg.to_owned() };
    let at = open + end + 1;
    format!("{}{SHIM}{}", &svg[..at], &svg[at..])
}
