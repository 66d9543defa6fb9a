// A player's own page (/tournament/ID/me), phone first: their table and opponent(s) in the
// latest round, the round's clock with the minutes their table's judge calls added, their result
// in their own words ("I won 2-1": buttons, nothing typed; the opponent's matching report records
// it, a different one is marked for a judge), a judge call from their table, their deck list
// (pasted, or picked card by card from the game's catalog; refusals name their rule IDs), and
// their penalties and rulings with an appeal to the head judge. Only a player's token for this
// event sees it (the server answers from the token's own registration).
"use strict";

(() => {
  const { api, el } = kifu;
  const $ = (id) => document.getElementById(id);
  const parts = location.pathname.split("/").filter(Boolean);
  const id = decodeURIComponent(parts[parts.length - 2]);
  const enc = encodeURIComponent(id);
  let me = null;
  let catalog = null;

  const say = (text, bad) => {
    $("status").textContent = text || "";
    $("status").className = bad ? "error" : "muted";
  };
  const post = (path, body) => api(`/tournaments/${enc}/${path}`, { method: "POST", body });
  const hhmm = (iso) => (iso ? iso.slice(11, 16) + " UTC" : "");

  // An action: runs, says what happened (or the server's refusal, which names its cause), reloads.
  async function act(what, f) {
    say("…");
    try {
      const r = await f();
      say(what(r));
    } catch (e) {
      say(e.message, true);
    }
    await load();
  }

  // A score "W-L-D" from this player's side, in their words.
  function words(score) {
    const [w, l, d] = score.split("-").map(Number);
    const games = d ? `${w}-${l}-${d}` : `${w}-${l}`;
    if (w > l) return `I won ${games}`;
    if (w < l) return `I lost ${games}`;
    return `Draw ${games}`;
  }

  // The results a best-of-N match can end in, from this player's side.
  function outcomes(bestOf) {
    const need = Math.floor(bestOf / 2) + 1;
    const out = [];
    for (let l = 0; l < need; l++) out.push(`${need}-${l}-0`);
    for (let l = need - 1; l >= 0; l--) out.push(`${l}-${need}-0`);
    for (let k = 1; k < need; k++) out.push(`${k}-${k}-0`);
    out.push("0-0-1");
    return out;
  }

  function renderTable() {
    const r = me.round;
    const seat = r && r.seat;
    $("t-name").textContent = `${me.name} — ${me.me}`;
    if (!r) {
      $("where").textContent = "No round is paired yet";
      $("opponents").textContent = "Your table appears here when round 1 is paired.";
      $("clock").textContent = "";
      return;
    }
    if (!seat) {
      $("where").textContent = `Round ${r.round}: ${r.bye ? "a bye" : "no table for you"}`;
      $("opponents").textContent = r.bye ? "You have a bye this round." : me.first_round > r.round ? `You play from round ${me.first_round}.` : "";
    } else {
      $("where").textContent = `Round ${r.round} · ${seat.pod ? "Pod" : "Table"} ${seat.table}`;
      $("opponents").textContent = `${me.me} v ${seat.opponents.join(", ")}`;
    }
    const ext = seat && seat.extension_minutes ? ` · +${seat.extension_minutes} min for your table's judge calls` : "";
    $("clock").textContent = `Paired at ${hhmm(r.paired_at)}${ago(r.paired_at)}${ext}`;
    $("clock").dataset.extension = seat ? seat.extension_minutes : 0;
  }

  // "(23 min ago)": the round's clock as this phone reads it, when the times agree.
  function ago(iso) {
    const mins = Math.floor((Date.now() - Date.parse(iso)) / 60000);
    return mins >= 0 && mins < 24 * 60 ? ` (${mins} min ago)` : "";
  }

  function resultButton(score, label) {
    return el("button", { type: "button", dataset: { result: score }, onclick: () => report(score) }, label || words(score));
  }

  async function report(score) {
    const seat = me.round.seat;
    await act(
      (r) => (r.recorded ? `Recorded: ${words(score)}.` : `Sent: ${words(score)}. Waiting for ${seat.opponents.join(", ")}.`),
      () => post("results", { round: me.round.round, table: seat.table, score })
    );
  }

  function renderReport() {
    const seat = me.round && me.round.seat;
    const state = $("report-state");
    const buttons = $("report-buttons");
    buttons.replaceChildren();
    $("report").hidden = !seat;
    if (!seat) return;
    if (seat.pod) {
      state.replaceChildren("Your pod's places are reported on the ", el("a", { href: `/tournament/${enc}#results` }, "event's results"), ".");
      return;
    }
    state.dataset.state = seat.result ? "recorded" : me.pending ? (me.pending.disputed ? "disputed" : "waiting") : "open";
    if (seat.result) {
      state.textContent = `Recorded: ${words(seat.result)}.`;
      return;
    }
    const p = me.pending;
    // A top-cut match needs a winner: no draw is offered there.
    const all = outcomes(me.best_of || 3).filter((s) => !me.round.top_cut || s.split("-")[0] !== s.split("-")[1]);
    if (!p) {
      state.textContent = "When the match is over, tap your result.";
      buttons.replaceChildren(...all.map((s) => resultButton(s)));
      return;
    }
    if (p.disputed) {
      // The dispute's own wording reads the score from the first-listed player's side; in the
      // player's words it is simply that the two reports differ.
      state.textContent = `Disputed: you and ${seat.opponents.join(", ")} reported different results. A judge settles it on the record.`;
      return;
    }
    if (p.reported_by === me.me) {
      state.textContent = `You reported: ${words(p.mine)}. Waiting for ${seat.opponents.join(", ")}; tap another result to change yours.`;
      buttons.replaceChildren(...all.filter((s) => s !== p.mine).map((s) => resultButton(s)));
      return;
    }
    state.textContent = `${p.reported_by} reported: ${words(p.mine).replace(/^I /, "you ")}. If that is right, confirm it; if not, tap what happened and a judge decides.`;
    buttons.replaceChildren(
      resultButton(p.mine, `Confirm: ${words(p.mine)}`),
      ...all.filter((s) => s !== p.mine).map((s) => resultButton(s))
    );
    buttons.firstChild.classList.add("confirm");
  }

  function callLine(c) {
    const steps = [`Call ${c.call} · opened ${hhmm(c.opened)} by ${c.caller}`];
    if (c.taken) steps.push(`${c.taken.judge} is on the way`);
    if (c.escalated) steps.push(`escalated to ${c.escalated.judge}`);
    if (c.closed) steps.push(`closed: ${c.closed.outcome.toLowerCase()}${c.closed.note ? ` (${c.closed.note})` : ""}`);
    if (c.extension_minutes) steps.push(`+${c.extension_minutes} min`);
    return steps.join(" · ");
  }

  function renderCalls() {
    const seat = me.round && me.round.seat;
    $("call").hidden = !seat || me.finalized;
    if (!seat) return;
    $("call-judge").textContent = `Call a judge to ${seat.pod ? "pod" : "table"} ${seat.table}`;
    const appealed = new Set(me.appeals.filter((a) => a.penalty === null).map((a) => a.ruling));
    $("calls").replaceChildren(
      ...seat.calls.map((c) => {
        const mayAppeal = c.closed && !appealed.has(`the ruling of call ${c.call}`) && me.head_judge;
        return el(
          "div",
          { class: "item", dataset: { call: c.call, status: c.status } },
          callLine(c),
          mayAppeal ? el("button", { type: "button", dataset: { appealCall: c.call }, onclick: () => appeal({ call: c.call }, `call ${c.call}'s ruling`) }, "Appeal this ruling to the head judge") : null
        );
      })
    );
  }

  async function appeal(body, what) {
    await act((r) => `Appeal ${r.appeal} lodged: ${what} goes to the head judge, ${me.head_judge}.`, () => post("appeals", body));
  }

  function renderPenalties() {
    const rows = me.penalties.map((p) => {
      const name = p.infraction_name || p.infraction || "penalty";
      const stands = p.standing === null ? "overturned" : p.standing !== p.issued ? `now ${p.standing}` : "";
      const appeals = p.appeals.map((a) => `appeal ${a.appeal}: ${a.decision}${a.head_judge ? ` by ${a.head_judge}` : ""}${a.reason ? ` (${a.reason})` : ""}`);
      const mayAppeal = !p.appeals.length && me.head_judge;
      return el(
        "div",
        { class: "item", dataset: { penalty: p.penalty } },
        el("div", { class: "item-head" }, `${p.issued} · ${name}`),
        el("div", {}, `round ${p.round} · ${p.judge}: ${p.reason}${p.upgraded ? " · upgraded for a repeat" : ""}${stands ? " · " + stands : ""}`),
        appeals.length ? el("div", { class: "muted" }, appeals.join("; ")) : null,
        mayAppeal ? el("button", { type: "button", dataset: { appealPenalty: p.penalty }, onclick: () => appeal({ penalty: p.penalty }, `penalty ${p.penalty}`) }, "Appeal to the head judge") : null
      );
    });
    $("pen-list").replaceChildren(...(rows.length ? rows : [el("p", { class: "muted" }, "None.")]));
  }

  async function renderDeck() {
    const d = me.deck;
    const state = $("deck-state");
    const locked = d.locked;
    state.dataset.state = d.registered ? (locked ? "locked" : "registered") : locked ? "missing" : "open";
    state.textContent = d.registered
      ? locked ? "Registered and locked: your first round is paired (a judge changes a list, with a reason)." : "Registered. You may change it until your first round is paired."
      : locked ? "No list registered, and lists are locked: ask a judge." : me.first_round > 1 ? `Not registered yet: register it before round ${me.first_round} is paired.` : "Not registered yet: register it before round 1 is paired.";
    $("deck-form").hidden = locked;
    $("deck-submit").textContent = d.registered ? "Change list" : "Register list";
    if (d.registered && !$("deck-list").value) {
      try {
        const mine = await api(`/tournaments/${enc}/decks/${encodeURIComponent(me.me)}`);
        $("deck-list").value = mine.list;
      } catch (e) {
        // The list's text is kept by the server only when it has a data directory.
      }
    }
    if (!locked && !catalog) {
      try {
        catalog = (await api(`/tournaments/${enc}/catalog`)).cards;
      } catch (e) {
        catalog = [];
      }
      $("deck-card").replaceChildren(...catalog.map((c) => el("option", { value: c.id }, `${c.name} (${c.id})`)));
      $("deck-form").querySelector(".pick").hidden = !catalog.length;
    }
  }

  // Adds (or raises) a card's line in the list: "3 LC-C01  # Iron Squire (invented)".
  function addCard() {
    const card = catalog.find((c) => c.id === $("deck-card").value);
    const n = Number($("deck-count").value) || 1;
    if (!card) return;
    const lines = $("deck-list").value.split("\n").filter((l) => l.trim());
    const at = lines.findIndex((l) => l.split("#")[0].trim().split(/\s+/)[1] === card.id);
    const line = (count) => `${count} ${card.id}  # ${card.name}`;
    if (at >= 0) lines[at] = line(Number(lines[at].trim().split(/\s+/)[0].replace(/x$/, "")) + n);
    else lines.push(line(n));
    $("deck-list").value = lines.join("\n") + "\n";
  }

  async function registerDeck(e) {
    e.preventDefault();
    const out = $("deck-result");
    out.textContent = "…";
    out.className = "muted";
    try {
      await post("decks", { player: me.me, list: $("deck-list").value });
      out.textContent = "Your list is registered (the public log keeps only its sealed commitment).";
    } catch (err) {
      out.textContent = err.message;
      out.className = "error";
    }
    await load();
  }

  // Only the newest answer is drawn: a token changed (or a refresh) while an older request was
  // in flight must not bring back the page of the token before.
  let asked = 0;
  async function load() {
    const n = ++asked;
    let mine;
    try {
      mine = await api(`/tournaments/${enc}/me`);
    } catch (e) {
      if (n === asked) denied(e.message);
      return;
    }
    if (n !== asked) return;
    // Another player's token on this phone: their own list, not the one before.
    if (me && mine.me !== me.me) $("deck-list").value = "";
    me = mine;
    $("denied").hidden = true;
    $("me").hidden = false;
    renderTable();
    renderReport();
    renderCalls();
    renderPenalties();
    await renderDeck();
  }

  function denied(why) {
    $("me").hidden = true;
    $("denied").replaceChildren(
      `This page is a player's own: open it with your player token for this event. (${why})`,
      " ",
      el("a", { href: `/tournament/${enc}` }, "Tournament page")
    );
    $("denied").hidden = false;
  }

  $("call-judge").onclick = () => {
    const seat = me.round.seat;
    act((r) => `Call ${r.call} opened: a judge is coming to ${seat.pod ? "pod" : "table"} ${seat.table}.`, () => post("calls", { round: me.round.round, table: seat.table }));
  };
  $("deck-add").onclick = addCard;
  $("deck-form").onsubmit = registerDeck;
  $("event-link").href = `/tournament/${enc}`;
  // A judge's step (taken, extension, ruling) shows without a reload: the page asks again while
  // it is on screen.
  setInterval(() => document.visibilityState === "visible" && me && load(), 20000);
  kifu.tokenBox($("auth"), load).then(load);
})();
