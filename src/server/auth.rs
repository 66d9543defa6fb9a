//! Who is calling: the token (if any) from `Authorization: Bearer` — or `?access_token=`, for
//! `EventSource`, which cannot set headers — and what that caller may see and do in a game or
//! tournament. Every write handler checks here before touching the store.

use axum::extract::{FromRequestParts, State};
use axum::http::request::Parts;
use axum::Json;
use serde::Serialize;

use super::error::{AppError, AppResult};
use super::state::{viewer_key, AppState, OpenGame};
use super::tokens::{Grant, Role, ALL};
use crate::game::Viewer;

/// The caller of a request.
#[derive(Clone, Debug)]
pub enum Caller {
    Public,
    Token(Grant),
}

impl Caller {
    pub fn grant(&self) -> Option<&Grant> {
        match self {
            Caller::Public => None,
            Caller::Token(g) => Some(g),
        }
    }

    /// A judge or organizer whose scope covers `tournament` (or everything).
    pub fn official_for(&self, tournament: &str) -> Option<&Grant> {
        self.grant().filter(|g| g.role != Role::Player && (g.scope == ALL || g.scope == tournament))
    }

    /// Fails with 401 for the public (a write needs a token).
    pub fn require_token(&self) -> AppResult<&Grant> {
        self.grant().ok_or_else(|| AppError::Unauthorized("this needs a token (Authorization: Bearer ...)".into()))
    }
}

fn token_from(uri: &axum::http::Uri, headers: &axum::http::HeaderMap) -> Option<String> {
    if let Some(v) = headers.get(axum::http::header::AUTHORIZATION) {
        let v = v.to_str().ok()?;
        return v.strip_prefix("Bearer ").map(|t| t.trim().to_string());
    }
    let q = uri.query()?;
    q.split('&').find_map(|kv| kv.strip_prefix("access_token=").map(|t| t.to_string()))
}

/// The caller of a request with this head: public without a token, 401 for an unknown or
/// revoked one. The connection's bounds call it as soon as a head arrives (a valid token
/// proves the connection, see `super::conns`) and leave the answer in the request's extensions,
/// so the handler's [`Caller`] does not look the token up again.
pub fn caller(uri: &axum::http::Uri, headers: &axum::http::HeaderMap, state: &AppState) -> AppResult<Caller> {
    match token_from(uri, headers) {
        None => Ok(Caller::Public),
        Some(t) if t.is_empty() => Ok(Caller::Public),
        Some(t) => match state.grant(&t)? {
            Some(g) => Ok(Caller::Token(g)),
            None => Err(AppError::Unauthorized("unknown or revoked token".into())),
        },
    }
}

impl FromRequestParts<AppState> for Caller {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Self::Rejection> {
        if let Some(known) = parts.extensions.get::<Caller>() {
            return Ok(known.clone());
        }
        caller(&parts.uri, &parts.headers, state)
    }
}

/// What a caller may do in one game.
#[derive(Clone, Debug, Serialize)]
pub struct GameAccess {
    /// The viewers the caller may ask for, as `as=` keys; always starts with `spectator`.
    pub viewers: Vec<String>,
    /// Seats the caller plays (player tokens).
    pub seats: Vec<u8>,
    /// Omniscient view and rulings.
    pub judge: bool,
    /// The caller's name as recorded when they write (player, judge or organizer name): the
    /// caller's own, so a judge's page can name its judge in a ruling. Absent without a token.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
}

impl GameAccess {
    pub fn allows(&self, v: Viewer) -> bool {
        self.viewers.contains(&viewer_key(v))
    }

    /// The caller's own view (`as=own`): their first seat, a judge's view for a judge, else the
    /// public's; what the table page shows a token holder, asked for before it has read who
    /// they are.
    pub fn own(&self) -> Viewer {
        match (self.seats.first(), self.judge) {
            (Some(&s), _) => Viewer::Player(s),
            (None, true) => Viewer::Judge,
            (None, false) => Viewer::Spectator,
        }
    }

    /// Fails with 403 unless the caller may see the game as `v`.
    pub fn check(&self, v: Viewer) -> AppResult<()> {
        if self.allows(v) {
            Ok(())
        } else {
            Err(AppError::Forbidden(format!(
                "your role may view this game as {}; not as {}",
                self.viewers.join(", "),
                viewer_key(v)
            )))
        }
    }
}

/// What membership a scoped grant has in a game: whether the game is in the scope's tournament
/// (created bound to one of its matches, in its hashed header, or linked by a result an earlier
/// build recorded), and whether `name` may take a seat in it (registered in that tournament and,
/// for a bound game, one of its match's players). Membership comes only from recorded data (ids
/// carry no meaning: `fri` does not own `fri-late-g1`).
async fn membership(state: &AppState, game: &OpenGame, tournament: &str, name: &str) -> (bool, bool) {
    let Ok(t) = state.tournament(tournament).await else { return (false, false) };
    let registered = t.loaded.state.players.iter().any(|p| p.name == name);
    match &game.bound {
        Some(b) if b.tournament.as_str() == tournament => {
            let seated = crate::tournament::claim::seated_at(&t.loaded.state, b)
                .is_ok_and(|players| players.iter().any(|p| p == name));
            (true, registered && seated)
        }
        // Bound to another tournament's match: never this one's, whatever a result says.
        Some(_) => (false, false),
        None => (t.linked.contains_key(game.id.as_str()), registered),
    }
}

/// What `caller` may see and do in `game`.
pub async fn game_access(state: &AppState, caller: &Caller, game: &OpenGame) -> GameAccess {
    let mut access = GameAccess { viewers: vec!["spectator".into()], seats: vec![], judge: false, name: None };
    let Some(g) = caller.grant() else { return access };
    let (in_scope, may_sit) =
        if g.scope == ALL { (true, true) } else { membership(state, game, &g.scope, &g.name).await };
    if !in_scope {
        return access;
    }
    access.name = Some(g.name.clone());
    match g.role {
        // A player's view needs both the seat in this game and a place in its match (or, for a
        // game an earlier build linked unbound, the registration in the tournament that links it).
        Role::Player if may_sit => {
            for (seat, p) in game.players.iter().enumerate() {
                if *p == g.name {
                    if let Ok(s) = u8::try_from(seat) {
                        access.seats.push(s);
                        access.viewers.push(viewer_key(Viewer::Player(s)));
                    }
                }
            }
        }
        Role::Player => {}
        Role::Judge | Role::Organizer => {
            access.judge = true;
            for seat in 0..game.players.len() {
                if let Ok(s) = u8::try_from(seat) {
                    access.viewers.push(viewer_key(Viewer::Player(s)));
                }
            }
            access.viewers.push("judge".into());
        }
    }
    access
}

#[derive(Serialize)]
pub struct WhoAmI {
    pub role: String,
    pub scope: Option<String>,
    pub name: Option<String>,
}

/// `GET /api/v1/whoami`: the role of the presented token (the page shows it).
pub async fn whoami(State(_): State<AppState>, caller: Caller) -> Json<WhoAmI> {
    Json(match caller {
        Caller::Public => WhoAmI { role: "public".into(), scope: None, name: None },
        Caller::Token(g) => WhoAmI { role: g.role.to_string(), scope: Some(g.scope), name: Some(g.name) },
    })
}
