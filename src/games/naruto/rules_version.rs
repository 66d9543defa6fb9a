//! Naruto's rules versions as named behaviours: what each version changed, read by `validate`,
//! `apply`, the options and the agent through [`Rules`], never through the version number.

crate::rules_version! {
    newest: 7;
    /// kifu refuses an action by a seat the game does not await (`KIFU-TURN-1`). Version 1 was
    /// released before the query and checks turn order by the game's own `NAR-*` IDs only, which
    /// its games' findings name.
    checks_awaited: 2,
    /// The dealer's seed and a sealed card's reveal are recorded as the common events
    /// (`CommonEvent::SeedCommitted`, `SeedRevealed`, `CardRevealed`), in the agent and the
    /// options, where version 1 recorded Naruto's own; both shapes fold and check alike.
    common_events: 2,
    /// Self-play mixes the policies evenly (`agent::V2_MIX`); version 1 keeps the odds its pinned
    /// fixtures were drawn from (`agent::V1_MIX`).
    even_policy_mix: 2,
    /// A fight resolved wrongly is cited under the most specific digest ID (NAR-BSTAT-2,
    /// NAR-DMG-4, NAR-POWER-2) where versions 1 and 2 cite a general one; what is refused is the
    /// same (`rules::most_specific`).
    most_specific_ids: 3,
    /// The escape hatches are held to the rules that govern what they change: the zone a
    /// `CardMoved` puts a card in (NAR-ZONE-4/5) and the target of a `ModifierApplied`
    /// (NAR-POWER-2) (`rules::escape_hatch_checks`).
    escape_hatches_held: 4,
    /// A played mission and a used jutsu wait on the chain (in no zone) and go to chakra in
    /// automatic steps of their own once it resolved (`MissionMovedToChakra`,
    /// `JutsuMovedToChakra`), where the fold put them there inside `MissionPlayed` and
    /// `JutsuUsed`; an event that moves on without the move is cited under NAR-MISSION-5 or
    /// NAR-JUTSU-3 (`rules::steps_left_out`), so a table that forgot one is on the record.
    chakra_moves_recorded: 5,
    /// An effect's `CardMoved` of a card waiting for chakra is cited under NAR-MISSION-5 /
    /// NAR-JUTSU-3 where version 5 cites KIFU-CARD-1; its move into the chakra of the seat that
    /// played it, once the chain resolved, is legal (a judge putting back a move left out).
    played_card_moves_cited: 6,
    /// A battle reward is offered as what the taker sees, the top N cards of the opponent's deck
    /// face down (NAR-REWARD-1, NAR-ZONE-1), and recorded as cards taken unseen
    /// (`rules::reward_taken`, `commit::blind_take`), where earlier versions' picker listed every
    /// card left in the opponent's deck by name for the taker to choose from: a hidden-information
    /// leak. What the rules accept is the same.
    blind_rewards: 7,
}
