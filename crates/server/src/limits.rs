//! What the server bounds, so that it may face the internet (`docs/api.md`,
//! "Limits"): JSON-only bodies of a bounded size, a request timeout, rate limits
//! per client address on new games and on actions (tower_governor), header and
//! idle timeouts and a cap on connections per address (the accept loop of
//! [`serve`]), and a semaphore the size of the machine in front of the engine's
//! costly work ([`engine`]). Every refusal is answered as JSON `{"error": ...}`.

use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Router;
use governor::middleware::NoOpMiddleware;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use tokio::io::AsyncWriteExt;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tower::ServiceExt;
use tower_governor::governor::{GovernorConfig, GovernorConfigBuilder};
use tower_governor::key_extractor::PeerIpKeyExtractor;
use tower_governor::{GovernorError, GovernorLayer};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::validate_request::ValidateRequestHeaderLayer;

use crate::error::ApiError;

/// The server's bounds (part of [`crate::Options`]; `chaupar serve` sets them
/// from its command line).
#[derive(Clone, Debug)]
pub struct Limits {
    /// The largest request body, in bytes (`413` beyond).
    pub body_bytes: usize,
    /// New games (create and import) a client address may make at once...
    pub create_burst: u32,
    /// ...and then one more every this many milliseconds (`429` beyond).
    pub create_every_ms: u64,
    /// Actions a client address may send at once (HTTP and WebSocket together)...
    pub action_burst: u32,
    /// ...and then one more every this many milliseconds (`429` beyond).
    pub action_every_ms: u64,
    /// Time to send a request's head (and the longest idle keep-alive wait):
    /// the connection is closed after it.
    pub header_timeout: Duration,
    /// Time to answer a request, body read included (`408` beyond).
    pub request_timeout: Duration,
    /// Connections open at once from one client address (more are refused).
    pub connections_per_ip: usize,
    /// A WebSocket is pinged this often...
    pub ws_ping_every: Duration,
    /// ...and closed when no pong came back within this.
    pub ws_pong_within: Duration,
    /// Reviews, replays and hints running at once (default: the machine's
    /// threads).
    pub engine_jobs: usize,
    /// How long such a request waits for its turn (`503` beyond).
    pub engine_wait: Duration,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            body_bytes: 256 * 1024,
            create_burst: 10,
            create_every_ms: 6_000,
            action_burst: 60,
            action_every_ms: 50,
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            connections_per_ip: 64,
            ws_ping_every: Duration::from_secs(20),
            ws_pong_within: Duration::from_secs(10),
            engine_jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            engine_wait: Duration::from_secs(2),
        }
    }
}

impl Limits {
    /// The default bounds without the rate limits and the connection cap: for
    /// tests and one machine's play, where every request comes from one address.
    pub fn relaxed() -> Limits {
        Limits {
            create_burst: 1_000_000,
            create_every_ms: 1,
            action_burst: 1_000_000,
            action_every_ms: 1,
            connections_per_ip: 100_000,
            ..Limits::default()
        }
    }
}

/// A rate limiter keyed by the client's address.
type Governor = Arc<GovernorConfig<PeerIpKeyExtractor, NoOpMiddleware>>;

/// The limits' state shared by every request.
pub(crate) struct Guards {
    new_games: Governor,
    actions: Governor,
    engine: Arc<Semaphore>,
    engine_wait: Duration,
}

/// A rate limiter: `burst` at once, then one every `every_ms`.
fn governor(burst: u32, every_ms: u64) -> Governor {
    let config = GovernorConfigBuilder::default()
        .per_millisecond(every_ms.max(1))
        .burst_size(burst.max(1))
        .error_handler(too_many)
        .finish();
    // Both numbers are at least 1, the only case `finish` refuses.
    Arc::new(config.unwrap_or_default())
}

/// `429` as JSON, with `Retry-After`.
fn too_many(e: GovernorError) -> Response {
    match e {
        GovernorError::TooManyRequests { wait_time, .. } => {
            let secs = wait_time.max(1);
            let mut r = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                format!("too many requests from your address: try again in {secs} s"),
            )
            .into_response();
            r.headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
            r
        }
        GovernorError::UnableToExtractKey => {
            ApiError::internal("cannot tell the client's address").into_response()
        }
        GovernorError::Other { code, msg, .. } => {
            ApiError::new(code, msg.unwrap_or_else(|| "refused".into())).into_response()
        }
    }
}

