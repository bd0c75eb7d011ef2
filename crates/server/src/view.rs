//! What the page is sent of a game: typed views that serialise to the JSON of
//! `docs/api.md` (pinned field for field by `tests/json_shape.rs`).

use std::collections::BTreeMap;

use chaupar_core::json::{options_json, position_value};
use chaupar_core::notation::play_text;
use chaupar_core::{Colour, Outcome, Step, Turn};
use serde::Serialize;
use serde_json::{Map, Value};

use crate::live::{Core, Seat};

/// The full state the page draws: `GET /api/games/{id}`, the answer to every
/// action, and the WebSocket's `{"type": "state", "game": ...}`.
#[derive(Clone, Debug, Serialize)]
pub struct GameView {
    /// The game's id.
    pub id: String,
    /// Counts the stored changes (since the game was loaded).
    pub version: u64,
    /// When it was made, in seconds since 1970.
    pub created: i64,
    /// The rules in compact form.
    pub rules: String,
    /// The preset the rules start from.
    pub preset: &'static str,
    /// The options that differ from the preset.
    pub options: Map<String, Value>,
    /// How many turns a block may stand.
    pub block_turns: u8,
    /// Whether the castles are safe squares.
    pub safe_castles: bool,
    /// How many play.
    pub players: u8,
    /// Whether it is a team game.
    pub teams: bool,
    /// The colours that play, in turn order.
    pub colours: Vec<Colour>,
    /// Each colour's partner, in team games only.
    pub partners: BTreeMap<Colour, Colour>,
    /// The `throw` option: how the throw is used.
    pub throw_mode: String,
    /// Who plays each colour.
    pub seats: BTreeMap<Colour, Seat>,
    /// The display name of each seat that has one (as given: escape it).
    pub names: BTreeMap<Colour, String>,
    /// Whether the free seats may be taken from the list, without an invite.
    pub open: bool,
    /// The person seats nobody holds yet (taken with `POST .../join`).
    pub free: Vec<Colour>,
    /// The seconds a person has for a turn (none: no limit).
    pub turn_seconds: Option<u64>,
    /// When the person to move runs out of time, in seconds since 1970.
    pub deadline: Option<i64>,
    /// The numbers of the turns the computer played for a person out of time.
    pub timed_out: Vec<usize>,
    /// Whether spectators may read and write the chat too.
    pub spectator_chat: bool,
    /// Pause before each computer throw and play, in milliseconds.
    pub delay_ms: u64,
    /// Tutor mode, `{"threshold": 0.05}`: the loss in win chance beyond which
    /// `POST .../tutor` warns; none: no tutor.
    pub tutor: Option<TutorView>,
    /// The position, with the steps of the turn under way taken.
    pub position: Value,
    /// Who throws or moves now; none when the game is over.
    pub to_move: Option<Colour>,
    /// `"person"` or `"computer"`: who is to move.
    pub to_move_kind: Option<&'static str>,
    /// Whether the colour to move throws again after this turn.
    pub extra_throw: bool,
    /// The turn under way, once the dice are thrown.
    pub turn: Option<TurnView>,
    /// Every turn played, in notation.
    pub moves: Vec<MoveView>,
    /// The last turn's steps, for the page to show them.
    pub last: Option<LastView>,
    /// Whether each colour has captured (tohd).
    pub captured: BTreeMap<Colour, bool>,
    /// `"playing"`, `"won"` or `"dead"`.
    pub outcome: &'static str,
    /// The winning colour or team.
    pub winner: Option<&'static str>,
    /// The dice: commitment, client seeds, throw-off, and the secret once over.
    pub dice: DiceView,
}

/// A client seed and the throw it counts from.
#[derive(Clone, Debug, Serialize)]
pub struct SeedView {
    /// The seed.
    pub seed: String,
    /// The first throw it counts for (throws counted from 0, throw-off first).
    pub from: u64,
}

/// One throw of the throw-off.
#[derive(Clone, Debug, Serialize)]
pub struct ThrowOffView {
    /// Who threw.
    pub colour: Colour,
    /// The dice.
    pub throw: [u8; 3],
}

