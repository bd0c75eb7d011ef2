//! A game being played: the engine's game, the turn being built, the seats.

use std::collections::BTreeMap;

use chaupar_core::{record, Colour, Game, Position, Step, Turn};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::db::games::Head;
use crate::db::{Stored, StoredAction};
use crate::event::Event;
use crate::view::Summary;

/// Who plays a colour.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "lowercase", deny_unknown_fields)]
pub enum Seat {
    /// A person at this screen.
    Person,
    /// The computer at a level 1–5.
    Computer {
        /// 1 (weakest) to 5.
        level: u8,
    },
}

/// The half-built turn as stored.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Partial {
    /// Whether the dice are thrown.
    pub thrown: bool,
    /// The steps taken so far.
    pub steps: Vec<Step>,
}

/// Everything about a game that is stored; cloned, changed, stored, then kept.
#[derive(Clone)]
pub struct Core {
    /// The game's id (12 hexadecimal digits).
    pub id: String,
    /// When it was made, in seconds since 1970.
    pub created: i64,
    /// The engine's game: rules, seed, throws and plays.
    pub game: Game,
    /// The turn being built, once the dice are thrown.
    pub turn: Option<Turn>,
    /// Who plays each colour.
    pub seats: BTreeMap<Colour, Seat>,
    /// Pause before each computer throw and play, in milliseconds.
    pub delay_ms: u64,
    /// The stored version: one more with every change, restarts included.
    pub version: u64,
    /// Who holds the seats (token hashes, invites, names).
    pub seating: crate::seats::Seating,
    /// The players' chat, oldest first (the last [`CHAT_KEPT`] lines).
    pub chat: Vec<ChatLine>,
}

/// How many chat lines a game keeps.
pub const CHAT_KEPT: usize = 200;

/// One chat message.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ChatLine {
    /// When it was said, in seconds since 1970.
    pub at: i64,
    /// The seat of the player who said it; none for a spectator.
    pub seat: Option<Colour>,
    /// The name shown (as given: escape it).
    pub name: String,
    /// What was said (as given: escape it).
    pub text: String,
}

impl Core {
    /// Adds the client seed a person gave when taking `colour`'s seat, mixed into
    /// the dice from the next throw on (docs/fairness.md). (Filled in by the fair
    /// dice work; until then the seed is only checked.)
    ///
    /// A seat's first seed stays for the game; practice games and archives take
    /// none (their dice are not committed).
    pub fn add_client_seed(&mut self, colour: Colour, seed: chaupar_core::fair::ClientSeed) {
        self.game.add_client_seed(colour, seed);
    }

    /// Whether the game is an archive: imported without a seed or secret, not
    /// over, and not continued; watch and replay only.
    pub fn archive(&self) -> bool {
        !self.over() && self.turn.is_none() && !self.game.throws_itself()
    }

    /// Whether the game is a practice game: its dice come from a seed a client
    /// chose (or saw), so they are not fair dice.
    pub fn practice(&self) -> bool {
        self.game.seed().is_some()
    }
}

/// 32 bytes from the operating system's random source (a new game's dice
/// secret).
pub fn os_random() -> Result<[u8; 32], String> {
    use rand_core::RngCore;
    let mut b = [0u8; 32];
    rand_core::OsRng
        .try_fill_bytes(&mut b)
        .map_err(|e| format!("no random numbers from the system: {e}"))?;
    Ok(b)
}

/// A fresh dice secret from the operating system.
pub fn new_secret() -> Result<chaupar_core::fair::DiceSecret, String> {
    os_random().map(chaupar_core::fair::DiceSecret::from_bytes)
}

/// A random number from the server's own generator (the computer seats'
/// randomness): nothing a client sees or chooses.
pub fn server_u64() -> u64 {
    match os_random() {
        Ok(b) => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        Err(_) => random_u64(),
    }
}

/// A random number for new games' ids and seeds.
pub fn random_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.finish()
}

