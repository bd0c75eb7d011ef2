//! `GET /api/games/{id}/review.svg`: the review drawn as a win-chance graph
//! (`chaupar_ai::review_svg`), bounded as the review is.

use std::sync::atomic::{AtomicBool, Ordering};

use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::analysis::REVIEW_MS;
use crate::bots;
use crate::error::ApiError;
use crate::limits::engine;
use crate::state::Shared;

/// The query: `?budget=MS&lang=en|ru`, each optional.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct SvgQuery {
    budget: Option<u64>,
    lang: Option<String>,
}

/// `GET /api/games/:id/review.svg[?budget=MS][&lang=ru]`: the same review as
/// `.../review` (MS 0..=50, default 10, milliseconds of search work per turn),
/// as `image/svg+xml`, its words in English or Russian.
pub(crate) async fn review_svg(
    State(state): State<Shared>,
    Path(id): Path<String>,
    query: Result<Query<SvgQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let max = bots::REVIEW_MAX_MS;
    let usage = format!("expected budget=MS (0 to {max}) and lang=en or ru");
    let Query(query) = query.map_err(|e| ApiError::bad(format!("{} ({usage})", e.body_text())))?;
    let ms = query.budget.unwrap_or(REVIEW_MS);
    if ms > max {
        return Err(ApiError::bad(format!(
            "budget must be a whole number of milliseconds from 0 to {max}, not {ms}"
        )));
    }
    let lang = query.lang.unwrap_or_else(|| "en".into());
    if lang != "en" && lang != "ru" {
        return Err(ApiError::bad(format!(
            "lang must be en or ru, not {lang:?}"
        )));
    }
    let game = state.read(&id, |core| core.game.clone()).await?;
    let svg = engine(&state.guards, move |stop: &AtomicBool| {
        let review = bots::review(&game, ms, &|| stop.load(Ordering::Relaxed));
        chaupar_ai::review_svg::svg(&review, game.start(), &lang)
    })
    .await?;
    Ok((
        [
            (header::CONTENT_TYPE, "image/svg+xml; charset=utf-8"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        svg,
    )
        .into_response())
}