/// What anyone may know of a game's dice (docs/fairness.md): enough, with the
/// moves' throws, to verify them once the game is over.
#[derive(Clone, Debug, Serialize)]
pub struct DiceView {
    /// SHA-256 of the dice secret (64 hexadecimal digits); none for practice
    /// games and games without dice.
    pub commit: Option<String>,
    /// The client seeds by colour.
    pub seeds: BTreeMap<Colour, SeedView>,
    /// The throw number the committed dice took over at (0 but for an imported
    /// game continued with fresh dice).
    pub from: u64,
    /// A practice game: its dice come from a seed a client chose.
    pub practice: bool,
    /// An archive: imported without a seed or secret; watch and replay only.
    pub archive: bool,
    /// The throw-off that decided who throws first, in order.
    pub throw_off: Vec<ThrowOffView>,
    /// The dice secret, only once the game is over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub secret: Option<String>,
}

impl DiceView {
    /// The dice of a game.
    pub fn of(core: &Core) -> DiceView {
        let game = &core.game;
        DiceView {
            commit: game.commitment().map(|c| c.to_string()),
            seeds: game
                .client_seeds()
                .into_iter()
                .flat_map(|s| s.iter())
                .map(|(c, seed, from)| {
                    (
                        c,
                        SeedView {
                            seed: seed.to_string(),
                            from,
                        },
                    )
                })
                .collect(),
            from: game.dice_from(),
            practice: core.practice(),
            archive: core.archive(),
            throw_off: game
                .throw_off()
                .iter()
                .map(|(colour, t)| ThrowOffView {
                    colour: *colour,
                    throw: t.dice(),
                })
                .collect(),
            secret: match core.over() {
                true => game.dice_secret().map(|s| s.to_string()),
                false => None,
            },
        }
    }
}

/// The turn under way.
#[derive(Clone, Debug, Serialize)]
pub struct TurnView {
    /// The colour that threw.
    pub colour: Option<Colour>,
    /// The three dice.
    pub throw: [u8; 3],
    /// Their sum.
    pub total: u8,
    /// Whose pieces move now (the partner's, once points are passed).
    pub actor: Colour,
    /// Whether the points left are passed to the partner.
    pub passed: bool,
    /// The steps taken.
    pub steps: Vec<Step>,
    /// The steps taken, in notation.
    pub notation: String,
    /// The dice not used yet.
    pub dice_left: Vec<u8>,
    /// The points not used yet.
    pub points_left: u8,
    /// Whether the turn may end now.
    pub can_end: bool,
    /// The steps allowed next.
    pub legal: Vec<Step>,
}

/// One turn played, in the list of moves.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    /// Its number, from 1.
    pub n: usize,
    /// Who threw.
    pub colour: Colour,
    /// The dice.
    pub throw: [u8; 3],
    /// The play in notation.
    pub notation: String,
}

/// The last turn played.
#[derive(Clone, Debug, Serialize)]
pub struct LastView {
    /// Who threw.
    pub colour: Colour,
    /// The dice.
    pub throw: [u8; 3],
    /// Its steps.
    pub steps: Vec<Step>,
}

/// What the list of games shows of one (stored with it).
#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    /// The rules in compact form.
    pub rules: String,
    /// The preset the rules start from.
    pub preset: &'static str,
    /// How many play.
    pub players: u8,
    /// Turns played.
    pub turns: usize,
    /// Who is to move.
    pub to_move: Option<Colour>,
    /// The winning colour or team.
    pub winner: Option<&'static str>,
    /// Who plays each colour.
    pub seats: BTreeMap<Colour, Seat>,
    /// A practice game (dice from a seed a client chose): never listed as open.
    pub practice: bool,
    /// The display name of each seat that has one (as given: escape it).
    pub names: BTreeMap<Colour, String>,
    /// Whether the free seats may be taken from the list, without an invite.
    pub open: bool,
    /// The person seats nobody holds yet (taken with `POST .../join`).
    pub free: Vec<Colour>,
}

