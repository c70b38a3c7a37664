//! Published node counts: a text file of one line an instance, `id` then numbers, whose
//! columns a `# Format:` comment names, e.g. `assets/bench/korf1985.txt` (`# Format: id h0
//! length generated`: Korf 1985, Table 1) and `assets/bench/korf-felner2002.txt` (`# Format:
//! id length expanded`: Korf & Felner 2002, Table 2). `npuzzle bench --published FILE` puts
//! each instance's count beside its own and the share, ours over theirs. Parsing only: the
//! caller reads the file.

/// The count a published table gives: nodes expanded or nodes generated (its `expanded` or
/// `generated` column), compared with the bench row's field of the same name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PublishedCount {
    /// Nodes expanded (`nodes_expanded`).
    Expanded,
    /// Nodes generated (`nodes_generated`; Korf 1985 counts the root too, npuzzle does not).
    Generated,
}

impl PublishedCount {
    /// The bench row's field this count is compared with: `nodes_expanded` or
    /// `nodes_generated`.
    pub fn field(self) -> &'static str {
        match self {
            PublishedCount::Expanded => "nodes_expanded",
            PublishedCount::Generated => "nodes_generated",
        }
    }
}

/// A table of published counts, in file order: each id with the numbers of its line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublishedCounts {
    /// The columns after `id`, as the `# Format:` line names them (`h0`, `length`, …).
    pub columns: Vec<String>,
    /// Which column is the count, and what it counts.
    pub count: PublishedCount,
    /// Each line's id and its numbers, one per column of [`PublishedCounts::columns`].
    pub rows: Vec<(String, Vec<u64>)>,
}

/// What is wrong with a published counts file, and where (`file`, 1-based `line`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{file}{}: {why}", line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct PublishedError {
    /// The file's name as the user gave it.
    pub file: String,
    /// The line at fault, when one is.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub why: String,
}

impl PublishedCounts {
    /// Parses `text` (from `source`, for errors): comment lines start with `#`, one of them
    /// `# Format: id COLUMN…` (words up to a `(`), naming `expanded` or `generated` among the
    /// columns; then a line per instance, its id and a whole number per column.
    ///
    /// # Errors
    /// [`PublishedError`] naming the line: no `# Format:` line or one without `id` first or
    /// without exactly one of `expanded` and `generated`, a line with another number of
    /// fields, a field that is not a whole number, an id given twice; and a file of no lines.
    pub fn parse(text: &str, source: &str) -> Result<PublishedCounts, PublishedError> {
        let err = |line: Option<usize>, why: String| PublishedError {
            file: source.to_string(),
            line,
            why,
        };
        let mut columns: Option<Vec<String>> = None;
        let mut rows: Vec<(String, Vec<u64>)> = Vec::new();
        let mut lines_of: std::collections::HashMap<String, usize> = Default::default();
        for (i, l) in text.lines().enumerate() {
            let no = i + 1;
            let l = l.trim();
            if let Some(comment) = l.strip_prefix('#') {
                if let Some(spec) = comment.trim().strip_prefix("Format:")
                    && columns.is_none()
                {
                    columns = Some(format_columns(spec).map_err(|why| err(Some(no), why))?);
                }
                continue;
            }
            if l.is_empty() {
                continue;
            }
            let Some(cols) = &columns else {
                return Err(err(
                    Some(no),
                    "a count before the `# Format: id …` line that names the columns".into(),
                ));
            };
            let fields: Vec<&str> = l.split_whitespace().collect();
            if fields.len() != cols.len() + 1 {
                return Err(err(
                    Some(no),
                    format!(
                        "{} fields, expected {} (id {})",
                        fields.len(),
                        cols.len() + 1,
                        cols.join(" ")
                    ),
                ));
            }
            let numbers = fields[1..]
                .iter()
                .zip(cols)
                .map(|(f, c)| {
                    f.parse::<u64>()
                        .map_err(|_| err(Some(no), format!("{c} {f:?} is not a whole number")))
                })
                .collect::<Result<Vec<u64>, _>>()?;
            let id = fields[0].to_string();
            if let Some(first) = lines_of.insert(id.clone(), no) {
                return Err(err(
                    Some(no),
                    format!("id {id} given twice (first on line {first})"),
                ));
            }
            rows.push((id, numbers));
        }
        let Some(columns) = columns else {
            return Err(err(
                None,
                "no `# Format: id …` line naming the columns (see assets/bench/korf-felner2002.txt)"
                    .into(),
            ));
        };
        if rows.is_empty() {
            return Err(err(None, "no counts".into()));
        }
        let count = if columns.iter().any(|c| c == "expanded") {
            PublishedCount::Expanded
        } else {
            PublishedCount::Generated
        };
        Ok(PublishedCounts {
            columns,
            count,
            rows,
        })
    }

