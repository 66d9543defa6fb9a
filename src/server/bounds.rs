//! The server's connection-level bounds: the refusals sent past the connection caps (global and
//! per client address; the counting is [`super::conns`]), the idle timeout, the deadline of a
//! request body, what makes a connection unproven (waiting for a head or receiving a body
//! without a valid token), and the cap on live-event streams per client address (the rest of
//! [`super::Limits`] is hyper's and axum's).
//!
//! A client address is an IPv4 address or an IPv6 /64 (one host usually holds a whole /64, so
//! counting single IPv6 addresses would let it take the server anyway).

use std::collections::HashMap;
use std::io;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
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

use super::auth::{self, Caller};
use super::conns::{client_key, Ticket};
use super::{AppError, AppState};

/// Answers a connection over the global cap with a 503 and closes it, spending at most a
/// second on it.
pub async fn refuse(stream: tokio::net::TcpStream) {
    let body = r#"{"error":"the server is at its connection limit; retry shortly","status":503}"#;
    refuse_with(stream, "503 Service Unavailable", body).await;
}

/// Answers a connection over its address's cap with a 429 and closes it, spending at most a
/// second on it.
pub async fn refuse_address(stream: tokio::net::TcpStream, cap: usize) {
    let body =
        format!(r#"{{"error":"at most {cap} connections at once per client address; close one first","status":429}}"#);
    refuse_with(stream, "429 Too Many Requests", &body).await;
}

async fn refuse_with(mut stream: tokio::net::TcpStream, status: &str, body: &str) {
    let reply = format!(
        "HTTP/1.1 {status}\r\ncontent-type: application/json\r\nretry-after: 1\r\n\
         connection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(std::time::Duration::from_secs(1), stream.write_all(reply.as_bytes())).await;
}

/// How long a request body may take: it must arrive whole within `timeout` of its head, and
/// keep up `min_rate` bytes per second on average after [`BODY_GRACE`] (a head with a
/// `Content-Length` and no body is closed after the grace).
#[derive(Clone, Copy, Debug)]
pub struct BodyLimits {
    pub timeout: Duration,
    pub min_rate: u64,
}

/// The time a body's first bytes may take before the minimum rate applies.
pub const BODY_GRACE: Duration = Duration::from_secs(1);

/// The request body a connection is receiving: since when, and how many bytes so far.
struct BodyClock {
    since: Instant,
    bytes: u64,
}

/// What one connection is doing: when it last read or wrote a byte or finished a response, how
/// many of its responses are still being produced or sent, and whether it is unproven (its
/// place in the server's pool of connections, `ticket`).
pub struct Activity {
    start: Instant,
    last_ms: AtomicU64,
    in_flight: AtomicUsize,
    /// The request body being received, if any: a response in flight does not shield a body
    /// that does not arrive (the connection's watcher closes it at the body's deadline).
    body: Mutex<Option<BodyClock>>,
    /// Wakes the connection's watcher when a body starts (its deadline is sooner than the idle
    /// timeout's).
    body_started: tokio::sync::Notify,
    /// The last request head carried a valid token.
    proven: AtomicBool,
    ticket: Ticket,
}

impl Activity {
    pub fn new(ticket: Ticket) -> Arc<Self> {
        Arc::new(Activity {
            start: Instant::now(),
            last_ms: AtomicU64::new(0),
            in_flight: AtomicUsize::new(0),
            body: Mutex::new(None),
            body_started: tokio::sync::Notify::new(),
            proven: AtomicBool::new(false),
            ticket,
        })
    }

    /// Recounts the connection in the pool: unproven while it waits for a head (no response in
    /// flight) or receives a body, unless its last head carried a valid token. Called after
    /// every change to those, so the last call sees the connection as it is.
    fn settle(&self) {
        self.ticket.settle(|| {
            !self.proven.load(Ordering::Acquire)
                && (self.in_flight.load(Ordering::Acquire) == 0 || self.body().is_some())
        });
    }

    fn body(&self) -> std::sync::MutexGuard<'_, Option<BodyClock>> {
        // A plain value under the lock: after a panic elsewhere it is still consistent.
        self.body.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A body starts (the caller settles the connection after).
    fn start_body(&self) {
        *self.body() = Some(BodyClock { since: Instant::now(), bytes: 0 });
        self.body_started.notify_one();
    }

    fn body_bytes(&self, n: usize) {
        if let Some(b) = self.body().as_mut() {
            b.bytes = b.bytes.saturating_add(u64::try_from(n).unwrap_or(u64::MAX));
        }
    }

    fn end_body(&self) {
        let was = self.body().take();
        if was.is_some() {
            self.settle();
        }
    }

    /// When the body being received must have arrived whole, at the latest (`None`: no body).
    fn body_deadline(&self, limits: BodyLimits) -> Option<Instant> {
        let b = self.body();
        let b = b.as_ref()?;
        let paced = match b.bytes.checked_div(limits.min_rate) {
            Some(secs) => BODY_GRACE.saturating_add(Duration::from_secs(secs)),
            None => limits.timeout, // no minimum rate
        };
        Some(b.since + paced.min(limits.timeout))
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
    /// A response starts (the caller settles the connection after).
    fn new(activity: &Arc<Activity>) -> Self {
        activity.in_flight.fetch_add(1, Ordering::AcqRel);
        InFlight(activity.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.touch();
        self.0.in_flight.fetch_sub(1, Ordering::AcqRel);
        self.0.settle();
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

/// A request body that keeps its connection's [`BodyClock`]: every byte counts, and the clock
/// stops when the body ends, fails or is dropped (a handler that answers without reading it).
struct ClockedBody {
    body: hyper::body::Incoming,
    activity: Arc<Activity>,
}

impl http_body::Body for ClockedBody {
    type Data = axum::body::Bytes;
    type Error = hyper::Error;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Self::Data>, Self::Error>>> {
        let polled = Pin::new(&mut self.body).poll_frame(cx);
        match &polled {
            Poll::Ready(Some(Ok(frame))) => {
                if let Some(data) = frame.data_ref() {
                    self.activity.body_bytes(data.len());
                }
                if self.body.is_end_stream() {
                    self.activity.end_body();
                }
            }
            Poll::Ready(_) => self.activity.end_body(),
            Poll::Pending => {}
        }
        polled
    }

    fn is_end_stream(&self) -> bool {
        self.body.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.body.size_hint()
    }
}

impl Drop for ClockedBody {
    fn drop(&mut self) {
        self.activity.end_body();
    }
}

/// Drives `conn` to its end, or drops it (closing the socket) once it has sat idle for `idle`
/// (no response in flight and no byte read or written), a request body has missed its
/// deadline ([`BodyLimits`]) or the pool has shed it ([`super::conns`]). Hyper's header timeout bounds the time to send a request head;
/// this bounds the silence of a kept-alive connection between requests, and the time a body
/// may take, which the response in flight would otherwise shield (a head with a
/// `Content-Length` and no body held its connection forever).
pub async fn until_idle<F: std::future::Future>(conn: F, activity: &Activity, idle: Duration, body: BodyLimits) {
    tokio::pin!(conn);
    loop {
        let mut wait = idle.saturating_sub(activity.idle_for());
        if wait.is_zero() {
            return;
        }
        if let Some(deadline) = activity.body_deadline(body) {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            wait = wait.min(left);
        }
        tokio::select! {
            _ = &mut conn => return,
            _ = tokio::time::sleep(wait) => {}
            _ = activity.body_started.notified() => {}
            _ = activity.ticket.shed() => return,
        }
    }
}

/// Open live-event streams by client address ([`client_key`](super::conns::client_key)).
#[derive(Default)]
pub struct PerAddress(Mutex<HashMap<IpAddr, usize>>);

/// One open live-event stream; dropping it (the stream ended or the client left) frees the slot.
pub struct Slot(Arc<PerAddress>, IpAddr);

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

/// A slot for `ip` unless its address already holds `cap`.
pub fn take_slot(count: &Arc<PerAddress>, ip: IpAddr, cap: usize) -> Option<Slot> {
    let ip = client_key(ip);
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
/// as in flight on `activity` until its body is sent or dropped; a request body is clocked on
/// `activity` until it has arrived (see [`until_idle`]). A head with a valid token proves the
/// connection until its next head; its caller is passed on to the handler in the request's
/// extensions (looked up once).
pub fn per_client(
    app: Router,
    state: AppState,
    ip: IpAddr,
    live: Arc<PerAddress>,
    cap: usize,
    activity: Arc<Activity>,
) -> impl tower::Service<
    Request<hyper::body::Incoming>,
    Response = Response,
    Error = std::convert::Infallible,
    Future = impl Send,
> + Clone
       + Send {
    tower::service_fn(move |mut req: Request<hyper::body::Incoming>| {
        let (app, live) = (app.clone(), live.clone());
        let caller = auth::caller(req.uri(), req.headers(), &state);
        activity.proven.store(matches!(caller, Ok(Caller::Token(_))), Ordering::Release);
        if let Ok(caller) = caller {
            req.extensions_mut().insert(caller);
        }
        let in_flight = InFlight::new(&activity);
        let clocked = activity.clone();
        let req = req.map(|body| {
            if http_body::Body::is_end_stream(&body) {
                return Body::new(body);
            }
            clocked.start_body();
            Body::new(ClockedBody { body, activity: clocked })
        });
        // Once, with the response and any body both counted: a public head with a body stays
        // unproven (and keeps its age) rather than leaving the pool for an instant.
        activity.settle();
        async move {
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
