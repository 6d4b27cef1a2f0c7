//! Typed indices: a newtype per kind of index, so that a block index is never used where a
//! function index is meant, and a vector keyed by one.

use std::fmt;
use std::marker::PhantomData;
use std::ops::{Index, IndexMut};

/// A typed index: a number that says what it indexes.
pub trait Idx: Copy + Eq + Ord {
    /// The index of position `i`.
    fn new(i: usize) -> Self;
    /// The index as a position.
    fn idx(self) -> usize;
}

/// Declares a typed index: `index!(#[doc] pub struct Name(u32));` gives a `Copy`, ordered,
/// hashable newtype with `idx()`, `Display` as the bare number, and [`Idx`]. `Debug` is
/// the caller's choice: derive it, or add `bare_debug` after the type
/// (`index! { pub struct Name(u32); bare_debug }`, in braces, which rustfmt leaves alone) to print the bare number.
#[macro_export]
macro_rules! index {
    ($(#[$attr:meta])* $vis:vis struct $name:ident($ty:ty); bare_debug) => {
        $crate::index!($(#[$attr])* $vis struct $name($ty););
        impl ::std::fmt::Debug for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Debug::fmt(&self.0, f)
            }
        }
    };
    ($(#[$attr:meta])* $vis:vis struct $name:ident($ty:ty);) => {
        $(#[$attr])*
        #[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
        $vis struct $name(pub $ty);

        impl $name {
            /// The index as a `usize`, for indexing a slice.
            #[inline]
            pub fn idx(self) -> usize {
                self.0 as usize
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                ::std::fmt::Display::fmt(&self.0, f)
            }
        }

        impl $crate::Idx for $name {
            #[inline]
            fn new(i: usize) -> Self {
                $name(<$ty>::try_from(i).expect(concat!("an index that fits ", stringify!($name))))
            }
            #[inline]
            fn idx(self) -> usize {
                self.0 as usize
            }
        }
    };
}

/// A vector indexed by a typed index `I` rather than by a bare position (cranelift-entity's
/// `PrimaryMap`): [`IndexVec::push`] hands out the index of what it stored.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct IndexVec<I, T> {
    raw: Vec<T>,
    _index: PhantomData<fn(I) -> I>,
}

impl<I: Idx, T> IndexVec<I, T> {
    pub fn new() -> Self {
        IndexVec { raw: Vec::new(), _index: PhantomData }
    }

    pub fn with_capacity(n: usize) -> Self {
        IndexVec { raw: Vec::with_capacity(n), _index: PhantomData }
    }

    /// `n` copies of `value`, indexed `0..n`.
    pub fn from_elem(value: T, n: usize) -> Self
    where
        T: Clone,
    {
        IndexVec { raw: vec![value; n], _index: PhantomData }
    }

    /// Stores `value` and returns its index.
    pub fn push(&mut self, value: T) -> I {
        let i = I::new(self.raw.len());
        self.raw.push(value);
        i
    }

    pub fn len(&self) -> usize {
        self.raw.len()
    }

    /// Grows or shrinks to `n` values, new ones made by `f`.
    pub fn resize_with(&mut self, n: usize, f: impl FnMut() -> T) {
        self.raw.resize_with(n, f)
    }

    pub fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    pub fn get(&self, i: I) -> Option<&T> {
        self.raw.get(i.idx())
    }

    pub fn get_mut(&mut self, i: I) -> Option<&mut T> {
        self.raw.get_mut(i.idx())
    }

    /// The indices, in order.
    pub fn indices(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator {
        (0..self.raw.len()).map(I::new)
    }

    /// Each value with its index, in order.
    pub fn iter_enumerated(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.raw.iter().enumerate().map(|(i, v)| (I::new(i), v))
    }

    pub fn iter(&self) -> std::slice::Iter<'_, T> {
        self.raw.iter()
    }

    pub fn iter_mut(&mut self) -> std::slice::IterMut<'_, T> {
        self.raw.iter_mut()
    }

    /// The values as a plain slice, position `i` holding index `I::new(i)`.
    pub fn as_slice(&self) -> &[T] {
        &self.raw
    }

    pub fn into_raw(self) -> Vec<T> {
        self.raw
    }
}

impl<I: Idx, T> Default for IndexVec<I, T> {
    fn default() -> Self {
        IndexVec::new()
    }
}

impl<I: Idx, T> From<Vec<T>> for IndexVec<I, T> {
    fn from(raw: Vec<T>) -> Self {
        IndexVec { raw, _index: PhantomData }
    }
}

impl<I: Idx, T> FromIterator<T> for IndexVec<I, T> {
    fn from_iter<It: IntoIterator<Item = T>>(it: It) -> Self {
        IndexVec { raw: it.into_iter().collect(), _index: PhantomData }
    }
}

impl<I: Idx, T> Index<I> for IndexVec<I, T> {
    type Output = T;
    #[inline]
    fn index(&self, i: I) -> &T {
        &self.raw[i.idx()]
    }
}

impl<I: Idx, T> IndexMut<I> for IndexVec<I, T> {
    #[inline]
    fn index_mut(&mut self, i: I) -> &mut T {
        &mut self.raw[i.idx()]
    }
}

impl<'a, I: Idx, T> IntoIterator for &'a IndexVec<I, T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.raw.iter()
    }
}

impl<I: Idx, T: fmt::Debug> fmt::Debug for IndexVec<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.raw.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::index! {
        /// A test index.
        pub struct A(u32); bare_debug
    }

    #[test]
    fn push_hands_out_the_index_it_stored_at() {
        let mut v: IndexVec<A, &str> = IndexVec::new();
        let (x, y) = (v.push("x"), v.push("y"));
        assert_eq!((x, y), (A(0), A(1)));
        assert_eq!((v[x], v[y]), ("x", "y"));
        assert_eq!(v.iter_enumerated().map(|(i, s)| format!("{i}{s}")).collect::<Vec<_>>(), ["0x", "1y"]);
        assert_eq!(format!("{:?} {}", A(7), A(7)), "7 7");
        assert_eq!(A(7).idx(), <A as Idx>::idx(A(7)));
        assert_eq!(v.get(A(2)), None);
    }
}
