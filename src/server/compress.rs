//! gzip for what the server sends: the page assets (compressed once, see [`super::assets`]), and
//! the JSON API's responses and the HTML pages (compressed per response for clients that accept
//! gzip). Live-event streams are never touched: a compressor would hold each event back until its
//! buffer filled.

use std::io::Write as _;

use axum::body::{Body, HttpBody as _};
use axum::extract::Request;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::AppError;

/// Bodies smaller than this go as they are: gzip's own header and the CPU outweigh the saving.
const MIN_BODY: u64 = 1024;
/// Bodies larger than this go as they are rather than being copied once more in memory.
const MAX_BODY: u64 = 64 * 1024 * 1024;

/// The content types compressed per response (the assets are compressed once, elsewhere).
const COMPRESSED_TYPES: [&str; 2] = ["application/json", "text/html"];

/// `body` gzip-compressed at `level`; empty if compression failed (the caller then sends the
/// body as it is).
pub(super) fn gzip(body: &[u8], level: flate2::Compression) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
    // Writing into memory cannot fail; an empty result just means "send it uncompressed".
    if enc.write_all(body).is_err() {
        return Vec::new();
    }
    enc.finish().unwrap_or_default()
}

/// Whether the request's `Accept-Encoding` takes gzip (and does not refuse it with `q=0`).
pub(super) fn accepts_gzip(headers: &HeaderMap) -> bool {
    let Some(v) = headers.get(header::ACCEPT_ENCODING).and_then(|v| v.to_str().ok()) else { return false };
    v.split(',').any(|t| {
        let mut parts = t.split(';').map(str::trim);
        parts.next().is_some_and(|c| c.eq_ignore_ascii_case("gzip"))
            && parts.all(|p| p.strip_prefix("q=").is_none_or(|q| q.parse::<f32>().is_ok_and(|q| q > 0.0)))
    })
}

/// Middleware: a whole JSON or HTML body (its size known in advance, so never a stream) is sent
/// gzip-compressed when the client accepts gzip; every other response passes untouched.
pub(super) async fn responses(req: Request, next: Next) -> Response {
    let wants_gzip = accepts_gzip(req.headers());
    let mut resp = next.run(req).await;
    let compressible = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| COMPRESSED_TYPES.iter().any(|c| t.starts_with(c)));
    if !compressible || resp.headers().contains_key(header::CONTENT_ENCODING) {
        return resp;
    }
    // The answer depends on Accept-Encoding, whichever way it went: caches must know.
    resp.headers_mut().append(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    let size = resp.body().size_hint().exact();
    if !wants_gzip || !size.is_some_and(|n| (MIN_BODY..=MAX_BODY).contains(&n)) {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let bytes = match axum::body::to_bytes(body, MAX_BODY as usize).await {
        Ok(b) => b,
        Err(e) => return AppError::Internal(format!("reading a response body: {e}")).into_response(),
    };
    let gz = gzip(&bytes, flate2::Compression::fast());
    if gz.is_empty() {
        return Response::from_parts(parts, Body::from(bytes));
    }
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
    Response::from_parts(parts, Body::from(gz))
}
