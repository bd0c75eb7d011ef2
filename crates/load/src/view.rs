//! The few fields of a game view and of a socket message that a simulated person
//! reads. Parsed into these types, the rest of each pushed state (its position,
//! moves, dice) is skipped without building it: with four sockets a game, the
//! load generator reads four states for every action.

use serde::Deserialize;
use serde_json::Value;

/// A message from the game's WebSocket.
#[derive(Deserialize)]
pub struct Push {
    /// `state`, `error`, `presence`, `auth`, `deleted`, ...
    #[serde(rename = "type")]
    pub kind: String,
    /// The game, in a `state`.
    #[serde(default)]
    pub game: Option<View>,
    /// The HTTP status an `error` stands for.
    #[serde(default)]
    pub status: Option<u64>,
}

/// What a person needs of a game view.
#[derive(Clone, Debug, Deserialize)]
pub struct View {
    /// Grows by one with every change.
    pub version: u64,
    /// `playing`, `won` or `dead`.
    pub outcome: String,
    /// The colour to move.
    #[serde(default)]
    pub to_move: Option<String>,
    /// `person` or `computer`.
    #[serde(default)]
    pub to_move_kind: Option<String>,
    /// The turn, once thrown.
    #[serde(default)]
    pub turn: Option<Turn>,
}

/// What a person needs of a turn.
#[derive(Clone, Debug, Deserialize)]
pub struct Turn {
    /// The steps that may be taken next, sent back as they are.
    #[serde(default)]
    pub legal: Vec<Value>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_state_push() {
        let text = r#"{"type": "state", "game": {"id": "g", "version": 7, "outcome": "playing",
            "to_move": "red", "to_move_kind": "person", "position": {"x": [1, 2]},
            "turn": {"colour": "red", "legal": [{"colour": "red", "from": 0, "to": 6}], "can_end": false}}}"#;
        let p: Push = serde_json::from_str(text).unwrap();
        assert_eq!(p.kind, "state");
        let g = p.game.unwrap();
        assert_eq!((g.version, g.to_move.as_deref()), (7, Some("red")));
        assert_eq!(g.turn.unwrap().legal[0]["to"], 6);
        let e: Push =
            serde_json::from_str(r#"{"type": "error", "error": "no", "status": 409}"#).unwrap();
        assert_eq!((e.kind.as_str(), e.status), ("error", Some(409)));
        let before_throw = r#"{"version": 1, "outcome": "playing", "to_move": "red", "to_move_kind": "person", "turn": null}"#;
        assert!(serde_json::from_str::<View>(before_throw)
            .unwrap()
            .turn
            .is_none());
    }
}
