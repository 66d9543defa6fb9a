//! The server's one error type: user errors become 4xx, everything else 500, always as JSON
//! (`{"error": message, "status": code}`), so no handler needs to unwrap on input.

use axum::extract::{FromRequest, FromRequestParts};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use thiserror::Error;

use crate::game::record::GameError;
use crate::store::StoreError;
use crate::tournament::TournamentError;

#[derive(Debug, Error)]
pub enum AppError {
    #[error("{0}")]
    NotFound(String),
    #[error("{0}")]
    BadRequest(String),
    /// No valid token where one is needed (or an unknown token was presented).
    #[error("{0}")]
    Unauthorized(String),
    /// A valid token whose role does not allow this.
    #[error("{0}")]
    Forbidden(String),
    /// The stream moved on (expected version) or a confirmation disagrees with the report.
    #[error("{0}")]
    Conflict(String),
    /// The rules refused the event: nothing was recorded.
    #[error("{0}")]
    Refused(String),
    /// The server cannot answer this now (its store cannot be reached, its token file is
    /// unreadable). Writes are refused with this while the store is away.
    #[error("{0}")]
    Unavailable(String),
    /// A request body over [`crate::server::Limits::max_body`].
    #[error("{0}")]
    TooLarge(String),
    /// The server's disk is full: the write was not acknowledged (507). Reads keep working, and
    /// writes work again by themselves once space is freed.
    #[error("the disk is full: {0}")]
    DiskFull(String),
    #[error("internal error: {0}")]
    Internal(String),
}

impl AppError {
    pub fn status(&self) -> StatusCode {
        match self {
            AppError::NotFound(_) => StatusCode::NOT_FOUND,
            AppError::BadRequest(_) => StatusCode::BAD_REQUEST,
            AppError::Unauthorized(_) => StatusCode::UNAUTHORIZED,
            AppError::Forbidden(_) => StatusCode::FORBIDDEN,
            AppError::Conflict(_) => StatusCode::CONFLICT,
            AppError::Refused(_) => StatusCode::UNPROCESSABLE_ENTITY,
            AppError::Unavailable(_) => StatusCode::SERVICE_UNAVAILABLE,
            AppError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            AppError::DiskFull(_) => StatusCode::INSUFFICIENT_STORAGE,
            AppError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = serde_json::json!({ "error": self.to_string(), "status": status.as_u16() });
        let mut resp = (status, Json(body)).into_response();
        if status == StatusCode::UNAUTHORIZED {
            // RFC 6750: tell the client which scheme to use.
            if let Ok(v) = axum::http::HeaderValue::from_str("Bearer realm=\"kifu\"") {
                resp.headers_mut().insert(axum::http::header::WWW_AUTHENTICATE, v);
            }
        }
        resp
    }
}

impl From<StoreError> for AppError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::UnknownStream(_) => AppError::NotFound(e.to_string()),
            StoreError::WrongExpectedVersion { .. } | StoreError::StreamExists { .. } => {
                AppError::Conflict(e.to_string())
            }
            StoreError::IdempotencyConflict { .. } | StoreError::PartialRetry { .. } => {
                AppError::Conflict(e.to_string())
            }
            StoreError::NoHeader(_) | StoreError::HeaderMismatch { .. } => AppError::BadRequest(e.to_string()),
            StoreError::Unavailable { reason, .. } => AppError::Unavailable(format!(
                "the store cannot be reached ({reason}): this server answers from its cache (marked \
                     Kifu-Stale) and refuses writes until it is back; retry shortly"
            )),
            StoreError::DiskFull { path } => {
                // The operator reads where; a client learns nothing about the server's files.
                eprintln!("kifu serve: the disk holding {path} is full: writes are refused until space is freed");
                AppError::disk_full()
            }
            _ => AppError::Internal(e.to_string()),
        }
    }
}

impl AppError {
    /// The answer to a write the server's full disk refused.
    pub fn disk_full() -> Self {
        AppError::DiskFull(
            "the server has no room left to record this; retry once space is freed there (writes then \
             work again by themselves; reads keep working)"
                .into(),
        )
    }
}

impl From<GameError> for AppError {
    fn from(e: GameError) -> Self {
        match e {
            GameError::Store(s) => s.into(),
            GameError::Refused(_) => AppError::Refused(e.to_string()),
            GameError::NotThisGame { .. } => AppError::BadRequest(e.to_string()),
            _ if e.is_input() => AppError::BadRequest(e.to_string()),
            // A stored stream this build cannot decode (imported by an older kifu): not a crash.
            GameError::BadConfig { .. } | GameError::Undecodable { .. } | GameError::RulesetVersion { .. } => {
                AppError::Refused(e.to_string())
            }
            _ => AppError::Internal(e.to_string()),
        }
    }
}

impl From<TournamentError> for AppError {
    fn from(e: TournamentError) -> Self {
        match e {
            TournamentError::Store(s) => s.into(),
            TournamentError::Game(g) => g.into(),
            TournamentError::Refused { .. } => AppError::Refused(e.to_string()),
            TournamentError::UnknownPlayer(_) => AppError::NotFound(e.to_string()),
            TournamentError::Rule(_) => AppError::Conflict(e.to_string()),
            TournamentError::Input(_) | TournamentError::NotATournament { .. } => AppError::BadRequest(e.to_string()),
            // kifu's own files (seed files) or its own invariants: the server's fault, a 500.
            TournamentError::Io { .. } | TournamentError::Internal(_) => AppError::Internal(e.to_string()),
            _ => AppError::Internal(e.to_string()),
        }
    }
}

impl From<tokio::task::JoinError> for AppError {
    fn from(e: tokio::task::JoinError) -> Self {
        AppError::Internal(format!("a background task failed: {e}"))
    }
}

pub type AppResult<T> = Result<T, AppError>;

/// `Query` whose rejection is an [`AppError`] (JSON, 400) like every other error.
pub struct Q<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequestParts<S> for Q<T> {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut axum::http::request::Parts, state: &S) -> Result<Self, AppError> {
        axum::extract::Query::<T>::from_request_parts(parts, state)
            .await
            .map(|axum::extract::Query(v)| Q(v))
            .map_err(|e| AppError::BadRequest(e.body_text()))
    }
}

/// `Json` whose rejection is an [`AppError`] (JSON, 400) like every other error.
pub struct J<T>(pub T);

impl<S: Send + Sync, T: serde::de::DeserializeOwned> FromRequest<S> for J<T> {
    type Rejection = AppError;

    async fn from_request(req: axum::extract::Request, state: &S) -> Result<Self, AppError> {
        Json::<T>::from_request(req, state).await.map(|Json(v)| J(v)).map_err(|e| {
            if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
                AppError::TooLarge("the request body is over the server's limit".into())
            } else {
                AppError::BadRequest(e.body_text())
            }
        })
    }
}
