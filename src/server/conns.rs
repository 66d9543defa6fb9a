//! The connections one server holds, counted by client address and by what they are doing, so
//! that a few addresses cannot hold them all and a client with a valid token is always served.
//!
//! A connection is *unproven* while it waits for a request head (from its accept, or idle
//! between requests) or receives a request body, unless the last request head it sent carried
//! a valid token. That is all a slow-request attack holds without a token (a slowloris head, a
//! body that trickles in, an idle keep-alive), so unproven connections are bounded per client
//! address ([`Limits::unproven_per_client`]) and in total ([`Limits::max_unproven`]); past
//! either bound the oldest unproven connection is *shed* (closed): the address's own past its
//! bound, past the total the oldest of the address holding the most. A connection over the
//! global cap ([`Limits::max_connections`]) sheds one too, and is refused (503) only when no
//! connection is unproven, i.e. when the whole cap is answering requests or held by tokens.
//!
//! Every connection is unproven from its accept until its first head, so a newcomer must get in
//! by shedding rather than be refused: a token holder's new connection, one unproven
//! connection of its address, is shed only if every address holding unproven connections holds
//! just one and it is the oldest of them, while it sends its head at once. A connection
//! answering a request (its response being produced or sent, a live-event stream) is never
//! shed; it counts toward its address's cap ([`Limits::connections_per_client`], 429 past it)
//! and the global cap.

use std::cmp::Reverse;
use std::collections::{BTreeMap, HashMap};
use std::net::IpAddr;
use std::sync::{Arc, Mutex, MutexGuard};

use tokio::sync::Notify;

use super::Limits;

/// Why a new connection was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Its address holds [`Limits::connections_per_client`] already (429).
    Address,
    /// The server holds [`Limits::max_connections`], none of them unproven (503).
    Full,
}

/// The open connections, by client address.
pub struct Pool {
    max: usize,
    per_client: usize,
    unproven_per_client: usize,
    max_unproven: usize,
    inner: Mutex<Inner>,
}

#[derive(Default)]
struct Inner {
    /// Hands out connection ids and the order in which connections became unproven.
    next: u64,
    open: usize,
    unproven: usize,
    conns: HashMap<u64, Entry>,
    addrs: HashMap<IpAddr, Addr>,
}

/// One open connection.
struct Entry {
    key: IpAddr,
    /// Since when (in `Inner::next`'s order) it has been unproven; `None` while it is not.
    unproven_since: Option<u64>,
    shed: Arc<Notify>,
}

/// One client address's connections.
#[derive(Default)]
struct Addr {
    open: usize,
    /// Its unproven connections' ids, oldest first.
    unproven: BTreeMap<u64, u64>,
}

/// One admitted connection's place in the [`Pool`]; dropping it (the connection closed) frees
/// it. Once shed, the connection no longer counts anywhere, and [`Ticket::shed`] completes.
pub struct Ticket {
    pool: Arc<Pool>,
    id: u64,
    shed: Arc<Notify>,
}

impl Pool {
    pub fn new(limits: &Limits) -> Arc<Self> {
        Arc::new(Pool {
            max: limits.max_connections,
            per_client: limits.connections_per_client,
            // At least one: a newcomer is unproven, and must not shed itself.
            unproven_per_client: limits.unproven_per_client.max(1),
            max_unproven: limits.max_unproven.max(1),
            inner: Mutex::new(Inner::default()),
        })
    }