impl Guards {
    /// The state of these limits.
    pub fn new(l: &Limits) -> Guards {
        Guards {
            new_games: governor(l.create_burst, l.create_every_ms),
            actions: governor(l.action_burst, l.action_every_ms),
            engine: Arc::new(Semaphore::new(l.engine_jobs.max(1))),
            engine_wait: l.engine_wait,
        }
    }

    /// The rate limit on new games (create, import), as a layer.
    pub fn new_games(&self) -> GovernorLayer<PeerIpKeyExtractor, NoOpMiddleware> {
        GovernorLayer {
            config: self.new_games.clone(),
        }
    }

    /// The rate limit on actions, as a layer.
    pub fn actions(&self) -> GovernorLayer<PeerIpKeyExtractor, NoOpMiddleware> {
        GovernorLayer {
            config: self.actions.clone(),
        }
    }

    /// Counts an action sent over a WebSocket from `ip` against the same limit
    /// as HTTP actions: `429` when it is spent.
    pub fn action_from(&self, ip: Option<IpAddr>) -> Result<(), ApiError> {
        let Some(ip) = ip else { return Ok(()) };
        self.actions.limiter().check_key(&ip).map_err(|_| {
            ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "too many actions from your address: slow down",
            )
        })
    }

    /// Forgets the addresses that have not been limited lately (the limiters
    /// keep one entry per address otherwise).
    fn forget_old(&self) {
        self.new_games.limiter().retain_recent();
        self.actions.limiter().retain_recent();
    }
}

/// Keeps the rate limiters' memory small: forgets quiet addresses every minute.
pub(crate) fn spawn_cleanup(guards: Arc<Guards>) {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tick.tick().await;
            guards.forget_old();
        }
    });
}

/// Whether a request must be JSON: POST, PUT and PATCH always, DELETE when it
/// has a body.
fn must_be_json(req: &Request) -> bool {
    let m = req.method();
    if m == Method::POST || m == Method::PUT || m == Method::PATCH {
        return true;
    }
    let h = req.headers();
    m == Method::DELETE
        && (h.contains_key(header::TRANSFER_ENCODING)
            || h.get(header::CONTENT_LENGTH)
                .is_some_and(|v| v.as_bytes() != b"0"))
}

/// `application/json`, optionally with `; charset=utf-8`.
fn is_json(v: Option<&HeaderValue>) -> bool {
    let Some(v) = v.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let mut parts = v.split(';').map(str::trim);
    let json = parts
        .next()
        .is_some_and(|t| t.eq_ignore_ascii_case("application/json"));
    json && parts.all(|p| {
        p.split_once('=').is_some_and(|(k, v)| {
            k.trim().eq_ignore_ascii_case("charset")
                && v.trim().trim_matches('"').eq_ignore_ascii_case("utf-8")
        })
    })
}

/// Refuses a state-changing request that is not JSON: `415` before anything
/// else happens (a cross-site form may send `text/plain`, never JSON).
// The signature is tower-http's (`ValidateRequest`).
#[allow(clippy::result_large_err)]
fn json_only(req: &mut Request) -> Result<(), Response> {
    if !must_be_json(req) || is_json(req.headers().get(header::CONTENT_TYPE)) {
        return Ok(());
    }
    Err(ApiError::new(
        StatusCode::UNSUPPORTED_MEDIA_TYPE,
        "send the request as JSON, with Content-Type: application/json",
    )
    .into_response())
}

