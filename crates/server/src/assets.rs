//! The web client, embedded in the binary at build time (every file under `web/`,
//! see `build.rs`) and served from memory with its content type.

use axum::http::{header, Method, Uri};
use axum::response::{IntoResponse, Response};

include!(concat!(env!("OUT_DIR"), "/assets.rs"));

/// The embedded file at `path` (below `web/`, no leading slash), if there is one.
pub fn file(path: &str) -> Option<&'static [u8]> {
    FILES.iter().find(|(p, _)| *p == path).map(|(_, b)| *b)
}

/// The content type served for a file name.
pub fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("json") => "application/json",
        Some("png") => "image/png",
        Some("txt" | "md") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

/// Serves `/` as `index.html` and any other path as the embedded file of that
/// name; anything else (unknown pages and unknown API paths alike) is a JSON 404.
pub async fn serve(method: Method, uri: Uri) -> Response {
    if method != Method::GET && method != Method::HEAD {
        return crate::ApiError::not_found("no such page").into_response();
    }
    let path = uri.path().trim_start_matches('/');
    let path = if path.is_empty() { "index.html" } else { path };
    match file(path) {
        Some(bytes) if !path.starts_with("api/") => (
            [
                (header::CONTENT_TYPE, content_type(path)),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            bytes,
        )
            .into_response(),
        _ => crate::ApiError::not_found("no such page").into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_script_are_embedded() {
        assert!(file("index.html").is_some());
        assert!(file("style.css").is_some());
        assert!(file("favicon.svg").is_some());
        assert_eq!(content_type("app.js"), "text/javascript; charset=utf-8");
    }
}
