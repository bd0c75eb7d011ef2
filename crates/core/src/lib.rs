//! # chaupar-core
//!
//! The rules engine of Chaupar, the race game of the Mahabharata and of Akbar's
//! court, in its three documented rule sets (`chaupar`, `chausar`, `classic`) with
//! every rule an option.
//!
//! - [`board`]: the cross, the tracks, the castle squares.
//! - [`rules`]: [`Rules`] as named options and the presets.
//! - [`dice`]: three long dice, the 20 distinct throws, the seeded random source.
//! - [`fair`]: dice from a committed secret and the players' seeds, and their check.
//! - [`position`]: [`Position`]; [`setup`]: [`Setup`], the unchecked form, and its checks.
//! - [`play`]: legal plays, whole ([`play::legal_plays`]) or step by step ([`play::Turn`]).
//! - [`notation`], [`json`], [`record`]: text forms, JSON and game records.
//! - [`game`]: a game in progress, thrown from its seed.
//!
//! This crate does no I/O and never panics on any input: every fallible function
//! returns a typed error.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod board;
mod colour;
pub mod dice;
pub mod fair;
pub mod game;
pub mod json;
pub mod notation;
pub mod play;
pub mod playout;
pub mod position;
pub mod record;
pub mod rules;
pub mod setup;
pub mod step;

pub use colour::{Colour, Colours, Team, UnknownColour};
pub use dice::{Dice, Throw};
pub use game::Game;
pub use play::{legal_plays, Generator, Play, PlayError, Turn};
pub use position::{Block, Outcome, Position, Stacks, Winner};
pub use rules::{Preset, Rules, RulesError};
pub use setup::{Setup, SetupError};
pub use step::{Declare, Illegal, Step};
