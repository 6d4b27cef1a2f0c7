//! Naming a program point as users write one: one grammar for every command that takes a
//! place (`wpp slice --at`, `wpp dataflow --at`/`--load`, `wpp dff --at`, `wpp deps --use`):
//!
//! | form | names |
//! |---|---|
//! | `FUNC:0xOFF` | the instruction at module byte offset `OFF`, in function `FUNC` |
//! | `0xOFF`, `N` | the instruction at a module byte offset (hexadecimal or decimal, as `wasm-objdump -d` shows them) |
//! | `FUNC:bN` | block `N` of `FUNC`: its first instruction |
//! | `bN` | block `N` of the function `--func` names |
//! | `FILE:LINE` | a source line, the file matched by its ending (`lvm.c:120`, `src/lvm.c:120`) |
//! | `FUNC` | a function, by name (where a command takes all of a function's points, as `--use` does its loads) |
//!
//! `FUNC` is a function's name or index as [`crate::select_func`] reads it; a name with
//! colons (`ns::f:0x1a`) splits at its last one. The commands resolve a point against what
//! they know ([`Point`] is only its form); what they share is here: [`file_matches`], the
//! one rule for a file named by its ending, and [`nearest`], the one way of saying what is
//! near a point that names nothing.

use crate::Error;

/// Every form of a point, for help texts and errors.
pub const FORMS: &str = "FUNC:0xOFF, 0xOFF, FUNC:bN, bN, FILE:LINE or FUNC";

/// A point as written, before it is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Point<'a> {
    /// `FUNC:0xOFF`, `0xOFF` or `N`: a module byte offset, in a function if named.
    Offset { func: Option<&'a str>, at: u32 },
    /// `FUNC:bN` or `bN`: a block, of the function named or of the command's `--func`.
    Block { func: Option<&'a str>, block: u32 },
    /// `FILE:LINE`.
    Line { file: &'a str, line: u32 },
    /// `FUNC`.
    Func(&'a str),
}

impl<'a> Point<'a> {
    /// Reads any of the forms of [`FORMS`].
    pub fn parse(spec: &'a str) -> Result<Point<'a>, Error> {
        let bad = |problem: String| Error::BadPoint { spec: spec.to_string(), problem };
        let offset = |s: &str| -> Option<Result<u32, Error>> {
            if let Some(hex) = s.strip_prefix("0x") {
                return Some(u32::from_str_radix(hex, 16).map_err(|_| bad(format!("`{s}` is not a hexadecimal byte offset below 2^32"))));
            }
            (!s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()))
                .then(|| s.parse::<u32>().map_err(|_| bad(format!("`{s}` is not a byte offset below 2^32"))))
        };
        let block = |s: &str| s.strip_prefix('b').filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit())).and_then(|n| n.parse::<u32>().ok());
        if spec.is_empty() {
            return Err(bad(format!("an empty place; write one of {FORMS}")));
        }
        if let Some(at) = offset(spec) {
            return Ok(Point::Offset { func: None, at: at? });
        }
        if let Some(block) = block(spec) {
            return Ok(Point::Block { func: None, block });
        }
        if let Some((head, tail)) = spec.rsplit_once(':').filter(|(h, t)| !h.is_empty() && !t.is_empty()) {
            if let Some(at) = tail.strip_prefix("0x").and(offset(tail)) {
                return Ok(Point::Offset { func: Some(head), at: at? });
            }
            if let Some(block) = block(tail) {
                return Ok(Point::Block { func: Some(head), block });
            }
            if tail.bytes().all(|b| b.is_ascii_digit()) {
                let line = tail.parse::<u32>().map_err(|_| bad(format!("line `{tail}` is past 2^32")))?;
                return Ok(Point::Line { file: head, line });
            }
        }
        if spec.ends_with(':') || spec.starts_with(':') {
            return Err(bad(format!("not a place; write one of {FORMS}")));
        }
        Ok(Point::Func(spec))
    }
}

/// Whether a source file's `name` (as the debugging information gives it) is the file a
/// user wrote, `file`: the same, or ending in `/file`.
pub fn file_matches(name: &str, file: &str) -> bool {
    name == file || (name.len() > file.len() && name.ends_with(file) && name.as_bytes()[name.len() - file.len() - 1] == b'/')
}

/// The values nearest `to` among `values` (sorted or not, repeats allowed), at most `at_most`
/// of them, in order, as text: `118, 121, 124`, and `(the nearest 12 of 40)` after them
/// when there are more.
pub fn nearest(values: &[u32], to: u32, at_most: usize, show: impl Fn(u32) -> String) -> String {
    let mut all = values.to_vec();
    all.sort_unstable();
    all.dedup();
    let mut near = all.clone();
    near.sort_by_key(|&v| (v.abs_diff(to), v));
    near.truncate(at_most);
    near.sort_unstable();
    let shown: Vec<String> = near.iter().map(|&v| show(v)).collect();
    let more = if all.len() > near.len() { format!(" (the nearest {} of {})", near.len(), all.len()) } else { String::new() };
    format!("{}{more}", shown.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form() {
        let p = |s| Point::parse(s).unwrap();
        assert_eq!(p("0x1a2b"), Point::Offset { func: None, at: 0x1a2b });
        assert_eq!(p("6699"), Point::Offset { func: None, at: 6699 });
        assert_eq!(p("main:0x1a"), Point::Offset { func: Some("main"), at: 0x1a });
        assert_eq!(p("ns::f:0x1a"), Point::Offset { func: Some("ns::f"), at: 0x1a });
        assert_eq!(p("b12"), Point::Block { func: None, block: 12 });
        assert_eq!(p("main:b3"), Point::Block { func: Some("main"), block: 3 });
        assert_eq!(p("lvm.c:120"), Point::Line { file: "lvm.c", line: 120 });
        assert_eq!(p("src/a:b.c:7"), Point::Line { file: "src/a:b.c", line: 7 });
        assert_eq!(p("luaV_execute"), Point::Func("luaV_execute"));
        assert_eq!(p("ns::f"), Point::Func("ns::f"));
        // A function named like a block is written with its place: `bx` is a name.
        assert_eq!(p("bx"), Point::Func("bx"));
        for bad in ["", "0xzz", "f:0xzz", "99999999999", "f:", ":3", "a.c:99999999999"] {
            assert!(matches!(Point::parse(bad), Err(Error::BadPoint { .. })), "{bad:?} is refused");
        }
    }

    #[test]
    fn files_by_their_ending_and_nearest_values() {
        assert!(file_matches("/src/lua/lvm.c", "lvm.c"));
        assert!(file_matches("lvm.c", "lvm.c"));
        assert!(file_matches("/src/lua/lvm.c", "lua/lvm.c"));
        assert!(!file_matches("/src/lua/xlvm.c", "lvm.c"));
        assert!(!file_matches("lvm.c", "/src/lvm.c"));
        let n = |v: &[u32], to, k| nearest(v, to, k, |x| x.to_string());
        assert_eq!(n(&[9, 1, 5, 5, 30], 6, 2), "5, 9 (the nearest 2 of 4)");
        assert_eq!(n(&[3, 1], 2, 5), "1, 3");
        assert_eq!(nearest(&[16], 0, 1, |x| format!("{x:#x}")), "0x10");
    }
}
