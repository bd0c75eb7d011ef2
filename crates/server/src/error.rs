//! The API's errors: a status and a message in a player's words, answered over
//! HTTP as `{"error": "...", "error_ru"?: "..."}` and over a WebSocket as
//! `{"type": "error", "error": ..., "status": ..., "error_ru"?: ...}`.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::i18n;

/// An API error: a status and a message (and, for a step the rules do not
/// allow, the same in Russian).
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status (also sent in a WebSocket's error message).
    pub status: StatusCode,
    /// What is wrong, in English.
    pub message: String,
    /// The same in Russian, for steps the rules do not allow.
    pub message_ru: Option<String>,
    /// For a step the rules do not allow, the rule behind it: the start of its
    /// heading's id in the rules text ([`chaupar_core::Illegal::rule`]).
    pub rule: Option<&'static str>,
}

/// The body of an error answer.
#[derive(Serialize)]
pub(crate) struct ErrorBody<'a> {
    error: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<u16>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_ru: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    rule: Option<&'static str>,
}

impl ApiError {
    /// An error with this status and message.
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
            message_ru: None,
            rule: None,
        }
    }

    /// `400`: the request is malformed.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// `409`: the request does not fit the game's state now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::CONFLICT, message)
    }

    /// `422`: the request is well-formed but the rules or the game refuse it.
    pub fn unprocessable(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// `404`: no such game or page.
    pub fn not_found(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::NOT_FOUND, message)
    }

    /// `500`: the server failed.
    pub fn internal(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, message)
    }

    /// A step the rules do not allow: `422` with the reason in English and Russian.
    pub fn illegal(why: &chaupar_core::Illegal) -> ApiError {
        ApiError {
            message_ru: Some(i18n::why_ru(why)),
            rule: why.rule(),
            ..ApiError::unprocessable(why.to_string())
        }
    }

    /// The body of the answer; with the status in it when `with_status` (the
    /// WebSocket's error message, which has no status line).
    pub(crate) fn body(&self, with_status: bool) -> ErrorBody<'_> {
        ErrorBody {
            error: &self.message,
            status: with_status.then_some(self.status.as_u16()),
            error_ru: self.message_ru.as_deref(),
            rule: self.rule,
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        tracing::error!("database: {e}");
        crate::metrics::database_error();
        ApiError::internal(format!("database: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, Json(self.body(false))).into_response()
    }
}
