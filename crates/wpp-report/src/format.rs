//! Numbers and names as the text reports print them.

use std::collections::BTreeMap;

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