    fn lock(&self) -> MutexGuard<'_, Inner> {
        // Plain counts under the lock: after a panic elsewhere they are still consistent.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A place for a new connection from `ip`, unproven, shedding another if a bound requires.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Ticket, Refused> {
        let key = client_key(ip);
        let mut inner = self.lock();
        if inner.addrs.get(&key).is_some_and(|a| a.open >= self.per_client) {
            return Err(Refused::Address);
        }
        if inner.open >= self.max && !self.shed_heaviest(&mut inner) {
            return Err(Refused::Full);
        }
        let id = inner.next;
        inner.next += 1;
        let shed = Arc::new(Notify::new());
        inner.conns.insert(id, Entry { key, unproven_since: None, shed: shed.clone() });
        inner.open += 1;
        inner.addrs.entry(key).or_default().open += 1;
        self.set_unproven(&mut inner, id, true);
        Ok(Ticket { pool: self.clone(), id, shed })
    }

    fn set_unproven(&self, inner: &mut Inner, id: u64, unproven: bool) {
        let next = inner.next;
        let Some(entry) = inner.conns.get_mut(&id) else { return }; // shed already
        let key = entry.key;
        match (entry.unproven_since, unproven) {
            (None, true) => {
                entry.unproven_since = Some(next);
                inner.next += 1;
                inner.unproven += 1;
                if let Some(a) = inner.addrs.get_mut(&key) {
                    a.unproven.insert(next, id);
                }
                self.enforce(inner, key);
            }
            (Some(since), false) => {
                entry.unproven_since = None;
                inner.unproven -= 1;
                if let Some(a) = inner.addrs.get_mut(&key) {
                    a.unproven.remove(&since);
                }
            }
            _ => {}
        }
    }

    /// Sheds unproven connections until `key` and the whole server are within their bounds.
    fn enforce(&self, inner: &mut Inner, key: IpAddr) {
        loop {
            let oldest = match inner.addrs.get(&key) {
                Some(a) if a.unproven.len() > self.unproven_per_client => a.unproven.values().next().copied(),
                _ => None,
            };
            let Some(id) = oldest else { break };
            Self::shed(inner, id);
        }
        while inner.unproven > self.max_unproven && self.shed_heaviest(inner) {}
    }

    /// Sheds the oldest unproven connection of the address holding the most (the oldest first
    /// between equals); false if no connection is unproven.
    fn shed_heaviest(&self, inner: &mut Inner) -> bool {
        let heaviest = inner
            .addrs
            .values()
            .filter_map(|a| a.unproven.iter().next().map(|(since, id)| (a.unproven.len(), Reverse(*since), *id)))
            .max();
        match heaviest {
            Some((_, _, id)) => {
                Self::shed(inner, id);
                true
            }
            None => false,
        }
    }

    /// Closes connection `id`: it stops counting at once (its task closes the socket next).
    fn shed(inner: &mut Inner, id: u64) {
        if let Some(entry) = Self::forget(inner, id) {
            entry.shed.notify_one();
        }
    }

    /// Removes connection `id` from every count (`None` if it was gone already).
    fn forget(inner: &mut Inner, id: u64) -> Option<Entry> {
        let entry = inner.conns.remove(&id)?;
        inner.open -= 1;
        if entry.unproven_since.is_some() {
            inner.unproven -= 1;
        }
        if let Some(a) = inner.addrs.get_mut(&entry.key) {
            a.open -= 1;
            if let Some(since) = entry.unproven_since {
                a.unproven.remove(&since);
            }
            if a.open == 0 {
                inner.addrs.remove(&entry.key);
            }
        }
        Some(entry)
    }
}

impl Ticket {
    /// Counts the connection as unproven or not, as `unproven` says. It is asked under the
    /// pool's lock, so of calls racing from the connection's tasks the last one's answer stands.
    pub fn settle(&self, unproven: impl FnOnce() -> bool) {
        let mut inner = self.pool.lock();
        let now = unproven();
        self.pool.set_unproven(&mut inner, self.id, now);
    }

    /// Completes once the connection has been shed.
    pub async fn shed(&self) {
        self.shed.notified().await;
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        Pool::forget(&mut self.pool.lock(), self.id);
    }
}

/// The address a client is counted under: IPv4 (an IPv4-mapped IPv6 address too) as is, IPv6
/// by its /64.
pub fn client_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(std::net::Ipv6Addr::from(u128::from(v6) & !((1u128 << 64) - 1))),
        },
    }
}
