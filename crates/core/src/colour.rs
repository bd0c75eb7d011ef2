//! The four colours, their seats and their teams.

use core::fmt;
use core::str::FromStr;

/// A player's colour. The discriminant is the seat in turn order:
/// Yellow (South), Red (East), Black (North), Green (West).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    /// Sits South; partner of Black.
    Yellow = 0,
    /// Sits East; partner of Green.
    Red = 1,
    /// Sits North; partner of Yellow.
    Black = 2,
    /// Sits West; partner of Red.
    Green = 3,
}

impl Colour {
    /// All colours in turn order (counter-clockwise from South).
    pub const ALL: [Colour; 4] = [Colour::Yellow, Colour::Red, Colour::Black, Colour::Green];

    /// The colour for a seat index 0–3 (taken modulo 4).
    pub const fn from_index(i: usize) -> Colour {
        // (A match rather than a look-up in `ALL`: the index is the colour.)
        match i & 3 {
            0 => Colour::Yellow,
            1 => Colour::Red,
            2 => Colour::Black,
            _ => Colour::Green,
        }
    }

    /// The seat index 0–3.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The partner sitting opposite.
    pub const fn partner(self) -> Colour {
        Colour::from_index(self as usize + 2)
    }

    /// The next seat counter-clockwise (the next to throw in a four-player game).
    pub const fn next(self) -> Colour {
        Colour::from_index(self as usize + 1)
    }

    /// The team of this colour in a team game.
    pub const fn team(self) -> Team {
        if self as usize & 1 == 0 {
            Team::YellowBlack
        } else {
            Team::RedGreen
        }
    }

    /// The colour whose pieces must all be home before this colour's may finish
    /// (team order): Yellow waits for Black and Green waits for Red.
    pub const fn waits_for(self) -> Option<Colour> {
        match self {
            Colour::Yellow => Some(Colour::Black),
            Colour::Green => Some(Colour::Red),
            _ => None,
        }
    }

    /// Lower-case English name, as used in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            Colour::Yellow => "yellow",
            Colour::Red => "red",
            Colour::Black => "black",
            Colour::Green => "green",
        }
    }

    /// Capitalised English name, for messages.
    pub const fn title(self) -> &'static str {
        match self {
            Colour::Yellow => "Yellow",
            Colour::Red => "Red",
            Colour::Black => "Black",
            Colour::Green => "Green",
        }
    }

    /// The one-letter code used in notation: `Y`, `R`, `B`, `G`.
    pub const fn letter(self) -> char {
        match self {
            Colour::Yellow => 'Y',
            Colour::Red => 'R',
            Colour::Black => 'B',
            Colour::Green => 'G',
        }
    }

    /// The colour for a notation letter (either case).
    pub fn from_letter(c: char) -> Option<Colour> {
        match c.to_ascii_uppercase() {
            'Y' => Some(Colour::Yellow),
            'R' => Some(Colour::Red),
            'B' => Some(Colour::Black),
            'G' => Some(Colour::Green),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An unknown colour name.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownColour(pub String);

impl fmt::Display for UnknownColour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown colour {:?} (expected yellow, red, black or green)",
            self.0
        )
    }
}

impl std::error::Error for UnknownColour {}

/// In JSON a colour is its lower-case name (`"yellow"`); it is read as
/// [`FromStr`] reads it.
impl serde::Serialize for Colour {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Colour {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        <String as serde::Deserialize>::deserialize(d)?
            .parse()
            .map_err(serde::de::Error::custom)
    }
}

impl FromStr for Colour {
    type Err = UnknownColour;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "yellow" | "y" => Ok(Colour::Yellow),
            "red" | "r" => Ok(Colour::Red),
            "black" | "b" => Ok(Colour::Black),
            "green" | "g" => Ok(Colour::Green),
            _ => Err(UnknownColour(s.to_string())),
        }
    }
}

/// One of the two partnerships of a four-colour game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Team {
    /// Yellow and Black (South and North).
    YellowBlack,
    /// Red and Green (East and West).
    RedGreen,
}

impl Team {
    /// The two colours of the team, the one that finishes first (team order) second.
    pub const fn colours(self) -> [Colour; 2] {
        match self {
            Team::YellowBlack => [Colour::Yellow, Colour::Black],
            Team::RedGreen => [Colour::Red, Colour::Green],
        }
    }

    /// The name used in JSON: `yellow+black` or `red+green`.
    pub const fn name(self) -> &'static str {
        match self {
            Team::YellowBlack => "yellow+black",
            Team::RedGreen => "red+green",
        }
    }
}

impl fmt::Display for Team {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A set of colours as a 4-bit mask.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Colours(pub u8);

impl Colours {
    /// The empty set.
    pub const NONE: Colours = Colours(0);
    /// All four colours.
    pub const ALL: Colours = Colours(0b1111);

    /// Whether the set holds `c`.
    pub const fn has(self, c: Colour) -> bool {
        self.0 & (1 << c as u8) != 0
    }

    /// The set with `c` added.
    pub const fn with(self, c: Colour) -> Colours {
        Colours(self.0 | (1 << c as u8))
    }

    /// The set with `c` removed.
    pub const fn without(self, c: Colour) -> Colours {
        Colours(self.0 & !(1 << c as u8))
    }

    /// The colours of the set in turn order.
    #[inline]
    pub fn iter(self) -> impl Iterator<Item = Colour> {
        Colour::ALL.into_iter().filter(move |c| self.has(*c))
    }

    /// How many colours the set holds.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn partners_sit_opposite_and_turns_go_yellow_red_black_green() {
        assert_eq!(Colour::Yellow.partner(), Colour::Black);
        assert_eq!(Colour::Red.partner(), Colour::Green);
        assert_eq!(Colour::Yellow.next(), Colour::Red);
        assert_eq!(Colour::Green.next(), Colour::Yellow);
        assert_eq!(Colour::Yellow.team(), Colour::Black.team());
        assert_ne!(Colour::Yellow.team(), Colour::Red.team());
    }

    #[test]
    fn team_order_yellow_waits_for_black_green_for_red() {
        assert_eq!(Colour::Yellow.waits_for(), Some(Colour::Black));
        assert_eq!(Colour::Green.waits_for(), Some(Colour::Red));
        assert_eq!(Colour::Black.waits_for(), None);
    }
}
