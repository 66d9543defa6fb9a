//! Signed results: `kifu key new` (0600, never in the log), a recorded public key, each closed
//! round and the final root signed, verify naming who signed what, and a missing or tampered
//! signature failing verify with the checkpoint named.

use std::sync::Arc;

use kifu::clock::SteppingClock;
use kifu::log::envelope::StreamId;
use kifu::store::sled_store::SledStore;
use kifu::store::{AppendRequest, ExpectedVersion, NewEvent, Store};
use kifu::tournament::{record, verify, TournamentEvent};

use crate::support::TestEnv;

fn run(env: &TestEnv, key: &str) {
    let seed = "44".repeat(32);
    env.ok(&[
        "tournament",
        "new",
        "--name",
        "Signed",
        "--game",
        "stones",
        "--id",
        "sg",
        "--seed",
        &seed,
        "--rounds",
        "1",
        "--top-cut",
        "0",
    ]);
    env.ok(&["tournament", "signer", "sg", "--name", "olga", "--key", key]);
    env.ok(&["tournament", "register", "sg", "a", "b", "c", "d"]);
    env.ok(&["tournament", "pair", "sg"]);
    env.ok(&["tournament", "report", "sg", "--table", "1", "2-0"]);
    env.ok(&["tournament", "report", "sg", "--table", "2", "2-1"]);
}

#[test]
fn checkpoints_are_signed_and_verify_names_the_signer() {
    let env = TestEnv::new();
    let key = env.path("olga.key");
    let public = env.ok(&["key", "new", "-o", key.to_str().unwrap()]);
    assert_eq!(public.trim().len(), 64);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
    env.fails(&["key", "new", "-o", key.to_str().unwrap()]);
    let secret = std::fs::read_to_string(&key).unwrap();
    run(&env, key.to_str().unwrap());
    // A key file others can read is refused, and nothing is signed.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let err = env.fails(&["tournament", "sign", "sg", "--name", "olga", "--key", key.to_str().unwrap()]);
        assert!(err.contains("can be read by others (mode 644)") && err.contains("chmod 600"), "{err}");
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    // Round 1 closed but unsigned: verify fails naming the checkpoint.
    let (ok, text) = super::runs::verify(&env, "sg");
    assert!(!ok && text.contains("round 1 closed (its checkpoint) carries no valid signature"), "{text}");
    env.ok(&["tournament", "sign", "sg", "--name", "olga", "--key", key.to_str().unwrap()]);
    env.ok(&["tournament", "finalize", "sg"]);
    let (ok, text) = super::runs::verify(&env, "sg");
    assert!(!ok && text.contains("the final root carries no valid signature"), "{text}");
    env.ok(&["tournament", "sign", "sg", "--name", "olga", "--key", key.to_str().unwrap()]);
    let (ok, out) = super::runs::verify(&env, "sg");
    assert!(ok && out.contains("olga signed round 1 closed") && out.contains("olga signed final root"), "{out}");
    // The secret key is nowhere in the log.
    let s = env.store();
    let log = s.export(&StreamId::new("sg").unwrap()).unwrap();
    let bytes: Vec<u8> = log.events.concat();
    let mut sk = [0u8; 32];
    hex::decode_to_slice(secret.trim(), &mut sk).unwrap();
    assert!(!bytes.windows(32).any(|w| w == sk), "the secret key must never be stored");
}

#[test]
fn a_tampered_signature_fails_verify_naming_the_checkpoint() {
    let env = TestEnv::new();
    let key = env.path("k");
    env.ok(&["key", "new", "-o", key.to_str().unwrap()]);
    run(&env, key.to_str().unwrap());
    env.ok(&["tournament", "sign", "sg", "--name", "olga", "--key", key.to_str().unwrap()]);
    let s = env.store();
    let id = StreamId::new("sg").unwrap();
    let log = s.export(&id).unwrap();
    // Copy the log, flipping one bit of the signature, written around kifu's checks.
    let copy = SledStore::temporary(Arc::new(SteppingClock::fixed())).unwrap();
    let mut events = Vec::new();
    for bytes in &log.events {
        let (env, _) = kifu::log::chain::open_event(bytes).unwrap();
        let mut ev: TournamentEvent = postcard::from_bytes(&env.v1().payload).unwrap();
        if let TournamentEvent::CheckpointSigned { signature, .. } = &mut ev {
            signature[5] ^= 1;
        }
        events.push(NewEvent {
            actor: env.v1().actor.clone(),
            payload: postcard::to_stdvec(&ev).unwrap(),
            idempotency: None,
        });
    }
    copy.append(AppendRequest {
        stream: id.clone(),
        expected: ExpectedVersion::NoStream,
        create: Some(log.header.clone()),
        events,
    })
    .unwrap();
    let report = verify::verify(&copy, &id, &kifu::games::driver).unwrap();
    let failed: Vec<_> = report.checks.iter().filter(|c| !c.ok).map(|c| c.detail.clone()).collect();
    // The copy re-chains every event, so the signed head no longer matches either: both name it.
    assert!(failed.iter().any(|d| d.contains("round 1 closed")), "{failed:#?}");
    // The signature itself: a flipped bit never verifies, the untouched one does.
    let loaded = record::load(&s, &id).unwrap();
    let (public, signed) = (loaded.state.signers[0].1, loaded.entries.last().unwrap().event.clone());
    let TournamentEvent::CheckpointSigned { checkpoint, mut signature, .. } = signed else {
        panic!("last event is the signature")
    };
    assert!(kifu::tournament::sign::check(&public, "sg", &checkpoint, &signature).is_ok());
    assert!(
        kifu::tournament::sign::check(&public, "other", &checkpoint, &signature).is_err(),
        "bound to the tournament"
    );
    signature[0] ^= 1;
    let err = kifu::tournament::sign::check(&public, "sg", &checkpoint, &signature).unwrap_err();
    assert!(err.to_string().contains("does not verify"), "{err}");
    assert!(
        record::from_log_checked(&copy.export(&id).unwrap()).unwrap().problems.is_empty(),
        "the fold accepts it; the signature check catches it"
    );
}