impl Summary {
    /// The summary of a game.
    pub fn of(core: &Core) -> Summary {
        let pos = core.game.position();
        Summary {
            rules: core.game.rules().compact(),
            preset: core.game.rules().preset.name(),
            players: pos.players(),
            turns: core.game.turns().len(),
            to_move: pos.to_move(),
            winner: pos.winner().map(|w| w.name()),
            seats: core.seats.clone(),
            practice: core.practice(),
            names: core.seating.names.clone(),
            open: core.seating.open,
            free: core.seating.free(&core.seats),
        }
    }
}

impl TurnView {
    /// The view of a turn under way (lists its legal steps: engine work).
    pub fn of(t: &Turn) -> TurnView {
        let steps = t.steps();
        TurnView {
            colour: t.start().to_move(),
            throw: t.throw().dice(),
            total: t.throw().total(),
            actor: t.actor(),
            passed: t.passed(),
            notation: play_text(t.start(), t.throw(), &steps),
            steps,
            dice_left: t.dice_left(),
            points_left: t.points_left(),
            can_end: t.can_end(),
            legal: t.legal_steps(),
        }
    }
}

impl GameView {
    /// The view of a game (engine work when a turn is under way: run it off the
    /// async workers).
    pub fn of(core: &Core) -> GameView {
        let game = &core.game;
        let rules = game.rules();
        let pos = game.position();
        let mut before = *game.start();
        let moves = game
            .turns()
            .iter()
            .enumerate()
            .map(|(i, t)| {
                let notation = play_text(&before, t.throw, &t.steps);
                before = t.after;
                MoveView {
                    n: i + 1,
                    colour: t.colour,
                    throw: t.throw.dice(),
                    notation,
                }
            })
            .collect();
        let last = game.turns().last().map(|t| LastView {
            colour: t.colour,
            throw: t.throw.dice(),
            steps: t.steps.clone(),
        });
        let partners = match pos.has_teams() {
            true => pos.colours().iter().map(|c| (c, c.partner())).collect(),
            false => BTreeMap::new(),
        };
        GameView {
            id: core.id.clone(),
            version: core.version,
            created: core.created,
            rules: rules.compact(),
            preset: rules.preset.name(),
            options: options_json(rules),
            block_turns: rules.block_turns,
            safe_castles: rules.get("safe").is_ok_and(|s| s == "castles"),
            players: pos.players(),
            teams: pos.has_teams(),
            colours: pos.colours().iter().collect(),
            partners,
            throw_mode: rules.get("throw").unwrap_or_default(),
            seats: core.seats.clone(),
            names: core.seating.names.clone(),
            open: core.seating.open,
            free: core.seating.free(&core.seats),
            turn_seconds: core.seating.turn_seconds,
            deadline: core.deadline(),
            timed_out: core.seating.timed_out.clone(),
            spectator_chat: core.seating.spectator_chat,
            delay_ms: core.delay_ms,
            tutor: core.seating.tutor.map(|threshold| TutorView { threshold }),
            position: position_value(&core.turn.as_ref().map_or(*pos, |t| t.current())),
            to_move: pos.to_move(),
            to_move_kind: core.seat_to_move().map(|(_, s)| match s {
                Seat::Person => "person",
                Seat::Computer { .. } => "computer",
            }),
            extra_throw: pos.extra_throw(),
            turn: core.turn.as_ref().map(TurnView::of),
            moves,
            last,
            captured: pos
                .colours()
                .iter()
                .map(|c| (c, pos.has_captured(c)))
                .collect(),
            outcome: match pos.outcome() {
                Outcome::Ongoing => "playing",
                Outcome::Won(_) => "won",
                Outcome::Dead => "dead",
            },
            winner: pos.winner().map(|w| w.name()),
            dice: DiceView::of(core),
        }
    }
}

/// A tutor game's setting, in the game view.
#[derive(Clone, Debug, Serialize)]
pub struct TutorView {
    /// The loss in win chance beyond which the tutor warns.
    pub threshold: f64,
}
