//! How many rows of a report's lists are shown, and what a shortened list says about
//! itself.
//!
//! A report whose lists can be long takes a [`Top`]: every row, or the first N of each
//! list. What that cut off is a [`Truncation`], the same in every report. Its JSON form is
//! part of the reports' contract: `"truncated"` (whether any list lost rows) and, for each
//! list that can be cut, `"total_LIST"` (its rows before the cut; `"total_paths"` for the
//! list `"paths"`), all present whether or not anything was cut.

use serde::ser::{Serialize, SerializeMap, Serializer};

use crate::format::group;

/// How many rows of each list a report keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Top {
    /// Every row.
    All,
    /// The first N rows (N > 0).
    First(usize),
}

impl Top {
    /// Rows of each list a text report shows when the user does not say.
    pub const TEXT_DEFAULT: usize = 20;

    /// `--top N` as the user gave it (0 for all); without it, every row for JSON (complete
    /// unless the user asks for less) and the first [`Top::TEXT_DEFAULT`] for text.
    pub fn of(given: Option<usize>, json: bool) -> Top {
        match given {
            Some(0) => Top::All,
            Some(n) => Top::First(n),
            None if json => Top::All,
            None => Top::First(Top::TEXT_DEFAULT),
        }
    }

    /// How many of `total` rows are kept.
    pub fn keep(self, total: usize) -> usize {
        match self {
            Top::All => total,
            Top::First(n) => n.min(total),
        }
    }
}

/// What a [`Top`] cut off a report's lists: for each list, its rows shown and in all.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Truncation {
    lists: Vec<List>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
struct List {
    /// The list's field in the report's JSON.
    name: &'static str,
    shown: usize,
    total: usize,
}

impl Truncation {
    /// Records that list `name` (its JSON field) shows `shown` of its `total` rows.
    pub fn record(&mut self, name: &'static str, shown: usize, total: usize) {
        debug_assert!(shown <= total && !self.lists.iter().any(|l| l.name == name));
        self.lists.push(List { name, shown, total });
    }

    /// Cuts `rows`, list `name`, to what `top` keeps and records it.
    pub fn cut<T>(&mut self, name: &'static str, rows: &mut Vec<T>, top: Top) {
        let total = rows.len();
        rows.truncate(top.keep(total));
        self.record(name, rows.len(), total);
    }

    /// Whether any list lost rows.
    pub fn truncated(&self) -> bool {
        self.lists.iter().any(|l| l.shown < l.total)
    }

    /// The rows of list `name` before the cut.
    ///
    /// # Panics
    /// If the report has no list `name`.
    pub fn total(&self, name: &str) -> usize {
        self.lists.iter().find(|l| l.name == name).unwrap_or_else(|| panic!("no list `{name}` in this report")).total
    }

    /// The line a text report prints under list `name` when it lost rows, calling its
    /// rows `noun`: `showing 20 of 1,234 paths; --top 0 for all`.
    pub fn note(&self, name: &str, noun: &str) -> Option<String> {
        let l = self.lists.iter().find(|l| l.name == name)?;
        (l.shown < l.total).then(|| format!("showing {} of {} {noun}; --top 0 for all", group(l.shown as u64), group(l.total as u64)))
    }
}

/// `"truncated": BOOL, "total_LIST": ROWS, ...`; a report includes it with
/// `#[serde(flatten)]`.
impl Serialize for Truncation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(1 + self.lists.len()))?;
        m.serialize_entry("truncated", &self.truncated())?;
        for l in &self.lists {
            m.serialize_entry(&format!("total_{}", l.name), &l.total)?;
        }
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_is_whole_unless_asked() {
        assert_eq!(Top::of(None, true), Top::All);
        assert_eq!(Top::of(None, false), Top::First(Top::TEXT_DEFAULT));
        assert_eq!(Top::of(Some(0), false), Top::All);
        assert_eq!(Top::of(Some(3), true), Top::First(3));
    }

    #[test]
    fn cuts_and_says_so() {
        let mut t = Truncation::default();
        let mut a: Vec<u32> = (0..1500).collect();
        let mut b = vec![1, 2];
        t.cut("paths", &mut a, Top::First(20));
        t.cut("residual", &mut b, Top::First(20));
        assert_eq!((a.len(), b.len()), (20, 2));
        assert!(t.truncated());
        assert_eq!((t.total("paths"), t.total("residual")), (1500, 2));
        assert_eq!(t.note("paths", "paths").as_deref(), Some("showing 20 of 1,500 paths; --top 0 for all"));
        assert_eq!(t.note("residual", "residual paths"), None);
        let mut whole = Truncation::default();
        whole.cut("paths", &mut (0..30).collect::<Vec<u32>>(), Top::All);
        assert!(!whole.truncated());
        assert_eq!(whole.note("paths", "paths"), None);
    }
}
