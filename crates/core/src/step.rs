//! One step of a turn, and why a step is not allowed.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::Colour;

/// What a single landing on a single of its colour becomes (`stacking=declare`).
/// In JSON: `"super"` or `"block"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Declare {
    // (Counted from 1, so that no declaration, `None`, is a zero byte and a
    // step of zero bytes can fill a list of steps without being built.)
    /// The two join into a super-piece that moves as one.
    Super = 1,
    /// The two stay single pieces and form a block.
    Block = 2,
}

impl Serialize for Declare {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match self {
            Declare::Super => "super",
            Declare::Block => "block",
        })
    }
}

impl<'de> Deserialize<'de> for Declare {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match String::deserialize(d)?.as_str() {
            "super" => Ok(Declare::Super),
            "block" => Ok(Declare::Block),
            x => Err(serde::de::Error::custom(format_args!(
                "declare must be \"super\" or \"block\", not {x:?}"
            ))),
        }
    }
}

/// One movement of one unit (a piece, a stack or part of it, a group) by one die,
/// one equal pair, or one part of the total.
///
/// In JSON: `{"colour", "from", "to", "pieces", "by", "dice", "declare"?}`, with
/// `declare` left out when there is nothing to declare; unknown fields are refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
// Seven bytes aligned as one word: the listings copy steps by the hundred a
// turn, and a word is one move where seven bytes took three. In the order
// written (`C`), so that a step made from the bytes of a word in that order
// (as the fast searches keep steps) is the word stored whole.
#[repr(C, align(8))]
pub struct Step {
    /// Whose pieces move (the thrower's, or his partner's with passed points).
    pub colour: Colour,
    /// Progress before the step (0 in the Charkoni).
    pub from: u8,
    /// Progress after the step (84 home). Differs from `from + by` only when a
    /// colour without a capture goes round the loop again (`tohd=circle`).
    pub to: u8,
    /// How many pieces move together as one unit.
    pub pieces: u8,
    /// The distance: a die, an equal pair's sum, or a part of the total.
    pub by: u8,
    /// Dice used: 1, 2 for an equal pair, 0 for a part of the total.
    pub dice: u8,
    /// The choice made when a single lands on a single (`stacking=declare`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub declare: Option<Declare>,
}

/// Why a step may not be taken, in words a player understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The game is over.
    GameOver,
    /// Nothing more can be moved this turn.
    TurnOver,
    /// These pieces do not move in this part of the turn.
    NotYourPart {
        /// The colour of the step.
        colour: Colour,
        /// The colour that moves now.
        actor: Colour,
    },
    /// No unmoved piece of that colour there.
    NoPiece {
        /// The colour.
        colour: Colour,
        /// Where.
        progress: u8,
    },
    /// The piece is already home.
    AtHome,
    /// More pieces than stand there, or none.
    BadSize {
        /// Pieces asked to move.
        pieces: u8,
        /// Pieces there.
        there: u8,
    },
    /// Pieces in the Charkoni leave it one at a time.
    OneAtATime,
    /// A super-piece moves whole (no splitting in these rules).
    StackMovesWhole {
        /// Its size.
        size: u8,
    },
    /// A block never moves whole.
    BlockMovesApart,
    /// A group moves together only with an equal pair; a pair moves only a whole group.
    GroupNeedsPair,
    /// No die of that value is left.
    NoSuchDie {
        /// The value asked for.
        by: u8,
    },
    /// No equal pair of that value is left.
    NoPair {
        /// The pair's sum asked for.
        by: u8,
    },
    /// The part is bigger than what is left of the total.
    PartTooBig {
        /// The part asked for.
        by: u8,
        /// Points left.
        left: u8,
    },
    /// The piece already took its part of the total this turn.
    AlreadyMoved,
    /// A piece enters home only with an exact count.
    Overshoot {
        /// The count that takes it home.
        need: u8,
    },
    /// Tohd: no capture yet, so no piece may go home.
    NoCapture {
        /// The colour.
        colour: Colour,
    },
    /// Team order.
    TeamOrder {
        /// The colour that waits.
        colour: Colour,
        /// The colour that must finish first.
        first: Colour,
        /// Whether the middle column is closed too (`order=column`).
        column: bool,
    },
    /// A block on the way.
    BlockOnPath {
        /// Progress (of the mover) where it stands.
        at: u8,
    },
    /// A blockade on the way, bigger than the unit.
    BlockadeOnPath {
        /// Progress (of the mover) where it stands.
        at: u8,
        /// Its size.
        size: u8,
    },
    /// A block stands on the landing square.
    BlockThere,
    /// The player's own block stands there.
    OwnBlock,
    /// A blockade bigger than the unit stands there.
    BlockadeThere {
        /// Its size.
        size: u8,
    },
    /// An enemy stack bigger than the unit stands there.
    BiggerEnemy {
        /// Its colour.
        colour: Colour,
        /// Its size.
        size: u8,
        /// The unit's size.
        mover: u8,
    },
    /// An enemy block stands there; blocks cannot be captured.
    BlockImmune {
        /// Its colour.
        colour: Colour,
    },
    /// A safe square held by an enemy.
    SafeSquare {
        /// The enemy.
        colour: Colour,
    },
    /// A declaration is missing or not wanted.
    Declare {
        /// Whether one is needed here.
        needed: bool,
    },
    /// The square clicked is not ahead of the piece on its track (or not a place at
    /// all), so no distance takes it there.
    NotAhead,
    /// The destination does not match the distance.
    WrongDestination {
        /// Where the distance really leads.
        to: u8,
    },
    /// The step cannot be part of a play that uses as much of the throw as possible.
    MustUseMore,
    /// An overdue block must be broken this turn.
    MustBreakBlock {
        /// Where it stands.
        progress: u8,
    },
}

