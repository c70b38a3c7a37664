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

/// A count short enough for a progress line: grouped digits below a million
/// ([`group_digits`]), else three significant digits and the power of ten: `1234567890` →
/// `1.23e9`.
pub fn short_count(n: u64) -> String {
    if n < 1_000_000 {
        group_digits(n)
    } else {
        format!("{:.2e}", n as f64)
    }
}

/// `text` with each line broken at spaces into lines of at most `width` characters (a word
/// longer than `width` keeps a line of its own), for paragraphs printed on a terminal.
pub fn wrap(text: &str, width: usize) -> String {
    let mut out = String::new();
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut len = 0;
        for word in line.split(' ').filter(|w| !w.is_empty()) {
            let n = word.chars().count();
            if len > 0 && len + 1 + n > width {
                out.push('\n');
                len = 0;
            } else if len > 0 {
                out.push(' ');
                len += 1;
            }
            out.push_str(word);
            len += n;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{group_digits, short_count, wrap};

    #[test]
    fn paragraphs_wrap_at_spaces() {
        assert_eq!(wrap("ab cd ef", 5), "ab cd\nef");
        assert_eq!(wrap("abcdefgh ij\n\nk", 4), "abcdefgh\nij\n\nk");
        assert_eq!(wrap("", 10), "");
    }

    #[test]
    fn large_counts_are_short() {
        assert_eq!(short_count(999_999), "999 999");
        assert_eq!(short_count(1_000_000), "1.00e6");
        assert_eq!(short_count(3_456_789_012), "3.46e9");
    }

    #[test]
    fn counts_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1 000");
        assert_eq!(group_digits(1_234_567), "1 234 567");
    }
}
