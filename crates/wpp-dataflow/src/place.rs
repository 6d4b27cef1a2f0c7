//! Naming a program point as users write one: a block of a function (`b12`), a module byte
//! offset (`0x1a2b` or `6699`, as `wasm-objdump -d` shows them) or a source line
//! (`FILE:LINE`, the file matched by its ending), resolved against the module.

use wpp_model::FuncIdx;
use wpp_profile::Profile;

use crate::{Error, Module};

/// A place as written, before it is resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Location<'a> {
    /// Block N of a function given elsewhere.
    Block(u32),
    /// A module byte offset.
    Offset(u32),
    /// A source line.
    Line(&'a str, u32),
}

impl<'a> Location<'a> {
    /// Parses `b12`, `0x1A2B`, `6699` or `FILE:LINE`.
    pub fn parse(s: &'a str) -> Result<Location<'a>, Error> {
        let bad = || Error::Place(format!("`{s}` is neither a block (b12), a byte offset (0x1a2b or 6699) nor FILE:LINE"));
        if let Some(n) = s.strip_prefix('b').and_then(|n| n.parse::<u32>().ok()) {
            return Ok(Location::Block(n));
        }
        if let Some(hex) = s.strip_prefix("0x") {
            return u32::from_str_radix(hex, 16).map(Location::Offset).map_err(|_| bad());
        }
        if let Ok(n) = s.parse::<u32>() {
            return Ok(Location::Offset(n));
        }
        let (file, line) = s.rsplit_once(':').ok_or_else(bad)?;
        Ok(Location::Line(file, line.parse().map_err(|_| bad())?))
    }
}

/// The byte offset of the instruction `spec` names: the start of block N of `func`, the
/// offset itself, or the first instruction of `func` on the source line (a block start
/// or an instruction that defines, loads or stores). A block or a line needs `func`.
pub fn resolve_point(module: &Module, profile: &Profile, spec: &str, func: Option<FuncIdx>) -> Result<u32, Error> {
    let needs = |what: &str| Error::Place(format!("`{spec}`: {what} needs a function (--func)"));
    match Location::parse(spec)? {
        Location::Offset(at) => Ok(at),
        Location::Block(n) => {
            let f = func.ok_or_else(|| needs("a block"))?;
            let cfg = profile.meta.functions.get(f.idx()).and_then(|x| x.cfg.as_ref());
            match cfg.and_then(|c| c.blocks.get(n as usize)) {
                Some(b) => Ok(b.start),
                None => Err(Error::Place(format!("{}: function {} has no block {n}", module.path.display(), profile.meta.func_name(f)))),
            }
        }
        Location::Line(file, line) => {
            let f = func.ok_or_else(|| needs("a source line"))?;
            module.first_on_line(profile, f, file, line).ok_or_else(|| {
                Error::Place(format!("{}: no instruction of function {} is on line {line} of {file}", module.path.display(), profile.meta.func_name(f)))
            })
        }
    }
}
