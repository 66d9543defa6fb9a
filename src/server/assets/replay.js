// The replay viewer: renders any game's BoardView JSON; a scrubber, steps, play, jumps to turn
// and phase, keyboard shortcuts; an event list in sync; audit findings on the timeline; a
// perspective switch limited by the token's role; the position in the URL; live games over SSE.
"use strict";

(() => {
  const { api, el, short } = kifu;
  const $ = (id) => document.getElementById(id);
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const params = new URLSearchParams(location.search);

  const st = {
    summary: null,
    len: 0,
    seq: 0,
    viewer: params.get("as") || "spectator",
    entries: [],
    playing: null,
    request: 0,
    source: null,
  };

  function showError(e) {
    $("error").textContent = e ? String(e.message || e) : "";
  }

  // --- board rendering (generic: zones, cards, groups, counters, facts) ---
  function cardView(c) {
    if (c === "Hidden" || (c && c.Hidden !== undefined)) {
      return el("div", { class: "card hidden", title: "face down" }, "face down");
    }
    const k = c.Known || c;
    return el(
      "div",
      { class: "card known", dataset: { instance: k.instance, card: k.card } },
      el("span", { class: "cname" }, k.name),
      el("span", { class: "cid" }, k.card + " · " + k.instance),
      el("div", {}, (k.statuses || []).map((s) => el("span", { class: "status" }, s)))
    );
  }

  function zoneView(z) {
    const cards = el("div", { class: "cards" }, z.cards.map(cardView));
    const pile = z.cards.length === 0 && z.groups.length === 0 && z.count > 0 ? el("span", { class: "pile" }, z.count + " cards") : null;
    const groups = z.groups.map((g) =>
      el(
        "div",
        { class: "group" },
        el("span", { class: "glabel" }, g.label),
        " ",
        g.facts.map((f) => el("span", { class: "chip" }, f)),
        el("div", { class: "cards" }, g.cards.map(cardView))
      )
    );
    return el(
      "div",
      { class: "zone", dataset: { zone: z.zone, count: z.count } },
      el("span", { class: "zname" }, `${z.zone} (${z.count})`),
      pile,
      z.cards.length ? cards : null,
      groups
    );
  }

  function renderBoard(resp) {
    const b = resp.board;
    const players = st.summary.players;
    const board = $("board");
    const seats = b.seats.map((s) =>
      el(
        "div",
        { class: "seat" + (b.active === s.seat ? " active" : ""), dataset: { seat: s.seat } },
        el("h3", {}, s.name, b.active === s.seat ? " · active" : ""),
        el("div", { class: "counters" }, s.counters.map(([k, v]) => el("span", { class: "chip" }, `${k}: ${v}`))),
        s.zones.map(zoneView)
      )
    );
    const shared =
      b.shared.length || b.facts.length
        ? el(
            "div",
            { class: "shared" },
            el("div", { class: "counters" }, b.facts.map(([k, v]) => el("span", { class: "chip" }, `${k}: ${v}`))),
            b.shared.map(zoneView)
          )
        : null;
    board.replaceChildren(...seats, shared || "");
    board.dataset.seq = resp.seq;
    board.dataset.viewer = resp.viewer;
    const active = b.active === null || b.active === undefined ? "" : ` · ${players[b.active] || "seat " + b.active} active`;
    $("position").textContent = `turn ${b.turn} · ${b.phase}${active}`;
    $("position").dataset.turn = b.turn;
    $("position").dataset.phase = b.phase;
    const o = b.outcome;
    $("outcome").replaceChildren(
      o ? el("div", { class: "badge ok", id: "outcome-badge" }, outcomeText(o, players) + " — " + o.reason) : ""
    );
  }

  // The result in words from the outcome's placements: the first place minus eliminated seats won.
  function outcomeText(o, players) {
    const name = (s) => players[s] || "seat " + s;
    const first = (o.placements[0] || []).filter((s) => !o.eliminated.includes(s));
    if (!first.length) return "everyone lost";
    if (o.placements.length === 1) return "draw";
    return first.map(name).join(", ") + (first.length > 1 ? " share the win" : " won");
  }

  // --- position ---
  function syncUrl() {
    const p = new URLSearchParams();
    p.set("seq", st.seq);
    if (st.viewer !== "spectator") p.set("as", st.viewer);
    history.replaceState(null, "", location.pathname + "?" + p.toString());
  }

  function syncEvents() {
    const list = $("events");
    let current = null;
    for (const li of list.children) {
      const s = Number(li.dataset.seq);
      li.classList.toggle("current", s === st.seq - 1);
      li.classList.toggle("future", s >= st.seq);
      if (s === st.seq - 1) current = li;
    }
    if (current) {
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top > list.scrollTop + list.clientHeight - 20) list.scrollTop = top - list.clientHeight / 2;
    }
  }

  async function go(seq) {
    seq = Math.max(0, Math.min(st.len, seq | 0));
    st.seq = seq;
    $("scrubber").value = seq;
    $("seq-label").textContent = `event ${seq} / ${st.len}`;
    syncUrl();
    syncEvents();
    const n = ++st.request;
    try {
      const resp = await api(`/games/${encodeURIComponent(id)}/board?seq=${seq}&as=${encodeURIComponent(st.viewer)}`);
      if (n !== st.request) return; // a later request superseded this one
      renderBoard(resp);
      showError(null);
    } catch (e) {
      showError(e);
    }
  }

  function turnStarts() {
    // First event boundary of each turn, from the summary's position list.
    const out = [];
    let lastTurn = -1;
    for (const p of st.summary.positions) {
      if (p.turn !== lastTurn) {
        out.push(p);
        lastTurn = p.turn;
      }
    }
    return out;
  }

  function stepTurn(dir) {
    const starts = turnStarts();
    if (dir > 0) {
      const next = starts.find((p) => p.seq > st.seq);
      go(next ? next.seq : st.len);
    } else {
      const prev = starts.filter((p) => p.seq < st.seq).pop();
      go(prev ? prev.seq : 0);
    }
  }

  async function jump() {
    const turn = $("turn-input").value;
    if (turn === "") return;
    const phase = $("phase-select").value;
    try {
      const q = `turn=${Number(turn)}` + (phase ? `&phase=${encodeURIComponent(phase)}` : "");
      const resp = await api(`/games/${encodeURIComponent(id)}/board?${q}&as=${encodeURIComponent(st.viewer)}`);
      go(resp.seq);
    } catch (e) {
      showError(e);
    }
  }

  // --- play ---
  function stop() {
    if (st.playing) clearInterval(st.playing);
    st.playing = null;
    $("play").textContent = "▶ play";
  }

  function play() {
    if (st.playing) return stop();
    if (st.seq >= st.len) go(0);
    const speed = Number($("speed").value) || 1;
    $("play").textContent = "⏸ pause";
    st.playing = setInterval(() => {
      if (st.seq >= st.len) return stop();
      go(st.seq + 1);
    }, 1000 / speed);
  }

  function changeSpeed(d) {
    const s = $("speed");
    s.selectedIndex = Math.max(0, Math.min(s.options.length - 1, s.selectedIndex + d));
    if (st.playing) {
      stop();
      play();
    }
  }

  // --- events list ---
  function entryItem(e) {
    return el(
      "li",
      { class: e.kind === "ruling" ? "ruling" : e.kind === "forced" ? "flagged" : "", dataset: { seq: e.seq, turn: e.turn, phase: e.phase } },
      el("span", { class: "seq" }, "#" + e.seq),
      e.text
    );
  }

  async function loadEvents() {
    const list = $("events");
    list.replaceChildren();
    st.entries = [];
    let from = 0;
    for (;;) {
      const page = await api(`/games/${encodeURIComponent(id)}/events?from=${from}&limit=1000&as=${encodeURIComponent(st.viewer)}`);
      st.entries.push(...page.entries);
      list.append(...page.entries.map(entryItem));
      if (page.next === null || page.next === undefined) break;
      from = page.next;
    }
  }

  async function loadAudit() {
    try {
      const a = await api(`/games/${encodeURIComponent(id)}/audit`);
      const m = $("markers");
      m.replaceChildren();
      for (const f of a.findings) {
        if (f.seq === null || f.seq === undefined) continue;
        const at = st.len ? ((f.seq + 1) / st.len) * 100 : 0;
        const mk = el("span", {
            class: "marker" + (f.resolution ? " ruled" : ""),
            title: `event ${f.seq}: ${f.rule}${f.resolution ? " — " + f.resolution : " — unresolved"}${f.message ? ": " + f.message : ""}`,
            dataset: { seq: f.seq, rule: f.rule },
            onclick: () => go(f.seq + 1),
          });
        // Through the CSSOM: the content security policy forbids inline style attributes.
        mk.style.left = at + "%";
        m.append(mk);
        const li = $("events").querySelector(`li[data-seq="${f.seq}"]`);
        if (li) li.classList.add("flagged");
      }
      $("audit-summary").textContent = a.findings.length
        ? `audit: ${a.findings.length} finding(s), ${a.unresolved} unresolved`
        : "audit: clean";
    } catch (e) {
      $("audit-summary").textContent = "audit unavailable: " + e.message;
    }
  }

  function fillPerspectives() {
    const sel = $("perspective");
    const names = st.summary.players;
    sel.replaceChildren(
      ...st.summary.access.viewers.map((v) => {
        let label = v;
        if (v.startsWith("seat:")) label = (names[Number(v.slice(5))] || v) + " (" + v + ")";
        return el("option", { value: v }, label);
      })
    );
    if (!st.summary.access.viewers.includes(st.viewer)) st.viewer = "spectator";
    sel.value = st.viewer;
  }

  function fillPhases() {
    const phases = [...new Set(st.summary.positions.map((p) => p.phase))];
    $("phase-select").replaceChildren(el("option", { value: "" }, "any"), ...phases.map((p) => el("option", { value: p }, p)));
  }

  // --- live ---
  function follow() {
    if (st.source) st.source.close();
    st.source = null;
    if (!st.summary.live) return;
    $("live-badge").hidden = false;
    $("follow-label").hidden = false;
    const t = kifu.token();
    const q = `as=${encodeURIComponent(st.viewer)}&from=${st.len}` + (t ? `&access_token=${encodeURIComponent(t)}` : "");
    const src = new EventSource(`/api/v1/games/${encodeURIComponent(id)}/live?${q}`);
    src.addEventListener("entry", (msg) => {
      const d = JSON.parse(msg.data);
      if (d.entry.seq < st.entries.length) return;
      st.entries.push(d.entry);
      $("events").append(entryItem(d.entry));
      st.len = d.events;
      $("scrubber").max = st.len;
      $("chain").replaceChildren("chain verified ✓ · head ", el("code", { id: "head", title: d.head }, short(d.head)), ` · ${st.len} events`);
      if ($("follow").checked) go(st.len);
      else $("seq-label").textContent = `event ${st.seq} / ${st.len}`;
    });
    st.source = src;
  }

  async function load() {
    stop();
    const s = await api(`/games/${encodeURIComponent(id)}`);
    st.summary = s;
    st.len = s.events;
    $("title").textContent = `${s.id} — ${s.players.join(" vs ")} (${s.ruleset})`;
    document.title = `${s.id} · kifu`;
    $("scrubber").max = s.events;
    $("chain").replaceChildren(
      el("span", { class: "badge ok", id: "chain-badge" }, "chain verified ✓"),
      " head ",
      el("code", { id: "head", title: s.head }, short(s.head)),
      ` · ${s.events} events`
    );
    fillPerspectives();
    fillPhases();
    await loadEvents();
    await loadAudit();
    const want = params.has("seq") ? Number(params.get("seq")) : s.events;
    await go(want);
    follow();
  }

  function wire() {
    $("first").addEventListener("click", () => go(0));
    $("last").addEventListener("click", () => go(st.len));
    $("back").addEventListener("click", () => go(st.seq - 1));
    $("fwd").addEventListener("click", () => go(st.seq + 1));
    $("play").addEventListener("click", play);
    $("scrubber").addEventListener("input", (e) => go(Number(e.target.value)));
    $("jump").addEventListener("click", jump);
    $("turn-input").addEventListener("keydown", (e) => {
      if (e.key === "Enter") jump();
    });
    $("speed").addEventListener("change", () => {
      if (st.playing) {
        stop();
        play();
      }
    });
    $("perspective").addEventListener("change", async (e) => {
      st.viewer = e.target.value;
      await loadEvents();
      await go(st.seq);
      follow();
    });
    $("events").addEventListener("click", (e) => {
      const li = e.target.closest("li");
      if (li) go(Number(li.dataset.seq) + 1);
    });
    document.addEventListener("keydown", (e) => {
      const tag = (e.target.tagName || "").toLowerCase();
      if (tag === "input" && e.target.type !== "range") return;
      if (tag === "select") return;
      switch (e.key) {
        case "ArrowLeft":
          e.preventDefault();
          e.shiftKey ? stepTurn(-1) : go(st.seq - 1);
          break;
        case "ArrowRight":
          e.preventDefault();
          e.shiftKey ? stepTurn(1) : go(st.seq + 1);
          break;
        case " ":
          e.preventDefault();
          play();
          break;
        case "Home":
          e.preventDefault();
          go(0);
          break;
        case "End":
          e.preventDefault();
          go(st.len);
          break;
        case "+":
        case "=":
          changeSpeed(1);
          break;
        case "-":
          changeSpeed(-1);
          break;
      }
    });
  }

  wire();
  kifu.tokenBox($("auth"), () => load().catch(showError)).then(() => load().catch(showError));
})();
