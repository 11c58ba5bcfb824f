//! Who wins when no move is left: normal play (the last player to move
//! wins) or misère play (the last player to move loses).
//!
//! A table under either convention is a mex over its options' values; the
//! one difference is the value of a position without a move: 0 under
//! normal play, 1 under misère play (the misère nim value g⁻; the position
//! is a P-position, the player to move loses, exactly when g⁻ = 0). What
//! does not carry over is the xor: the misère value of a sum does not
//! follow from its parts' (docs/misere.md), so a kernel that xors
//! components refuses misère play.

use serde::Serialize;

/// The play convention of a table.
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Convention {
    /// The last player to move wins.
    #[default]
    Normal,
    /// The last player to move loses.
    Misere,
}

impl Convention {
    /// The convention asked by a `misere` flag.
    pub fn misere_if(misere: bool) -> Convention {
        if misere {
            Convention::Misere
        } else {
            Convention::Normal
        }
    }

    /// The value of a position without a move: 0 under normal play, 1
    /// under misère play.
    pub fn no_move_value(self) -> u32 {
        match self {
            Convention::Normal => 0,
            Convention::Misere => 1,
        }
    }

    /// How outputs name it: "normal" or "misere".
    pub fn name(self) -> &'static str {
        match self {
            Convention::Normal => "normal",
            Convention::Misere => "misere",
        }
    }

    /// How a sentence names it: "normal play" or "misère play".
    pub fn words(self) -> &'static str {
        match self {
            Convention::Normal => "normal play",
            Convention::Misere => "misère play",
        }
    }

    /// The CSV column of a table's values: `g`, or `g_misere` (the misère
    /// nim value) under misère play.
    pub fn value_column(self) -> &'static str {
        match self {
            Convention::Normal => "g",
            Convention::Misere => "g_misere",
        }
    }

    /// The value of a position from the mex of its options' values, where
    /// `has_move` says whether it has any.
    pub fn value(self, has_move: bool, mex: u32) -> u32 {
        if has_move { mex } else { self.no_move_value() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_position_without_a_move_differs() {
        assert_eq!(Convention::Normal.value(false, 0), 0);
        assert_eq!(Convention::Misere.value(false, 0), 1);
        for c in [Convention::Normal, Convention::Misere] {
            assert_eq!(c.value(true, 0), 0);
            assert_eq!(c.value(true, 3), 3);
        }
        assert_eq!(Convention::misere_if(true).name(), "misere");
        assert_eq!(Convention::default(), Convention::Normal);
    }
}
