// The replay viewer: draws any game's BoardView as a table from the layout the game gives (no
// per-game code): the viewer's seat at the bottom, the opponents on top, mirrored, the shared
// areas between. A scrubber, steps, play, jumps to turn and phase, keyboard shortcuts, an event
// list paged in behind the first board, audit findings in a panel and on the timeline, a
// perspective switch limited by the token's role, the position in the URL, downloads for
// judges, and live games over SSE with reconnect and resume.
"use strict";

(() => {
  const { api, el, outcomeText, short } = kifu;
  const $ = (id) => document.getElementById(id);
  const id = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
  const gid = encodeURIComponent(id);
  const params = new URLSearchParams(location.search);

  const st = {
    summary: null,
    len: 0,
    seq: 0,
    viewer: params.get("as") || "spectator",
    entries: [],
    eventsDone: false,
    pendingLive: [], // live entries that arrived while the list was paging in
    playing: null,
    request: 0,
    inflight: null,
    boards: new Map(), // "viewer seq" -> board response; a small cache, oldest dropped first
    rows: [], // the event list's row of each event, by sequence number
    synced: null, // the position the rows' "future" marks were last set for (null: none yet)
    source: null,
    following: true,
    lastSeen: -1, // the last live sequence number received
    findings: [],
    refresh: null,
    ready: false,
  };
  const BOARD_CACHE = 64;

  function showError(e) {
    $("error").textContent = e ? String(e.message || e) : "";
  }

  function announce(text) {
    $("announce").textContent = text;
  }

  const isJudge = () => st.viewer === "judge";
  const mySeat = () => (st.viewer.startsWith("seat:") ? Number(st.viewer.slice(5)) : 0);

  // --- cards ---
  const STAT_SHORT = { attack: "atk", support: "sup", power: "pow", shield: "shd", grade: "G", critical: "crit", "hand cost": "hand" };

  function cardView(c) {
    if (c === "Hidden" || (c && c.Hidden !== undefined)) {
      return el("div", { class: "card hidden", title: "face down", role: "img", "aria-label": "face-down card" });
    }
    const k = c.Known || c;
    const stats = (k.stats || []).map(([n, v]) => el("span", { class: "stat", title: n }, `${STAT_SHORT[n] || n} ${v}`));
    const title = [k.name, k.card, ...(k.stats || []).map(([n, v]) => `${n} ${v}`), ...(k.statuses || [])].join(" · ");
    // A Tab stop that says the whole card (its name may be clamped on a desktop): focusing it,
    // by Tab or a tap, writes the full text under the last action, where a touch screen, which
    // shows no hover tooltip, can read it; Enter or Space acts as a tap (record mode's too).
    return el(
      "div",
      { class: "card known", title, tabindex: "0", role: "button", dataset: { instance: k.instance, card: k.card } },
      el("span", { class: "cname" }, k.name),
      stats.length ? el("span", { class: "stats" }, stats) : null,
      (k.statuses || []).length ? el("span", { class: "statuses" }, k.statuses.map((s) => el("span", { class: "status" }, s))) : null,
      el("span", { class: "cid" }, k.card, isJudge() ? " · " + k.instance : "")
    );
  }

  function groupView(g) {
    return el(
      "div",
      { class: "group", dataset: { label: g.label } },
      el("span", { class: "glabel" }, g.label),
      g.facts.map((f) => el("span", { class: "chip" }, f)),
      el("div", { class: "cards" }, g.cards.map(cardView))
    );
  }

  // Placement through the CSSOM: the content security policy forbids inline style attributes.
  function place(node, row, rows, col, cols) {
    node.style.gridRow = `${row} / span ${rows}`;
    node.style.gridColumn = `${col} / span ${cols}`;
    return node;
  }

  function zoneView(z, area, mirrored) {
    const style = area ? area.style : "row";
    const head = el("span", { class: "zname" }, z.zone, " ", el("span", { class: "count" }, String(z.count)));
    const node = el("div", { class: "zone area-" + style, dataset: { zone: z.zone, count: z.count } }, head);
    if (style === "cells" && area.cells.length) {
      const rows = Math.max(...area.cells.map((c) => c[1]));
      const cols = Math.max(...area.cells.map((c) => c[2]));
      const grid = el("div", { class: "cellgrid" });
      grid.style.gridTemplateColumns = `repeat(${cols}, minmax(0, 1fr))`;
      // A group lies in the cell its label names, or ends with ("B1 r1c4" in "r1c4"); a cell
      // no group takes is drawn empty, so the rows and columns stay in sight.
      const cellOf = (g) => area.cells.find((c) => c[0] === g.label) || area.cells.find((c) => g.label.endsWith(" " + c[0]));
      const taken = new Set();
      // Row 1 is nearest the seat's own edge: lowest on the viewer's side, highest when mirrored.
      const at = (node, cell) => place(node, mirrored ? cell[1] : rows - cell[1] + 1, 1, cell[2], 1);
      for (const g of z.groups) {
        const cell = cellOf(g);
        const node = groupView(g);
        if (cell) {
          at(node, cell);
          taken.add(cell[0]);
        }
        grid.append(node);
      }
      for (const cell of area.cells.filter((c) => !taken.has(c[0]))) grid.append(at(el("div", { class: "cell-empty", "aria-hidden": "true" }, cell[0]), cell));
      node.append(grid);
      return node;
    }
    if (style === "pile" && z.count > 0) {
      const cards = z.cards.concat(...z.groups.map((g) => g.cards));
      const top = cards.length ? cards[cards.length - 1] : null;
      const topName = top && top.Known ? top.Known.name : null;
      if (cards.length) {
        node.append(
          el(
            "details",
            { class: "pile-list" },
            el("summary", {}, topName ? `top: ${topName}` : `${z.count} face down`),
            el("div", { class: "cards" }, cards.map(cardView))
          )
        );
      }
      return node;
    }
    if (z.cards.length) node.append(el("div", { class: "cards" + (z.cards.every((c) => c === "Hidden") ? " fan" : "") }, z.cards.map(cardView)));
    else if (!z.groups.length && z.count > 0) node.append(el("span", { class: "pile-count" }, `${z.count} cards`));
    node.append(...z.groups.map(groupView));
    return node;
  }

  // One seat's side: the layout's grid, mirrored for an opponent.
  function sideView(s, b, layout, mirrored) {
    const areas = layout.areas.filter((a) => a.side === "seat");
    const rows = Math.max(1, ...areas.map((a) => a.row + a.rows - 1));
    const grid = el("div", { class: "side-grid" });
    grid.style.gridTemplateColumns = `repeat(${layout.columns}, minmax(0, 1fr))`;
    const extra = [];
    for (const z of s.zones) {
      const a = areas.find((x) => x.zone === z.zone);
      if (!a) {
        extra.push(z);
        continue;
      }
      const row = mirrored ? a.row : rows - (a.row + a.rows - 1) + 1;
      grid.append(place(zoneView(z, a, mirrored), row, a.rows, a.col, a.cols));
    }
    for (const [i, z] of extra.entries()) {
      const n = zoneView(z, null, mirrored);
      n.style.gridRow = String(rows + 1 + i);
      n.style.gridColumn = `1 / span ${layout.columns}`;
      grid.append(n);
    }
    // A finished game has no one to act: no "active" badge on any seat.
    const active = !b.outcome && b.active === s.seat;
    const head = el(
      "div",
      { class: "seat-head" },
      el("h3", {}, s.name, active ? el("span", { class: "badge turn" }, "active") : null),
      el("div", { class: "counters" }, s.counters.map(([k, v]) => el("span", { class: "chip" }, `${k}: ${v}`)))
    );
    return el(
      "section",
      { class: "seat" + (active ? " active" : "") + (mirrored ? " opponent" : " own"), dataset: { seat: s.seat }, "aria-label": `${s.name}'s side` },
      mirrored ? head : grid,
      mirrored ? grid : head
    );
  }

  // A game without a layout: every zone a full-width row, in order.
  function autoLayout(b) {
    const names = b.seats.length ? b.seats[0].zones.map((z) => z.zone) : [];
    return {
      columns: 1,
      areas: names.map((zone, i) => ({ zone, side: "seat", row: names.length - i, col: 1, rows: 1, cols: 1, style: "row", cells: [] })),
    };
  }

  function renderBoard(resp) {
    const b = resp.board;
    const players = st.summary.players;
    const layout = b.layout && b.layout.columns ? b.layout : autoLayout(b);
    const me = b.seats.find((s) => s.seat === mySeat()) || b.seats[0];
    const others = b.seats.filter((s) => s !== me);
    const sharedAreas = layout.areas.filter((a) => a.side === "shared");
    // Focusable, so a keyboard can scroll it when it overflows.
    const middle = el("div", { class: "middle", tabindex: "0", role: "region", "aria-label": "shared zones" });
    middle.style.gridTemplateColumns = `repeat(${layout.columns}, minmax(0, 1fr))`;
    for (const z of b.shared) {
      const a = sharedAreas.find((x) => x.zone === z.zone);
      if (z.count === 0) continue;
      middle.append(a ? place(zoneView(z, a, false), 1, 1, a.col, a.cols) : zoneView(z, null, false));
    }
    // Game-wide facts: the first few in sight, the rest one click away.
    // The step is said once, in the position line beside the phase, not again as a chip.
    const chip = ([k, v]) => el("span", { class: "chip" }, `${k}: ${v}`);
    const shown = b.facts.filter(([k]) => k !== "step");
    const facts =
      shown.length > 4
        ? el("details", { class: "facts" }, el("summary", {}, shown.slice(0, 3).map(chip), ` … ${shown.length - 3} more`), el("div", { class: "counters" }, shown.slice(3).map(chip)))
        : el("div", { class: "counters facts" }, shown.map(chip));
    if (st.factsOpen && facts.tagName === "DETAILS") facts.open = true;
    facts.addEventListener("toggle", () => (st.factsOpen = facts.open));
    const top = el("div", { class: "opponents" + (others.length > 1 ? " many" : "") }, others.map((s) => sideView(s, b, layout, true)));
    const board = $("board");
    // The card that had the focus keeps it when it is still on the table after the step.
    const had = document.activeElement && document.activeElement.closest && document.activeElement.closest("#board .card[data-instance]");
    board.replaceChildren(top, el("div", { class: "between" }, facts, middle.children.length ? middle : null), me ? sideView(me, b, layout, false) : "");
    board.dataset.seq = resp.seq;
    board.dataset.viewer = resp.viewer;
    if (had) {
      const again = board.querySelector(`.card[data-instance="${CSS.escape(had.dataset.instance)}"]`);
      if (again) again.focus({ preventScroll: true });
      else $("card-detail").hidden = true;
    }
    // Record mode marks the cards and zones its options concern on every board drawn.
    kifuRecord.board();
    // The turn's seat and who may act (the game's awaited seats, a "waiting for" fact) can differ:
    // a blocker, a priority holder, every Master owing a dice link.
    // Said once when they agree ("alice to act"), both when they differ ("alice's turn · waiting
    // for bob"), so the common case keeps the toolbar on one line.
    // A finished game names no one: it says it is over.
    const turnOf = b.outcome || b.active === null || b.active === undefined ? null : players[b.active] || "seat " + b.active;
    const waiting = b.outcome ? undefined : (b.facts.find(([k]) => k === "waiting for") || [])[1];
    const who = waiting === undefined || waiting === turnOf ? (turnOf ? ` · ${turnOf} to act` : "") : `${turnOf ? ` · ${turnOf}'s turn` : ""} · waiting for ${waiting}`;
    const step = (b.facts.find(([k]) => k === "step") || [])[1];
    const where = b.outcome ? "game over" : `${b.phase} phase` + (step && step !== b.phase ? ` · ${step} step` : "");
    $("position").textContent = `turn ${b.turn} · ${where}${who}`;
    $("position").dataset.turn = b.turn;
    $("position").dataset.phase = b.phase;
    const o = b.outcome;
    $("outcome").replaceChildren(
      o ? el("div", { class: "badge ok", id: "outcome-badge" }, outcomeText(o, players) + " — " + o.reason) : ""
    );
    $("last-action").replaceChildren(
      resp.last ? el("span", {}, el("strong", {}, `#${resp.last.seq} ${resp.last.actor}: `), resp.last.text) : el("span", { class: "muted" }, "the start of the game")
    );
    markChanges(resp);
    const last = resp.last ? ` ${resp.last.actor}: ${resp.last.text}` : "";
    announce(`${positionLabel(resp.seq)}, turn ${b.turn}, ${b.phase}.${last}`);
    if (!st.ready) {
      st.ready = true;
      performance.mark("kifu-first-board"); // read by tools/bench-viewer
      $("controls").disabled = false;
      $("controls-more").disabled = false;
      $("loading").hidden = true;
    }
  }

  // What the last action changed: each card, zone count and counter that differs from the board
  // one event earlier (from the cache, else fetched), outlined on the board.
  function boardMarks(b) {
    const m = new Map(); // key -> [value, what to outline]
    const zones = (owner, zs) => {
      const scope = owner === null ? ".middle" : `.seat[data-seat="${owner}"]`;
      for (const z of zs) {
        m.set(`zone ${owner} ${z.zone}`, [String(z.count), `${scope} .zone[data-zone="${CSS.escape(z.zone)}"] > .zname`]);
        const cards = z.cards.concat(...z.groups.map((g) => g.cards));
        for (const [i, c] of cards.entries()) {
          const k = c === "Hidden" || c.Hidden !== undefined ? null : c.Known || c;
          if (k) m.set(`card ${k.instance}`, [JSON.stringify([owner, z.zone, i, k.stats, k.statuses]), `.card.known[data-instance="${CSS.escape(k.instance)}"]`]);
        }
      }
    };
    for (const s of b.seats) {
      zones(s.seat, s.zones);
      for (const [i, [k, v]] of s.counters.entries()) m.set(`counter ${s.seat} ${k}`, [v, `.seat[data-seat="${s.seat}"] .seat-head .counters .chip:nth-child(${i + 1})`]);
    }
    zones(null, b.shared);
    return m;
  }

  async function markChanges(resp) {
    const board = $("board");
    board.dataset.changed = "0";
    if (resp.seq === 0) return;
    let before;
    try {
      before = await fetchBoard(resp.seq - 1);
    } catch (_) {
      return;
    }
    if (board.dataset.seq !== String(resp.seq) || board.dataset.viewer !== resp.viewer || before.viewer !== resp.viewer) return;
    const was = boardMarks(before.board);
    let n = 0;
    for (const [k, [v, sel]] of boardMarks(resp.board)) {
      if (was.has(k) && was.get(k)[0] === v) continue;
      const node = board.querySelector(sel);
      if (node) {
        node.classList.add("changed");
        n++;
      }
    }
    board.dataset.changed = String(n);
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
    const prev = list.querySelector("li.current");
    if (prev) prev.classList.remove("current");
    // Only the rows between the last position and this one change (a new row is marked as it is
    // added): a step or a live event touches a row or two, not the whole list of a long game.
    const [lo, hi] = st.synced === null ? [0, st.rows.length] : [Math.min(st.synced, st.seq), Math.max(st.synced, st.seq)];
    for (let s = lo; s < Math.min(hi, st.rows.length); s++) {
      const li = st.rows[s];
      const future = s >= st.seq;
      if (li.classList.contains("future") !== future) li.classList.toggle("future", future);
    }
    st.synced = st.seq;
    const current = st.rows[st.seq - 1];
    if (current) {
      current.classList.add("current");
      // The sticky turn header covers the list's first line: a row under it is out of sight too.
      const head = list.querySelector("li.turn-head");
      const covered = head ? head.offsetHeight : 0;
      const top = current.offsetTop - list.offsetTop;
      if (top < list.scrollTop + covered || top + current.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top - list.clientHeight / 2;
    }
    rovingStop();
  }

  // The event list is one Tab stop: the current row (else the first) takes the focus; ↑ ↓ move
  // between rows, Enter or Space shows the board after the focused one.
  function rovingStop() {
    const list = $("events");
    const focused = list.querySelector('li.ev[tabindex="0"]');
    if (focused && document.activeElement === focused) return;
    const want = list.querySelector("li.ev.current") || list.querySelector("li.ev");
    if (focused === want) return;
    if (focused) focused.tabIndex = -1;
    if (want) want.tabIndex = 0;
  }

  function eventListKeys(e) {
    const li = e.target.closest && e.target.closest("li.ev");
    if (!li) return;
    if (e.key === "ArrowDown" || e.key === "ArrowUp") {
      e.preventDefault();
      let n = e.key === "ArrowDown" ? li.nextElementSibling : li.previousElementSibling;
      while (n && !n.classList.contains("ev")) n = e.key === "ArrowDown" ? n.nextElementSibling : n.previousElementSibling;
      if (n) {
        li.tabIndex = -1;
        n.tabIndex = 0;
        n.focus();
      }
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      e.stopPropagation();
      go(Number(li.dataset.seq) + 1);
    }
  }

  function setFollowing(on) {
    st.following = on;
    $("to-live").hidden = on || !st.summary || !st.summary.live;
  }

  function boardUrl(seq) {
    return `/games/${gid}/board?seq=${seq}&as=${encodeURIComponent(st.viewer)}`;
  }

  // A board is the game's first `seq` events seen by a viewer: the log only grows, so it never
  // changes, and the one shown before a live event is the "before" of what the event changed.
  const boardKey = (seq) => st.viewer + " " + seq;

  async function fetchBoard(seq, signal) {
    const key = boardKey(seq);
    if (st.boards.has(key)) return st.boards.get(key);
    const resp = await api(boardUrl(seq), { signal });
    // Only a board is kept: an empty answer is never served from the cache later.
    if (!resp || !resp.board) throw new Error("the server sent no board; try again");
    st.boards.set(key, resp);
    if (st.boards.size > BOARD_CACHE) st.boards.delete(st.boards.keys().next().value);
    return resp;
  }

  // The neighbours of the shown position, fetched while the reader looks at it.
  function prefetch(seq) {
    for (const n of [seq + 1, seq - 1]) {
      if (n < 0 || n > st.len || st.boards.has(boardKey(n))) continue;
      fetchBoard(n).catch(() => {});
    }
  }

  // Events are numbered as the log numbers them (#0 is the first), in every view; a position is
  // how many of them have been played out.
  function positionLabel(seq) {
    return seq === 0 ? `start · 0 of ${st.len} events` : `after #${seq - 1} · ${seq} of ${st.len} events`;
  }

  // An event a judge's backup undid stays listed, marked, and no longer counts.
  function markUndone(row) {
    if (row.classList.contains("undone")) return;
    row.classList.add("undone");
    row.append(el("span", { class: "undone-tag" }, "undone by a backup"));
  }

  async function go(seq, opts = {}) {
    seq = Math.max(0, Math.min(st.len, seq | 0));
    if (st.summary && st.summary.live && !opts.live) setFollowing(seq >= st.len);
    st.seq = seq;
    $("scrubber").value = seq;
    $("seq-label").textContent = positionLabel(seq);
    syncUrl();
    syncEvents();
    // The board on its way already (each live entry of one append names the same head): its
    // answer is the one to draw, not a request again.
    const key = boardKey(seq);
    if (st.inflight && st.inflight.key === key) return;
    const n = ++st.request;
    // A newer position cancels the request for an older one.
    if (st.inflight) st.inflight.ctl.abort();
    const ctl = new AbortController();
    st.inflight = { ctl, key };
    try {
      const resp = await fetchBoard(seq, ctl.signal);
      if (n !== st.request) return;
      st.inflight = null;
      renderBoard(resp);
      showError(null);
      if (!st.playing) prefetch(seq);
    } catch (e) {
      if (n === st.request) st.inflight = null;
      if (e.name !== "AbortError" && n === st.request) showError(e);
    }
  }

  function turnStarts() {
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
      const resp = await api(`/games/${gid}/board?${q}&as=${encodeURIComponent(st.viewer)}`);
      go(resp.seq);
      $("board").focus();
    } catch (e) {
      showError(e);
    }
  }

  // --- play ---
  function stop() {
    if (st.playing) clearInterval(st.playing);
    st.playing = null;
    $("play").textContent = "▶ play";
    $("play").setAttribute("aria-label", "Play");
  }

  function play() {
    if (st.playing) return stop();
    if (st.seq >= st.len) go(0);
    const speed = Number($("speed").value) || 1;
    $("play").textContent = "⏸ pause";
    $("play").setAttribute("aria-label", "Pause");
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

  // --- the event list: actor, time, turn headers; paged in behind the first board ---
  function timeOf(iso) {
    const d = new Date(iso);
    return isNaN(d) ? "" : d.toISOString().slice(11, 19);
  }

  function appendEntries(entries) {
    const list = $("events");
    const items = [];
    let lastTurn = st.entries.length ? st.entries[st.entries.length - 1].turn : null;
    for (const e of entries) {
      if (e.seq !== st.entries.length) continue; // already listed (a live entry and a page overlapped)
      if (e.turn !== lastTurn) {
        items.push(el("li", { class: "turn-head", dataset: { turn: e.turn } }, `Turn ${e.turn}`));
        lastTurn = e.turn;
      }
      st.entries.push(e);
      const row = (st.rows[e.seq] =
        el(
          "li",
          { class: "ev " + (e.kind === "ruling" ? "ruling" : e.kind === "forced" ? "forced" : "") + (e.seq >= st.seq ? " future" : ""), tabindex: "-1", dataset: { seq: e.seq, turn: e.turn, phase: e.phase, kind: e.kind } },
          el("span", { class: "seq" }, "#" + e.seq),
          // Whose action it is, and who entered it when that is someone else (a scorekeeper, a judge, kifu).
          el("span", { class: "actor" }, e.action_of ? `${e.action_of} (entered by ${e.actor})` : e.actor),
          el("time", { class: "at", datetime: e.recorded_at }, timeOf(e.recorded_at)),
          el("span", { class: "text" }, e.text)
        ));
      if (e.undone) markUndone(row);
      // A backup arriving live undoes events already listed: mark them now.
      if (e.backs_up_to !== null && e.backs_up_to !== undefined) {
        for (let k = e.backs_up_to; k < e.seq; k++) {
          const r = st.rows[k];
          if (r && ["play", "forced", "recorded"].includes(r.dataset.kind)) markUndone(r);
        }
      }
      items.push(row);
    }
    list.append(...items);
    // During a live game the count follows the list.
    if (st.eventsDone) $("events-status").textContent = `(${st.entries.length})`;
    rovingStop();
    markFindings();
  }

  async function loadEvents() {
    const viewer = st.viewer;
    $("events").replaceChildren();
    st.entries = [];
    st.rows = [];
    st.synced = null;
    st.eventsDone = false;
    $("events-status").textContent = "loading…";
    for (;;) {
      const page = await api(`/games/${gid}/events?from=${st.entries.length}&limit=250&as=${encodeURIComponent(viewer)}`);
      if (viewer !== st.viewer) return; // the perspective changed: a newer load owns the list
      appendEntries(page.entries);
      if (page.next === null || page.next === undefined || page.entries.length === 0) break;
    }
    appendEntries(st.pendingLive.splice(0));
    st.eventsDone = true;
    performance.mark("kifu-events-loaded");
    $("events-status").textContent = `(${st.entries.length})`;
    syncEvents();
  }

  // --- audit findings: a panel and timeline marks (shape and colour, colour-blind safe) ---
  function markFindings() {
    for (const f of st.findings) {
      if (f.seq === null || f.seq === undefined) continue;
      const li = $("events").querySelector(`li.ev[data-seq="${f.seq}"]`);
      if (li) li.classList.add("flagged");
      // ...and mentioned at the event that brought it to light.
      const at = f.found_at === null || f.found_at === undefined ? null : $("events").querySelector(`li.ev[data-seq="${f.found_at}"]`);
      if (at) at.classList.add("reveals");
    }
  }

  async function loadAudit() {
    try {
      const a = await api(`/games/${gid}/audit`);
      st.findings = a.findings;
      const m = $("markers");
      m.replaceChildren();
      const list = $("findings");
      list.replaceChildren();
      for (const [i, f] of a.findings.entries()) {
        // A violation found late is cited where it was made and names the event that showed it.
        const found = f.found_at === null || f.found_at === undefined ? "" : ` (found at event #${f.found_at})`;
        const where = f.seq === null || f.seq === undefined ? "the whole game" : `event #${f.seq}${found}`;
        const res = f.resolution ? `ruled: ${f.resolution}` : "unresolved";
        const jumpTo = () => {
          if (f.seq !== null && f.seq !== undefined) go(f.seq + 1);
          $("board").focus();
        };
        // A finding about the whole game has no event to jump to: plain text, not a greyed-out
        // (disabled) button, so an unresolved one reads as plainly as any other.
        const atEvent = f.seq !== null && f.seq !== undefined;
        list.append(
          el(
            "li",
            { class: f.resolution ? "ruled" : "open", dataset: { seq: atEvent ? f.seq : "", rule: f.rule } },
            el(
              atEvent ? "button" : "div",
              atEvent ? { type: "button", class: "finding", onclick: jumpTo } : { class: "finding static" },
              el("span", { class: "mark " + (f.resolution ? "ruled" : "open"), "aria-hidden": "true" }, f.resolution ? "●" : "▲"),
              ` ${where} · `,
              el("strong", {}, f.rule),
              f.actor ? ` · ${f.actor}` : "",
              ` · ${res}`,
              f.summary ? el("span", { class: "fsum" }, f.summary) : null
            ),
            f.message ? el("div", { class: "fmsg" }, f.message) : null
          )
        );
        if (f.seq === null || f.seq === undefined) continue;
        const mk = el("button", {
          type: "button",
          class: "marker " + (f.resolution ? "ruled" : "open"),
          title: `${where}: ${f.rule} — ${res}`,
          "aria-label": `finding ${i + 1}: ${where}, ${f.rule}, ${res}`,
          tabindex: "-1",
          dataset: { seq: f.seq, rule: f.rule },
          onclick: jumpTo,
        });
        mk.style.left = (st.len ? ((f.seq + 1) / st.len) * 100 : 0) + "%";
        m.append(mk);
      }
      if (!a.findings.length) list.append(el("li", { class: "muted" }, "none: every event keeps the rules"));
      $("audit-summary").textContent = a.findings.length ? `audit: ${a.findings.length} finding(s), ${a.unresolved} unresolved` : "audit: clean";
      markFindings();
    } catch (e) {
      $("audit-summary").textContent = "audit unavailable: " + e.message;
    }
  }

  function nextFinding() {
    const f = st.findings.find((x) => x.seq !== null && x.seq !== undefined && x.seq + 1 > st.seq);
    const first = st.findings.find((x) => x.seq !== null && x.seq !== undefined);
    const t = f || first;
    if (t) go(t.seq + 1);
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
    $("downloads").hidden = !st.summary.access.viewers.includes("judge");
  }

  function fillPhases() {
    const phases = [...new Set(st.summary.positions.map((p) => p.phase))];
    const sel = $("phase-select");
    const keep = sel.value;
    sel.replaceChildren(el("option", { value: "" }, "any"), ...phases.map((p) => el("option", { value: p }, p)));
    sel.value = phases.includes(keep) ? keep : "";
  }

  function showChain(s) {
    $("chain").replaceChildren(
      el("span", { class: "badge ok", id: "chain-badge" }, "chain verified ✓"),
      " head ",
      el("code", { id: "head", title: s.head }, short(s.head)),
      ` · ${s.events} events`
    );
  }

  // --- downloads (judges: the log holds every hidden card) ---
  async function download(format) {
    const status = $("download-status");
    status.textContent = "…";
    try {
      const resp = await api(`/games/${gid}/export?format=${format}`, { raw: true });
      const blob = await resp.blob();
      const name = `${id}.${format}`;
      const a = el("a", { href: URL.createObjectURL(blob), download: name });
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(a.href), 10000);
      status.textContent = `saved ${name} · ${blob.size} bytes`;
      status.dataset.bytes = blob.size;
    } catch (e) {
      status.textContent = "download failed: " + e.message;
    }
  }

  // --- live ---
  function scheduleRefresh() {
    // The summary (turn list, chain head) and the audit, at most twice a second.
    if (st.refresh) return;
    st.refresh = setTimeout(async () => {
      st.refresh = null;
      try {
        const s = await api(`/games/${gid}`);
        st.summary = Object.assign(s, { access: st.summary.access });
        fillPhases();
        showChain(s);
        if (!s.live) {
          $("live-badge").hidden = true;
          setFollowing(true);
        }
      } catch (_) {
        /* the connection badge says what is wrong */
      }
      loadAudit();
    }, 500);
  }

  function onEntry(msg) {
    const d = JSON.parse(msg.data);
    st.lastSeen = Math.max(st.lastSeen, d.entry.seq);
    // While the list pages in, keep the entry: the last page may have been read before it.
    if (st.eventsDone) appendEntries([d.entry]);
    else st.pendingLive.push(d.entry);
    st.len = Math.max(st.len, d.events);
    $("scrubber").max = st.len;
    $("chain").replaceChildren(el("span", { class: "badge ok", id: "chain-badge" }, "chain verified ✓"), " head ", el("code", { id: "head", title: d.head }, short(d.head)), ` · ${st.len} events`);
    if (st.following) go(st.len, { live: true });
    else $("seq-label").textContent = positionLabel(st.seq);
    scheduleRefresh();
    kifuRecord.changed();
  }

  function follow() {
    if (st.source) st.source.close();
    st.source = null;
    if (!st.summary.live) return;
    $("live-badge").hidden = false;
    setFollowing(st.seq >= st.len);
    const t = kifu.token();
    const from = st.lastSeen >= 0 ? st.lastSeen + 1 : st.len;
    const q = `as=${encodeURIComponent(st.viewer)}&from=${from}` + (t ? `&access_token=${encodeURIComponent(t)}` : "");
    const src = new EventSource(`/api/v1/games/${gid}/live?${q}`);
    src.addEventListener("entry", onEntry);
    src.addEventListener("open", () => {
      $("conn-badge").hidden = true;
      $("chain-badge") && $("chain-badge").classList.remove("stale");
    });
    src.addEventListener("error", () => {
      $("conn-badge").hidden = false;
      const badge = $("chain-badge");
      if (badge) {
        badge.textContent = "chain: not live";
        badge.classList.add("stale");
      }
      // The browser retries by itself (resuming with Last-Event-ID) unless it gave up; then
      // reconnect ourselves from the last sequence number seen.
      if (src.readyState === EventSource.CLOSED && st.source === src) setTimeout(() => st.source === src && follow(), 2000);
    });
    st.source = src;
  }

  // The public summary and spectator board the page arrived with (see assets.rs): read once, and
  // only by a visitor without a token, whose own fetches would return the same.
  function takeBoot() {
    const node = document.getElementById("boot");
    if (!node) return {};
    node.remove();
    if (kifu.token()) return {};
    try {
      return JSON.parse(node.textContent) || {};
    } catch (_) {
      return {};
    }
  }

  // What early.js asked for before the scripts arrived: used once, and only under the same token.
  function takeEarly() {
    const e = window.kifuEarly;
    window.kifuEarly = null;
    return e && e.gid === gid && e.token === kifu.token() ? e : {};
  }

  async function load() {
    stop();
    const boot = takeBoot();
    const early = takeEarly();
    // The summary and the first board in parallel: one round trip, not two, on a slow link (none
    // when the page brought them). A token holder's board is asked "as own" (their seat, or the
    // judge's view), the one record mode shows, so it is not asked again once the summary says.
    const want = params.has("seq") ? Number(params.get("seq")) : null;
    const asked = params.has("as") || !kifu.token() ? st.viewer : "own";
    const firstBoard =
      boot.board && asked === "spectator"
        ? Promise.resolve(boot.board)
        : (early.board || api(`/games/${gid}/board?as=${encodeURIComponent(asked)}` + (want === null ? "" : `&seq=${want}`))).catch((e) => e);
    const s = boot.summary || (await (early.summary || api(`/games/${gid}`)));
    st.summary = s;
    // Record mode: a live game's player sees the table from their own seat, a judge as judge,
    // unless the address names a perspective.
    if (!params.has("as") && st.viewer === "spectator" && s.live && s.access) {
      if (s.access.seats && s.access.seats.length) st.viewer = "seat:" + s.access.seats[0];
      else if (s.access.judge) st.viewer = "judge";
    }
    st.len = s.events;
    st.boards.clear();
    $("title").textContent = `${s.id} — ${s.players.join(" vs ")} (${s.ruleset})`;
    document.title = `${s.id} · kifu`;
    $("scrubber").max = s.events;
    showChain(s);
    fillPerspectives();
    fillPhases();
    // Record mode starts with the summary: its options (asked for as the page loaded) need no
    // board, and the board marks them when it comes.
    kifuRecord.start({ gid, summary: s });
    // The first board first; the event list and the audit page in behind it.
    const b = await firstBoard;
    if (!(b instanceof Error) && b.viewer === st.viewer && b.events === st.len) st.boards.set(boardKey(b.seq), b);
    await go(b instanceof Error || want !== null ? (want === null ? s.events : want) : b.seq);
    follow();
    kifuJudge.start({ gid, summary: s });
    loadAudit();
    await loadEvents();
  }

  function isTextField(t) {
    const tag = (t.tagName || "").toLowerCase();
    if (tag === "textarea" || t.isContentEditable) return true;
    return tag === "input" && !["range", "checkbox", "radio", "button"].includes(t.type);
  }

  function wire() {
    $("first").addEventListener("click", () => go(0));
    $("last").addEventListener("click", () => go(st.len));
    $("back").addEventListener("click", () => go(st.seq - 1));
    $("fwd").addEventListener("click", () => go(st.seq + 1));
    $("play").addEventListener("click", play);
    $("to-live").addEventListener("click", () => {
      setFollowing(true);
      go(st.len, { live: true });
      $("board").focus();
    });
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
      $("board").focus();
    });
    $("phase-select").addEventListener("change", () => $("board").focus());
    $("perspective").addEventListener("change", async (e) => {
      st.viewer = e.target.value;
      st.boards.clear();
      $("board").focus();
      await go(st.seq);
      follow();
      await loadEvents();
    });
    $("dl-kifu").addEventListener("click", () => download("kifu"));
    $("dl-json").addEventListener("click", () => download("json"));
    $("help-button").addEventListener("click", () => $("help").showModal());
    $("help").addEventListener("close", () => $("board").focus());
    $("events").addEventListener("keydown", eventListKeys);
    $("board").addEventListener("focusin", (e) => {
      const card = e.target.closest(".card.known");
      if (!card) return;
      $("card-detail").textContent = card.title;
      $("card-detail").hidden = false;
    });
    // Written out while the card has the focus: a tap elsewhere puts the line away.
    $("board").addEventListener("focusout", (e) => {
      const next = e.relatedTarget && e.relatedTarget.closest && e.relatedTarget.closest("#board .card.known");
      if (!next) $("card-detail").hidden = true;
    });
    $("board").addEventListener("keydown", (e) => {
      const card = e.target.closest && e.target.closest(".card.known");
      if (!card || (e.key !== "Enter" && e.key !== " ")) return;
      e.preventDefault();
      e.stopPropagation();
      card.click();
    });
    $("events").addEventListener("click", (e) => {
      const li = e.target.closest("li.ev");
      if (li) go(Number(li.dataset.seq) + 1);
    });
    document.addEventListener("keydown", (e) => {
      if (isTextField(e.target) || e.ctrlKey || e.metaKey || e.altKey) return;
      if ($("help").open) return;
      const tag = (e.target.tagName || "").toLowerCase();
      if (!st.ready && e.key !== "?") return;
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
          if (tag === "button" || tag === "select" || tag === "summary") return; // Space presses the control
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
        case "f":
          nextFinding();
          break;
        case "?":
          e.preventDefault();
          $("help").showModal();
          break;
      }
    });
  }

  async function start() {
    try {
      await load();
    } catch (e) {
      $("loading").textContent = "Could not load this game: " + e.message;
      showError(e);
    }
  }

  wire();
  // The game loads at once; the token box's role check runs beside it.
  start();
  kifu.tokenBox($("auth"), start);
})();
