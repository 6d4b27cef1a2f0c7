//! Values kept per function, indexed by [`FuncIdx`] rather than by a bare position.

use wpp_base::IndexVec;

use crate::FuncIdx;

/// A value for some functions of a program, by function index: typically one for every
/// function with code and none for imports. Indexing with a function that has none panics;
/// [`FuncMap::get`] asks.
#[derive(Clone, Debug, PartialEq)]
pub struct FuncMap<T> {
    slots: IndexVec<FuncIdx, Option<T>>,
}

impl<T> Default for FuncMap<T> {
    fn default() -> Self {
        FuncMap { slots: IndexVec::new() }
    }
}

impl<T> FuncMap<T> {
    /// A map of `n_functions` functions, none with a value.
    pub fn new(n_functions: usize) -> Self {
        FuncMap { slots: std::iter::repeat_with(|| None).take(n_functions).collect() }
    }

    /// The number of functions the map spans (with or without a value).
    pub fn n_functions(&self) -> usize {
        self.slots.len()
    }

    /// The value of `f`, if it has one.
    pub fn get(&self, f: FuncIdx) -> Option<&T> {
        self.slots.get(f)?.as_ref()
    }

    /// The value of `f`, mutably, if it has one.
    pub fn get_mut(&mut self, f: FuncIdx) -> Option<&mut T> {
        self.slots.get_mut(f)?.as_mut()
    }

    /// Whether `f` has a value.
    pub fn contains(&self, f: FuncIdx) -> bool {
        self.get(f).is_some()
    }

    /// Sets the value of `f`, growing the map to span it.
    pub fn insert(&mut self, f: FuncIdx, value: T) {
        if f.idx() >= self.slots.len() {
            self.slots.resize_with(f.idx() + 1, || None);
        }
        self.slots[f] = Some(value);
    }

    /// The functions with a value, in index order.
    pub fn iter(&self) -> impl Iterator<Item = (FuncIdx, &T)> {
        self.slots.iter_enumerated().filter_map(|(f, v)| Some((f, v.as_ref()?)))
    }

    /// The values, in function order.
    pub fn values(&self) -> impl Iterator<Item = &T> {
        self.slots.iter().flatten()
    }
}

impl<T> FromIterator<Option<T>> for FuncMap<T> {
    /// The `i`th item is function `i`'s value.
    fn from_iter<I: IntoIterator<Item = Option<T>>>(iter: I) -> Self {
        FuncMap { slots: iter.into_iter().collect() }
    }
}

impl<T> std::ops::Index<FuncIdx> for FuncMap<T> {
    type Output = T;

    fn index(&self, f: FuncIdx) -> &T {
        self.get(f).unwrap_or_else(|| panic!("function {f} has no value in this map"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_by_function() {
        let mut m: FuncMap<&str> = FuncMap::new(2);
        m.insert(FuncIdx(1), "b");
        m.insert(FuncIdx(3), "d");
        assert_eq!(m.n_functions(), 4);
        assert_eq!(m.get(FuncIdx(0)), None);
        assert_eq!(m[FuncIdx(1)], "b");
        assert_eq!(m.iter().collect::<Vec<_>>(), [(FuncIdx(1), &"b"), (FuncIdx(3), &"d")]);
        assert_eq!(m.get(FuncIdx(9)), None);
    }
}
