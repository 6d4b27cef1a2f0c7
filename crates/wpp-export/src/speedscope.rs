//! The calls as a speedscope document (www.speedscope.app's file format): the calling
//! context tree as a sampled profile (each stack weighted by its instructions), and for a
//! whole program path, the ordered call timeline as an evented profile, on an axis of
//! instructions executed. A profile of path counts only has no calls: each function is a
//! stack of one. A timeline cut to a size ([`crate::Timeline::AtMost`]) says in its name
//! which calls it left out.

use std::io::Write;

use rustc_hash::FxHashMap;
use serde_json::{json, Value};
use wpp_model::{BlockIdx, FuncIdx};
use wpp_profile::Profile;

use crate::walk::{path_costs, Walk};

/// Writes the document to `out` (streamed: the timeline of a long run is large).
pub fn write(p: &Profile, walk: Option<&Walk>, out: &mut dyn Write) -> std::io::Result<()> {
    let mut frames: Vec<Value> = Vec::new();
    let mut frame_of: FxHashMap<FuncIdx, usize> = FxHashMap::default();
    let mut frame = |f: FuncIdx| -> usize {
        *frame_of.entry(f).or_insert_with(|| {
            let mut fr = json!({ "name": p.meta.func_name(f) });
            if let Some((src, r)) = p.source.as_ref().and_then(|src| Some((src, src.block(f, BlockIdx(0))?))) {
                if let Some(file) = src.files.get(r.file as usize) {
                    fr["file"] = json!(file);
                    fr["line"] = json!(r.first);
                }
            }
            frames.push(fr);
            frames.len() - 1
        })
    };
    let name = format!("{} {}", p.meta.module, p.meta.args.join(" ")).trim_end().to_owned();
    let (mut samples, mut weights) = (Vec::new(), Vec::new());
    let total;
    match walk {
        Some(w) => {
            for (i, n) in w.tree.nodes.iter().enumerate().skip(1) {
                if n.own == 0 {
                    continue;
                }
                let stack: Vec<usize> = w.tree.stack(wpp_twpp::stacks::StackIdx(i as u32)).into_iter().map(&mut frame).collect();
                samples.push(stack);
                weights.push(n.own);
            }
            total = w.instructions;
        }
        None => {
            let costs = path_costs(p);
            let mut by_func: std::collections::BTreeMap<FuncIdx, u64> = std::collections::BTreeMap::new();
            for c in p.counts.iter().filter(|c| c.count > 0) {
                let e = wpp_model::PathEvent { func: c.func, path: c.path };
                let x = by_func.entry(c.func).or_default();
                *x = x.saturating_add(costs[&e].saturating_mul(c.count));
            }
            for (f, n) in by_func.into_iter().filter(|x| x.1 > 0) {
                samples.push(vec![frame(f)]);
                weights.push(n);
            }
            total = weights.iter().sum();
        }
    }
    let timeline = walk.filter(|w| !w.timeline.is_empty());
    // Every frame the timeline names, before the frames are written.
    let events: Vec<(bool, usize, u64)> = timeline.map_or_else(Vec::new, |w| w.timeline.iter().map(|m| (m.open, frame(m.func), m.at)).collect());
    let sampled = json!({
        "type": "sampled",
        "name": format!("{name} (calling context tree, instructions)"),
        "unit": "none",
        "startValue": 0,
        "endValue": total,
        "samples": samples,
        "weights": weights,
    });
    write!(out, "{{\"$schema\":\"https://www.speedscope.app/file-format-schema.json\",\"exporter\":")?;
    serde_json::to_writer(&mut *out, &format!("wpp {}", env!("CARGO_PKG_VERSION")))?;
    write!(out, ",\"name\":")?;
    serde_json::to_writer(&mut *out, &name)?;
    write!(out, ",\"activeProfileIndex\":0,\"shared\":{{\"frames\":")?;
    serde_json::to_writer(&mut *out, &frames)?;
    write!(out, "}},\"profiles\":[")?;
    serde_json::to_writer(&mut *out, &sampled)?;
    if let Some(w) = timeline {
        write!(out, ",{{\"type\":\"evented\",\"name\":")?;
        let left_out = match w.shortest {
            0 => String::new(),
            n => format!("; {} calls shorter than {n} instructions left out, in their callers", w.left_out),
        };
        serde_json::to_writer(&mut *out, &format!("{name} (call timeline, instructions{left_out})"))?;
        write!(out, ",\"unit\":\"none\",\"startValue\":0,\"endValue\":{},\"events\":[", w.instructions)?;
        for (i, (open, f, at)) in events.into_iter().enumerate() {
            let sep = if i == 0 { "" } else { "," };
            write!(out, "{sep}{{\"type\":\"{}\",\"frame\":{f},\"at\":{at}}}", if open { 'O' } else { 'C' })?;
        }
        write!(out, "]}}")?;
    }
    writeln!(out, "]}}")
}
