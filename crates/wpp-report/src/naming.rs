//! Naming functions and paths as users write them ([`wpp_profile::naming`]), with this
//! crate's errors.

use wpp_model::{FuncIdx, PathEvent};
use wpp_profile::naming;
use wpp_profile::Profile;

use crate::Error;

/// The function `spec` names in `p`'s module: its name, or its index.
pub fn select_func(p: &Profile, spec: &str) -> Result<FuncIdx, Error> {
    Ok(naming::select_func(p, spec)?)
}

/// A path of `p`'s program given as `FUNCTION:PATH_ID` (function name or index).
pub fn parse_path(p: &Profile, spec: &str) -> Result<PathEvent, Error> {
    Ok(naming::parse_path(p, spec)?)
}
