//! One cluster fault trial, shared by `tests/it/cluster_faults.rs` and `tools/src/cluster_trials.rs`
//! (both include this file with `mod`; the library never sees it), and the cluster control
//! `tools/src/bench_cluster.rs` uses too: a 3-node JetStream cluster of its own (started by
//! `tools/nats-cluster` in its own directory and ports), two `kifu debug cluster-writer` processes
//! appending to the same streams with idempotency ids and retries (through two `kifu serve`
//! processes over the cluster, or to the store directly), SIGKILLs of NATS nodes (and of the
//! stream's leader) and stream-leader step-downs while they append, then the counts: acknowledged events lost, forks, chains
//! that fail to verify, events recorded twice.

// Each includer uses a different part of this file.
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use kifu::clock::{Clock, SystemClock};
use kifu::game::{NewGame, Viewer};
use kifu::log::chain;
use kifu::log::envelope::{StreamId, StreamKind};
use kifu::store::nats_store::{NatsStore, NatsUrl};
use kifu::store::{Store, StoreError};

/// The nodes of a cluster (numbered as `tools/nats-cluster` numbers them).
pub const NODES: [usize; 3] = [1, 2, 3];

/// A 3-node cluster run by `tools/nats-cluster` in a directory and on ports of its own; stopped
/// (by the PIDs the script recorded) when dropped.
pub struct Cluster {
    dir: PathBuf,
    base: u16,
    pub url: String,
}

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/nats-cluster")
}

impl Cluster {
    /// Starts a cluster with its data under `dir` and ports from `base` (clients `base..base+2`,
    /// routes `base+1000..`, monitoring `base+2000..`). Fails when nats-server is missing.
    pub fn start(dir: &Path, base: u16) -> Result<Cluster, String> {
        let mut cluster = Cluster { dir: dir.to_path_buf(), base, url: String::new() };
        cluster.url = cluster.script("start")?.lines().last().unwrap_or_default().to_string();
        if !cluster.url.starts_with("nats://") {
            return Err(format!("tools/nats-cluster start printed no URL: {:?}", cluster.url));
        }
        Ok(cluster)
    }

    /// [`Cluster::start`] on an empty `dir`: a node of an earlier run there is stopped and its
    /// data removed first. A benchmark or trial must not inherit an earlier run's streams: one
    /// cut short leaves R3 streams that can keep the restarted cluster from becoming ready
    /// (seen: "stream … has NO quorum, stalled", then no readiness within 30 s), and every run
    /// would restore what earlier runs left.
    pub fn start_fresh(dir: &Path, base: u16) -> Result<Cluster, String> {
        if dir.exists() {
            // Dropping the earlier run's handle stops its nodes (they may be long gone).
            drop(Cluster { dir: dir.to_path_buf(), base, url: String::new() });
            std::fs::remove_dir_all(dir).map_err(|e| format!("cannot empty {}: {e}", dir.display()))?;
        }
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        Cluster::start(dir, base)
    }

