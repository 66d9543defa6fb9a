//! Vanguard's rules versions as named behaviours: what each version changed, read by `validate`,
//! `apply`, the options and the agent through [`Rules`], never through the version number.

crate::rules_version! {
    newest: 5;
    /// kifu refuses an action by a seat the game does not await (`KIFU-TURN-1`; a chat line
    /// interjects). Version 1 checked turn order by `VG-*` IDs only, as the fan client's logs
    /// `kifu game import --from vgc-log` reads never held a player to a turn.
    checks_awaited: 2,
    /// A seat's options are the rules' actions only; version 1 (the fan client's games) also
    /// offers the client's manual operations (`options::client_options`).
    rules_options_only: 2,
    /// A rule broken is cited under the most specific digest ID (VG-BATTLE-9, VG-BATTLE-13) where
    /// versions 1 and 2 cite a general one; what is refused is the same (`rules::most_specific`).
    most_specific_ids: 3,
    /// The stand (`UnitsStood`, VG-STAND-1), the end phase's clean-up (`TurnCleanedUp`,
    /// VG-STRIDE-4, VG-END-2, VG-END-4) and a battle's retirements (`HitUnitRetired`,
    /// VG-BATTLE-10; `GuardiansRetired`, VG-BATTLE-14) are automatic steps of their own, where the
    /// fold made them inside `TurnStarted`, `PhaseEntered`, `AttackResolved` and `BattleEnded`; a
    /// turn or battle that moves on without one is cited (`rules::steps_left_out`), so a table
    /// that forgot one is on the record.
    transition_steps: 4,
    /// The retirement of the unit a call displaced (`OccupantRetired`, VG-ZONE-5), a deleted
    /// heart turned face up after a stride (`HeartTurnedFaceUp`, VG-STRIDE-2) and the legion mate
    /// moved to the soul after a ride (`LegionMateMovedToSoul`, VG-KW-8) are automatic steps of
    /// their own, recorded before any other, where the fold made them inside the call, stride or
    /// ride (`VanguardState::owed_steps`); an event that moves on without one is cited once. The
    /// agent now and then calls onto an occupied circle to play them.
    owed_steps: 5,
}