impl Illegal {
    /// The rule behind the refusal, as the start of its heading's id in
    /// `docs/rules.md` (an option's name such as `tohd`, or a rule common to all
    /// presets such as `maximum-use-of-the-throw`); none for refusals no rule
    /// explains (the game or turn is over, nothing stands there).
    ///
    /// ```
    /// use chaupar_core::{Colour, Illegal};
    /// assert_eq!(Illegal::NoCapture { colour: Colour::Red }.rule(), Some("tohd"));
    /// assert_eq!(Illegal::GameOver.rule(), None);
    /// ```
    pub fn rule(&self) -> Option<&'static str> {
        use Illegal::*;
        Some(match self {
            GameOver | TurnOver | NoPiece { .. } | NotAhead | WrongDestination { .. } => {
                return None
            }
            NotYourPart { .. } | NoSuchDie { .. } | PartTooBig { .. } | AlreadyMoved => "throw",
            NoPair { .. } | GroupNeedsPair | BadSize { .. } | BlockMovesApart | Declare { .. } => {
                "stacking"
            }
            AtHome | OneAtATime | Overshoot { .. } => "the-charkoni-and-home",
            StackMovesWhole { .. } => "split",
            NoCapture { .. } => "tohd",
            TeamOrder { .. } => "order",
            BlockOnPath { .. } | BlockadeOnPath { .. } | BlockThere | OwnBlock => "blockade",
            BlockadeThere { .. } | BlockImmune { .. } => "blockade",
            BiggerEnemy { .. } => "capture",
            SafeSquare { .. } => "safe",
            MustUseMore => "maximum-use-of-the-throw",
            MustBreakBlock { .. } => "block_turns",
        })
    }
}

fn size_word(n: u8) -> &'static str {
    match n {
        1 => "single piece",
        2 => "double super-piece",
        3 => "triple super-piece",
        _ => "quadruple super-piece",
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use Illegal::*;
        match self {
            GameOver => write!(f, "the game is over"),
            TurnOver => write!(f, "the turn is over: nothing more can be moved"),
            NotYourPart { colour, actor } => write!(
                f,
                "{} pieces do not move now; this part of the turn is {}'s",
                colour.title(),
                actor.title()
            ),
            NoPiece { colour, progress } => {
                write!(f, "no {} piece that can move stands at {progress}", colour.title())
            }
            AtHome => write!(f, "that piece is already home"),
            BadSize { pieces, there } => {
                write!(f, "{pieces} pieces cannot move from there: {there} stand there")
            }
            OneAtATime => write!(f, "pieces in the Charkoni leave it one at a time"),
            StackMovesWhole { size } => write!(
                f,
                "a {} moves as one; these rules do not let it be split",
                size_word(*size)
            ),
            BlockMovesApart => write!(f, "a block never moves whole: move one of its pieces"),
            GroupNeedsPair => write!(
                f,
                "pieces standing together move together only with an equal pair, and then all of them"
            ),
            NoSuchDie { by } => write!(f, "no die showing {by} is left"),
            NoPair { by } => write!(f, "no equal pair making {by} is left"),
            PartTooBig { by, left } => write!(f, "only {left} points are left, not {by}"),
            AlreadyMoved => write!(
                f,
                "that piece has already taken its part of the throw this turn"
            ),
            Overshoot { need } => write!(
                f,
                "a piece enters home only with an exact count: it needs {need}"
            ),
            NoCapture { .. } => write!(f, "no capture yet, so no piece may go home"),
            TeamOrder { first, column, .. } => {
                if *column {
                    write!(
                        f,
                        "all {} pieces must be home before this piece goes up its middle row",
                        first.title()
                    )
                } else {
                    write!(f, "all {} pieces must be home first", first.title())
                }
            }
            BlockOnPath { at } => write!(f, "a block stands on the way (at {at}); nothing may pass it"),
            BlockadeOnPath { at, size } => write!(
                f,
                "a blockade of {size} stands on the way (at {at}); only a group as big may pass it"
            ),
            BlockThere => write!(f, "a block stands on that square"),
            OwnBlock => write!(
                f,
                "your own block stands there; no third piece may join a block"
            ),
            BlockadeThere { size } => write!(
                f,
                "a blockade of {size} stands there; only a group as big or bigger takes it"
            ),
            BiggerEnemy { colour, size, .. } => write!(
                f,
                "a {} of {} stands there; only one as big or bigger captures it",
                size_word(*size),
                colour.title()
            ),
            BlockImmune { colour } => write!(
                f,
                "a {} block stands there; blocks cannot be captured",
                colour.title()
            ),
            SafeSquare { colour } => write!(
                f,
                "that is a safe square held by {}",
                colour.title()
            ),
            Declare { needed: true } => write!(
                f,
                "landing on your own single piece: declare a super-piece or a block"
            ),
            Declare { needed: false } => write!(f, "there is nothing to declare on this step"),
            NotAhead => write!(f, "that square is not ahead of this piece on its way"),
            WrongDestination { to } => write!(f, "that move ends at {to}"),
            MustUseMore => write!(
                f,
                "that would leave more of the throw unused than necessary"
            ),
            MustBreakBlock { progress } => write!(
                f,
                "the block at {progress} has stood its limit and must be broken this turn"
            ),
        }
    }
}

impl std::error::Error for Illegal {}