    /// The published count of instance `id` (its `expanded` or `generated` column).
    pub fn count_of(&self, id: &str) -> Option<u64> {
        let name = match self.count {
            PublishedCount::Expanded => "expanded",
            PublishedCount::Generated => "generated",
        };
        self.value(id, name)
    }

    /// The number in `column` (e.g. `length`) on instance `id`'s line.
    pub fn value(&self, id: &str, column: &str) -> Option<u64> {
        let c = self.columns.iter().position(|x| x == column)?;
        self.rows.iter().find(|(i, _)| i == id).map(|(_, v)| v[c])
    }
}

/// The columns after `id` in a `# Format:` line's words (`id h0 length generated   (ids as
/// in …)`: the words before the first `(`).
fn format_columns(spec: &str) -> Result<Vec<String>, String> {
    let words: Vec<&str> = spec
        .split_whitespace()
        .take_while(|w| !w.starts_with('('))
        .collect();
    if words.first() != Some(&"id") {
        return Err(format!(
            "the format {:?} does not begin with id",
            words.join(" ")
        ));
    }
    let columns: Vec<String> = words[1..].iter().map(|w| w.to_string()).collect();
    let counts = columns
        .iter()
        .filter(|c| *c == "expanded" || *c == "generated")
        .count();
    if counts != 1 {
        return Err(format!(
            "the format {:?} names {counts} of the counts expanded and generated; one is needed",
            words.join(" ")
        ));
    }
    Ok(columns)
}

/// Our count over the published one (`ours / published`); `None` for a published 0.
pub fn share(ours: u64, published: u64) -> Option<f64> {
    (published > 0).then(|| ours as f64 / published as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_columns_and_counts() {
        let t = "# x\n# Format: id length expanded   (note)\n1 95 2031102635\n7 81 10\n";
        let p = PublishedCounts::parse(t, "f").unwrap();
        assert_eq!(p.columns, ["length", "expanded"]);
        assert_eq!(p.count, PublishedCount::Expanded);
        assert_eq!(p.count_of("1"), Some(2_031_102_635));
        assert_eq!(p.value("7", "length"), Some(81));
        assert_eq!(p.count_of("2"), None);
        assert_eq!(share(5, 10), Some(0.5));
        assert_eq!(share(5, 0), None);
    }

    #[test]
    fn errors_name_the_line() {
        let bad = |t: &str| PublishedCounts::parse(t, "f").unwrap_err().to_string();
        assert_eq!(
            bad("# Format: id expanded\n1 x\n"),
            "f:2: expanded \"x\" is not a whole number"
        );
        assert_eq!(
            bad("# Format: id expanded\n1 2\n1 3\n"),
            "f:3: id 1 given twice (first on line 2)"
        );
        assert_eq!(
            bad("# Format: id length expanded\n1 2\n"),
            "f:2: 2 fields, expected 3 (id length expanded)"
        );
        assert!(bad("1 2\n").starts_with("f:1: a count before"));
        assert!(bad("# Format: id length\n").contains("names 0 of the counts"));
    }
}