    fn script(&self, command: &str) -> Result<String, String> {
        let out = Command::new(script())
            .arg(command)
            .env("KIFU_NATS_DIR", &self.dir)
            .env("KIFU_NATS_PORT_BASE", self.base.to_string())
            .output()
            .map_err(|e| format!("cannot run tools/nats-cluster: {e}"))?;
        if !out.status.success() {
            return Err(format!(
                "tools/nats-cluster {command} failed (it installs nats-server 2.15 from PyPI with tools/nats-server-install):\n{}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Restarts every node that is down and waits until all three are current.
    pub fn restart(&self) -> Result<(), String> {
        self.script("start").map(drop)
    }

    /// SIGKILLs node `n` (no shutdown: as a crash or a power cut would).
    pub fn kill(&self, n: usize) -> Result<(), String> {
        let pid_file = self.dir.join(format!("n{n}.pid"));
        let pid = std::fs::read_to_string(&pid_file).map_err(|e| format!("{}: {e}", pid_file.display()))?;
        let status =
            Command::new("kill").args(["-KILL", pid.trim()]).status().map_err(|e| format!("cannot run kill: {e}"))?;
        if !status.success() {
            return Err(format!("kill -KILL {} (node {n}) failed", pid.trim()));
        }
        // Wait until it is gone, so a restart does not find it alive.
        let proc = PathBuf::from(format!("/proc/{}", pid.trim()));
        let deadline = Instant::now() + Duration::from_secs(5);
        while proc.exists() && Instant::now() < deadline {
            let zombie = std::fs::read_to_string(proc.join("stat")).is_ok_and(|s| s.contains(") Z "));
            if zombie {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        Ok(())
    }

    /// Asks JetStream stream `name`'s leader to step down (`$JS.API.STREAM.LEADER.STEPDOWN`),
    /// so that another replica is elected, as in a rolling restart; retried for a while when
    /// the stream has no leader to ask (an election after a restart).
    pub fn step_down(&self, name: &str) -> Result<(), String> {
        let rt = tokio::runtime::Builder::new_current_thread().enable_all().build().map_err(|e| e.to_string())?;
        let nodes: Vec<String> = NODES.iter().map(|&n| self.node_url(n)).collect();
        let subject = format!("$JS.API.STREAM.LEADER.STEPDOWN.{name}");
        rt.block_on(async move {
            let client = async_nats::connect(nodes.as_slice()).await.map_err(|e| format!("cannot connect: {e}"))?;
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let answer = client.request(subject.clone(), "".into()).await.map_err(|e| e.to_string());
                let answer = answer
                    .and_then(|m| serde_json::from_slice::<serde_json::Value>(&m.payload).map_err(|e| e.to_string()));
                match answer {
                    Ok(v) if v["success"] == true => return Ok(()),
                    other if Instant::now() > deadline => {
                        return Err(format!("stream {name} did not step down within 30 s: {other:?}"))
                    }
                    _ => tokio::time::sleep(Duration::from_millis(200)).await,
                }
            }
        })
    }

    /// Node `n`'s client URL alone.
    pub fn node_url(&self, n: usize) -> String {
        format!("nats://127.0.0.1:{}", self.base as usize + n - 1)
    }

    /// Node `n`'s JetStream report (`/jsz?streams=1` on its monitoring port).
    pub fn jsz(&self, n: usize) -> Result<serde_json::Value, String> {
        let port = self.base as usize + 2000 + n - 1;
        let mut conn =
            std::net::TcpStream::connect(("127.0.0.1", port as u16)).map_err(|e| format!("node {n}: {e}"))?;
        conn.set_read_timeout(Some(Duration::from_secs(5))).map_err(|e| e.to_string())?;
        conn.write_all(b"GET /jsz?streams=1 HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").map_err(|e| e.to_string())?;
        let mut response = Vec::new();
        conn.read_to_end(&mut response).map_err(|e| format!("node {n}: {e}"))?;
        let text = String::from_utf8_lossy(&response);
        let body = text.split_once("\r\n\r\n").map(|(_, b)| b).ok_or("no HTTP body")?;
        serde_json::from_str(body).map_err(|e| format!("node {n}: /jsz: {e}"))
    }

    /// What node `n` reports about JetStream stream `name`.
    fn stream_detail(&self, n: usize, name: &str) -> Result<Option<serde_json::Value>, String> {
        let jsz = self.jsz(n)?;
        let accounts = jsz["account_details"].as_array().cloned().unwrap_or_default();
        Ok(accounts
            .iter()
            .flat_map(|a| a["stream_detail"].as_array().cloned().unwrap_or_default())
            .find(|s| s["name"] == name))
    }

    /// The node that leads JetStream stream `name` (asked of every live node).
    pub fn leader(&self, name: &str) -> Result<usize, String> {
        for n in NODES {
            if let Ok(Some(detail)) = self.stream_detail(n, name) {
                if let Some(leader) = detail["cluster"]["leader"].as_str() {
                    return leader
                        .strip_prefix("kifu-n")
                        .and_then(|d| d.parse().ok())
                        .ok_or_else(|| format!("unexpected leader name {leader:?}"));
                }
            }
        }
        Err(format!("no node names a leader of stream {name}"))
    }

    /// Each node's replica of stream `name`: (messages, last sequence), `None` if it reports none.
    pub fn replicas(&self, name: &str) -> Vec<Option<(u64, u64)>> {
        NODES
            .iter()
            .map(|&n| {
                let detail = self.stream_detail(n, name).ok().flatten()?;
                Some((detail["state"]["messages"].as_u64()?, detail["state"]["last_seq"].as_u64()?))
            })
            .collect()
    }

    /// Waits until all three replicas of `name` hold the same messages (`false`: not within `timeout`).
    pub fn replicas_agree(&self, name: &str, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let states = self.replicas(name);
            if states.iter().all(|s| s.is_some() && *s == states[0]) {
                return true;
            }
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let _ = self.script("stop");
    }
}

/// A port base whose nine ports are free now, chosen from `20300..27000` (away from the bases
/// the shared test cluster and the tools use by default: 14222, 16222, 18222).
pub fn free_port_base() -> Result<u16, String> {
    let seed = std::process::id() as u64 ^ Instant::now().elapsed().as_nanos() as u64;
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
    let start = (seed ^ u64::from(nanos)) % 2200;
    for i in 0..2200 {
        let base = 20300 + ((start + i * 7) % 2200) * 3;
        let free = (0..3u64).all(|k| {
            [0, 1000, 2000]
                .iter()
                .all(|off| std::net::TcpListener::bind(("127.0.0.1", (base + off + k) as u16)).is_ok())
        });
        if free {
            return Ok(base as u16);
        }
    }
    Err("no free port base in 20300..27000".into())
}

/// What a trial does.
#[derive(Clone, Debug)]
pub struct Plan {
    /// SIGKILLs of a NATS node (nodes in turn), each restarted after `down`.
    pub kills: usize,
    /// One more trial that kills the leader of the events' stream.
    pub leader_kill: bool,
    /// Leader step-downs (after the kills), each of the events' stream and the index in turn.
    pub step_downs: usize,
    pub streams: usize,
    /// Writer processes (the clients); every one appends to every stream.
    pub writers: usize,
    /// `kifu serve` processes over the cluster that the writers append through (each attempt to
    /// the next one), every stream a game and every event a judge's note; 0: the writers append
    /// to the store themselves, every stream opaque.
    pub servers: usize,
    /// Appending threads per writer.
    pub threads: usize,
    /// Appending with all three nodes up, before each kill and at the end.
    pub up: Duration,
    /// How long a killed node stays down.
    pub down: Duration,
    /// The store's namespace in the cluster.
    pub namespace: String,
}

/// The counts a trial reports. `lost`, `forks`, `unverified`, `twice`, `refused`,
/// `replicas_disagree`, `stuck_writers` and `dead_servers` must be 0.
#[derive(Clone, Debug, Default)]
pub struct Counts {
    pub kills: u64,
    pub leader_kills: u64,
    pub step_downs: u64,
    pub acked: u64,
    /// Acknowledgements of a retry the store recognised (the first attempt had landed).
    pub acked_as_retry: u64,
    pub retries: u64,
    /// Events recorded that no writer saw acknowledged (only from writers that were stopped mid-retry).
    pub unacked_recorded: u64,
    pub lost: u64,
    pub forks: u64,
    pub unverified: u64,
    pub twice: u64,
    /// Appends refused for a reason no retry fixes (an idempotency conflict, corruption).
    pub refused: u64,
    pub replicas_disagree: u64,
    pub stuck_writers: u64,
    /// Servers (with `Plan::servers`) that exited before the trial stopped them.
    pub dead_servers: u64,
    /// The longest time no writer had an append acknowledged.
    pub longest_stall: Duration,
    /// A few of the errors that made the writers retry (distinct, at most 8).
    pub retry_reasons: Vec<String>,
    pub problems: Vec<String>,
}

impl Counts {
    /// The counts that must be 0, by name.
    pub fn bad(&self) -> [(&'static str, u64); 8] {
        [
            ("acknowledged events lost", self.lost),
            ("forks", self.forks),
            ("chains that fail to verify", self.unverified),
            ("events recorded twice", self.twice),
            ("appends refused", self.refused),
            ("replicas that disagree", self.replicas_disagree),
            ("writers that did not stop", self.stuck_writers),
            ("servers that died", self.dead_servers),
        ]
    }

    pub fn ok(&self) -> bool {
        self.bad().iter().all(|(_, n)| *n == 0)
    }

    pub fn add(&mut self, o: &Counts) {
        self.kills += o.kills;
        self.leader_kills += o.leader_kills;
        self.step_downs += o.step_downs;
        self.acked += o.acked;
        self.acked_as_retry += o.acked_as_retry;
        self.retries += o.retries;
        self.unacked_recorded += o.unacked_recorded;
        self.lost += o.lost;
        self.forks += o.forks;
        self.unverified += o.unverified;
        self.twice += o.twice;
        self.refused += o.refused;
        self.replicas_disagree += o.replicas_disagree;
        self.stuck_writers += o.stuck_writers;
        self.dead_servers += o.dead_servers;
        self.longest_stall = self.longest_stall.max(o.longest_stall);
        self.retry_reasons.extend(o.retry_reasons.iter().cloned());
        self.problems.extend(o.problems.iter().cloned());
    }
}

/// A writer process and what it printed (with the time each line arrived).
struct Writer {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Arc<Mutex<Vec<(Instant, String)>>>,
    stderr: Arc<Mutex<String>>,
}

fn spawn_writer(
    kifu: &Path,
    data: &Path,
    location: &str,
    name: &str,
    plan: &Plan,
    via: &[String],
) -> Result<Writer, String> {
    let mut child = Command::new(kifu)
        .arg("--data")
        .arg(data)
        .args(["--store", location, "debug", "cluster-writer", "--writer", name])
        .args(["--streams", &plan.streams.to_string(), "--threads", &plan.threads.to_string()])
        .args(via)
        .env_remove("KIFU_STORE")
        .env_remove("KIFU_TEST_CLOCK")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", kifu.display()))?;
    let lines = Arc::new(Mutex::new(Vec::new()));
    let stderr = Arc::new(Mutex::new(String::new()));
    let (out, sink) = (child.stdout.take().ok_or("no stdout")?, lines.clone());
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            sink.lock().unwrap_or_else(|p| p.into_inner()).push((Instant::now(), line));
        }
    });
    let (mut err, sink) = (child.stderr.take().ok_or("no stderr")?, stderr.clone());
    std::thread::spawn(move || {
        let mut text = String::new();
        let _ = err.read_to_string(&mut text);
        sink.lock().unwrap_or_else(|p| p.into_inner()).push_str(&text);
    });
    let stdin = child.stdin.take();
    Ok(Writer { child, stdin, lines, stderr })
}

impl Writer {
    fn acks(&self) -> usize {
        self.lines.lock().unwrap_or_else(|p| p.into_inner()).iter().filter(|(_, l)| l.starts_with("ack ")).count()
    }

    /// Closes stdin (the writer finishes its appends in flight) and waits up to `timeout`;
    /// `false` when it had to be killed.
    fn stop(&mut self, timeout: Duration) -> bool {
        drop(self.stdin.take());
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Let the reader threads drain the pipes.
                std::thread::sleep(Duration::from_millis(50));
                return true;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        std::thread::sleep(Duration::from_millis(50));
        false
    }
}

/// The name of the JetStream stream that holds namespace `ns`'s events.
pub fn events_stream(ns: &str) -> String {
    format!("KIFU_{ns}")
}

/// Runs one trial against `cluster` (which must be up) with the `kifu` binary; `data` is a
/// scratch directory for the writers. Errors are trouble running the trial (the cluster did not
/// restart, a writer could not start), not bad counts.
pub fn run(kifu: &Path, cluster: &Cluster, data: &Path, plan: &Plan) -> Result<Counts, String> {
    let location = format!("{}?ns={}", cluster.url, plan.namespace);
    let mut counts = Counts::default();
    std::fs::create_dir_all(data).map_err(|e| format!("{}: {e}", data.display()))?;
    let fleet = match plan.servers {
        0 => None,
        n => Some(Fleet::start(kifu, &location, data, plan.streams, n)?),
    };
    let via = fleet.as_ref().map(Fleet::writer_args).unwrap_or_default();
    let mut writers = Vec::new();
    for w in 0..plan.writers {
        writers.push(spawn_writer(kifu, data, &location, &format!("w{w}"), plan, &via)?);
    }
    let result = (|| {
        // A writer's store may wait up to 30 s for a new cluster to set its stream up.
        let deadline = Instant::now() + Duration::from_secs(60);
        while writers.iter().any(|w| w.acks() == 0) {
            if Instant::now() > deadline {
                let errs: Vec<String> =
                    writers.iter().map(|w| w.stderr.lock().unwrap_or_else(|p| p.into_inner()).clone()).collect();
                return Err(format!("the writers acknowledged nothing within 60 s: {errs:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        for k in 0..plan.kills {
            std::thread::sleep(plan.up);
            cluster.kill(NODES[k % NODES.len()])?;
            counts.kills += 1;
            std::thread::sleep(plan.down);
            cluster.restart()?;
        }
        for k in 0..plan.step_downs {
            std::thread::sleep(plan.up);
            let name = match k % 2 {
                0 => events_stream(&plan.namespace),
                _ => format!("KV_KIFU_{}_IDEM", plan.namespace),
            };
            cluster.step_down(&name)?;
            counts.step_downs += 1;
        }
        if plan.leader_kill {
            std::thread::sleep(plan.up);
            let leader = cluster.leader(&events_stream(&plan.namespace))?;
            cluster.kill(leader)?;
            counts.leader_kills += 1;
            std::thread::sleep(plan.down);
            cluster.restart()?;
        }
        std::thread::sleep(plan.up);
        Ok(())
    })();
    for w in &mut writers {
        if !w.stop(Duration::from_secs(60)) {
            counts.stuck_writers += 1;
            counts.problems.push("a writer did not finish its appends within 60 s of being stopped".into());
        }
    }
    if let Some(fleet) = fleet {
        let died = fleet.stop();
        counts.dead_servers += died.len() as u64;
        counts.problems.extend(died);
    }
    result?;
    let mut lines: Vec<(Instant, String)> = Vec::new();
    for w in &writers {
        lines.extend(w.lines.lock().unwrap_or_else(|p| p.into_inner()).iter().cloned());
    }
    lines.sort_by_key(|(t, _)| *t);
    let ack_times: Vec<Instant> = lines.iter().filter(|(_, l)| l.starts_with("ack ")).map(|(t, _)| *t).collect();
    counts.longest_stall = ack_times.windows(2).map(|w| w[1] - w[0]).max().unwrap_or_default();

    for name in [events_stream(&plan.namespace), format!("KV_KIFU_{}_IDEM", plan.namespace)] {
        if !cluster.replicas_agree(&name, Duration::from_secs(30)) {
            counts.replicas_disagree += 1;
            counts.problems.push(format!("the replicas of {name} disagree: {:?}", cluster.replicas(&name)));
        }
    }
    check(&location, plan.streams, &lines, &mut counts)?;
    Ok(counts)
}

/// The key each event of a trial stream carries: an opaque stream's payload, or a game's note
/// ruling (`judge jin: note: KEY` as the judge's timeline describes it).
fn keys(log: &chain::VerifiedLog) -> Result<Vec<String>, String> {
    if log.header.v1().kind != StreamKind::Game {
        return log
            .events
            .iter()
            .map(|stored| {
                let (env, _) = chain::open_event(stored).map_err(|e| e.to_string())?;
                Ok(String::from_utf8_lossy(&env.v1().payload).into_owned())
            })
            .collect();
    }
    let ruleset = &log.header.v1().ruleset;
    let driver = kifu::games::driver(ruleset).ok_or_else(|| format!("no game {ruleset}"))?;
    let session = driver.open(log).map_err(|e| e.to_string())?;
    Ok(session
        .timeline(Viewer::Judge)
        .into_iter()
        .map(|t| t.text.rsplit_once(": ").map_or(t.text.clone(), |(_, key)| key.to_string()))
        .collect())
}

/// The `kifu serve` processes of a trial, over the cluster, and the judge token the writers use.
struct Fleet {
    servers: Vec<Child>,
    urls: Vec<String>,
    token: String,
}

impl Fleet {
    /// Creates the trial's games `ft-00…` (Naruto, the sample decks), issues a judge token and
    /// starts `n` servers, each on a free loopback port with a data directory of its own.
    fn start(kifu: &Path, location: &str, data: &Path, streams: usize, n: usize) -> Result<Fleet, String> {
        let url = NatsUrl::parse(location).map_err(|e| e.to_string())?;
        let clock = Arc::new(SystemClock);
        let store = NatsStore::connect(&url, clock.clone()).map_err(|e| e.to_string())?;
        let naruto = kifu::games::driver("naruto").ok_or("no naruto driver")?;
        let decks = ["alice", "bob"]
            .map(|d| Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("replays/decks/{d}.deck")))
            .map(|p| std::fs::read_to_string(&p).map_err(|e| format!("{}: {e}", p.display())));
        let decks = [decks[0].clone()?, decks[1].clone()?];
        let players = ["ann".to_string(), "bo".to_string()];
        for i in 0..streams {
            let sid = StreamId::new(&format!("ft-{i:02}")).map_err(|e| e.to_string())?;
            let game = NewGame { players: &players, decks: &decks, catalog: None, policies: &[] };
            naruto.create(&store, &sid, &game, clock.now()).map_err(|e| format!("cannot create {sid}: {e}"))?;
        }
        let out = Command::new(kifu)
            .arg("--data")
            .arg(data.join("organizer"))
            .args(["--store", location, "token", "issue", "--role", "judge", "--all", "--name", "jin"])
            .output()
            .map_err(|e| format!("cannot run kifu token issue: {e}"))?;
        let token = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if !out.status.success() || token.is_empty() {
            return Err(format!("kifu token issue failed: {}", String::from_utf8_lossy(&out.stderr)));
        }
        let mut fleet = Fleet { servers: Vec::new(), urls: Vec::new(), token };
        for s in 0..n {
            let port = std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map_err(|e| format!("no free port: {e}"))?
                .port();
            let log = std::fs::File::create(data.join(format!("server-{s}.log"))).map_err(|e| e.to_string())?;
            let child = Command::new(kifu)
                .arg("--data")
                .arg(data.join(format!("server-{s}")))
                .args(["--store", location, "serve", "--addr", &format!("127.0.0.1:{port}")])
                .env_remove("KIFU_STORE")
                .env_remove("KIFU_TEST_CLOCK")
                .stdin(Stdio::null())
                .stdout(log.try_clone().map_err(|e| e.to_string())?)
                .stderr(log)
                .spawn()
                .map_err(|e| format!("cannot start kifu serve: {e}"))?;
            fleet.servers.push(child);
            fleet.urls.push(format!("http://127.0.0.1:{port}"));
            let deadline = Instant::now() + Duration::from_secs(60);
            while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
                if Instant::now() > deadline {
                    return Err(format!("kifu serve on port {port} did not listen within 60 s"));
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        Ok(fleet)
    }

    fn writer_args(&self) -> Vec<String> {
        vec!["--via".into(), self.urls.join(","), "--token".into(), self.token.clone()]
    }

    /// Stops the servers; a problem for each that had died on its own.
    fn stop(mut self) -> Vec<String> {
        let mut problems = Vec::new();
        for (s, child) in self.servers.iter_mut().enumerate() {
            if let Ok(Some(status)) = child.try_wait() {
                problems.push(format!("server {s} ({}) exited on its own: {status}", self.urls[s]));
            }
        }
        problems
    }
}

impl Drop for Fleet {
    fn drop(&mut self) {
        for child in &mut self.servers {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// Reads every stream back and compares it with what the writers were told.
fn check(location: &str, streams: usize, lines: &[(Instant, String)], counts: &mut Counts) -> Result<(), String> {
    // key → (stream, acknowledged sequence)
    let mut acked: HashMap<String, (String, u64)> = HashMap::new();
    let mut at: HashMap<(String, u64), String> = HashMap::new();
    for (_, line) in lines {
        let words: Vec<&str> = line.split(' ').collect();
        match words.as_slice() {
            ["ack", stream, seq, key, retried] => {
                let seq: u64 = seq.parse().map_err(|_| format!("bad ack line {line:?}"))?;
                counts.acked += 1;
                counts.acked_as_retry += u64::from(*retried == "1");
                if let Some(other) = at.insert((stream.to_string(), seq), key.to_string()) {
                    counts.forks += 1;
                    counts.problems.push(format!("{stream} event {seq} acknowledged to {other} and to {key}"));
                }
                acked.insert(key.to_string(), (stream.to_string(), seq));
            }
            ["retry", _, _, reason @ ..] => {
                counts.retries += 1;
                let reason = reason.join(" ");
                if counts.retry_reasons.len() < 8 && !counts.retry_reasons.contains(&reason) {
                    counts.retry_reasons.push(reason);
                }
            }
            ["refused", ..] => {
                counts.refused += 1;
                counts.problems.push(line.clone());
            }
            _ => return Err(format!("unexpected writer output {line:?}")),
        }
    }
    let url = NatsUrl::parse(location).map_err(|e| e.to_string())?;
    let store = NatsStore::connect(&url, Arc::new(SystemClock)).map_err(|e| e.to_string())?;
    // key → every (stream, sequence) it is recorded at
    let mut recorded: HashMap<String, Vec<(String, u64)>> = HashMap::new();
    for i in 0..streams {
        let name = format!("ft-{i:02}");
        let sid = StreamId::new(&name).map_err(|e| e.to_string())?;
        let log = match store.export(&sid) {
            Ok(log) => log,
            Err(StoreError::UnknownStream(_)) if !at.keys().any(|(s, _)| *s == name) => continue,
            Err(e) => {
                counts.unverified += 1;
                counts.problems.push(format!("{name}: {e}"));
                continue;
            }
        };
        for (seq, key) in keys(&log)?.into_iter().enumerate() {
            recorded.entry(key).or_default().push((name.clone(), seq as u64));
        }
    }
    for (key, places) in &recorded {
        if places.len() > 1 {
            counts.twice += 1;
            counts.problems.push(format!("{key} recorded {} times: {places:?}", places.len()));
        }
        if !acked.contains_key(key) {
            counts.unacked_recorded += 1;
        }
    }
    for (key, (stream, seq)) in &acked {
        match recorded.get(key) {
            None => {
                counts.lost += 1;
                counts.problems.push(format!("{key}, acknowledged as {stream} event {seq}, is not recorded"));
            }
            Some(places) if !places.contains(&(stream.clone(), *seq)) => {
                counts.forks += 1;
                counts.problems.push(format!("{key} was acknowledged as {stream} event {seq} but is at {places:?}"));
            }
            Some(_) => {}
        }
    }
    Ok(())
}