/// Makes every error answer JSON: the refusals of the layers (`408`, `413`,
/// ...) come with a plain-text or empty body.
async fn json_errors(body_bytes: usize, r: Response) -> Response {
    let status = r.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return r;
    }
    let ct = r.headers().get(header::CONTENT_TYPE);
    if ct.is_some_and(|v| v.as_bytes().starts_with(b"application/json")) {
        return r;
    }
    let message = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            format!("the request body may have at most {body_bytes} bytes")
        }
        StatusCode::REQUEST_TIMEOUT => "the request took too long and was stopped".into(),
        s => s.canonical_reason().unwrap_or("refused").to_lowercase(),
    };
    let (parts, _) = r.into_parts();
    let mut out = ApiError::new(status, message).into_response();
    for (k, v) in parts.headers.iter() {
        if k != header::CONTENT_TYPE && k != header::CONTENT_LENGTH {
            out.headers_mut().insert(k.clone(), v.clone());
        }
    }
    out
}

/// Wraps the application in the request limits: JSON errors outermost, then
/// the request timeout, JSON-only bodies and the body limit.
pub(crate) fn layers(app: Router, l: &Limits) -> Router {
    let max = l.body_bytes;
    app.layer(DefaultBodyLimit::max(max))
        .layer(RequestBodyLimitLayer::new(max))
        .layer(ValidateRequestHeaderLayer::custom(json_only))
        // The WebSocket's upgrade answers at once: the socket itself lives in
        // its own task, out of this timeout's reach.
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            l.request_timeout,
        ))
        .layer(axum::middleware::map_response(move |r: Response| {
            json_errors(max, r)
        }))
}

/// Open connections per client address.
type Counts = Arc<StdMutex<HashMap<IpAddr, usize>>>;

/// One open connection, counted until it is dropped: held by the connection's
/// task and by its requests (so a WebSocket, which outlives its connection's
/// task, counts for as long as it is open).
#[derive(Clone)]
pub(crate) struct Held(#[allow(dead_code)] Arc<Counted>);

/// One open connection, counted until it is dropped.
struct Counted {
    counts: Counts,
    ip: IpAddr,
}

impl Counted {
    /// Counts a new connection from `ip`, unless `ip` has `max` open already.
    fn take(counts: &Counts, ip: IpAddr, max: usize) -> Option<Counted> {
        let mut c = counts.lock().unwrap_or_else(|p| p.into_inner());
        let n = c.entry(ip).or_insert(0);
        if *n >= max {
            return None;
        }
        *n += 1;
        Some(Counted {
            counts: counts.clone(),
            ip,
        })
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        let mut c = self.counts.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = c.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                c.remove(&self.ip);
            }
        }
    }
}

/// Answers a connection over the cap `429` as JSON and closes it.
async fn refuse(mut stream: tokio::net::TcpStream, max: usize) {
    let body =
        format!("{{\"error\":\"too many connections from your address (at most {max} at once)\"}}");
    let answer = format!(
        "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json\r\nContent-Length: {}\r\nRetry-After: 1\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let _ = tokio::time::timeout(Duration::from_secs(1), async {
        let _ = stream.write_all(answer.as_bytes()).await;
        let _ = stream.shutdown().await;
    })
    .await;
}

/// What one connection is doing: requests under way, and when the last ended.
struct Activity {
    base: Instant,
    busy: AtomicUsize,
    last_ms: AtomicU64,
}

impl Activity {
    fn new() -> Arc<Activity> {
        Arc::new(Activity {
            base: Instant::now(),
            busy: AtomicUsize::new(0),
            last_ms: AtomicU64::new(0),
        })
    }

    /// Counts a request under way until the guard is dropped.
    fn begin(self: &Arc<Activity>) -> Busy {
        self.busy.fetch_add(1, Ordering::Relaxed);
        Busy(self.clone())
    }

    /// Whether no request was under way for `d`.
    fn idle_for(&self, d: Duration) -> bool {
        let last = Duration::from_millis(self.last_ms.load(Ordering::Relaxed));
        self.busy.load(Ordering::Relaxed) == 0 && self.base.elapsed() > last + d
    }
}

/// A request under way on a connection.
struct Busy(Arc<Activity>);

