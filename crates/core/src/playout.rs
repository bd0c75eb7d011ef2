//! A fast playout policy for search: each turn throws the dice and takes one random
//! legal step at a time until no step is left, without listing whole plays.
//!
//! Every step is legal on its own, and a turn only ends when nothing more can move,
//! so the throw is used as far as this order of steps allows. Unlike
//! [`crate::legal_plays`] it does not compare orders: in rare positions a playout
//! turn uses less of the throw than the best order would, and it never declines a
//! finished partner's throw. It is meant for Monte Carlo playouts, not for play.
//!
//! ```
//! use chaupar_core::{playout, Position, Preset, Rules};
//! use rand_chacha::rand_core::SeedableRng;
//! let start = Position::new(Rules::preset(Preset::Chaupar), 4).unwrap();
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
//! let end = playout::random_playout(&start, &mut rng, 5000);
//! assert!(end.position.winner().is_some() || end.turns == 5000);
//! ```

use rand_core::RngCore;

use crate::board::{self, HOME};
use crate::dice::Throw;
use crate::play::{
    destination, distance_count, finish, for_each_step_fast, for_each_unit, has_any_step_with,
    mark_dead, needs_declaration, nth_distance, obstacles, step_among, Node, Obstacles, Unit,
    MOVED,
};
use crate::position::Position;
use crate::rules::Stacking;
use crate::step::Declare;
use crate::step::Step;

/// The end of a playout.
#[derive(Clone, Copy, Debug)]
pub struct Playout {
    /// The last position reached.
    pub position: Position,
    /// Turns played.
    pub turns: u32,
}

/// Throws three dice of the position's faces from `rng`.
pub fn throw(pos: &Position, rng: &mut impl RngCore) -> Throw {
    Throw::from_bits(pos.rules().faces, rng.next_u32())
}

/// Plays one turn of `pos` with `throw` by random steps; the position after it.
pub fn random_turn(pos: &Position, throw: Throw, rng: &mut impl RngCore) -> Position {
    random_turn_with(pos, throw, rng, &mut [None; 96])
}

/// [`random_turn`] with a buffer for the steps of a node drawn from in full.
fn random_turn_with(
    pos: &Position,
    throw: Throw,
    rng: &mut impl RngCore,
    scratch: &mut [Option<Step>; 96],
) -> Position {
    let Ok(mut node) = Node::begin(pos, throw) else {
        return *pos;
    };
    let mut moved = false;
    // The obstacles stay while steps capture nothing and make or break no
    // block; they are found again after any other step. (Not from a cache:
    // a new turn, a pass and such a step almost always change what they
    // depend on, so comparing would only add the cost of a key.)
    let mut obs = obstacles(&node.pos, node.actor);
    // What `Node::start` settles, with the obstacles just found: a thrower
    // with no step passes the throw to the partner.
    if let Some(p) = node.pass() {
        if !has_any_step_with(&node, &obs) {
            node = p;
            obs = obstacles(&node.pos, node.actor);
        }
    }
    while node.left() {
        // Most of the time a few random draws of (unit, distance) find a legal step
        // without listing them all; each draw is uniform over the pairs, so an
        // accepted one is uniform over the legal pairs.
        let step = match sample_step(&node, &obs, rng) {
            Some(s) => s,
            None => {
                let buf = &mut *scratch;
                let mut n = 0usize;
                let mut seen = 0u32;
                // Reservoir sampling keeps a uniform choice without storing every step.
                for_each_step_fast(&node, &obs, |s| {
                    seen += 1;
                    if n < buf.len() {
                        buf[n] = Some(s);
                        n += 1;
                    } else if rng.next_u32() % seen < buf.len() as u32 {
                        buf[(rng.next_u32() as usize) % buf.len()] = Some(s);
                    }
                });
                if n == 0 {
                    match node.pass() {
                        Some(p) => {
                            node = p;
                            obs = obstacles(&node.pos, node.actor);
                            continue;
                        }
                        None => break,
                    }
                }
                let pick = (rng.next_u32() as usize) % n;
                match buf[pick] {
                    Some(s) => s,
                    None => continue,
                }
            }
        };
        let quiet =
            step.to == HOME || (obs.others >> board::sq(node.actor.index(), step.to)) & 1 == 0;
        let blocks = node.pos.rules.stacking == Stacking::Declare
            && (step.declare.is_some() || node.pos.is_block(node.actor, step.from));
        step_among(&mut node, &step, obs.others);
        moved = true;
        if !quiet || blocks {
            obs = obstacles(&node.pos, node.actor);
        }
    }
    let mut after = finish(&node);
    if !moved {
        mark_dead(&mut after);
    }
    after
}

/// Plays random turns from `start` until the game ends or `max_turns` are played.
pub fn random_playout(start: &Position, rng: &mut impl RngCore, max_turns: u32) -> Playout {
    let mut pos = *start;
    let mut turns = 0;
    let mut scratch = [None; 96];
    while pos.to_move().is_some() && turns < max_turns {
        let t = throw(&pos, rng);
        pos = random_turn_with(&pos, t, rng, &mut scratch);
        turns += 1;
    }
    Playout {
        position: pos,
        turns,
    }
}

/// Up to eight random draws of a unit and a distance; the first legal one.
fn sample_step(node: &Node, obs: &Obstacles, rng: &mut impl RngCore) -> Option<Step> {
    let mut units = [(
        Unit {
            from: 0,
            size: 0,
            group_pair: false,
        },
        0u8,
    ); 12];
    let mut nu = 0;
    let mut pairs = 0u32;
    // The distances on offer depend only on whether the unit is a group pair.
    let offered = |group_pair| {
        let u = Unit {
            from: 0,
            size: 1,
            group_pair,
        };
        distance_count(node, &u)
    };
    let (single, pair) = (offered(false), offered(true));
    for_each_unit(node, |u| {
        if nu < units.len() {
            let k = if u.group_pair { pair } else { single };
            if k > 0 {
                units[nu] = (u, k);
                nu += 1;
                pairs += k as u32;
            }
        }
    });
    if pairs == 0 {
        return None;
    }
    for _ in 0..8 {
        let mut k = rng.next_u32() % pairs;
        for (u, count) in &units[..nu] {
            if k >= *count as u32 {
                k -= *count as u32;
                continue;
            }
            let (by, dice) = nth_distance(node, u, k as u8)?;
            if let Some(to) = destination(node, obs, u, by) {
                let own = if to == HOME {
                    0
                } else {
                    let pieces = &node.pos.pieces[node.actor.index()];
                    pieces.iter().filter(|p| **p & !MOVED == to).count() as u8
                };
                let declare = needs_declaration(&node.pos, u.size, own, to).then(|| {
                    if rng.next_u32() & 1 == 0 {
                        Declare::Super
                    } else {
                        Declare::Block
                    }
                });
                return Some(Step {
                    colour: node.actor,
                    from: u.from,
                    to,
                    pieces: u.size,
                    by,
                    dice,
                    declare,
                });
            }
            break;
        }
    }
    None
}
