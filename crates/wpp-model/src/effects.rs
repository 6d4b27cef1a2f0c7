//! What each block does to a program's state, as data flow analyses see it: the
//! definitions of local and global variables and the loads and stores of linear memory,
//! in the order the block executes them.
//!
//! Addresses are kept as the expression that computed them, as far as a block shows it: a
//! constant (how a C compiler addresses its globals), or a local or global variable plus a
//! constant. Two accesses with the same expression touch the same bytes as long as the
//! variable has not been redefined in between; accesses whose address is computed some
//! other way have an [`Base::Unknown`] base and may touch anything.
//!
//! `wpp-wasm` builds these from a module's instructions; the analyses (`wpp-twpp`'s data
//! flow queries) read only this.

/// A variable: a local of the running invocation's frame, or a global of the program.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Var {
    Local(u32),
    Global(u32),
}

impl std::fmt::Display for Var {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Var::Local(i) => write!(f, "local {i}"),
            Var::Global(i) => write!(f, "global {i}"),
        }
    }
}

/// What an address is computed from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Base {
    /// Nothing: the address is the access's offset.
    Const,
    /// The value of a variable (plus the access's offset).
    Var(Var),
    /// Something the block does not show (a loaded pointer, arithmetic on several values).
    Unknown,
}

/// A load or store: which memory, where (base plus offset), how many bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Access {
    pub memory: u32,
    pub base: Base,
    /// Added to the base's value (the instruction's static offset, constants folded in).
    /// Wraps around like the machine's address arithmetic.
    pub offset: u64,
    /// Bytes read or written.
    pub width: u32,
}

impl Access {
    /// Whether `self` reads or writes every byte `other` does, at the same address
    /// expression.
    pub fn covers(&self, other: &Access) -> bool {
        self.memory == other.memory
            && self.base == other.base
            && self.base != Base::Unknown
            && self.offset <= other.offset
            && other.offset.saturating_add(other.width as u64) <= self.offset.saturating_add(self.width as u64)
    }

    /// Whether `self` and `other` may touch a byte in common, judged from the expressions
    /// alone (a variable base is taken to hold the same value for both).
    pub fn may_overlap(&self, other: &Access) -> bool {
        if self.memory != other.memory {
            return false;
        }
        if self.base != other.base || self.base == Base::Unknown {
            return true;
        }
        let (a, b) = (self.offset as u128, other.offset as u128);
        a < b + other.width as u128 && b < a + self.width as u128
    }
}

impl std::fmt::Display for Access {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mem = if self.memory == 0 { String::new() } else { format!("memory {} ", self.memory) };
        match self.base {
            Base::Const => write!(f, "{mem}[{:#x}]", self.offset)?,
            Base::Var(v) => write!(f, "{mem}[{v} + {}]", self.offset as i64)?,
            Base::Unknown => write!(f, "{mem}[? + {}]", self.offset)?,
        }
        write!(f, " ({} bytes)", self.width)
    }
}

/// One thing a block does, at the byte offset (in the module) of its instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Action {
    /// A variable gets a new value.
    Def {
        var: Var,
        at: u32,
    },
    Load {
        access: Access,
        at: u32,
    },
    Store {
        access: Access,
        at: u32,
    },
    /// Memory written at addresses the instruction does not name (a bulk copy or fill, a
    /// segment initialised).
    Clobber {
        memory: u32,
        at: u32,
    },
}

impl Action {
    /// The byte offset of the instruction.
    pub fn at(&self) -> u32 {
        match *self {
            Action::Def { at, .. } | Action::Load { at, .. } | Action::Store { at, .. } | Action::Clobber { at, .. } => at,
        }
    }
}

/// A function's blocks' actions, by block index, each block's in execution order. A call
/// is not an action: a block that ends in a call shows that in the CFG (its
/// [`crate::EdgeKind::Call`] edge), and what the callee did is in the callee's blocks.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FuncEffects {
    pub blocks: Vec<Vec<Action>>,
    /// Parameters (locals `0..params` hold the arguments at entry; the rest start at zero).
    pub params: u32,
    pub locals: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn covering_and_overlapping() {
        let a = Access { memory: 0, base: Base::Const, offset: 64, width: 4 };
        assert!(a.covers(&a) && a.covers(&Access { offset: 66, width: 2, ..a }) && !a.covers(&Access { offset: 66, ..a }));
        assert!(a.may_overlap(&Access { offset: 66, ..a }) && !a.may_overlap(&Access { offset: 68, ..a }));
        assert!(!a.may_overlap(&Access { memory: 1, ..a }));
        let p = Access { base: Base::Var(Var::Local(0)), ..a };
        assert!(p.may_overlap(&a), "a pointer may point anywhere");
        assert!(!p.covers(&a) && !a.covers(&p));
        let unknown = Access { base: Base::Unknown, ..a };
        assert!(!unknown.covers(&unknown), "an unknown address is not known to be the same");
    }
}
