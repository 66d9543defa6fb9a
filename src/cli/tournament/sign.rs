//! `kifu tournament signer|sign`: record an organizer's or judge's public key, and sign the
//! tournament's checkpoints (each closed round, then the final root) with their key file.

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{bail, Context as _, Result};
use serde_json::json;

use kifu::log::envelope::{Actor, StreamId};
use kifu::tournament::events::Checkpoint;
use kifu::tournament::{record, sign, verify, TournamentEvent};

use super::Context;
use crate::cli::output;

#[derive(clap::Args, Debug)]
pub struct SignerArgs {
    pub id: StreamId,
    /// The signer's name (an organizer or judge).
    #[arg(long)]
    pub name: String,
    /// Their key file (from `kifu key new`); only its public half is recorded.
    #[arg(long)]
    pub key: PathBuf,
}

/// Reads a secret key file, refusing one that others can read (as ssh does): a signing key is
/// kept 0600, as `kifu key new` writes it.
pub(super) fn read_key(path: &PathBuf) -> Result<ed25519_dalek::SigningKey> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .with_context(|| format!("cannot read the key file {}", path.display()))?
            .permissions()
            .mode();
        if mode & 0o077 != 0 {
            bail!(
                "the key file {} can be read by others (mode {:o}); a signing key is kept 0600: chmod 600 {}",
                path.display(),
                mode & 0o777,
                path.display()
            );
        }
    }
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read the key file {}", path.display()))?;
    Ok(sign::read_key(&text)?)
}

pub fn run_signer(ctx: &Context, a: SignerArgs, json: bool) -> Result<ExitCode> {
    let key = read_key(&a.key)?;
    let public_key = sign::public(&key);
    let store = ctx.open_store()?;
    let name = a.name.trim().to_string();
    let ev = TournamentEvent::SignerRecorded { signer: name.clone(), public_key };
    let (head, _) = record::record(&store, &a.id, Actor::Organizer(name.clone()), vec![ev])?;
    if json {
        output::print_json(
            &json!({"signer": name, "public_key": hex::encode(public_key), "head": head.hash.to_hex()}),
        )?;
    } else {
        println!("{name}'s public key {} is recorded in {}", hex::encode(public_key), a.id);
    }
    Ok(ExitCode::SUCCESS)
}

#[derive(clap::Args, Debug)]
pub struct SignArgs {
    pub id: StreamId,
    #[arg(long)]
    pub name: String,
    #[arg(long)]
    pub key: PathBuf,
}

/// Signs the next unsigned checkpoint: the earliest closed round without a signature, else the
/// final root once the tournament is finalized.
pub fn run_sign(ctx: &Context, a: SignArgs, json: bool) -> Result<ExitCode> {
    let key = read_key(&a.key)?;
    let store = ctx.open_store()?;
    let loaded = record::load(&store, &a.id)?;
    let st = &loaded.state;
    let name = a.name.trim().to_string();
    match st.signers.iter().find(|(n, _)| *n == name) {
        None => bail!("{name} has no recorded key in {}: run `kifu tournament signer` first", a.id),
        Some((_, k)) if *k != sign::public(&key) => bail!("{} is not {name}'s recorded key", a.key.display()),
        _ => {}
    }
    let (head, events) = (loaded.head.hash, loaded.head.len);
    let signed_round =
        |r: u32| st.signed.iter().any(|(c, _)| matches!(c, Checkpoint::RoundClosed { round, .. } if *round == r));
    let checkpoint = match st.rounds.iter().find(|r| r.complete() && !signed_round(r.round)) {
        Some(r) => Checkpoint::RoundClosed { round: r.round, head, events },
        None if st.finalized && !st.signed.iter().any(|(c, _)| matches!(c, Checkpoint::Final { .. })) => {
            let root = verify::root_hash(head, events, &verify::linked_games(&loaded));
            Checkpoint::Final { root, head, events }
        }
        None => bail!(
            "nothing to sign: every closed round is signed{}",
            if st.finalized { " and so is the final root" } else { "; the final root is signed after finalize" }
        ),
    };
    let signature = sign::sign(&key, a.id.as_str(), &checkpoint);
    let what = checkpoint.describe();
    let ev = TournamentEvent::CheckpointSigned { signer: name.clone(), checkpoint, signature };
    let (h, _) = record::record(&store, &a.id, Actor::Judge(name.clone()), vec![ev])?;
    if json {
        output::print_json(&json!({"signed": what, "signer": name, "head": h.hash.to_hex()}))?;
    } else {
        println!("{name} signed {what}");
    }
    Ok(ExitCode::SUCCESS)
}