/// Seconds since 1970.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Parses seats given per colour and checks them against the colours that play.
pub fn parse_seats(v: &Value, pos: &Position) -> Result<BTreeMap<Colour, Seat>, String> {
    let obj = v
        .as_object()
        .ok_or("seats must be an object: {\"yellow\": {\"kind\": \"person\"}, ...}")?;
    let mut out = BTreeMap::new();
    for (k, s) in obj {
        let c: Colour = k.parse().map_err(|e| format!("seats: {e}"))?;
        if !pos.colours().has(c) {
            return Err(format!("seats: {} does not play in this game", c.title()));
        }
        let seat: Seat =
            serde_json::from_value(s.clone()).map_err(|e| format!("seats.{k}: {e}"))?;
        if let Seat::Computer { level } = seat {
            if !(1..=5).contains(&level) {
                return Err(format!("seats.{k}: level must be 1 to 5, not {level}"));
            }
        }
        out.insert(c, seat);
    }
    for c in pos.colours().iter() {
        out.entry(c).or_insert(Seat::Person);
    }
    if pos.players() == 2 && pos.has_teams() {
        for c in [Colour::Yellow, Colour::Red] {
            if out.get(&c) != out.get(&c.partner()) {
                return Err(format!(
                    "seats: with two players each plays a team, so {} and {} must have the same seat",
                    c.title(),
                    c.partner().title()
                ));
            }
        }
    }
    Ok(out)
}

impl Core {
    /// A game just made or imported, with a fresh id and no turn under way.
    pub fn new(game: Game, seats: BTreeMap<Colour, Seat>, delay_ms: u64) -> Core {
        Core {
            id: format!("{:012x}", random_u64() & 0xffff_ffff_ffff),
            created: now(),
            game,
            turn: None,
            seats,
            delay_ms,
            version: 1,
            seating: Default::default(),
            chat: Vec::new(),
        }
    }

    /// When the person to move runs out of time (with `turn_seconds`), in
    /// seconds since 1970.
    pub fn deadline(&self) -> Option<i64> {
        let secs = self.seating.turn_seconds?;
        match self.seat_to_move()? {
            (_, Seat::Person) => Some(self.seating.turn_since + secs as i64),
            _ => None,
        }
    }

    /// Whether the game is over.
    pub fn over(&self) -> bool {
        self.game.position().to_move().is_none()
    }

    /// The seat to act now.
    pub fn seat_to_move(&self) -> Option<(Colour, Seat)> {
        let c = self.game.position().to_move()?;
        Some((c, *self.seats.get(&c).unwrap_or(&Seat::Person)))
    }

    /// The head row of a game just made or imported (at version 1, with no
    /// action stored yet).
    pub fn stored(&self) -> Stored {
        let partial = Partial {
            thrown: self.turn.is_some(),
            steps: self.turn.as_ref().map(|t| t.steps()).unwrap_or_default(),
        };
        let head = self.head();
        Stored {
            id: self.id.clone(),
            created: self.created,
            updated: head.updated,
            record: record::write(&self.game, &[]),
            partial: serde_json::to_string(&partial).unwrap_or_default(),
            seats: serde_json::to_string(&self.seats).unwrap_or_default(),
            delay_ms: self.delay_ms as i64,
            status: head.status,
            summary: head.summary,
            dice: self
                .game
                .dice_secret()
                .map(|s| s.to_string())
                .unwrap_or_default(),
            seating: serde_json::to_string(&self.seating).unwrap_or_default(),
            chat: serde_json::to_string(&self.chat).unwrap_or_default(),
            version: self.version as i64,
            base_version: self.version as i64,
            due: head.due,
        }
    }

    /// What the head row says of the game as it is now.
    pub fn head(&self) -> Head {
        Head {
            version: self.version as i64,
            updated: now(),
            status: if self.over() { "over" } else { "playing" }.into(),
            summary: serde_json::to_string(&Summary::of(self)).unwrap_or_default(),
            due: self.due(),
        }
    }

