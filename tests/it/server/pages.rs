//! The pages and files the viewer serves without a browser: real 404 pages for unknown ids, the
//! export route (a judge's download verifies; nobody else gets the log, which names hidden
//! cards), cacheable gzip-compressed assets, and the replay page's loading state.

use axum::body::Body;
use axum::http::{Request, StatusCode};
use http_body_util::BodyExt;
use tower::ServiceExt;

use kifu::server::tokens::Role;

use super::{fixture_log, rt, ServerEnv};

async fn raw(app: &axum::Router, uri: &str, headers: &[(&str, &str)]) -> (StatusCode, axum::http::HeaderMap, Vec<u8>) {
    let mut req = Request::builder().uri(uri);
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = app.clone().oneshot(req.body(Body::empty()).unwrap()).await.unwrap();
    let (status, headers) = (resp.status(), resp.headers().clone());
    (status, headers, resp.into_body().collect().await.unwrap().to_bytes().to_vec())
}

#[test]
fn unknown_ids_are_404_pages() {
    let env = ServerEnv::new();
    let app = env.app();
    rt().block_on(async {
        for uri in [
            "/replay/no-such-game",
            "/tournament/no-such-cup",
            "/replay/cup",
            "/tournament/naruto-physical",
            "/replay/..%2Fx",
            "/nowhere",
        ] {
            let (status, headers, body) = raw(&app, uri, &[]).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
            assert!(headers["content-type"].to_str().unwrap().starts_with("text/html"), "{uri} is a page");
            let text = String::from_utf8(body).unwrap();
            assert!(text.contains("id=\"not-found\"") && !text.contains("kifu streams"), "{uri}: {text}");
        }
        // An id no stream holds is still the tournament page (its "New event" form shows for an
        // organizer's token); a game's id or a bad one is the plain page.
        let (_, _, body) = raw(&app, "/tournament/no-such-cup", &[]).await;
        assert!(String::from_utf8(body).unwrap().contains("id=\"run-new\""), "the form to create it");
        for uri in ["/tournament/naruto-physical", "/tournament/..%2Fx"] {
            let (status, _, body) = raw(&app, uri, &[]).await;
            assert_eq!(status, StatusCode::NOT_FOUND, "{uri}");
            assert!(!String::from_utf8(body).unwrap().contains("run-new"), "{uri}: no form to create over it");
        }
        let (status, _, body) = raw(&app, "/tournament/%3Cscript%3E", &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(!String::from_utf8(body).unwrap().contains("<script>"), "the id is escaped");
        let (status, _, body) = raw(&app, "/replay/%3Cscript%3E", &[]).await;
        assert_eq!(status, StatusCode::NOT_FOUND);
        assert!(!String::from_utf8(body).unwrap().contains("<script>"), "the id is escaped");
        // Known ids still get their page, which starts in its loading state.
        let (status, _, body) = raw(&app, "/replay/naruto-physical", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(String::from_utf8(body).unwrap().contains("<fieldset id=\"controls\" class=\"controls\" disabled>"));
        // It brings the public summary and the spectator's board at `seq`, exactly as the API gives them.
        let (_, _, body) = raw(&app, "/replay/naruto-judged?seq=40", &[]).await;
        let text = String::from_utf8(body).unwrap();
        let start = text.find("<script type=\"application/json\" id=\"boot\">").expect("boot data") + 42;
        let boot: serde_json::Value =
            serde_json::from_str(&text[start..start + text[start..].find("</script>").unwrap()]).unwrap();
        assert_eq!(boot["board"], super::get(&app, "/api/v1/games/naruto-judged/board?seq=40", None).await.1);
        assert_eq!(boot["summary"], super::get(&app, "/api/v1/games/naruto-judged", None).await.1);
        assert_eq!(raw(&app, "/tournament/cup", &[]).await.0, StatusCode::OK);
    });
}

#[test]
fn a_judge_exports_a_log_that_verifies() {
    let env = ServerEnv::new();
    let app = env.app();
    let judge = env.token(Role::Judge, "*", "jules");
    let alice = env.token(Role::Player, "naruto", "alice");
    let log = fixture_log("naruto-judged");
    rt().block_on(async {
        let auth = format!("Bearer {judge}");
        let (status, headers, body) =
            raw(&app, "/api/v1/games/naruto-judged/export", &[("authorization", &auth)]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(headers["content-disposition"].to_str().unwrap().contains("naruto-judged.kifu"));
        let got = kifu::log::file::read(&body).expect("the download verifies");
        assert_eq!(got.head, log.head);
        assert_eq!(body, kifu::log::file::write(&log));
        let (status, _, body) =
            raw(&app, "/api/v1/games/naruto-judged/export?format=json", &[("authorization", &auth)]).await;
        assert_eq!(status, StatusCode::OK);
        let back = kifu::log::json::from_json_str(std::str::from_utf8(&body).unwrap()).expect("the JSON form verifies");
        assert_eq!(back.head, log.head);
        // The log names hidden cards: not for the public, nor for a player.
        assert_eq!(raw(&app, "/api/v1/games/naruto-judged/export", &[]).await.0, StatusCode::FORBIDDEN);
        let auth = format!("Bearer {alice}");
        assert_eq!(
            raw(&app, "/api/v1/games/naruto-judged/export", &[("authorization", &auth)]).await.0,
            StatusCode::FORBIDDEN
        );
        let auth = format!("Bearer {judge}");
        assert_eq!(raw(&app, "/api/v1/games/nope/export", &[("authorization", &auth)]).await.0, StatusCode::NOT_FOUND);
        assert_eq!(
            raw(&app, "/api/v1/games/naruto-judged/export?format=zip", &[("authorization", &auth)]).await.0,
            StatusCode::BAD_REQUEST
        );
    });
}

#[test]
fn assets_are_cacheable() {
    let env = ServerEnv::new();
    let app = env.app();
    rt().block_on(async {
        let (status, headers, body_plain) = raw(&app, "/assets/replay.js", &[]).await;
        assert_eq!(status, StatusCode::OK);
        assert!(!body_plain.is_empty() && headers.get("content-encoding").is_none());
        assert!(headers["cache-control"].to_str().unwrap().contains("max-age"));
        let etag = headers["etag"].to_str().unwrap().to_string();
        let (status, _, empty) = raw(&app, "/assets/replay.js", &[("if-none-match", &etag)]).await;
        assert_eq!(status, StatusCode::NOT_MODIFIED);
        assert!(empty.is_empty());
        assert_eq!(raw(&app, "/assets/nope.js", &[]).await.0, StatusCode::NOT_FOUND);
        // Compressed for a client that takes gzip, and the same bytes once decoded.
        let (status, headers, gz) = raw(&app, "/assets/replay.js", &[("accept-encoding", "br, gzip")]).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(headers["content-encoding"], "gzip");
        assert!(gz.len() * 2 < body_plain.len(), "compressed: {} of {} bytes", gz.len(), body_plain.len());
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut plain).unwrap();
        assert_eq!(plain, body_plain);
        let (_, headers, _) = raw(&app, "/assets/replay.js", &[("accept-encoding", "gzip;q=0")]).await;
        assert!(headers.get("content-encoding").is_none(), "q=0 refuses gzip");
    });
}

/// JSON API answers (and pages) are gzip-compressed for a client that asks and plain for one that does not;
/// the live-event stream is never compressed, and its first event arrives without waiting for
/// more (a compressor would hold it back).
#[test]
fn json_answers_gzip_when_asked_and_live_events_stream_plain() {
    let env = ServerEnv::new();
    let app = env.app();
    rt().block_on(async {
        for uri in ["/api/v1/games/naruto-physical", "/api/v1/games/naruto-physical/events?from=0&limit=100"] {
            let (status, headers, plain) = raw(&app, uri, &[]).await;
            assert_eq!(status, StatusCode::OK);
            assert!(headers.get("content-encoding").is_none(), "identity when not asked: {uri}");
            assert_eq!(headers["vary"], "Accept-Encoding");
            let want: serde_json::Value = serde_json::from_slice(&plain).unwrap();
            let (status, headers, gz) = raw(&app, uri, &[("accept-encoding", "gzip, deflate, br")]).await;
            assert_eq!(status, StatusCode::OK);
            assert_eq!(headers["content-encoding"], "gzip", "{uri}");
            assert!(headers["content-type"].to_str().unwrap().starts_with("application/json"));
            assert!(gz.len() * 3 < plain.len(), "{uri} compressed: {} of {} bytes", gz.len(), plain.len());
            let mut unzipped = Vec::new();
            std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut unzipped).unwrap();
            assert_eq!(serde_json::from_slice::<serde_json::Value>(&unzipped).unwrap(), want, "{uri}");
            let (_, headers, _) = raw(&app, uri, &[("accept-encoding", "gzip;q=0, identity")]).await;
            assert!(headers.get("content-encoding").is_none(), "q=0 refuses gzip: {uri}");
        }
        // The replay page itself, too.
        let (_, _, page) = raw(&app, "/replay/naruto-physical", &[]).await;
        let (_, headers, gz) = raw(&app, "/replay/naruto-physical", &[("accept-encoding", "gzip")]).await;
        assert_eq!(headers["content-encoding"], "gzip");
        let mut unzipped = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&gz[..]), &mut unzipped).unwrap();
        assert_eq!(unzipped, page);
        let req = Request::builder()
            .uri("/api/v1/games/naruto-physical/live?from=0")
            .header("accept-encoding", "gzip")
            .body(Body::empty())
            .unwrap();
        let resp = app.clone().oneshot(req).await.unwrap();
        assert_eq!(resp.headers()["content-type"], "text/event-stream");
        assert!(resp.headers().get("content-encoding").is_none(), "the live stream is not compressed");
        let mut body = resp.into_body();
        let frame = tokio::time::timeout(std::time::Duration::from_secs(30), body.frame())
            .await
            .expect("the first live event is sent at once")
            .unwrap()
            .unwrap();
        let text = String::from_utf8(frame.into_data().unwrap().to_vec()).unwrap();
        assert!(text.contains("data:"), "an event, as it is: {text}");
    });
}
