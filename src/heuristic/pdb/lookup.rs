//! How an [`AdditivePdb`](super::AdditivePdb) looks its tables up ([`PdbLookup`]): on the
//! board's reflection too, and with the blank-region flags; both on by default, both may be
//! switched off to reproduce published counts (Korf & Felner 2002 used the reflection but no
//! flags). And the reflection's maps ([`reflection`]).

use std::fmt;
use std::str::FromStr;

use crate::puzzle::Goal;

/// Which parts of an additive pattern database's lookup are used. Either way the estimate is
/// admissible; without the flags it is also consistent. The tables are the same bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PdbLookup {
    /// Also look the tables up on the board reflected about the main diagonal (square boards
    /// whose blank's goal is on it) and take the larger sum.
    pub reflect: bool,
    /// Add 2 to an entry whose blank-region flag says the blank's region needs two more moves
    /// (tables that have the flags); off, each entry is its least value.
    pub regions: bool,
}

impl Default for PdbLookup {
    fn default() -> Self {
        PdbLookup {
            reflect: true,
            regions: true,
        }
    }
}

/// A switch on the command line: `on` or `off`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Switch {
    /// Used (the default).
    #[default]
    On,
    /// Not used.
    Off,
}

impl Switch {
    /// Whether it is on.
    pub fn is_on(self) -> bool {
        self == Switch::On
    }
}

impl fmt::Display for Switch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.is_on() { "on" } else { "off" })
    }
}

/// A switch that is neither `on` nor `off`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected on or off, got {0:?}")]
pub struct BadSwitch(pub String);

impl FromStr for Switch {
    type Err = BadSwitch;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "on" => Ok(Switch::On),
            "off" => Ok(Switch::Off),
            _ => Err(BadSwitch(s.to_string())),
        }
    }
}

/// φ and T for the reflection about the main diagonal, if the goal allows it (square board,
/// blank's goal cell on the diagonal): φ maps each tile to the tile it becomes on the
/// reflected board, T each cell to its mirror cell.
pub(super) fn reflection(goal: &Goal) -> Option<(Vec<u8>, Vec<u8>)> {
    let b = goal.board();
    let (r, c) = (b.rows(), b.cols());
    if r != c || b.blank() / c != b.blank() % c {
        return None;
    }
    let n = b.len();
    let tmap: Vec<u8> = (0..n)
        .map(|cell| ((cell % c) * c + cell / c) as u8)
        .collect();
    let phi: Vec<u8> = (0..n)
        .map(|t| b.tiles()[tmap[goal.position_of(t as u8)] as usize])
        .collect();
    Some((phi, tmap))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_parse_and_print() {
        assert_eq!("on".parse::<Switch>(), Ok(Switch::On));
        assert_eq!("OFF".parse::<Switch>(), Ok(Switch::Off));
        assert_eq!(Switch::Off.to_string(), "off");
        assert_eq!("no".parse::<Switch>(), Err(BadSwitch("no".into())));
    }
}
