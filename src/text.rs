//! How numbers are written for people, below every layer that writes them (the searches'
//! error messages, the reports, the app's panels): one home, so that a count reads the same
//! everywhere.

/// A count with its digits grouped by thousands with spaces: `1234567` → `1 234 567` (the
/// app's panels, the CLI's tables, the searches' messages).
pub fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(ch);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::group_digits;

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1 000");
        assert_eq!(group_digits(1_234_567), "1 234 567");
    }
}
