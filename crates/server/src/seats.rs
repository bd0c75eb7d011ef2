//! Who may act for a seat: secret tokens (the owner's and one per person seat),
//! invite codes for seats left free, and display names. Tokens and codes are 32
//! random bytes from the OS in hex; only their SHA-256 is stored, compared in
//! constant time. Every check of a token (HTTP and WebSocket alike) is here.

use std::collections::BTreeMap;

use axum::http::{header, HeaderMap, StatusCode};
use chaupar_core::Colour;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

use crate::error::ApiError;
use crate::live::{Core, Seat};

/// The longest display name, in characters.
pub const MAX_NAME: usize = 24;

/// Who holds the seats of a game, as stored (hashes only, never a token).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
#[serde(default)]
pub struct Seating {
    /// SHA-256 (hex) of the owner's token; none for games stored before tokens.
    pub owner: Option<String>,
    /// SHA-256 (hex) of the token of each person seat that is held.
    pub tokens: BTreeMap<Colour, String>,
    /// SHA-256 (hex) of the invite code of each person seat left free.
    pub invites: BTreeMap<Colour, String>,
    /// The display name of each seat that has one.
    pub names: BTreeMap<Colour, String>,
    /// Whether the free seats may be taken from the list, without an invite.
    pub open: bool,
    /// The seconds a person has for a turn; none: no limit.
    pub turn_seconds: Option<u64>,
    /// The computer level that plays a person's turn when their time runs out.
    pub auto_level: u8,
    /// When the turn to move began, in seconds since 1970.
    pub turn_since: i64,
    /// The numbers (`n`, from 1) of the turns the computer played for a person
    /// whose time ran out.
    pub timed_out: Vec<usize>,
    /// Whether spectators may chat too (the owner's choice).
    pub spectator_chat: bool,
    /// Tutor mode: the loss in win chance beyond which the tutor warns of a
    /// play (`POST .../tutor`); none: no tutor.
    pub tutor: Option<f64>,
}

/// A new secret: 32 bytes from the OS's generator (`live::os_random`, the one
/// source of the server's secrets), in hex. A system without random numbers
/// cannot hand out secrets at all.
pub fn secret() -> String {
    match crate::live::os_random() {
        Ok(b) => hex(&b),
        Err(e) => panic!("{e}"),
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The SHA-256 of a secret, in hex: what is stored.
pub fn digest(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

/// Whether `secret` hashes to `stored` (compared in constant time).
fn matches(secret: &str, stored: &str) -> bool {
    digest(secret).as_bytes().ct_eq(stored.as_bytes()).into()
}

/// The token of `Authorization: Bearer <token>`, if any; `401` for another scheme.
pub fn bearer(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(v) = headers.get(header::AUTHORIZATION) else {
        return Ok(None);
    };
    let v = v.to_str().map_err(|_| unauthorized())?;
    match v.split_once(' ') {
        Some((scheme, t)) if scheme.eq_ignore_ascii_case("bearer") && !t.trim().is_empty() => {
            Ok(Some(t.trim().to_string()))
        }
        _ => Err(unauthorized()),
    }
}

fn unauthorized() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "give the seat's token: Authorization: Bearer <token>",
    )
}

fn forbidden(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::FORBIDDEN, message)
}

impl Seating {
    /// The seating of a new game: every person seat held by the maker (tokens
    /// answered) but those in `free`, which get invite codes (answered too).
    pub fn new(seats: &BTreeMap<Colour, Seat>, free: &[Colour], open: bool) -> (Seating, Secrets) {
        let owner = secret();
        let mut s = Seating {
            owner: Some(digest(&owner)),
            open,
            ..Seating::default()
        };
        let mut out = Secrets {
            owner_token: owner,
            ..Secrets::default()
        };
        for (c, seat) in seats {
            if *seat != Seat::Person {
                continue;
            }
            let t = secret();
            if free.contains(c) {
                s.invites.insert(*c, digest(&t));
                out.invites.insert(*c, t);
            } else {
                s.tokens.insert(*c, digest(&t));
                out.seat_tokens.insert(*c, t);
            }
        }
        (s, out)
    }

    /// The seat `token` holds, if any.
    pub fn seat_of(&self, token: &str) -> Option<Colour> {
        // Every entry is compared, so the time does not tell which matched.
        let mut found = None;
        for (c, h) in &self.tokens {
            if matches(token, h) {
                found = Some(*c);
            }
        }
        found
    }

    /// Whether `token` is the owner's.
    pub fn is_owner(&self, token: &str) -> bool {
        self.owner.as_deref().is_some_and(|h| matches(token, h))
    }

    /// The person seats nobody holds yet.
    pub fn free(&self, seats: &BTreeMap<Colour, Seat>) -> Vec<Colour> {
        (seats.iter())
            .filter(|(c, s)| **s == Seat::Person && !self.tokens.contains_key(c))
            .map(|(c, _)| *c)
            .collect()
    }
}

/// The secrets of a new game or seat, answered once to whoever made or took it.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Secrets {
    /// The owner's token (empty when none is given, e.g. on joining).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub owner_token: String,
    /// The token of each seat held.
    pub seat_tokens: BTreeMap<Colour, String>,
    /// The invite code of each seat left free (owner only).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub invites: BTreeMap<Colour, String>,
}

/// Checks that `token` is the token of `colour`'s seat: `401` without a token,
/// `403` with any other. The one check of every person's action, HTTP and
/// WebSocket alike.
pub fn authorize(core: &Core, token: Option<&str>, colour: Colour) -> Result<(), ApiError> {
    let token = token.ok_or_else(unauthorized)?;
    match core.seating.seat_of(token) {
        Some(c) if c == colour => Ok(()),
        Some(c) => Err(forbidden(format!(
            "this token is {}'s, not {}'s",
            c.title(),
            colour.title()
        ))),
        None => Err(forbidden(format!("this is not {}'s token", colour.title()))),
    }
}

/// Checks that `token` is the owner's: `401` without a token, `403` otherwise.
pub fn authorize_owner(core: &Core, token: Option<&str>) -> Result<(), ApiError> {
    let token = token.ok_or_else(unauthorized)?;
    match core.seating.is_owner(token) {
        true => Ok(()),
        false => Err(forbidden("only the game's owner may do this")),
    }
}

/// A display name as given, trimmed: 1–24 characters, no control characters;
/// `400` otherwise.
pub fn check_name(name: &str) -> Result<String, ApiError> {
    let name = name.trim();
    let n = name.chars().count();
    if n == 0 || n > MAX_NAME {
        return Err(ApiError::bad(format!(
            "a name has 1 to {MAX_NAME} characters, not {n}"
        )));
    }
    if name.chars().any(char::is_control) {
        return Err(ApiError::bad("a name may not have control characters"));
    }
    Ok(name.to_string())
}
