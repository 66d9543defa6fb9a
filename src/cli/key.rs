//! `kifu key new`: an ed25519 key pair for an organizer or judge. The secret key is written to a
//! new file readable only by its owner (0600); the public key is printed, to be recorded in a
//! tournament with `kifu tournament signer`.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::{Context as _, Result};

use kifu::tournament::sign;

#[derive(clap::Subcommand, Debug)]
pub enum Command {
    /// Make a key pair: the secret key goes to --output (never overwritten), the public key is printed.
    New(NewArgs),
}

#[derive(clap::Args, Debug)]
pub struct NewArgs {
    /// The secret key file to create.
    #[arg(short, long)]
    output: PathBuf,
}

pub fn run(c: Command) -> Result<ExitCode> {
    let Command::New(a) = c;
    let key = sign::key_from(rand::random::<[u8; 32]>());
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    let mut f = opts
        .open(&a.output)
        .with_context(|| format!("cannot create {} (it must not exist yet)", a.output.display()))?;
    f.write_all(sign::key_text(&key).as_bytes()).with_context(|| format!("cannot write {}", a.output.display()))?;
    println!("{}", hex::encode(sign::public(&key)));
    eprintln!("secret key written to {} (0600); the line above is the public key", a.output.display());
    Ok(ExitCode::SUCCESS)
}
