// The tournament page: pairings by table and by name (points before the round), standings with
// tiebreakers and shared ranks, the top-cut bracket with seeds and the champion, final placings,
// the verification badge with the root hash, result reporting, printing (pairings by table, by
// name, result slips), each player's "why?" (pairings and tiebreakers explained), a pod's places
// (reported by a pod player, confirmed by the others, entered or corrected by a judge) and
// running the event with an organizer's or judge's token. Tabs follow
// the URL hash (#standings, #bracket, ...).
"use strict";

(() => {
  const { api, el, short } = kifu;
  const $ = (id) => document.getElementById(id);
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const enc = encodeURIComponent(id);
  let byName = false;
  let pairing = null;
  let format = "swiss"; // "pods": pods, seats and places, not tables and opponents

  // Officials of this event (an organizer's or judge's token for it or for every event) run it;
  // the public and players never see forms that would only answer with a token error.
  const official = () => {
    const w = kifu.who();
    return (w.role === "organizer" || w.role === "judge") && (w.scope === "*" || w.scope === id);
  };
  const organizer = () => official() && kifu.who().role === "organizer";

  const showError = (e) => ($("error").textContent = e ? String(e.message || e) : "");

  // A match's players and the event's officials start its games.
  const mayStart = (players) => {
    const w = kifu.who();
    return official() || (w.role === "player" && w.scope === id && players.includes(w.name));
  };

  // "Start game": the table's next game, created bound to it with the registered lists, opened
  // on its page in record mode; the game still in play is opened instead.
  function startButton(round, table, players, place = "tables") {
    if (!mayStart(players)) return null;
    const go = (game) => (location.href = `/replay/${encodeURIComponent(game)}`);
    return el("button", {
      type: "button",
      class: "start-game",
      dataset: { start: table },
      onclick: async (e) => {
        e.target.disabled = true;
        try {
          go((await api(`/tournaments/${enc}/rounds/${round}/${place}/${table}/games`, { method: "POST", body: {} })).id);
        } catch (err) {
          if (err.status === 409 && err.data && err.data.game) return go(err.data.game);
          e.target.disabled = false;
          showError(err);
        }
      },
    }, "Start game");
  }

  function gameLinks(games) {
    return games.map((g, i) => el("a", { class: "replay-link", href: `/replay/${encodeURIComponent(g.stream)}`, title: g.head }, `game ${i + 1}`, " "));
  }

  const TABS = ["pairings", "standings", "bracket", "placings", "results", "run"];

  function tab(name) {
    if (!TABS.includes(name) || (name === "run" && !official())) name = "pairings";
    for (const b of document.querySelectorAll("nav.tabs button")) b.classList.toggle("on", b.dataset.tab === name);
    for (const s of document.querySelectorAll("section.tab")) s.classList.toggle("on", s.id === name || s.id === name + "-tab");
    if (location.hash !== "#" + name) history.replaceState(null, "", "#" + name);
  }

  function renderPairings() {
    const t = $("pairings-table");
    if (!pairing) return t.replaceChildren();
    const byPod = pairing.pods && pairing.pods.length;
    if (byName) {
      t.replaceChildren(
        el("tr", {}, el("th", {}, "player"), el("th", {}, byPod ? "pod" : "table"), el("th", {}, byPod ? "pod-mates" : "opponent")),
        ...pairing.by_name.map((r) => el("tr", {}, el("td", {}, r.player), el("td", {}, r.table === null ? "bye" : r.table), el("td", {}, r.opponent || "—")))
      );
    } else if (pairing.pods && pairing.pods.length) {
      // A pod round: each pod's seats in order, with places once reported.
      t.replaceChildren(
        el("tr", {}, ...["pod", "seats (place)", "games"].map((h) => el("th", {}, h))),
        ...pairing.pods.map((p) =>
          el(
            "tr",
            { dataset: { table: p.pod } },
            el("td", {}, p.pod),
            el("td", {}, p.seats.map((x) => x.player + (x.place ? ` (${x.place})` : "")).join(", ") + (p.corrections ? " (corrected)" : "")),
            el("td", {}, gameLinks(p.games), p.seats.some((x) => x.place) ? null : startButton(pairing.round, p.pod, p.seats.map((x) => x.player), "pods"))
          )
        )
      );
    } else {
      t.replaceChildren(
        el("tr", {}, ...["table", "player", "pts", "opponent", "pts", "result", "games"].map((h) => el("th", {}, h))),
        ...pairing.tables.map((r) =>
          el(
            "tr",
            { dataset: { table: r.table } },
            el("td", {}, r.table),
            el("td", {}, r.a),
            el("td", {}, r.a_points),
            el("td", {}, r.b),
            el("td", {}, r.b_points),
            el("td", {}, r.result ? r.result + (r.corrections ? " (corrected)" : "") : "—"),
            el("td", {}, gameLinks(r.games), r.result ? null : startButton(pairing.round, r.table, [r.a, r.b]))
          )
        ),
        ...pairing.byes.map((b) => el("tr", {}, el("td", {}, "bye"), el("td", {}, b), el("td", {}, ""), el("td", {}, "—"), el("td", {}), el("td", {}), el("td", {})))
      );
    }
    $("by-table").textContent = byPod ? "by pod" : "by table";
    $("print-by-table").textContent = byPod ? "Print by pod" : "Print by table";
    $("by-table").classList.toggle("on", !byName);
    $("by-name").classList.toggle("on", byName);
    $("by-table").setAttribute("aria-pressed", String(!byName));
    $("by-name").setAttribute("aria-pressed", String(byName));
    $("showing").textContent = pairing ? `round ${pairing.round}, ${byName ? "by name" : byPod ? "by pod" : "by table"}` : "";
  }

  // Printing: the #print area holds one layout; print CSS shows only it.
  function printOut(kind) {
    if (!pairing) return showError("no round to print");
    const title = `${$("t-name").textContent} — round ${pairing.round}`;
    const area = $("print");
    let body;
    const pods = pairing.pods && pairing.pods.length ? pairing.pods : null;
    if (kind === "slips" && pods) {
      // A pod slip: every seat in order, a place box per player (1 best, a shared place repeated).
      body = pods.map((p) =>
        el(
          "div",
          { class: "slip" },
          el("div", { class: "slip-head" }, `${title} · pod ${p.pod}`),
          el("table", {}, ...p.seats.map((x, i) => el("tr", {}, el("td", {}, `seat ${i + 1}`), el("td", { class: "slip-name" }, x.player), el("td", {}, "place ____"), el("td", {}, "signature ____________________")))),
          el("div", {}, "game id ______________   dropping? ______________")
        )
      );
    } else if (kind === "slips") {
      body = pairing.tables.map((r) =>
        el(
          "div",
          { class: "slip" },
          el("div", { class: "slip-head" }, `${title} · table ${r.table}`),
          el("table", {}, ...[r.a, r.b].map((p) => el("tr", {}, el("td", { class: "slip-name" }, p), el("td", {}, "games won ____"), el("td", {}, "signature ____________________")))),
          el("div", {}, "drawn games ____   dropping? ______________")
        )
      );
    } else if (kind === "name") {
      body = [
        el(
          "table",
          { class: "grid" },
          el("tr", {}, el("th", {}, "player"), el("th", {}, pods ? "pod" : "table"), el("th", {}, pods ? "pod-mates" : "opponent")),
          ...pairing.by_name.map((r) => el("tr", {}, el("td", {}, r.player), el("td", {}, r.table === null ? "bye" : r.table), el("td", {}, r.opponent || "—")))
        ),
      ];
    } else if (pods) {
      body = [
        el(
          "table",
          { class: "grid" },
          el("tr", {}, ...["pod", "seat", "player"].map((h) => el("th", {}, h))),
          ...pods.flatMap((p) => p.seats.map((x, i) => el("tr", {}, el("td", {}, p.pod), el("td", {}, i + 1), el("td", {}, x.player))))
        ),
      ];
    } else {
      body = [
        el(
          "table",
          { class: "grid" },
          el("tr", {}, ...["table", "player", "pts", "opponent", "pts"].map((h) => el("th", {}, h))),
          ...pairing.tables.map((r) => el("tr", {}, el("td", {}, r.table), el("td", {}, r.a), el("td", {}, r.a_points), el("td", {}, r.b), el("td", {}, r.b_points))),
          ...pairing.byes.map((b) => el("tr", {}, el("td", {}, "bye"), el("td", {}, b), el("td", {}), el("td", {}, "—"), el("td", {})))
        ),
      ];
    }
    area.className = "print-" + kind;
    area.replaceChildren(el("h2", {}, title + (kind === "slips" ? " — result slips" : kind === "name" ? " — by name" : pods ? " — by pod" : " — by table")), ...body);
    window.print();
  }

  async function loadPairings(round) {
    try {
      pairing = await api(`/tournaments/${enc}/pairings` + (round ? `?round=${round}` : ""));
    } catch (e) {
      pairing = null;
    }
    renderPairings();
  }

  const pct = (x) => (x * 100).toFixed(2) + "%";

  async function loadStandings() {
    const s = await api(`/tournaments/${enc}/standings`);
    const pods = s.format === "pods";
    $("standings-caption").textContent = pods ? `after ${s.swiss_played} pod round(s), points by place` : `after ${s.swiss_played} Swiss round(s), ${s.policy} policy`;
    const cols = s.columns;
    // Players tied on every tiebreaker share a rank ("T2"); the rows list them in the seeded
    // draw's order, which decides who is seeded higher (the top cut): said in a column of its own.
    const tiedAt = new Map();
    for (const r of s.rows) if (r.tied) tiedAt.set(r.rank, (tiedAt.get(r.rank) || []).concat(r.player));
    const tieOrder = (r) => {
      const group = r.tied ? tiedAt.get(r.rank) || [] : [];
      return group.length > 1 ? `${group.indexOf(r.player) + 1} of ${group.length} by seeded draw` : "";
    };
    $("standings-table").replaceChildren(
      el(
        "tr",
        {},
        el("th", {}, "rank"),
        el("th", {}, "player"),
        el("th", {}, "points"),
        el("th", {}, pods ? "games" : "W-L-D"),
        ...cols.map((c) => el("th", {}, c.label)),
        tiedAt.size ? el("th", {}, "tie order") : null
      ),
      ...s.rows.map((r) =>
        el(
          "tr",
          { dataset: { player: r.player } },
          el("td", {}, r.tied ? "T" + r.rank : r.rank),
          el("td", {}, r.player + (r.dropped ? " (dropped)" : ""), " ", whyButton(r.player)),
          el("td", {}, r.points),
          el("td", {}, pods ? r.games : `${r.wins}-${r.losses}-${r.draws}`),
          ...cols.map((c) => el("td", {}, c.key === "late" ? (r.late ? "late" : "") : pods ? r[c.key].toFixed(2) : pct(r[c.key]))),
          tiedAt.size ? el("td", { class: "tie-order" }, tieOrder(r)) : null
        )
      )
    );
    $("standings-note").textContent = tiedAt.size
      ? "T: tied on every tiebreaker, so the rank is shared; the seeded random draw orders them (for the top cut)."
      : "";
  }

  // "Why?": the player's explanation (each round's pairing, each tiebreaker with the opponents it
  // comes from), from the public explain endpoint; a player's token adds a button for their own.
  function whyButton(player) {
    return el("button", { type: "button", class: "why", dataset: { explain: player }, title: `why ${player} is paired and ranked so`, onclick: () => explain(player) }, "why?");
  }

  let explaining = null;
  let roundNumbers = [];
  async function explain(player, round) {
    explaining = player;
    const box = $("explain");
    let x;
    try {
      x = await api(`/tournaments/${enc}/explain/${encodeURIComponent(player)}` + (round ? `?round=${round}` : ""));
    } catch (e) {
      showError(e);
      return;
    }
    showError(null);
    $("explain-title").textContent = `Why ${x.player}`;
    $("explain-method").textContent = x.pairing_method;
    const sel = $("explain-round");
    sel.replaceChildren(el("option", { value: "" }, "every round"), ...roundNumbers.map((r) => el("option", { value: r }, `round ${r}`)));
    sel.value = round || "";
    const place = (r) =>
      r.kind === "bye" ? "a bye" : r.kind === "pod" ? `pod ${r.table}: ${r.opponents.join(", ")}` : r.table ? `table ${r.table} against ${r.opponents.join(", ")}` : r.kind;
    $("explain-rounds").replaceChildren(
      ...x.rounds.map((r) =>
        el("section", { class: "explain-round", dataset: { round: r.round, kind: r.kind } }, el("h3", {}, `Round ${r.round}: ${place(r)}`), el("ul", {}, ...r.why.map((w) => el("li", {}, w))))
      )
    );
    const s = x.standing;
    const value = (name, v) => (v === null || v === undefined ? "" : name.includes("%") ? pct(v) : v.toFixed(2));
    $("explain-standing").replaceChildren(
      ...(s
        ? [
            el("h3", {}, `Standing ${x.standing_as_of}: ${s.rank} of ${s.of}, ${s.points} points (${s.record})`),
            el("p", {}, s.how_points),
            ...s.tiebreakers.map((tb) =>
              el(
                "div",
                { class: "tiebreaker", dataset: { tiebreaker: tb.name } },
                el("p", {}, el("strong", {}, `${tb.name} ${value(tb.name, tb.value)}`), ": ", tb.how),
                tb.parts.length
                  ? el(
                      "div",
                      { class: "table-scroll" },
                      el(
                        "table",
                        { class: "grid" },
                        el("tr", {}, el("th", {}, format === "pods" ? "pod-mate" : "opponent"), el("th", {}, "record"), el("th", {}, "value")),
                        ...tb.parts.map((p) => el("tr", {}, el("td", {}, p.opponent), el("td", {}, p.record), el("td", {}, value(tb.name, p.value) + (p.note ? ` (${p.note})` : ""))))
                      )
                    )
                  : null
              )
            ),
            ...s.beside.map((c) => el("p", { class: "beside" }, `${c.player} (${c.rank}, ${c.above ? "above" : "below"} on the same points): ${c.decided_by}`)),
          ]
        : [])
    );
    box.hidden = false;
    box.scrollIntoView({ block: "start" });
  }

  function initExplain() {
    $("explain-close").onclick = () => ($("explain").hidden = true);
    $("explain-round").onchange = (e) => explaining && explain(explaining, e.target.value || undefined);
    showExplainMe();
  }

  // The token box can change who is here: the "my explanation" button and the link to the
  // player's own page follow it.
  function showExplainMe() {
    const w = kifu.who();
    $("explain-me-line").hidden = true;
    $("my-page-line").hidden = true;
    if (w.role === "player" && w.scope === id && w.name) {
      $("my-page").href = `/tournament/${enc}/me`;
      $("my-page-line").hidden = false;
      $("explain-me-line").hidden = false;
      $("explain-me").onclick = () => explain(w.name);
    }
  }

  async function loadPlacings() {
    const p = await api(`/tournaments/${enc}/placings`);
    $("placings-caption").textContent = p.finalized ? "final placings" : "placings so far (the event is not finalized)";
    $("placings-table").replaceChildren(
      el("tr", {}, ...["place", "player", "stage", format === "pods" ? "pod standing" : "Swiss rank"].map((h) => el("th", {}, h))),
      ...p.placings.map((r) =>
        el(
          "tr",
          { dataset: { player: r.player } },
          el("td", {}, (r.tied ? "T" : "") + r.place),
          el("td", {}, r.player + (r.dropped ? " (dropped)" : "")),
          el("td", {}, r.stage),
          el("td", {}, r.swiss_rank)
        )
      )
    );
  }

  async function loadBracket() {
    const b = await api(`/tournaments/${enc}/bracket`);
    $("champion").replaceChildren(b.champion ? el("p", { class: "champion" }, "Champion: ", el("strong", {}, b.champion)) : "");
    if (!b.rounds.length) return $("bracket").replaceChildren(el("p", { class: "muted" }, "No top cut."));
    const seed = (t, side) => (t[side + "_seed"] ? `(${t[side + "_seed"]}) ` : "");
    $("bracket").replaceChildren(
      ...b.rounds.map((r) =>
        el(
          "div",
          { class: "bround", dataset: { round: r.round } },
          el("strong", {}, `${r.stage} (round ${r.round})`),
          ...r.tables.map((t) =>
            el(
              "div",
              { class: "bmatch" },
              el("div", { class: t.winner === t.a ? "w" : "" }, seed(t, "a"), t.a),
              el("div", { class: t.winner === t.b ? "w" : "" }, seed(t, "b"), t.b),
              el("div", { class: "muted" }, t.result || "in progress", " ", gameLinks(t.games))
            )
          )
        )
      )
    );
  }

  async function loadVerify() {
    const badge = $("verify-badge");
    try {
      const v = await api(`/tournaments/${enc}/verify`);
      badge.className = "badge " + (v.ok ? "ok" : "bad");
      badge.textContent = v.ok ? "verified ✓" : "verification FAILED";
      $("root").replaceChildren("root hash ", el("code", { id: "root-hash", title: v.root }, v.root), ` · ${v.events} events, ${v.games} games`);
      $("checks").replaceChildren(...v.checks.map((c) => el("tr", {}, el("td", {}, c.check), el("td", {}, c.ok ? "ok" : "FAILED"), el("td", {}, c.detail))));
    } catch (e) {
      badge.className = "badge bad";
      badge.textContent = "cannot verify: " + e.message;
    }
  }

  // A report waiting for the opponent: the result in words (who won, by the reported score), who
  // reported it and who is to confirm it. Only that opponent is offered Confirm, or a different
  // score (a dispute a judge decides); the reporter and everyone else see whom it waits for.
  async function loadPending() {
    if (format === "pods") return loadPodResults();
    $("pod-results").hidden = true;
    $("table-results").hidden = false;
    const p = await api(`/tournaments/${enc}/results`);
    const me = kifu.who();
    const post = async (r, score) => {
      try {
        await api(`/tournaments/${enc}/results/confirm`, { method: "POST", body: { round: r.round, table: r.table, score } });
        $("r-status").textContent = "confirmed: recorded";
      } catch (e) {
        $("r-status").textContent = e.message;
      }
      await loadAll();
    };
    const answer = (r) => {
      // A disputed report is a judge's to settle: nobody is offered Confirm or Dispute again.
      if (r.disputed) return el("span", { class: "muted", dataset: { disputed: "yes" } }, "disputed: a judge decides");
      if (!(me.role === "player" && me.scope === id && me.name === r.confirms)) return el("span", { class: "muted" }, r.confirms ? `waiting for ${r.confirms}` : "waiting");
      const other = el("input", { class: "dispute-score", size: 6, placeholder: "2-1-0", "aria-label": `your score for round ${r.round} table ${r.table}, ${r.a} first` });
      return el(
        "span",
        { class: "answer" },
        el("button", { type: "button", class: "confirm", onclick: () => post(r, r.score) }, "Confirm"),
        " or ",
        other,
        " ",
        el("button", { type: "button", class: "dispute", onclick: () => other.value.trim() && post(r, other.value.trim()) }, "Dispute")
      );
    };
    const said = (r) => {
      const line = r.a ? `${r.a} ${r.score} ${r.b}` : r.score;
      const won = r.a ? (r.winner ? ` · ${r.winner} won` : ` · draw: ${r.a}, ${r.b}`) : "";
      return line + won + (r.disputed ? ` (disputed: ${r.disputed})` : "");
    };
    $("pending").replaceChildren(
      el("tr", {}, ...["round", "table", "result", "reported by", "to confirm"].map((h) => el("th", {}, h))),
      ...p.pending.map((r) =>
        el("tr", { dataset: { round: r.round, table: r.table } }, el("td", {}, r.round), el("td", {}, r.table), el("td", { class: "result" }, said(r)), el("td", {}, r.reported_by), el("td", {}, answer(r)))
      )
    );
    $("pending-none").hidden = p.pending.length > 0;
  }

  // --- a pod's places: a pod player reports them, the others confirm, a judge enters them ---
  let podPending = [];
  let latestPods = null; // the latest round's pods (a player's own pod is in the round being played)

  // A place control per seat: a button per place, 1 (best) to n, one tap each, the chosen one
  // pressed; `places` is changed in place (0: not chosen yet).
  function placePicker(seats, places, readOnly) {
    const n = seats.length;
    const row = (player, i) => {
      const buttons = Array.from({ length: n }, (_, k) => k + 1).map((pl) =>
        el("button", {
          type: "button",
          class: "place" + (places[i] === pl ? " on" : ""),
          "aria-pressed": String(places[i] === pl),
          "aria-label": `${player}: place ${pl}`,
          dataset: { place: pl },
          onclick: (e) => {
            places[i] = pl;
            for (const b of e.target.parentNode.children) {
              const on = Number(b.dataset.place) === pl;
              b.classList.toggle("on", on);
              b.setAttribute("aria-pressed", String(on));
            }
          },
        }, String(pl))
      );
      return el("div", { class: "pod-seat", role: "group", "aria-label": `seat ${i + 1}, ${player}: place`, dataset: { seat: i + 1, player } }, el("span", { class: "pod-seat-name" }, `seat ${i + 1} · ${player}`), el("span", { class: "places" }, ...buttons));
    };
    return el("fieldset", { class: "pod-seats", disabled: readOnly ? true : null }, el("legend", { class: "muted" }, "places (1 best; a shared place repeats: 1, 2, 2, 4)"), ...seats.map(row));
  }

  const placesSaid = (seats, places) => seats.map((p, i) => `${p} ${places[i]}`).join(", ");

  // Posts to the pod results endpoints; the answer (or the refusal, which says why) goes to `status`.
  async function podPost(path, body, status) {
    try {
      const r = await api(`/tournaments/${enc}/pods/results${path}`, { method: "POST", body });
      status.textContent = r.recorded ? "Recorded: the pod's places are in the event's log." : r.pending && r.pending.to_confirm && r.pending.to_confirm.length ? `Sent; waiting for ${r.pending.to_confirm.join(", ")} to confirm.` : "Sent.";
    } catch (e) {
      status.textContent = e.message;
    }
    await loadAll();
  }

  // "Your pod" for a player's token: the seats with a place control each, and what the pod's
  // report waits for: a report, this player's confirmation (or dispute), others, or a judge.
  function renderMyPod() {
    const me = kifu.who();
    const form = $("my-pod");
    const pod = latestPods && me.role === "player" && me.scope === id && (latestPods.pods || []).find((p) => p.seats.some((x) => x.player === me.name));
    form.hidden = !pod;
    if (!pod) return form.replaceChildren();
    const round = latestPods.round;
    const seats = pod.seats.map((x) => x.player);
    const pending = podPending.find((r) => r.round === round && r.pod === pod.pod);
    const recorded = pod.seats.every((x) => x.place);
    const places = recorded ? pod.seats.map((x) => x.place) : pending ? pending.places.slice() : seats.map(() => 0);
    const status = $("mp-status");
    const act = (name, label, onclick, primary) => el("button", { type: "button", class: primary ? "primary" : "", dataset: { action: name }, onclick }, label);
    let note;
    let actions = [];
    if (recorded) note = "Places recorded" + (pod.corrections ? " (corrected by a judge)." : ".");
    else if (!pending)
      actions = [
        act("report", "Report places", () => {
          if (places.some((x) => !x)) return (status.textContent = "Choose a place for every seat.");
          podPost("", { round, pod: pod.pod, places }, status);
        }, true),
      ];
    else if (pending.disputed) note = `Disputed (${pending.disputed}); a judge enters the places.`;
    else if ((pending.to_confirm || []).includes(me.name)) {
      note = `${pending.reported_by} reported these places. Confirm them, or set the places you saw and dispute.`;
      actions = [
        act("confirm", "Confirm", () => podPost("/confirm", { round, pod: pod.pod, places: pending.places }, status), true),
        act("dispute", "Dispute", () => podPost("/confirm", { round, pod: pod.pod, places, dispute: true }, status)),
      ];
    } else note = `Reported by ${pending.reported_by}; waiting for ${(pending.to_confirm || []).join(", ")} to confirm.`;
    const mayChange = !recorded && (!pending || (!pending.disputed && (pending.to_confirm || []).includes(me.name)));
    // replaceChildren writes a null as the text "null": only the nodes.
    form.replaceChildren(
      ...[
        el("h2", { class: "sub" }, `Your pod: round ${round}, pod ${pod.pod}`),
        placePicker(seats, places, !mayChange),
        note ? el("p", { class: "pod-note", dataset: { podState: recorded ? "recorded" : pending ? (pending.disputed ? "disputed" : "waiting") : "open" } }, note) : null,
        actions.length ? el("div", { class: "buttons" }, ...actions) : null,
      ].filter(Boolean)
    );
  }

  // The judges' form: any pod of the latest round, its places prefilled (recorded, or as
  // reported), entered at once; a pod with places is corrected, with a reason.
  let judgePlaces = [];
  function renderJudgePod() {
    const form = $("judge-pod");
    form.hidden = !(official() && latestPods && (latestPods.pods || []).length);
    if (form.hidden) return;
    const sel = $("jp-pod");
    const was = sel.value;
    const stateOf = (p) => {
      if (p.seats.every((x) => x.place)) return "recorded";
      const r = podPending.find((x) => x.round === latestPods.round && x.pod === p.pod);
      return r ? (r.disputed ? "disputed" : "waiting") : "open";
    };
    sel.replaceChildren(...latestPods.pods.map((p) => el("option", { value: p.pod }, `pod ${p.pod} (${stateOf(p)})`)));
    const disputed = latestPods.pods.find((p) => stateOf(p) === "disputed");
    sel.value = was && latestPods.pods.some((p) => String(p.pod) === was) ? was : disputed ? disputed.pod : latestPods.pods[0].pod;
    showJudgePod();
  }

  function showJudgePod() {
    const p = latestPods.pods.find((x) => String(x.pod) === $("jp-pod").value);
    if (!p) return;
    const seats = p.seats.map((x) => x.player);
    const r = podPending.find((x) => x.round === latestPods.round && x.pod === p.pod);
    const recorded = p.seats.every((x) => x.place);
    judgePlaces = recorded ? p.seats.map((x) => x.place) : r ? r.places.slice() : seats.map(() => 0);
    const dispute = r && r.disputed ? el("p", { class: "pod-note" }, `Disputed: ${r.reported_by} reported ${placesSaid(seats, r.places)}; ${r.disputed}.`) : "";
    $("jp-seats").replaceChildren(placePicker(seats, judgePlaces, false), dispute);
    $("jp-enter").textContent = recorded ? "Correct places" : "Enter places";
    // Correcting recorded places, or settling a dispute, is on the record with its reason.
    $("jp-reason").required = recorded || !!(r && r.disputed);
  }

  function renderPodPending() {
    const me = kifu.who();
    $("pod-pending").replaceChildren(
      ...podPending.map((r) => {
        const seats = (r.seats || []).map((x) => x.player);
        const mine = me.role === "player" && me.scope === id && seats.includes(me.name);
        return el(
          "div",
          { class: "pod-report" + (r.disputed ? " disputed" : ""), dataset: { round: r.round, pod: r.pod, state: r.disputed ? "disputed" : "waiting" } },
          el("p", {}, el("strong", {}, `Round ${r.round}, pod ${r.pod}: `), placesSaid(seats, r.places)),
          el("p", { class: "muted" }, `reported by ${r.reported_by}` + (r.confirmed_by.length ? ` · confirmed by ${r.confirmed_by.join(", ")}` : "") + ((r.to_confirm || []).length ? ` · waiting for ${r.to_confirm.join(", ")}` : "")),
          r.disputed ? el("p", { class: "error" }, `Disputed: ${r.disputed}. A judge enters the places.`) : null,
          mine && (r.to_confirm || []).includes(me.name) && !r.disputed ? el("p", {}, "Your pod: confirm or dispute above.") : null,
          official() && latestPods && latestPods.round === r.round
            ? el("div", { class: "buttons" }, el("button", { type: "button", dataset: { judgePod: r.pod }, onclick: () => (($("jp-pod").value = r.pod), showJudgePod(), $("judge-pod").scrollIntoView({ block: "start" })) }, `Enter pod ${r.pod}'s places`))
            : null
        );
      })
    );
    $("pod-pending-none").hidden = podPending.length > 0;
  }

  async function loadPodResults() {
    const pods = format === "pods";
    $("pod-results").hidden = !pods;
    $("table-results").hidden = pods;
    if (!pods) return;
    const [latest, p] = await Promise.all([api(`/tournaments/${enc}/pairings`).catch(() => null), api(`/tournaments/${enc}/pods/results`)]);
    latestPods = latest;
    podPending = p.pending;
    renderMyPod();
    renderJudgePod();
    renderPodPending();
  }

  async function report(e) {
    e.preventDefault();
    const body = {
      score: $("r-score").value,
      games: $("r-games").value.split(",").map((s) => s.trim()).filter(Boolean),
    };
    if ($("r-round").value) body.round = Number($("r-round").value);
    if ($("r-table").value) body.table = Number($("r-table").value);
    if ($("r-player").value) body.player = $("r-player").value;
    if ($("r-reason").value) body.reason = $("r-reason").value;
    try {
      const r = await api(`/tournaments/${enc}/results`, { method: "POST", body });
      $("r-status").textContent = r.recorded ? "recorded" : "waiting for your opponent's confirmation";
      await loadAll();
    } catch (err) {
      $("r-status").textContent = err.message;
    }
  }

  // The tab the address asked for before the token's role was known ("#run" waits for it).
  let asked = location.hash.slice(1);

  // Officials' controls for officials only: the "Run event" tab, and on an id no event holds yet
  // (the server's 404 page is this page with a notice) the "New event" form for an organizer.
  function showRun(missing, s) {
    const may = missing ? organizer() : official();
    $("tab-run").hidden = !may;
    $("run").hidden = !may;
    $("run-new").hidden = !(missing && may);
    if (missing && may) loadGames();
    // A finalized or archived event is read, not run: no floor action is offered.
    const closed = !missing && s && (s.finalized || s.archived);
    $("run-ongoing").hidden = missing || !!closed;
    $("run-setup").hidden = missing || !!closed;
    $("run-archive").hidden = missing || !organizer() || !!(s && s.archived);
    $("run-closed").hidden = !closed;
    if (closed) $("run-closed").textContent = s.archived ? `This event was archived by ${s.archived.by} (${s.archived.reason}): it stays on the record and verifiable, hidden from the lists.` : "This event is finalized: nothing more is recorded but signatures, so no floor action is offered.";
    document.querySelector("nav.tabs").hidden = missing;
    for (const x of document.querySelectorAll("section.tab:not(#run), #checks-box, #verify-line")) x.hidden = missing;
    if (may && (missing || asked === "run")) {
      tab("run");
      asked = "";
    }
    else if (!may && document.querySelector("section.tab.on#run")) tab("pairings");
  }

  async function loadAll() {
    try {
      let s;
      try {
        s = await api(`/tournaments/${enc}`);
      } catch (e) {
        if (e.status === 404) {
          showRun(true);
          // The page's own notice already says so (see assets.rs).
          if ($("not-found")) return;
        }
        throw e;
      }
      showRun(false, s);
      showSetup(s);
      if ($("not-found")) $("not-found").remove();
      format = s.format;
      $("run-pair").textContent = format === "pods" ? "Seat the next pod round" : "Pair next Swiss round";
      $("t-name").textContent = s.name;
      document.title = s.name + " · kifu";
      $("t-info").textContent =
        `${s.game} · ${s.format === "pods" ? "points by place" : s.policy + " policy"} · ${s.best_of ? "best of " + s.best_of + " · " : ""}${s.players} players · ${s.swiss_played}/${s.swiss_rounds ?? "?"} ${s.format === "pods" ? "pod" : "Swiss"} rounds` +
        (s.top_cut ? ` · top ${s.top_cut}` : "") +
        (s.finalized ? (s.finalized_early ? ` · finalized early (${s.finalized_early.reason})` : " · finalized") : "") +
        (s.archived ? " · archived" : "") +
        (s.head_judge ? ` · head judge ${s.head_judge}` : "") +
        (s.judges && s.judges.length ? ` · judges ${s.judges.join(", ")}` : "") +
        (s.decks_required ? ` · deck lists required${s.deck_deadline ? " by " + kifu.zonedTime(s.deck_deadline, s.time_zone, true) + " (" + kifu.zoneLabel(s.time_zone) + ")" : ""}` : "") +
        ` · head ${short(s.head)}`;
      roundNumbers = s.rounds.map((r) => r.round);
      const sel = $("round");
      const cur = sel.value;
      sel.replaceChildren(...s.rounds.map((r) => el("option", { value: r.round }, `${r.round}${r.top_cut ? " (top cut)" : ""}`)));
      // The pairings (and what prints) follow the newest round once one is paired, unless an
      // earlier round was chosen on purpose.
      const newest = s.rounds.length ? String(s.rounds[s.rounds.length - 1].round) : "";
      sel.value = cur && cur !== shownNewest && roundNumbers.includes(Number(cur)) ? cur : newest;
      shownNewest = newest;
      await Promise.all([loadPairings(sel.value), loadStandings(), loadBracket(), loadPlacings(), loadPending()]);
      showError(null);
    } catch (e) {
      showError(e);
    }
    loadVerify();
  }

  let shownNewest = "";
  let games = [];
  let headJudge = null;
  const mayOverride = () => organizer() || (official() && kifu.who().name === headJudge);

  // The setup an official changes on the page: the top cut until it is cut (the policy's
  // attendance table as the default), the head judge and the judges.
  function showSetup(s) {
    headJudge = s.head_judge;
    const pods = s.format === "pods";
    const cut = s.top_cut ?? s.top_cut_by_attendance ?? 0;
    const how = s.top_cut_started ? "the cut is made: its size no longer changes" : s.top_cut === null || s.top_cut === undefined ? `by attendance: top ${s.top_cut_by_attendance || "none"} for ${s.players} players, fixed when round 1 is paired` : "changeable until the cut is made";
    $("setup-info").textContent = (pods ? `pods of ${s.pod_size} (and ${s.pod_size - 1}); placings by pod standings` : `top cut ${cut ? "top " + cut : "none"} (${how})`) + ` · head judge ${s.head_judge || "not named"} · judges ${(s.judges || []).join(", ") || "none named"} · ${kifu.zoneLabel(s.time_zone)}`;
    $("run-cut").hidden = pods || s.top_cut_started || !mayOverride();
    if (document.activeElement !== $("c-cut")) $("c-cut").value = String(cut);
    $("run-head-judge").hidden = !organizer();
    $("run-judge").hidden = !organizer();
  }

  // The games this server records, for the new-event form (a game of more than two seats is
  // played in pods; a game of two, in Swiss).
  async function loadGames() {
    if (games.length) return;
    try {
      games = (await api("/rulesets")).rulesets;
    } catch (e) {
      return ($("run-status").textContent = e.message);
    }
    $("n-game").replaceChildren(...games.map((g) => el("option", { value: g.ruleset }, `${g.ruleset} (${g.min_seats === g.max_seats ? g.min_seats : g.min_seats + "–" + g.max_seats} players)`)));
    if (!$("n-zone").value) $("n-zone").value = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
    newGameChosen();
  }

  function newGameChosen() {
    const g = games.find((x) => x.ruleset === $("n-game").value);
    if (!g) return;
    const multi = g.max_seats > 2;
    $("n-format").value = multi ? "pods" : "swiss";
    $("n-format").querySelector("[value=swiss]").disabled = g.min_seats > 2;
    $("n-format").querySelector("[value=pods]").disabled = !multi;
    const sizes = [];
    for (let k = Math.max(3, g.min_seats + 1); k <= Math.min(8, g.max_seats); k++) sizes.push(k);
    $("n-pod-size").replaceChildren(...sizes.map((k) => el("option", { value: k }, `${k} (and ${k - 1})`)));
    if (sizes.includes(4)) $("n-pod-size").value = "4";
    $("n-game-hint").textContent = multi ? `${g.ruleset} seats ${g.min_seats} to ${g.max_seats}: played in pods, places reported per pod.` : `${g.ruleset} is played two a table: Swiss rounds, then the top cut.`;
    newFormatChosen();
  }

  function newFormatChosen() {
    const pods = $("n-format").value === "pods";
    $("n-pod-line").hidden = !pods;
    $("n-best-line").hidden = pods;
    $("n-cut-line").hidden = pods;
  }

  function newEventBody() {
    const pods = $("n-format").value === "pods";
    const body = { id, name: $("n-name").value, game: $("n-game").value, format: $("n-format").value, policy: $("n-policy").value, time_zone: $("n-zone").value.trim() };
    if (pods) body.pod_size = Number($("n-pod-size").value);
    else body.best_of = Number($("n-best").value);
    if ($("n-rounds").value) body.rounds = Number($("n-rounds").value);
    if (!pods && $("n-cut").value !== "") body.top_cut = Number($("n-cut").value);
    if ($("n-decks").checked) {
      body.decks_required = true;
      if ($("n-deadline").value) body.deck_deadline = new Date($("n-deadline").value).toISOString();
    }
    if ($("n-head-judge").value.trim()) body.head_judge = $("n-head-judge").value.trim();
    body.judges = $("n-judges").value.split(",").map((x) => x.trim()).filter(Boolean);
    return body;
  }

  // Running the event: each action posts, then the page reloads its data.
  function run(id, path, body) {
    const go = async (e) => {
      if (e) e.preventDefault();
      try {
        const r = await api(`/tournaments/${enc}/${path}`, { method: "POST", body: body ? body() : {} });
        $("run-status").textContent = "done" + (r.round ? `: round ${r.round} paired` : "") + (r.early ? " (finalized early)" : "");
        await loadAll();
      } catch (err) {
        $("run-status").textContent = err.message;
      }
    };
    const node = $(id);
    node.addEventListener(node.tagName === "FORM" ? "submit" : "click", go);
  }
  run("run-register", "players", () => ({ players: $("g-players").value.split(",").map((x) => x.trim()).filter(Boolean) }));
  run("run-pair", "rounds");
  run("run-topcut", "top-cut");
  run("run-void", "void", () => ({ reason: $("v-reason").value }));
  run("run-drop", "drops", () => ({ player: $("d-player").value }));
  run("run-penalty", "penalties", () => ({ player: $("p-player").value, penalty: $("p-kind").value, reason: $("p-reason").value }));
  run("run-finalize", "finalize", () => ($("f-reason").value ? { reason: $("f-reason").value } : {}));
  run("run-cut", "top-cut/size", () => ({ top_cut: Number($("c-cut").value) }));
  run("run-head-judge", "head-judge", () => ({ judge: $("hj-name").value }));
  run("run-judge", "judges", () => ({ judge: $("j-name").value }));
  run("run-archive", "archive", () => ({ reason: $("a-reason").value }));
  $("n-game").addEventListener("change", newGameChosen);
  $("n-format").addEventListener("change", newFormatChosen);
  $("n-decks").addEventListener("change", () => ($("n-deadline-line").hidden = !$("n-decks").checked));
  $("run-new").addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await api(`/tournaments`, { method: "POST", body: newEventBody() });
      $("run-status").textContent = "Event created. Register its players below.";
      await loadAll();
    } catch (err) {
      $("run-status").textContent = err.message;
    }
  });
  $("floor-link").href = `/tournament/${enc}/judge`;
  $("print-by-table").addEventListener("click", () => printOut("table"));
  $("print-by-name").addEventListener("click", () => printOut("name"));
  $("print-slips").addEventListener("click", () => printOut("slips"));
  window.addEventListener("hashchange", () => tab(location.hash.slice(1)));
  for (const b of document.querySelectorAll("nav.tabs button")) b.addEventListener("click", () => tab(b.dataset.tab));
  $("round").addEventListener("change", (e) => loadPairings(e.target.value));
  $("by-table").addEventListener("click", () => ((byName = false), renderPairings()));
  $("by-name").addEventListener("click", () => ((byName = true), renderPairings()));
  $("report-form").addEventListener("submit", report);
  $("jp-pod").addEventListener("change", () => {
    $("jp-status").textContent = "";
    showJudgePod();
  });
  $("judge-pod").addEventListener("submit", (e) => {
    e.preventDefault();
    const body = { round: latestPods.round, pod: Number($("jp-pod").value), places: judgePlaces };
    if ($("jp-reason").value.trim()) body.reason = $("jp-reason").value.trim();
    if (judgePlaces.some((x) => !x)) return ($("jp-status").textContent = "Choose a place for every seat.");
    podPost("", body, $("jp-status")).then(() => ($("jp-reason").value = ""));
  });
  initExplain();
  if (asked && asked !== "run") tab(asked);
  kifu.tokenBox($("auth"), () => (showExplainMe(), loadAll())).then(() => (showExplainMe(), loadAll()));
})();
