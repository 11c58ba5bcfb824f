//! What `play` reports of a position, whatever its games: the components'
//! values, the nim-sum, the outcome and the winning moves. Each family
//! hands over a `Part` (its components and a way to find the moves of one
//! of them to a given value); a sum of games is the parts side by side.

use serde::Serialize;

use grundy_core::error::{Error, Result};
use grundy_core::game::Convention;

/// How many winning moves are listed (`None`: every one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLimit(pub Option<usize>);

impl std::str::FromStr for MoveLimit {
    type Err = String;

    /// A number of moves, or `all`.
    fn from_str(text: &str) -> std::result::Result<MoveLimit, String> {
        if text == "all" {
            return Ok(MoveLimit(None));
        }
        text.parse::<usize>()
            .map(|k| MoveLimit(Some(k)))
            .map_err(|_| format!("'{text}': expected a number of moves or 'all'"))
    }
}

/// One component of the position and its value.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct Component {
    pub component: String,
    pub g: u32,
}

/// A move to a P-position.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct WinningMove {
    /// Index into `components`.
    pub component: usize,
    /// The move in words.
    pub text: String,
    /// What the component becomes.
    pub to: String,
    /// The component's value after the move: its value xor the nim-sum.
    pub g: u32,
    /// The move for scripts: heaps left, vertices removed, the arrow
    /// (tail, head), the edge cut, or the boxes left.
    #[serde(flatten)]
    pub play: Play,
}

/// A move in numbers.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Play {
    /// Heaps the heap (or the Delete Nim position) is left as.
    Left(Vec<u64>),
    /// Vertices removed.
    Removed(Vec<usize>),
    /// The arrow marked: (tail, head).
    Arrow((usize, usize)),
    /// The Hackenbush edge cut: (u, v).
    Cut((usize, usize)),
    /// The boxes a box is cut into (sides sorted).
    Boxes(Vec<Vec<u32>>),
}

/// What `play` reports.
#[derive(Serialize, Clone, Debug, PartialEq, Eq)]
pub struct PlayReport {
    pub game: String,
    pub position: String,
    pub components: Vec<Component>,
    /// The nim-sum of the components' (normal) values.
    pub nim_sum: u32,
    /// "normal", or "misere": the last player to move loses, and the
    /// outcome is the whole sum's misère value, searched whole.
    pub convention: Convention,
    /// Under misère play: the misère value g⁻ of the whole sum.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub misere_value: Option<u32>,
    /// N: the player to move wins; P: the player to move loses.
    pub outcome: &'static str,
    /// Every move to a P-position.
    pub winning_moves_total: usize,
    /// The first of them, up to `--limit`.
    pub winning_moves: Vec<WinningMove>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// The moves of component `i` that leave it worth `target`: (in words,
/// what it becomes, in numbers); notes about the search go to the list.
pub type MovesTo = dyn FnMut(usize, u32, &mut Vec<String>) -> Result<Vec<(String, String, Play)>>;

/// A position's options under misère play: the component moved in, the
/// move in words, what the position becomes, in numbers, and the misère
/// value of what it becomes.
pub type MisereOptions = Vec<(usize, String, String, Play, u32)>;

/// A component as misère play's search over whole sums reads it, in its
/// game's own terms: a heap's size, a box's sides, a graph component's
/// vertices, a state.
pub type Piece = Vec<u64>;

/// One move of a piece: in words, what it becomes and in numbers (where
/// asked for), and the pieces it leaves (none: the piece is gone).
pub struct PieceMove {
    pub words: Option<(String, String, Play)>,
    pub left: Vec<Piece>,
}

/// Every move of a piece, with its words where the flag asks for them (the
/// search needs the pieces alone).
pub type PieceMoves = dyn Fn(&[u64], bool) -> Vec<PieceMove>;

/// A game's components as pieces, one per component in order, and their
/// moves: what misère play searches a sum of different games by.
pub struct Pieces {
    pub start: Vec<Piece>,
    pub moves: Box<PieceMoves>,
}

/// One game's share of a position.
pub struct Part {
    pub game: String,
    pub position: String,
    pub components: Vec<Component>,
    pub moves_to: Box<MovesTo>,
    /// Why the game cannot stand beside others in a sum (its values are
    /// not Grundy values), if so.
    pub not_summable: Option<String>,
    pub notes: Vec<String>,
    /// Its components as pieces for misère play (none: misère play is not
    /// defined for the game).
    pub pieces: Option<Pieces>,
}

/// The report of one game's position.
pub fn report(part: Part, limit: MoveLimit) -> Result<PlayReport> {
    let (game, position) = (part.game.clone(), part.position.clone());
    let mut r = sum_report(vec![part], limit, false)?;
    (r.game, r.position) = (game, position);
    Ok(r)
}

/// The report of a sum of parts; with `labelled`, each component is named
/// with its game.
pub fn sum_report(mut parts: Vec<Part>, limit: MoveLimit, labelled: bool) -> Result<PlayReport> {
    if let Some(part) = parts.iter().find(|p| labelled && p.not_summable.is_some()) {
        let why = part.not_summable.as_deref().unwrap_or_default();
        return Err(Error::Input(format!("component {}: {why}", part.game)));
    }
    let (components, owners, mut notes) = side_by_side(&mut parts, labelled);
    let nim_sum = components.iter().fold(0, |s, c| s ^ c.g);
    let mut winning_moves = Vec::new();
    let mut total = 0;
    // The recipe finds the components whose value drops; a component may
    // also have an option worth more than itself, so every component is
    // searched for options worth g xor nim-sum.
    for (k, c) in components.iter().enumerate() {
        if nim_sum == 0 {
            break;
        }
        let (p, i) = owners[k];
        let target = c.g ^ nim_sum;
        let found = (parts[p].moves_to)(i, target, &mut notes)?;
        total += found.len();
        let room = limit
            .0
            .map_or(usize::MAX, |l| l.saturating_sub(winning_moves.len()));
        winning_moves.extend(
            found
                .into_iter()
                .take(room)
                .map(|(text, to, play)| WinningMove {
                    component: k,
                    text,
                    to,
                    g: target,
                    play,
                }),
        );
    }
    Ok(PlayReport {
        game: "sum of games".into(),
        position: sum_position(&parts),
        components,
        nim_sum,
        convention: Convention::Normal,
        misere_value: None,
        outcome: if nim_sum == 0 { "P" } else { "N" },
        winning_moves_total: total,
        winning_moves,
        notes,
    })
}

/// The parts' components in order (with `labelled`, each named with its
/// game), the part and index of each, and the parts' notes.
pub(super) fn side_by_side(
    parts: &mut [Part],
    labelled: bool,
) -> (Vec<Component>, Vec<(usize, usize)>, Vec<String>) {
    let mut components = Vec::new();
    let mut owners = Vec::new();
    let mut notes = Vec::new();
    for (p, part) in parts.iter_mut().enumerate() {
        notes.append(&mut part.notes);
        for (i, c) in part.components.drain(..).enumerate() {
            let component = match labelled {
                true => format!("{}: {}", part.game, c.component),
                false => c.component,
            };
            components.push(Component { component, g: c.g });
            owners.push((p, i));
        }
    }
    (components, owners, notes)
}

/// A sum's position in words: each game and its position.
pub(super) fn sum_position(parts: &[Part]) -> String {
    let position: Vec<String> = parts
        .iter()
        .map(|p| format!("{} ({})", p.game, p.position))
        .collect();
    position.join(" + ")
}

/// "1, 4 and 6".
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}
