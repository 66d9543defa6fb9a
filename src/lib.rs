//! kifu records card-game matches and tournaments as append-only, hash-chained event logs.
//!
//! Map (see ARCHITECTURE.md for the full code map and invariants):
//! - [`log`]: envelopes, the hash chain, `.kifu` files and their JSON form; knows no game and no storage;
//! - [`store`]: the `Store` interface and its sled backend (the only code that touches sled);
//! - [`game`]: the game interface and the machinery written once for every game;
//! - [`games`]: the games themselves (pure rules; no storage);
//! - [`tournament`]: Swiss and pod tournaments (decide/evolve with `TOUR-*` rule IDs; plays games
//!   only through the `Driver` its caller hands it);
//! - [`import`]: what a log of any kind must pass to enter a store;
//! - [`clock`]: the injected clock;
//! - [`server`]: `kifu serve`, the web viewer and its JSON API.

pub mod clock;
pub mod game;
pub mod games;
pub mod import;
pub mod log;
pub mod server;
pub mod store;
pub mod tournament;
