// Record mode on the replay page: a token that holds a seat of a live game (or judges it)
// records the game by tapping. The page lists the seat's options (GET .../options), attached to
// what they concern: tap a card or a zone on the board to see the actions on it; actions on no
// card are a short list. A typed parameter becomes a control (a stepper, buttons, a card picker
// whose cards light up on the board). A pick is POSTed with the head the options were offered
// at and an idempotency key; a refusal shows its rule ID and records nothing, a 409 brings fresh
// options, and the board moves on by itself over the live feed. Every control that records an
// option carries data-option="<id>", every parameter control data-param="<name>", so tests (and
// anyone's) drive the page without knowing its layout.
"use strict";

const kifuRecord = (() => {
  const { api, el } = kifu;
  const $ = (id) => document.getElementById(id);
  const st = {
    gid: null,
    on: false,
    judge: false,
    players: [],
    options: [],
    events: -1, // the head the options were offered at
    focus: null, // "card X" or "zone S name": the board's tap that narrows the list
    editing: null, // the option whose parameter is being picked
    picked: [], // its values so far
    busy: false,
    waiting: "",
    over: false,
    timer: null,
  };

  const seatName = (s) => st.players[s] || "seat " + s;
  const cardConcerns = (o) => o.concerns.filter((c) => c.card !== undefined).map((c) => c.card);
  const concernKeys = (o) => o.concerns.map((c) => (c.card !== undefined ? "card " + c.card : `zone ${o.seat} ${c.zone}`));

  // A card's name as the board shows it (the option's label names it too).
  function cardName(inst) {
    const n = document.querySelector(`#board .card[data-instance="${CSS.escape(inst)}"] .cname`);
    return n ? n.textContent : inst;
  }

  function idempotencyKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    return "pick-" + Date.now().toString(36) + "-" + Math.random().toString(36).slice(2);
  }

  // --- what the server says ---
  // Keeps the options of the newest head; false when they are the ones shown already (a pick's
  // own entries arriving on the feed), so the page is not redrawn under a finger.
  function take(answer) {
    if (!answer || !Array.isArray(answer.options) || answer.events < st.events) return false;
    const same = answer.events === st.events && answer.options.map((o) => o.id).join() === st.options.map((o) => o.id).join();
    st.events = answer.events;
    st.options = answer.options;
    if (st.editing && !st.options.some((o) => o.id === st.editing.id)) {
      // Another seat acted while this one picked values: the same action, offered again under
      // the new head's id, keeps the values still allowed; one no longer offered closes.
      const e = st.editing;
      const again = st.options.find((o) => o.seat === e.seat && o.label === e.label && o.param && o.param.name === e.param.name);
      if (again) {
        const left = again.param.values.map((v) => v.value);
        st.editing = again;
        st.picked = st.picked.filter((v) => {
          const i = left.indexOf(v);
          if (i >= 0) left.splice(i, 1);
          return i >= 0;
        });
      } else cancelEdit();
    }
    if (st.focus && !st.options.some((o) => concernKeys(o).includes(st.focus))) st.focus = null;
    return !same;
  }

  async function refresh() {
    if (!st.on) return;
    try {
      const fresh = take(await api(`/games/${st.gid}/options`));
      if (!fresh && st.options.length) return;
      if (!st.options.length) await whoIsAwaited();
      else st.over = false;
    } catch (e) {
      showError(e);
    }
    render();
  }

  // With nothing to pick, the page says who the game waits for (a public fact of the head board).
  async function whoIsAwaited() {
    try {
      const b = await api(`/games/${st.gid}/board?as=spectator`);
      st.over = !!b.board.outcome;
      st.waiting = (b.board.facts.find(([k]) => k === "waiting for") || [])[1] || "";
    } catch (_) {
      st.waiting = "";
    }
  }

  function showError(e) {
    const box = $("record-error");
    box.replaceChildren();
    if (!e) return;
    const text = String(e.message || e);
    // "RULE-ID: message": the rule in bold, so a refusal says which rule at a glance.
    const m = /^([A-Z][A-Z0-9]*-[A-Z0-9-]+): ([\s\S]*)$/.exec(text);
    box.append("Not recorded: ", m ? el("strong", { class: "rule" }, m[1]) : "", m ? " " + m[2] : text);
  }

  async function send(o, values) {
    if (st.busy) return;
    st.busy = true;
    render();
    const params = o.param && o.param.kind !== "dealt" ? { [o.param.name]: values } : {};
    const body = { option: o.id, params, expected: st.events, seat: o.seat };
    try {
      take(await api(`/games/${st.gid}/options`, { method: "POST", body, headers: { "Idempotency-Key": idempotencyKey() } }));
      cancelEdit();
      st.focus = null;
      showError(null);
      $("record-status").dataset.recorded = String(Number($("record-status").dataset.recorded || 0) + 1);
    } catch (e) {
      if (e.status === 409 && e.data) {
        // Someone acted first: fresh options, nothing recorded.
        take(e.data);
        cancelEdit();
        showError(new Error("the game moved on before this pick: the options are fresh, pick again"));
      } else showError(e);
    } finally {
      st.busy = false;
    }
    if (!st.options.length) await whoIsAwaited();
    render();
  }

  // --- choosing ---
  function pick(o) {
    if (!o.param || o.param.kind === "dealt") return send(o, []);
    st.editing = o;
    st.picked = o.param.kind === "number" && o.param.values.length ? [o.param.values[0].value] : [];
    showError(null);
    render();
  }

  function cancelEdit() {
    st.editing = null;
    st.picked = [];
  }

  // How often each value is offered (copies of one card in a pile may be offered twice).
  function offered(p) {
    const m = new Map();
    for (const v of p.values) {
      const had = m.get(v.value);
      m.set(v.value, { label: v.label, n: had ? had.n + 1 : 1 });
    }
    return m;
  }

  function toggleValue(value) {
    const p = st.editing.param;
    const n = (offered(p).get(value) || { n: 0 }).n;
    const taken = st.picked.filter((v) => v === value).length;
    if (p.count === 1) st.picked = taken ? [] : [value];
    else if (taken < n && st.picked.length < p.count) st.picked.push(value);
    else st.picked = st.picked.filter((v) => v !== value);
    render();
  }

  // The board tapped: a card to pick for the open parameter, or a card or zone to narrow to.
  function onBoardClick(e) {
    if (!st.on || !st.options.length) return;
    const card = e.target.closest(".card[data-instance]");
    if (st.editing && card && offered(st.editing.param).has(card.dataset.instance)) {
      toggleValue(card.dataset.instance);
      return;
    }
    const seat = e.target.closest(".seat[data-seat]");
    const zone = e.target.closest(".zone[data-zone]");
    const keys = card ? ["card " + card.dataset.instance] : [];
    // A seat's own zone by its seat; a shared zone (no seat around it) for whichever seat acts.
    const zoneSeats = seat ? [seat.dataset.seat] : st.options.map((o) => o.seat);
    if (zone) keys.push(...zoneSeats.map((s) => `zone ${s} ${zone.dataset.zone}`));
    const key = keys.find((k) => st.options.some((o) => concernKeys(o).includes(k)));
    if (!key) return;
    st.focus = st.focus === key ? null : key;
    cancelEdit();
    render();
  }

  // --- drawing ---
  function optionButton(o) {
    const who = st.judge ? ` (${seatName(o.seat)})` : "";
    if (o.param && o.param.kind === "secret") {
      // Sealed values need the seat's own device to hold a secret: not on this page yet.
      return el("button", { type: "button", class: "opt", disabled: true, title: "a sealed choice: record it with the CLI for now" }, o.label + who, el("span", { class: "muted" }, " · not yet on this page"));
    }
    return el(
      "button",
      { type: "button", class: "opt", dataset: { option: o.id, seat: o.seat }, disabled: st.busy, onclick: () => pick(o) },
      o.label + who,
      o.param && o.param.kind !== "dealt" ? el("span", { class: "muted" }, " …") : null
    );
  }

  function listView() {
    const shown = st.focus ? st.options.filter((o) => concernKeys(o).includes(st.focus)) : st.options;
    const plain = shown.filter((o) => !cardConcerns(o).length);
    const byCard = new Map();
    for (const o of shown.filter((o) => cardConcerns(o).length)) {
      const c = cardConcerns(o)[0];
      if (!byCard.has(c)) byCard.set(c, []);
      byCard.get(c).push(o);
    }
    const out = [];
    if (st.focus) {
      const what = st.focus.startsWith("card ") ? cardName(st.focus.slice(5)) : st.focus.split(" ").slice(2).join(" ");
      out.push(el("p", { class: "focus-line" }, "On ", el("strong", {}, what), " ", el("button", { type: "button", class: "all", onclick: () => ((st.focus = null), render()) }, "all actions")));
    }
    if (plain.length) out.push(el("div", { class: "opts" }, plain.map(optionButton)));
    for (const [c, list] of byCard) {
      if (!st.focus) out.push(el("h3", { class: "on-card" }, cardName(c)));
      out.push(el("div", { class: "opts" }, list.map(optionButton)));
    }
    return out;
  }

  function valueButtons(p) {
    const values = [...offered(p)];
    // A long list (a whole pile) reads best in name order.
    if (values.length > 8) values.sort((a, b) => a[1].label.localeCompare(b[1].label));
    return el(
      "div",
      { class: "values" + (values.length > 8 ? " long" : ""), role: "group", "aria-label": p.label },
      values.map(([value, { label, n }]) => {
        const taken = st.picked.filter((v) => v === value).length;
        return el(
          "button",
          { type: "button", class: "value" + (taken ? " on" : ""), "aria-pressed": String(taken > 0), dataset: { param: p.name, value }, onclick: () => toggleValue(value) },
          label,
          n > 1 ? el("span", { class: "muted" }, ` ${taken}/${n}`) : taken ? " ✓" : ""
        );
      })
    );
  }

  // A number: a stepper over the allowed values, in order.
  function stepper(p) {
    const at = Math.max(0, p.values.findIndex((v) => v.value === st.picked[0]));
    const step = (d) => {
      const i = Math.max(0, Math.min(p.values.length - 1, at + d));
      st.picked = [p.values[i].value];
      render();
    };
    const cur = p.values[at] || { value: "", label: "" };
    return el(
      "div",
      { class: "stepper" },
      el("button", { type: "button", dataset: { param: p.name, step: "-1" }, "aria-label": "less", disabled: at <= 0, onclick: () => step(-1) }, "−"),
      el("output", { dataset: { param: p.name, current: cur.value }, "aria-live": "polite" }, cur.label),
      el("button", { type: "button", dataset: { param: p.name, step: "1" }, "aria-label": "more", disabled: at >= p.values.length - 1, onclick: () => step(1) }, "+")
    );
  }

  function editorView() {
    const o = st.editing;
    const p = o.param;
    const ready = st.picked.length === p.count;
    const chosen = p.count > 1 ? el("p", { class: "muted picked-count" }, `${st.picked.length} of ${p.count} picked`) : null;
    return [
      el("p", { class: "editing" }, el("strong", {}, o.label)),
      el("p", {}, p.count > 1 ? `Pick ${p.label} (${p.count}):` : `Pick ${p.label}:`),
      p.kind === "number" ? stepper(p) : valueButtons(p),
      chosen,
      el(
        "div",
        { class: "opts actions" },
        el("button", { type: "button", class: "opt primary", dataset: { option: o.id, seat: o.seat }, disabled: !ready || st.busy, onclick: () => send(o, st.picked.slice()) }, "Record"),
        el("button", { type: "button", class: "opt", onclick: () => (cancelEdit(), render()) }, "Cancel")
      ),
    ];
  }

  function statusText() {
    if (st.busy) return "recording…";
    if (st.over) return "The game is over.";
    if (st.options.length) {
      if (st.judge) return `Recording for ${[...new Set(st.options.map((o) => seatName(o.seat)))].join(", ")}: tap a card or pick an action`;
      return "Your move: tap a card or pick an action";
    }
    return st.waiting ? `Waiting for ${st.waiting}` : "Nothing to record now";
  }

  function render() {
    if (!st.on) return;
    $("record-status").textContent = statusText();
    $("record-body").replaceChildren(...(st.editing ? editorView() : listView()).filter(Boolean));
    mark();
  }

  // The board's cards and zones the options concern, the focused one, and the cards the open
  // parameter may pick (those shown on the board).
  function mark() {
    const board = $("board");
    for (const n of board.querySelectorAll(".actionable, .focused, .pickable, .picked")) n.classList.remove("actionable", "focused", "pickable", "picked");
    if (!st.on) return;
    const nodeOf = (key) => {
      if (key.startsWith("card ")) return board.querySelector(`.card[data-instance="${CSS.escape(key.slice(5))}"]`);
      const [, seat, ...zone] = key.split(" ");
      const z = CSS.escape(zone.join(" "));
      return board.querySelector(`.seat[data-seat="${seat}"] .zone[data-zone="${z}"]`) || board.querySelector(`.middle .zone[data-zone="${z}"]`);
    };
    for (const o of st.options) for (const k of concernKeys(o)) nodeOf(k)?.classList.add("actionable");
    if (st.focus) nodeOf(st.focus)?.classList.add("focused");
    if (st.editing && ["card", "target"].includes(st.editing.param.kind)) {
      for (const value of offered(st.editing.param).keys()) {
        const n = nodeOf("card " + value);
        if (n) n.classList.add(st.picked.includes(value) ? "picked" : "pickable");
      }
    }
  }

  // --- the replay page's hooks ---
  // The page loaded (or its token changed): record mode for a live game's player or judge.
  function start({ gid, summary }) {
    const a = summary.access || {};
    st.gid = gid;
    st.players = summary.players || [];
    st.judge = !!a.judge;
    st.on = !!summary.live && (st.judge || (a.seats || []).length > 0);
    st.options = [];
    st.events = -1;
    st.focus = null;
    cancelEdit();
    $("record").hidden = !st.on;
    document.body.classList.toggle("recording", st.on);
    if (!st.on) return mark();
    refresh();
  }

  // A new entry on the live feed: the options of the new head (a few entries in a burst, once).
  function changed() {
    if (!st.on || st.timer) return;
    st.timer = setTimeout(() => {
      st.timer = null;
      refresh();
    }, 60);
  }

  // The script comes after the board in the page: the board is there to listen on.
  $("board").addEventListener("click", onBoardClick);

  // Where the panel sits: beside the board on a wide screen (atop the side column, so the whole
  // table stays in sight), under the board on a phone, where it sticks to the screen's bottom.
  const wide = matchMedia("(min-width: 901px)");
  function placePanel() {
    const side = document.querySelector(".viewer .side");
    if (wide.matches && side) side.prepend($("record"));
    else $("board").after($("record"));
  }
  wide.addEventListener("change", placePanel);
  placePanel();

  return { start, changed, board: mark };
})();