impl Drop for Busy {
    fn drop(&mut self) {
        let now = self.0.base.elapsed().as_millis() as u64;
        self.0.last_ms.store(now, Ordering::Relaxed);
        self.0.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Serves `app` on `listener` until `shutdown` completes, then lets the
/// requests under way finish (10 s at most). Each connection: the client's
/// address is given to the handlers (`ConnectInfo`), its head must come within
/// the header timeout, it is closed when idle that long (kept alive with no
/// request, or never sending one), and no address holds more than its share
/// of connections.
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    l: &Limits,
    shutdown: impl Future<Output = ()>,
) -> std::io::Result<()> {
    let counts: Counts = Arc::default();
    let (closing_tx, closing_rx) = tokio::sync::watch::channel(false);
    let (alive_tx, mut alive_rx) = tokio::sync::mpsc::channel::<()>(1);
    let mut http = hyper_util::server::conn::auto::Builder::new(TokioExecutor::new());
    http.http1()
        .timer(TokioTimer::new())
        .header_read_timeout(l.header_timeout);
    http.http2()
        .timer(TokioTimer::new())
        .keep_alive_interval(Some(l.header_timeout));
    let idle = l.header_timeout;
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors and the like: wait, then go on.
                    tracing::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            _ = &mut shutdown => break,
        };
        let Some(counted) = Counted::take(&counts, peer.ip(), l.connections_per_ip) else {
            tokio::spawn(refuse(stream, l.connections_per_ip));
            continue;
        };
        let _ = stream.set_nodelay(true);
        let held = Held(Arc::new(counted));
        let activity = Activity::new();
        let app = app.clone();
        let busy = activity.clone();
        let service = hyper::service::service_fn(move |mut req: Request<hyper::body::Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            req.extensions_mut().insert(held.clone());
            let busy = busy.begin();
            let answer = app.clone().oneshot(req.map(Body::new));
            async move {
                let r = answer.await;
                drop(busy);
                r
            }
        });
        let http = http.clone();
        let mut closing = closing_rx.clone();
        let alive = alive_tx.clone();
        tokio::spawn(async move {
            let _alive = alive;
            // hyper times the head from its first byte: a client that sends
            // nothing at all is timed here.
            if tokio::time::timeout(idle, stream.readable()).await.is_err() {
                return;
            }
            let conn = http.serve_connection_with_upgrades(TokioIo::new(stream), service);
            tokio::pin!(conn);
            let mut tick = tokio::time::interval((idle / 4).max(Duration::from_millis(50)));
            let mut ending = false;
            loop {
                tokio::select! {
                    _ = conn.as_mut() => break,
                    _ = closing.changed(), if !ending => {
                        ending = true;
                        conn.as_mut().graceful_shutdown();
                    }
                    _ = tick.tick(), if !ending => {
                        if activity.idle_for(idle) {
                            ending = true;
                            conn.as_mut().graceful_shutdown();
                        }
                    }
                }
            }
        });
    }
    drop(listener);
    let _ = closing_tx.send(true);
    drop(alive_tx);
    let _ = tokio::time::timeout(Duration::from_secs(10), alive_rx.recv()).await;
    Ok(())
}

/// The client's address, when the server was started by [`serve`].
pub(crate) fn peer(info: Option<ConnectInfo<SocketAddr>>) -> Option<IpAddr> {
    info.map(|ConnectInfo(a)| a.ip())
}

/// Sets its flag when dropped: the request that waits for the work has gone.
struct StopOnDrop(Arc<AtomicBool>);

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Runs costly engine work (review, replay, hint) on a blocking thread, at
/// most [`Limits::engine_jobs`] at once: `503` when no turn comes within
/// [`Limits::engine_wait`]. The work is given a flag that is set when the
/// request is dropped (the client went, or the request timed out): it should
/// look at it now and then and stop.
pub(crate) async fn engine<T, F>(guards: &Guards, f: F) -> Result<T, ApiError>
where
    F: FnOnce(&AtomicBool) -> T + Send + 'static,
    T: Send + 'static,
{
    let permit = tokio::time::timeout(guards.engine_wait, guards.engine.clone().acquire_owned())
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "the server is busy with other reviews, replays and hints: try again in a moment",
            )
        })?
        .map_err(|e| ApiError::internal(e.to_string()))?;
    let stop = Arc::new(AtomicBool::new(false));
    let _stop_on_drop = StopOnDrop(stop.clone());
    tokio::task::spawn_blocking(move || {
        let _permit = permit;
        f(&stop)
    })
    .await
    .map_err(|e| ApiError::internal(e.to_string()))
}
