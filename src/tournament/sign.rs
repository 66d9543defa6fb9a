//! Signed results: ed25519 keys of organizers and judges (ed25519-dalek), the checkpoints they
//! sign (a round's closing tournament head, the final root hash) and checking the signatures.
//!
//! A checkpoint's message is `blake3 derive_key("kifu 2026-11-22 tournament checkpoint v1",
//! u32le(len(stream id)) ‖ stream id ‖ postcard(checkpoint))`, so a signature cannot be moved to
//! another tournament. Secret keys live in files (0600) and never in the log.

use ed25519_dalek::{Signature, Signer, SigningKey, Verifier, VerifyingKey};

use super::events::Checkpoint;
use super::TournamentError;

pub const CHECKPOINT_CONTEXT: &str = "kifu 2026-11-22 tournament checkpoint v1";

/// The 32 bytes a signer signs for `checkpoint` of tournament `stream`.
pub fn message(stream: &str, checkpoint: &Checkpoint) -> [u8; 32] {
    let mut input = Vec::with_capacity(128);
    input.extend_from_slice(&(stream.len() as u32).to_le_bytes());
    input.extend_from_slice(stream.as_bytes());
    input.extend_from_slice(&postcard::to_stdvec(checkpoint).unwrap_or_default());
    blake3::derive_key(CHECKPOINT_CONTEXT, &input)
}

/// The secret key of 32 random bytes the caller drew.
pub fn key_from(random: [u8; 32]) -> SigningKey {
    SigningKey::from_bytes(&random)
}

pub fn public(key: &SigningKey) -> [u8; 32] {
    key.verifying_key().to_bytes()
}

pub fn sign(key: &SigningKey, stream: &str, checkpoint: &Checkpoint) -> Vec<u8> {
    key.sign(&message(stream, checkpoint)).to_bytes().to_vec()
}

/// Why a signature is not a recorded signer's signature of a checkpoint.
#[derive(Debug, thiserror::Error)]
pub enum SignatureError {
    #[error("the recorded public key is not valid: {0}")]
    Key(String),
    #[error("a signature has 64 bytes, not {0}")]
    Length(usize),
    #[error("the signature does not verify")]
    DoesNotVerify,
}

/// Whether `signature` is `public`'s signature of the checkpoint.
pub fn check(public: &[u8; 32], stream: &str, checkpoint: &Checkpoint, signature: &[u8]) -> Result<(), SignatureError> {
    check_message(public, &message(stream, checkpoint), signature)
}

/// Whether `signature` is `public`'s signature of the 32-byte `message`.
fn check_message(public: &[u8; 32], message: &[u8; 32], signature: &[u8]) -> Result<(), SignatureError> {
    let key = VerifyingKey::from_bytes(public).map_err(|e| SignatureError::Key(e.to_string()))?;
    let sig: [u8; 64] = signature.try_into().map_err(|_| SignatureError::Length(signature.len()))?;
    key.verify(message, &Signature::from_bytes(&sig)).map_err(|_| SignatureError::DoesNotVerify)
}

/// Reads a secret key file (64 hex digits).
pub fn read_key(text: &str) -> Result<SigningKey, TournamentError> {
    let mut b = [0u8; 32];
    hex::decode_to_slice(text.trim(), &mut b)
        .map_err(|e| TournamentError::Input(format!("a key file holds 64 hex digits: {e}")))?;
    Ok(SigningKey::from_bytes(&b))
}

pub fn key_text(key: &SigningKey) -> String {
    format!("{}\n", hex::encode(key.to_bytes()))
}

pub const REPORT_CONTEXT: &str = "kifu 2026-11-27 disqualification report v1";

/// What a head judge signs in a disqualification report (the fields of
/// `DisqualificationReported` but the signature).
#[derive(Clone, Copy, Debug)]
pub struct Report<'a> {
    pub player: &'a str,
    pub penalty: u32,
    pub head_judge: &'a str,
    pub facts: &'a str,
    pub reasons: &'a str,
    pub at: crate::log::envelope::Timestamp,
}

/// The 32 bytes a head judge signs for a disqualification report in tournament `stream`:
/// `blake3 derive_key(REPORT_CONTEXT, u32le(len(stream)) ‖ stream ‖ for each of player,
/// head judge, facts, reasons: u32le(len) ‖ UTF-8 ‖ then u32le(penalty) ‖ i64le(at))`.
pub fn report_message(stream: &str, r: &Report<'_>) -> [u8; 32] {
    let mut input = Vec::with_capacity(256 + r.facts.len() + r.reasons.len());
    for s in [stream, r.player, r.head_judge, r.facts, r.reasons] {
        input.extend_from_slice(&(s.len() as u32).to_le_bytes());
        input.extend_from_slice(s.as_bytes());
    }
    input.extend_from_slice(&r.penalty.to_le_bytes());
    input.extend_from_slice(&r.at.0.to_le_bytes());
    blake3::derive_key(REPORT_CONTEXT, &input)
}

pub fn sign_report(key: &SigningKey, stream: &str, r: &Report<'_>) -> Vec<u8> {
    key.sign(&report_message(stream, r)).to_bytes().to_vec()
}

/// Whether `signature` is `public`'s signature of the report.
pub fn check_report(public: &[u8; 32], stream: &str, r: &Report<'_>, signature: &[u8]) -> Result<(), SignatureError> {
    check_message(public, &report_message(stream, r), signature)
}
