//! Signing: recording a signer's public key and checkpoints (a closed round, the final root)
//! signed with it.

use super::Violation;
use crate::tournament::events::{Checkpoint, TournamentEvent};
use crate::tournament::state::Tournament;

/// TOUR-SIGN-1 for `SignerRecorded`.
pub(super) fn check_signer(state: &Tournament, signer: &str, v: &mut Vec<Violation>) {
    if signer.trim().is_empty() || signer.len() > 100 {
        v.push(Violation::new("TOUR-SIGN-1", "a signer has a name of 1 to 100 characters"));
    }
    if state.signers.iter().any(|(n, _)| n == signer) {
        v.push(Violation::new("TOUR-SIGN-1", format!("{signer} already has a recorded key")));
    }
}

/// TOUR-SIGN-2 and TOUR-SIGN-3 for `CheckpointSigned`.
pub(super) fn check_checkpoint(state: &Tournament, event: &TournamentEvent, v: &mut Vec<Violation>) {
    let TournamentEvent::CheckpointSigned { signer, checkpoint, signature } = event else { return };
    if !state.signers.iter().any(|(n, _)| n == signer) {
        v.push(Violation::new("TOUR-SIGN-2", format!("{signer} has no recorded key")));
    }
    if signature.len() != 64 {
        v.push(Violation::new("TOUR-SIGN-2", format!("a signature has 64 bytes, not {}", signature.len())));
    }
    let mut bad = |m: String| v.push(Violation::new("TOUR-SIGN-3", m));
    match checkpoint {
        Checkpoint::RoundClosed { round, .. } => match state.rounds.iter().find(|r| r.round == *round) {
            None => bad(format!("round {round} is not paired")),
            Some(r) if !r.complete() => bad(format!("round {round} is not closed yet")),
            _ => {}
        },
        Checkpoint::Final { .. } if !state.finalized => bad("the final root is signed after finalization".into()),
        Checkpoint::Final { .. } => {}
    }
    let (_, events) = checkpoint.prefix();
    if events != state.seen {
        bad(format!("a checkpoint names the log as it is ({} events), not {events}", state.seen));
    }
}

pub(super) fn recorded(state: &mut Tournament, signer: &str, key: &[u8; 32]) {
    if !state.signers.iter().any(|(n, _)| n == signer) {
        state.signers.push((signer.to_string(), *key));
    }
}
