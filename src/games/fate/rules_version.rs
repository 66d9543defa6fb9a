//! FATE's rules versions as named behaviours: what each version changed, read by `validate`,
//! `apply`, the options and the agent through [`Rules`], never through the version number.

crate::rules_version! {
    newest: 5;
    /// Command Spell option 4 on a Servant in Danger is refused (FATE-EFF-2: the spell waives the
    /// cost, not the state the effect is used in); the options and the agent offer only what
    /// `validate` accepts.
    spell_keeps_the_state: 2,
    /// The escape hatches are held to the rules: nothing changes for a defeated Master
    /// (FATE-WIN-1), and Danger is for Servants only (FATE-STATE-3).
    escape_hatches_held: 2,
    /// A sealed card is checked when its seal opens (a Servant's card of its slot's type,
    /// FATE-OPEN-2; a dealt or drawn card from that deck, FATE-TURN-2), cited at the event that
    /// sealed it (`rules::revealed_violations`); a card a reveal showed is no longer in its deck.
    seals_checked_on_reveal: 3,
    /// An escape hatch no longer turns a Servant with a sealed card face up (KIFU-SEAL-1): the
    /// Servant turns up at its reveal, which opens each seal.
    hatch_keeps_seals: 3,
    /// Every step the fold made silently inside another event is an event of its own: the stand
    /// step names its cards (`RestingCardsStood`, FATE-TURN-1; the unnamed `CardsStood` is
    /// refused), and kifu records the steps without a choice as automatic steps
    /// (`FateState::owed_steps`: `ServantLeftDanger`, `PranaLost`, `WoundedServantsRested`,
    /// `ServantsEndangered`, `MastersDefeated`, `ActiveStatusPassed`); an event that moves on
    /// while one is owed is cited, so a table that forgot one is on the record.
    owed_steps: 4,
    /// An escape hatch that changes a Master whose defeat is owed is refused (FATE-WIN-1: the
    /// defeat comes first).
    hatch_waits_for_an_owed_defeat: 5,
    /// A step recorded after one it leaves out is looked for among the steps owed once that one
    /// is settled, so the table is cited once, for what it left out, and not again for a step that
    /// was not yet due.
    owed_step_after_those_left_out: 5,
    /// The card the winner takes from the loser's hand is the one held (FATE-BATTLE-9; a sealed
    /// card under its own seal, an open name for a sealed card KIFU-SEAL-1), a known card taken
    /// sealed being checked when its seal opens (`FateState::taken_known`), cited at the taking.
    taken_card_is_held: 5,
}
