//! The server's connection-level bounds: the refusal sent past the connection cap, and the cap on
//! live-event streams per client address (the rest of [`super::Limits`] is hyper's and axum's).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::io::AsyncWriteExt;
use tokio_stream::StreamExt;
use tower::ServiceExt;

use super::AppError;

/// Answers a connection over the cap with a 503 and closes it, spending at most a second on it.
pub async fn refuse(mut stream: tokio::net::TcpStream) {
    let body = r#"{"error":"the server is at its connection limit; retry shortly","status":503}"#;
    let reply = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), stream.write_all(reply.as_bytes())).await;
}

/// Open live-event streams by client address.
#[derive(Default)]
pub struct LiveCount(Mutex<HashMap<IpAddr, usize>>);

/// One open live-event stream; dropping it (the stream ended or the client left) frees the slot.
struct Slot(Arc<LiveCount>, IpAddr);

impl Drop for Slot {
    fn drop(&mut self) {
        let mut m = self.0 .0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = m.get_mut(&self.1) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.1);
            }
        }
    }
}

fn take_slot(count: &Arc<LiveCount>, ip: IpAddr, cap: usize) -> Option<Slot> {
    let mut m = count.0.lock().unwrap_or_else(|p| p.into_inner());
    let n = m.entry(ip).or_insert(0);
    if *n >= cap {
        return None;
    }
    *n += 1;
    Some(Slot(count.clone(), ip))
}

/// The application for one connection from `ip`: a live-event request over the address's cap is
/// answered 429; an admitted one holds its slot until its body is dropped.
pub fn per_client(
    app: Router,
    ip: IpAddr,
    live: Arc<LiveCount>,
    cap: usize,
) -> impl tower::Service<
    Request<hyper::body::Incoming>,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
       + Send {
    tower::service_fn(move |req: Request<hyper::body::Incoming>| {
        let (app, live) = (app.clone(), live.clone());
        async move {
            let req = req.map(Body::new);
            if !req.uri().path().ends_with("/live") {
                return app.oneshot(req).await;
            }
            let Some(slot) = take_slot(&live, ip, cap) else {
                let msg = format!("at most {cap} live-event streams per client address; close one first");
                let mut resp = AppError::Unavailable(msg).into_response();
                *resp.status_mut() = StatusCode::TOO_MANY_REQUESTS;
                return Ok(resp);
            };
            let resp = app.oneshot(req).await?;
            Ok(resp.map(|body| {
                Body::from_stream(body.into_data_stream().map(move |chunk| {
                    let _held = &slot;
                    chunk
                }))
            }))
        }
    })
}