    /// When the server must act in the game (seconds since 1970): now when a
    /// computer is to move, at the deadline when a person's time may run out;
    /// none when it waits for people or is over.
    pub fn due(&self) -> Option<i64> {
        if self.archive() {
            return None;
        }
        match self.seat_to_move()? {
            (_, Seat::Computer { .. }) => Some(self.seating.turn_since.min(now())),
            (_, Seat::Person) => self.deadline(),
        }
    }

    /// Rebuilds a game from its head row and the actions stored after it
    /// (oldest first).
    pub fn load(s: &Stored, actions: &[StoredAction]) -> Result<Core, String> {
        let mut core = Core::from_stored(s)?;
        core.catch_up(actions)?;
        Ok(core)
    }

    /// Applies actions stored after the game's version (oldest first), each of
    /// which must make the next version.
    pub fn catch_up(&mut self, actions: &[StoredAction]) -> Result<(), String> {
        for a in actions {
            self.apply_stored(a)?;
        }
        Ok(())
    }

    /// Applies one stored action, which must make the next version; answers
    /// the change it made.
    pub fn apply_stored(&mut self, a: &StoredAction) -> Result<Event, String> {
        if a.seq != self.version as i64 + 1 {
            return Err(format!(
                "game {}: stored action {} follows version {}",
                self.id, a.seq, self.version
            ));
        }
        let event = Event::from_json(&a.action)?;
        self.apply(&event, a.at)
            .map_err(|e| format!("game {}: stored action {}: {}", self.id, a.seq, e.message))?;
        Ok(event)
    }

    /// Rebuilds a game from its head row alone (the game as it was made).
    pub fn from_stored(s: &Stored) -> Result<Core, String> {
        let mut game = if s.dice.is_empty() {
            record::replay(&s.record)
        } else {
            let secret: chaupar_core::fair::DiceSecret = s
                .dice
                .parse()
                .map_err(|e: chaupar_core::fair::FairError| e.to_string())?;
            record::replay_with_secret(&s.record, &secret)
        }
        .map_err(|e| e.to_string())?;
        let partial: Partial = serde_json::from_str(&s.partial).map_err(|e| e.to_string())?;
        let seats_v: Value = serde_json::from_str(&s.seats).map_err(|e| e.to_string())?;
        let seats = parse_seats(&seats_v, game.position())?;
        let mut turn = None;
        if partial.thrown && game.position().to_move().is_some() {
            let throw = game.throw().map_err(|e| e.to_string())?;
            let mut t = Turn::new(game.position(), throw).map_err(|e| e.to_string())?;
            for step in &partial.steps {
                t.step(*step).map_err(|e| e.to_string())?;
            }
            turn = Some(t);
        }
        Ok(Core {
            id: s.id.clone(),
            created: s.created,
            game,
            turn,
            seats,
            delay_ms: s.delay_ms.max(0) as u64,
            version: s.base_version.max(1) as u64,
            // Games stored before seats had tokens have none: nobody acts in them.
            seating: match s.seating.as_str() {
                "" => Default::default(),
                text => serde_json::from_str(text).map_err(|e| e.to_string())?,
            },
            chat: match s.chat.as_str() {
                "" => Vec::new(),
                text => serde_json::from_str(text).map_err(|e| e.to_string())?,
            },
        })
    }

    /// Throws the dice for the colour to move.
    pub fn throw(&mut self) -> Result<(), String> {
        if self.turn.is_some() {
            return Err("the dice have already been thrown this turn".into());
        }
        let throw = self.game.throw().map_err(|e| e.to_string())?;
        let t = Turn::new(self.game.position(), throw).map_err(|e| e.to_string())?;
        self.turn = Some(t);
        Ok(())
    }

    /// Plays a whole play for the pending throw (computer seats).
    pub fn play_whole(&mut self, steps: &[Step]) -> Result<(), String> {
        self.game.play(steps).map_err(|e| e.to_string())?;
        self.turn = None;
        Ok(())
    }
}
