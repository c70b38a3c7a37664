//! Which of a bench file's instances run: `--ids` (ids and inclusive ranges) and `--shard K/N`
//! (the K-th of N interleaved parts), for spreading a set over a cluster's job array.

use crate::cli::CliError;
use crate::puzzle::parse::Instance;

/// `--shard K/N`: the K-th (from 1) of N parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Shard {
    /// Which part, from 1.
    pub(super) k: usize,
    /// How many parts.
    pub(super) n: usize,
}

impl Shard {
    /// Parses `K/N` with 1 ≤ K ≤ N.
    ///
    /// # Errors
    /// [`CliError::Usage`] naming the value: not two whole numbers, K of 0 or above N.
    pub(super) fn parse(s: &str) -> Result<Shard, CliError> {
        let bad = |why: &str| CliError::Usage(format!("--shard {s:?}: {why}"));
        let (k, n) = s
            .split_once('/')
            .ok_or_else(|| bad("expected K/N, e.g. 3/10 (the 3rd of 10 parts)"))?;
        let number = |x: &str| x.trim().parse::<usize>().ok();
        let (Some(k), Some(n)) = (number(k), number(n)) else {
            return Err(bad("K and N must be whole numbers, e.g. 3/10"));
        };
        if n == 0 || k == 0 || k > n {
            return Err(bad("K must be from 1 to N, and N at least 1"));
        }
        Ok(Shard { k, n })
    }

    /// Whether the instance at `position` (from 0) among those selected is in this part:
    /// parts interleave, instance i going to part i mod N (+1), so that each part gets easy
    /// and hard instances alike (the files are not sorted by hardness).
    pub(super) fn holds(&self, position: usize) -> bool {
        position % self.n == self.k - 1
    }
}

/// One item of `--ids`: an id, or an inclusive range of numeric ids.
#[derive(Clone, Debug, PartialEq, Eq)]
enum IdItem {
    /// One id, as written.
    One(String),
    /// `A-B`, A ≤ B.
    Range(u64, u64),
}

/// Parses `--ids`' list: items separated by commas, each an id or a range `A-B` of whole
/// numbers with A ≤ B.
fn parse_ids(s: &str) -> Result<Vec<IdItem>, CliError> {
    let bad = |why: String| CliError::Usage(format!("--ids {s:?}: {why}"));
    if s.trim().is_empty() {
        return Err(bad(
            "an empty list; give ids and ranges, e.g. 1,5,9-12".into()
        ));
    }
    s.split(',')
        .map(|item| {
            let item = item.trim();
            if item.is_empty() {
                return Err(bad("an empty item (two commas, or one at an end)".into()));
            }
            let numbers = item
                .split_once('-')
                .map(|(a, b)| (a.trim().parse::<u64>(), b.trim().parse::<u64>()));
            match numbers {
                Some((Ok(a), Ok(b))) if a <= b => Ok(IdItem::Range(a, b)),
                Some((Ok(a), Ok(b))) => Err(bad(format!(
                    "{item} is not a range: its start {a} is after its end {b}"
                ))),
                _ => Ok(IdItem::One(item.to_string())),
            }
        })
        .collect()
}

/// Whether the file's id `id` is the number `n` (`7`, `07`).
fn is_number(id: &str, n: u64) -> bool {
    id.parse::<u64>() == Ok(n)
}

/// The positions (from 0, in file order) of `instances` (read from `source`) that `ids` (the
/// `--ids` list) and `shard` select: the listed ids, then the shard's part of them.
///
/// # Errors
/// [`CliError::Usage`] naming the bad item: a malformed list or range, an id or a number of a
/// range that no instance of the file has.
pub(super) fn select(
    instances: &[Instance],
    source: &str,
    ids: Option<&str>,
    shard: Option<Shard>,
) -> Result<Vec<usize>, CliError> {
    let mut chosen: Vec<usize> = match ids {
        None => (0..instances.len()).collect(),
        Some(list) => {
            let items = parse_ids(list)?;
            let mut take = vec![false; instances.len()];
            for item in &items {
                let missing = mark(instances, item, &mut take);
                if !missing.is_empty() {
                    return Err(CliError::Usage(not_in_file(
                        item, &missing, instances, source,
                    )));
                }
            }
            (0..instances.len()).filter(|&i| take[i]).collect()
        }
    };
    if let Some(s) = shard {
        chosen = chosen
            .into_iter()
            .enumerate()
            .filter(|&(position, _)| s.holds(position))
            .map(|(_, i)| i)
            .collect();
    }
    Ok(chosen)
}

/// Marks in `take` the instances `item` names; returns what it names that no instance has
/// (the item itself, or a range's missing numbers).
fn mark(instances: &[Instance], item: &IdItem, take: &mut [bool]) -> Vec<String> {
    match item {
        IdItem::One(id) => {
            let number = id.parse::<u64>().ok();
            let mut found = false;
            for (i, inst) in instances.iter().enumerate() {
                if inst.id == *id || number.is_some_and(|n| is_number(&inst.id, n)) {
                    take[i] = true;
                    found = true;
                }
            }
            if found { Vec::new() } else { vec![id.clone()] }
        }
        IdItem::Range(a, b) => {
            let mut seen = std::collections::BTreeSet::new();
            for (i, inst) in instances.iter().enumerate() {
                if let Ok(n) = inst.id.parse::<u64>()
                    && (*a..=*b).contains(&n)
                {
                    take[i] = true;
                    seen.insert(n);
                }
            }
            // The numbers of the range that no line has (a range longer than the file's lines
            // must miss some: stop at the first few).
            (*a..=*b)
                .filter(|n| !seen.contains(n))
                .take(5)
                .map(|n| n.to_string())
                .collect()
        }
    }
}

/// The message of an `--ids` item naming ids (`missing`) that are not in the file.
fn not_in_file(item: &IdItem, missing: &[String], instances: &[Instance], source: &str) -> String {
    let what = match item {
        IdItem::One(id) => format!("{id} is not an id of {source}"),
        IdItem::Range(a, b) => format!(
            "the range {a}-{b} names ids that are not in {source}: {}{}",
            missing.join(", "),
            if missing.len() == 5 { ", …" } else { "" }
        ),
    };
    let ids = match (instances.first(), instances.last()) {
        (Some(f), Some(l)) => format!(
            "its {} instance{} have ids {} to {}",
            instances.len(),
            if instances.len() == 1 { "" } else { "s" },
            f.id,
            l.id
        ),
        _ => "it has no instances".to_string(),
    };
    format!(
        "--ids: {what} ({ids}; a line without an id column has its line number as id, as the output's id column shows)"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_interleave_and_cover() {
        let s = Shard::parse("2/3").unwrap();
        let mine: Vec<usize> = (0..8).filter(|&i| s.holds(i)).collect();
        assert_eq!(mine, [1, 4, 7]);
        for bad in ["0/3", "4/3", "1/0", "x/2", "3", "1/2/3", ""] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn id_lists() {
        assert_eq!(
            parse_ids("1, 5,9-12").unwrap(),
            [
                IdItem::One("1".into()),
                IdItem::One("5".into()),
                IdItem::Range(9, 12)
            ]
        );
        let err = |s: &str| parse_ids(s).unwrap_err().to_string();
        assert!(err("3-1").contains("3-1 is not a range"));
        assert!(err("").contains("an empty list"));
        assert!(err("1,,2").contains("an empty item"));
    }
}
