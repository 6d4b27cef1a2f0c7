//! Text in the page: escaping for HTML and Graphviz, and numbers as people read them.

/// `s` with HTML's special characters escaped (for text and quoted attributes).
pub fn html(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `s` inside a Graphviz double-quoted string (a newline becomes a centred line break).
pub fn dot_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out
}

/// A count in at most four significant characters (`987`, `12.3k`, `3.0M`), rounded as
/// every number wpp prints is: [`wpp_report::format::compact`].
pub use wpp_report::format::compact;

/// `n` with thousands separated by commas, as the text reports print it.
pub use wpp_report::format::group as grouped;

/// `part` as a percentage of `whole`, one decimal.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "0%".into();
    }
    format!("{:.1}%", part as f64 * 100.0 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_as_people_write_them() {
        assert_eq!(compact(987), "987");
        assert_eq!(compact(12_345), "12.3k");
        assert_eq!(compact(999_999), "1.0M");
        assert_eq!(compact(4_560_000), "4.6M");
        assert_eq!(html("<a href=\"x\">&'"), "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
        assert_eq!(dot_escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
        assert_eq!(percent(1, 3), "33.3%");
    }
}
