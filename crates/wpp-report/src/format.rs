//! Numbers and names as the text reports print them.

use std::collections::BTreeMap;

/// A change, signed and grouped: `+1,234`, `-56`, `0`.
pub fn signed(c: i128) -> String {
    match c {
        c if c > 0 => format!("+{}", group(c as u64)),
        c if c < 0 => format!("-{}", group(c.unsigned_abs() as u64)),
        _ => "0".into(),
    }
}

/// `1234567` → `1,234,567`.
pub fn group(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A size: `512 bytes`, `3.4 KiB`, `38.5 MiB`.
pub fn bytes(n: u64) -> String {
    match n {
        0..1024 => count(n, "byte", "bytes"),
        1024..1048576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1048576.0),
    }
}

/// `n` (grouped) and the noun, singular for one: `1 path`, `2,000 paths`.
pub fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", group(n), if n == 1 { one } else { many })
}

/// A count in at most four significant characters: `987`, `12.3k`, `4.6M`, `1.2G`.
///
/// Rounded to the digit shown, halves up, as every number wpp prints is (percentages to
/// one decimal, estimates to one decimal): 2,999,999 and 3,000,000 both read `3.0M`, and a
/// count that rounds up to the next unit is written in it (999,999 reads `1.0M`).
pub fn compact(n: u64) -> String {
    const UNITS: [(u64, &str); 4] = [(1_000, "k"), (1_000_000, "M"), (1_000_000_000, "G"), (1_000_000_000_000, "T")];
    if n < 1_000 {
        return n.to_string();
    }
    let mut unit = UNITS.iter().rposition(|&(scale, _)| n >= scale).expect("n is at least 1,000");
    loop {
        let (scale, name) = UNITS[unit];
        let x = n as f64 / scale as f64;
        let shown = if x < 99.95 { format!("{x:.1}") } else { format!("{x:.0}") };
        // Rounded up to 1,000 of this unit: one of the next, unless there is none.
        if shown == "1000" && unit + 1 < UNITS.len() {
            unit += 1;
            continue;
        }
        return format!("{shown}{name}");
    }
}

/// `x` (not negative) to `decimals` decimals, its whole part with thousands separated by
/// commas: `3,000,000.0`, beside counts printed by [`group`].
pub fn group_f(x: f64, decimals: usize) -> String {
    let s = format!("{:.*}", decimals, x.abs());
    let (whole, frac) = s.split_once('.').map_or((s.as_str(), None), |(w, f)| (w, Some(f)));
    let mut out = if x < 0.0 && s.bytes().any(|b| b.is_ascii_digit() && b != b'0') { "-".to_string() } else { String::new() };
    out.push_str(&whole.parse::<u64>().map(group).unwrap_or_else(|_| whole.to_string()));
    if let Some(f) = frac {
        out.push('.');
        out.push_str(f);
    }
    out
}

#[cfg(test)]
mod rounding {
    use super::*;

    /// One rounding rule: a compact count is the nearest number of its unit at the digit
    /// shown, checked against the count on a sweep of values near every boundary.
    #[test]
    fn compact_rounds_to_the_nearest() {
        assert_eq!(compact(2_999_999), "3.0M");
        assert_eq!(compact(3_000_000), "3.0M");
        assert_eq!(compact(999), "999");
        assert_eq!(compact(999_999), "1.0M");
        assert_eq!(compact(99_949), "99.9k");
        assert_eq!(compact(99_950), "100k");
        assert_eq!(compact(u64::MAX), "18446744T");
        let scale = |c: &str| match c.chars().last() {
            Some('k') => 1e3,
            Some('M') => 1e6,
            Some('G') => 1e9,
            Some('T') => 1e12,
            _ => 1.0,
        };
        for base in [1_000u64, 10_000, 100_000, 1_000_000, 99_950, 999_500, 2_999_999, 123_456_789] {
            for n in base.saturating_sub(60)..base + 60 {
                let c = compact(n);
                let digits = c.trim_end_matches(['k', 'M', 'G', 'T']);
                let (value, s) = (digits.parse::<f64>().unwrap(), scale(&c));
                let step = if digits.contains('.') { 0.1 } else { 1.0 } * s;
                assert!(((value * s) - n as f64).abs() <= step / 2.0 + 1e-6, "{n} shown as {c}");
                assert!(digits.len() <= 4, "{n} shown as {c}");
            }
        }
        assert_eq!(group_f(3_000_000.0, 1), "3,000,000.0");
        assert_eq!(group_f(1234.56, 1), "1,234.6");
        assert_eq!(group_f(-0.04, 1), "0.0");
        assert_eq!(group_f(-1500.0, 0), "-1,500");
    }
}

/// `part` as a percentage of `whole` (0 when `whole` is 0), for a `{:.1}%` column.
pub fn percent(part: u64, whole: u64) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// `s` cut to `n` characters, the last replaced by `…` when cut.
pub fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let t: String = s.chars().take(n - 1).collect();
        format!("{t}…")
    }
}

/// Functions bucketed by number of interesting paths (1, 2–3, 4–7, ...): how many, how
/// many at ρ = 1, ≤ 2 and > 10, mean and largest ρ.
pub fn rho_table(functions: impl Iterator<Item = (usize, f64)>) -> String {
    let mut buckets: BTreeMap<u32, Vec<f64>> = BTreeMap::new();
    for (n, rho) in functions {
        buckets.entry(usize::BITS - n.max(1).leading_zeros()).or_default().push(rho);
    }
    let mut s = format!("{:>14} {:>10} {:>8} {:>8} {:>8} {:>10} {:>12}", "interesting", "functions", "rho=1", "<=2", ">10", "mean rho", "max rho");
    let mut all = Vec::new();
    let mut line = |label: String, r: &[f64]| {
        let count = |f: &dyn Fn(f64) -> bool| r.iter().filter(|&&x| f(x)).count();
        let mean = r.iter().sum::<f64>() / r.len().max(1) as f64;
        let max = r.iter().copied().fold(0.0, f64::max);
        s.push_str(&format!(
            "\n{label:>14} {:>10} {:>8} {:>8} {:>8} {:>10.2} {:>12.1}",
            r.len(),
            count(&|x| x <= 1.0),
            count(&|x| x <= 2.0),
            count(&|x| x > 10.0),
            mean,
            max
        ));
    };
    for (bits, r) in &buckets {
        let (lo, hi) = (1u64 << (bits - 1), (1u64 << bits) - 1);
        line(if lo == hi { lo.to_string() } else { format!("{lo}-{hi}") }, r);
        all.extend_from_slice(r);
    }
    line("all".into(), &all);
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(group(0), "0");
        assert_eq!(group(999), "999");
        assert_eq!(group(1000), "1,000");
        assert_eq!(group(1234567), "1,234,567");
    }

    #[test]
    fn truncates_by_characters() {
        assert_eq!(truncate("abc", 3), "abc");
        assert_eq!(truncate("abcd", 3), "ab…");
        assert_eq!(truncate("ééééé", 4), "ééé…");
    }
}
