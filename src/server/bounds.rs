//! The server's connection-level bounds: the refusal sent past the connection cap, the idle
//! timeout, and the cap on live-event streams per client address (the rest of
//! [`super::Limits`] is hyper's and axum's).

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::Request;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use tokio::io::{AsyncRead, AsyncWrite, AsyncWriteExt, ReadBuf};
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

/// What one connection is doing: when it last read or wrote a byte or finished a response, and
/// how many of its responses are still being produced or sent.
pub struct Activity {
    start: Instant,
    last_ms: AtomicU64,
    in_flight: AtomicUsize,
}

impl Activity {
    pub fn new() -> Arc<Self> {
        Arc::new(Activity { start: Instant::now(), last_ms: AtomicU64::new(0), in_flight: AtomicUsize::new(0) })
    }

    fn touch(&self) {
        let now = u64::try_from(self.start.elapsed().as_millis()).unwrap_or(u64::MAX);
        self.last_ms.store(now, Ordering::Relaxed);
    }

    /// How long the connection has sat idle; zero while a response is in flight, however slow.
    fn idle_for(&self) -> Duration {
        if self.in_flight.load(Ordering::Acquire) > 0 {
            return Duration::ZERO;
        }
        self.start.elapsed().saturating_sub(Duration::from_millis(self.last_ms.load(Ordering::Relaxed)))
    }
}

/// A connection's socket that records its activity: every byte read or written counts.
pub struct Watched {
    io: tokio::net::TcpStream,
    activity: Arc<Activity>,
}

impl Watched {
    pub fn new(io: tokio::net::TcpStream, activity: Arc<Activity>) -> Self {
        Watched { io, activity }
    }
}

impl AsyncRead for Watched {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.io).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.activity.touch();
        }
        polled
    }
}

impl Watched {
    fn wrote(&self, polled: Poll<io::Result<usize>>) -> Poll<io::Result<usize>> {
        if let Poll::Ready(Ok(n)) = polled {
            if n > 0 {
                self.activity.touch();
            }
        }
        polled
    }
}

impl AsyncWrite for Watched {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write(cx, buf);
        self.wrote(polled)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let polled = Pin::new(&mut self.io).poll_write_vectored(cx, bufs);
        self.wrote(polled)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// One response in flight, from the request's arrival until its body is sent or dropped.
struct InFlight(Arc<Activity>);

impl InFlight {
    fn new(activity: &Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
    }
}

/// A response body that holds its [`InFlight`] until it is done, keeping its size hint (so a
/// sized response keeps its content-length).
struct Tracked {
    body: Body,
    _in_flight: InFlight,
}

impl http_body::Body for Tracked {
    type Data = axum::body::Bytes;
    type Error = axum::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        Pin::new(&mut self.body).poll_frame(cx)
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

/// Drives `conn` to its end, or drops it (closing the socket) once it has sat idle for `idle`:
/// no response in flight and no byte read or written. Hyper's header timeout bounds the time to
/// send a request head; this bounds the silence of a kept-alive connection between requests.
pub async fn until_idle<F: std::future::Future>(conn: F, activity: &Activity, idle: Duration) {
    tokio::pin!(conn);
    loop {
        let wait = idle.saturating_sub(activity.idle_for());
        if wait.is_zero() {
            return;
        }
        tokio::select! {
            _ = &mut conn => return,
            _ = tokio::time::sleep(wait) => {}
        }
    }
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
/// answered 429; an admitted one holds its slot until its body is dropped. Every response counts
/// as in flight on `activity` until its body is sent or dropped.
pub fn per_client(
    app: Router,
    ip: IpAddr,
    live: Arc<LiveCount>,
    cap: usize,
    activity: Arc<Activity>,
) -> impl tower::Service<
    Request<hyper::body::Incoming>,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
       + Send {
    tower::service_fn(move |req: Request<hyper::body::Incoming>| {
        let (app, live) = (app.clone(), live.clone());
        let in_flight = InFlight::new(&activity);
        async move {
            let req = req.map(Body::new);
            if !req.uri().path().ends_with("/live") {
                let resp = app.oneshot(req).await?;
                return Ok(resp.map(|body| Body::new(Tracked { body, _in_flight: in_flight })));
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
                    let _held = (&slot, &in_flight);
                    chunk
                }))
            }))
        }
    })
}
