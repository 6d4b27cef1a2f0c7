//! Program points as the analyses that read the module resolve them: the forms of
//! [`wpp_report::point`] (one grammar for every command), against the module's
//! instructions.

use wpp_model::FuncIdx;
use wpp_profile::Profile;
use wpp_report::point::{Point, FORMS};
use wpp_report::select_func;

use crate::{Error, Module};

/// The function a point names, or else the command's (`--func`).
pub(crate) fn func_of(profile: &Profile, named: Option<&str>, given: Option<FuncIdx>) -> Result<Option<FuncIdx>, Error> {
    Ok(match named {
        Some(name) => Some(select_func(profile, name)?),
        None => given,
    })
}

/// Checks that byte offset `at` is in the code of `func`, when a point names both.
pub(crate) fn in_func(module: &Module, profile: &Profile, func: Option<FuncIdx>, at: u32) -> Result<(), Error> {
    match func {
        Some(f) if module.block_at(at).map(|(g, _)| g) != Some(f) => {
            Err(Error::Place(format!("{}: byte offset {at:#x} is not in the code of function {}", module.path.display(), profile.meta.func_name(f))))
        }
        _ => Ok(()),
    }
}

/// The start of block `block` of `func`.
pub(crate) fn block_start(module: &Module, profile: &Profile, func: FuncIdx, block: u32) -> Result<u32, Error> {
    let cfg = profile.meta.functions.get(func.idx()).and_then(|x| x.cfg.as_ref());
    match cfg.and_then(|c| c.blocks.get(block as usize)) {
        Some(b) => Ok(b.start),
        None => Err(Error::Place(format!(
            "{}: function {} has no block {block} (it has {})",
            module.path.display(),
            profile.meta.func_name(func),
            cfg.map_or(0, |c| c.blocks.len())
        ))),
    }
}

/// The byte offset of the instruction `spec` names: the offset itself (in the function
/// named, if one is), the start of a block, or the first instruction of `func` on a source
/// line (a block start or an instruction that defines, loads or stores). A block or a line
/// without a function named needs `func` (`--func`).
pub fn resolve_point(module: &Module, profile: &Profile, spec: &str, func: Option<FuncIdx>) -> Result<u32, Error> {
    let needs = |what: &str| Error::Place(format!("`{spec}`: {what} needs a function: write FUNC:{spec} or give --func"));
    match Point::parse(spec)? {
        Point::Offset { func: named, at } => {
            in_func(module, profile, func_of(profile, named, None)?, at)?;
            Ok(at)
        }
        Point::Block { func: named, block } => {
            let f = func_of(profile, named, func)?.ok_or_else(|| needs("a block"))?;
            block_start(module, profile, f, block)
        }
        Point::Line { file, line } => {
            let f = func.ok_or_else(|| Error::Place(format!("`{spec}`: a source line needs a function (--func)")))?;
            module.first_on_line(profile, f, file, line).ok_or_else(|| {
                Error::Place(format!("{}: no instruction of function {} is on line {line} of {file}", module.path.display(), profile.meta.func_name(f)))
            })
        }
        Point::Func(_) => Err(Error::Place(format!("`{spec}` is not a point in a function; write one of {FORMS}"))),
    }
}
