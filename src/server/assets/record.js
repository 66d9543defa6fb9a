// Record mode on the replay page: a token that holds a seat of a live game (or judges it)
// records the game by tapping. The page lists the seat's options (GET .../options), attached to
// what they concern: tap a card or a zone on the board to see the actions on it; actions on no
// card are a short list. A typed parameter becomes a control (a stepper, buttons, a card picker
// whose cards light up on the board). A pick is POSTed with the head the options were offered
// at and an idempotency key; a refusal shows its rule ID and records nothing, a 409 brings fresh
// options, and the board moves on by itself over the live feed. Every control that records an
// option carries data-option="<id>", every parameter control data-param="<name>", so tests (and
// anyone's) drive the page without knowing its layout.
//
// An action that ends the game asks first (its Record button carries data-confirm). A refusal
// names the rule and its summary from the game's rule list. A pick that meets a dropped
// connection is sent again with the same idempotency key until the server answers ("not yet
// recorded" meanwhile), so it is never recorded twice. A judge's or organizer's token records for
// every seat (a scorekeeper at a feature match): the options are grouped by whose action they
// are, and the log records who entered them. When the game ends, a player or judge of a match
// game is offered to report the match's result, prefilled from the games' outcomes (a pod's game:
// the pod's places).
// The status says "Your move" only when the game awaits this page's seat (the options answer's
// `awaited`), "Waiting for <names>" otherwise (never this seat's own name); actions the seat may
// take although not awaited (an option marked `any_time`) are listed apart, under "At any time".
// A player's Concede control sits apart from the actions, asks with confirm() what it does, and
// is gone once the game is over or the seat is out.
// Keys on a desktop: 1-9 pick the n-th action shown, Enter records, Escape cancels.
"use strict";

const kifuRecord = (() => {
  const { api, el, outcomeText } = kifu;
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
    awaited: null, // [{seat, name}] the game awaits, from the options answer (null before one)
    out: [], // seats out of the game (a game loss, a concession)
    concede: [], // this page's seats that may concede now
    over: false,
    timer: null,
    confirming: null, // an option that ends the game, waiting for a second tap
    dismissed: null, // the only option whose picker the player closed (it does not open again by itself)
    auto: false, // the picker open is the only option's, opened by itself (and untouched since)
    refreshing: false, // an options refresh on its way
    pending: null, // a pick sent but not yet answered (retried after a dropped connection)
    rules: null, // rule ID -> summary, loaded at the first refusal
    bound: null, // the match the game was created bound to
    outcome: null,
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
    if (Array.isArray(answer.awaited)) st.awaited = answer.awaited;
    st.out = answer.out || [];
    st.concede = answer.concede || [];
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

  // The options asked for as the page loads, beside the summary and the board (one round trip
  // fewer before the first options on a slow link); used once, and only under the same token.
  // early.js, in the page's head, asks before this script has even arrived.
  const early = (() => {
    const e = window.kifuEarly;
    if (e && e.options) return { gid: e.gid, token: e.token, answer: e.options.catch(() => null) };
    const path = location.pathname.split("/").filter(Boolean);
    if (path[0] !== "replay" || path.length !== 2 || !kifu.token()) return null;
    const gid = encodeURIComponent(decodeURIComponent(path[1]));
    return { gid, token: kifu.token(), answer: api(`/games/${gid}/options`).catch(() => null) };
  })();
  let earlyUnused = !!early;

  async function options() {
    if (earlyUnused && early.gid === st.gid && early.token === kifu.token()) {
      earlyUnused = false;
      const answer = await early.answer;
      if (answer) return answer;
    }
    earlyUnused = false;
    return api(`/games/${st.gid}/options`);
  }

  async function refresh() {
    if (!st.on) return;
    st.refreshing = true;
    settled();
    try {
      const fresh = take(await options());
      if (!fresh && st.options.length) return;
      if (!st.options.length) await whoIsAwaited();
      else st.over = false;
    } catch (e) {
      showError(e);
    } finally {
      st.refreshing = false;
      settled();
    }
    render();
  }

  // Whether a refresh of the options is due or on its way (#record's data-settled, with the head
  // its options are at in data-events): what a test waits on before it acts on the options shown.
  function settled() {
    const r = $("record");
    r.dataset.settled = st.timer || st.refreshing || st.busy ? "" : "yes";
    r.dataset.events = String(st.events);
  }

  // With nothing to pick, the page says who the game waits for (a public fact of the head board).
  async function whoIsAwaited() {
    try {
      const b = await api(`/games/${st.gid}/board?as=spectator`);
      st.over = !!b.board.outcome;
      if (b.board.outcome) st.outcome = b.board.outcome;
      st.waiting = (b.board.facts.find(([k]) => k === "waiting for") || [])[1] || "";
    } catch (_) {
      st.waiting = "";
    }
  }

  // The game's rule summaries, by rule ID (loaded once, when a refusal first needs them).
  async function rules() {
    if (st.rules) return st.rules;
    const r = await api(`/games/${st.gid}/rules`);
    st.rules = new Map(r.rules.map((x) => [x.rule, x.summary]));
    return st.rules;
  }

  function showError(e) {
    const box = $("record-error");
    box.replaceChildren();
    if (!e) return;
    const text = String(e.message || e).replace(/^refused, nothing recorded:\s*/, "");
    // "RULE-ID: message" lines: each rule in bold with what it says, so a refusal says which
    // rule at a glance and what the rule is.
    const lines = text.split("\n").map((l) => l.trim().replace(/^- /, "")).filter(Boolean);
    const found = lines.map((l) => /^([A-Z][A-Z0-9]*-[A-Z0-9-]+): ([\s\S]*)$/.exec(l));
    if (!found.some(Boolean)) return box.append("Not recorded: ", text);
    box.append("Not recorded:");
    const list = el("ul", { class: "refusals" });
    found.forEach((m, i) => {
      const li = el("li", {}, m ? el("strong", { class: "rule", dataset: { rule: m[1] } }, m[1]) : "", m ? " " + m[2] : lines[i]);
      list.append(li);
      if (m) {
        rules()
          .then((r) => r.get(m[1]) && li.append(el("div", { class: "muted rule-summary" }, `${m[1]}: ${r.get(m[1])}`)))
          .catch(() => {});
      }
    });
    box.append(list);
  }

  // A dropped connection, a gateway or an unavailable store: the pick may or may not have landed.
  const unanswered = (e) => e.status === undefined || [0, 502, 503, 504].includes(e.status);
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // Posts a pick; while the answer is lost it is sent again under the same key (the server
  // records it once and answers the retry with the first attempt's events).
  async function post(body) {
    const key = idempotencyKey();
    st.pending = { key, tries: 0 };
    try {
      for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
        try {
          return await api(`/games/${st.gid}/options`, { method: "POST", body, headers: { "Idempotency-Key": key } });
        } catch (e) {
          if (!unanswered(e) || !st.on) throw e;
          st.pending.tries += 1;
          render();
          await sleep(wait);
        }
      }
    } finally {
      st.pending = null;
    }
  }

  // True once recorded.
  async function send(o, values) {
    let ok = false;
    if (st.busy) return ok;
    st.busy = true;
    st.confirming = null;
    render();
    const params = o.param && o.param.kind !== "dealt" ? { [o.param.name]: values } : {};
    const body = { option: o.id, params, expected: st.events, seat: o.seat };
    let stale = false;
    try {
      take(await post(body));
      ok = true;
      cancelEdit();
      st.focus = null;
      showError(null);
      $("record-status").dataset.recorded = String(Number($("record-status").dataset.recorded || 0) + 1);
    } catch (e) {
      if (e.status === 409 && e.data) {
        // Someone acted first (or the game ended): fresh options, nothing recorded.
        take(e.data);
        cancelEdit();
        stale = true;
      } else if (e.status === 401) showError(new Error("this page's token is unknown or was revoked: nothing was recorded; ask the event's organizer for a new token"));
      else showError(e);
    } finally {
      st.busy = false;
    }
    if (!st.options.length) await whoIsAwaited();
    if (stale) showError(new Error(st.over ? "the game ended before this pick reached it: nothing was recorded" : "the game moved on before this pick: the options are fresh, pick again"));
    render();
    return ok;
  }

  // --- choosing ---
  function pick(o) {
    if (o.ends_game) {
      st.confirming = o;
      showError(null);
      return render();
    }
    if (!o.param || o.param.kind === "dealt") return send(o, []);
    if (o.param.kind === "secret" && !kifuSeal.needsControls(o.param)) {
      // A seed, a die or a sealed card's proof: seal.js makes it or reads what it kept.
      try {
        const values = kifuSeal.values(st.gid, o.seat, o.param);
        return send(o, values).then((ok) => ok && kifuSeal.recorded(st.gid, o.seat, o.param));
      } catch (e) {
        showError(e);
        return render();
      }
    }
    st.editing = o;
    st.auto = false;
    st.picked = usesStepper(o.param) ? [o.param.values[0].value] : [];
    showError(null);
    render();
  }

  function cancelEdit() {
    st.editing = null;
    st.picked = [];
    st.confirming = null;
    st.auto = false;
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

  // A number among many (a stepper) rather than a few (buttons, one tap each).
  const STEPPER_OVER = 12;
  const usesStepper = (p) => p.kind === "number" && p.values.length > STEPPER_OVER;

  // A value tapped. A parameter of one value records at once (one tap for "which card did you
  // draw", "roll: 5"); Cancel, before it, closes the picker. Several values need Record.
  function toggleValue(value) {
    const o = st.editing;
    const p = o.param;
    const n = (offered(p).get(value) || { n: 0 }).n;
    const taken = st.picked.filter((v) => v === value).length;
    // The player's picks are theirs: the picker no longer closes by itself.
    st.auto = false;
    if (p.count === 1) {
      st.picked = [value];
      return send(o, [value]);
    }
    // Values of one group exclude each other (one throw per round, one team per ninja; a value
    // may be in two, a blocking team and the attacker it blocks): a tap on another value of a
    // group replaces the pick that shares a group with it.
    const groups = (v) => {
      const x = p.values.find((y) => y.value === v) || {};
      return [x.group, x.also].filter(Boolean);
    };
    const mine = groups(value);
    const shares = (v) => groups(v).some((g) => mine.includes(g));
    if (mine.length && taken === 0) st.picked = st.picked.filter((v) => !shares(v));
    if (taken < n && st.picked.length < p.count) st.picked.push(value);
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
  // A short list of values for an action that takes one (a coin's side, a die's six faces, one of
  // a few targets): the values stand beside the action's name, and a value's tap records the
  // action with it, as the picker's would, one tap sooner. Six 44 px buttons fit a phone's row.
  const INLINE_VALUES = 6;
  const inline = (o) =>
    o.param && o.param.count === 1 && !["dealt", "secret"].includes(o.param.kind) && !usesStepper(o.param) && !o.ends_game && offered(o.param).size <= INLINE_VALUES;

  // A value button that records option `o` with `value` on its tap.
  function recordingValue(o, value, label) {
    return el(
      "button",
      { type: "button", class: "value", dataset: { option: o.id, seat: o.seat, param: o.param.name, value }, disabled: st.busy, onclick: () => send(o, [value]) },
      label
    );
  }

  function optionControl(o) {
    if (!inline(o)) return optionButton(o);
    return el(
      "div",
      { class: "opt-inline", role: "group", "aria-label": o.label },
      el("span", { class: "opt-label" }, o.label),
      [...offered(o.param)].map(([value, { label }]) => recordingValue(o, value, label))
    );
  }

  // A seat's only action that takes values opens its picker by itself: the action is no choice,
  // its values are (the list would offer that one button and nothing else).
  const opensAlone = (o) => o.param && !["dealt", "secret"].includes(o.param.kind) && !usesStepper(o.param) && !o.ends_game;

  function optionButton(o) {
    if (o.param && o.param.kind === "secret" && !kifuSeal.handles(o.param)) {
      // Sealed values need the seat's own device to hold a secret: not on this page yet.
      return el("button", { type: "button", class: "opt", disabled: true, title: "a sealed choice: record it with the CLI for now" }, o.label, el("span", { class: "muted" }, " · not yet on this page"));
    }
    return el(
      "button",
      { type: "button", class: "opt", dataset: { option: o.id, seat: o.seat }, disabled: st.busy, onclick: () => pick(o) },
      o.label,
      o.param && o.param.kind === "secret" ? el("span", { class: "muted seal-note" }, ` · ${kifuSeal.describe(o.param)}`) : o.param && o.param.kind !== "dealt" ? el("span", { class: "muted" }, " …") : null
    );
  }

  // The options, for one seat or (a scorekeeper's) grouped by whose action they are.
  function listView() {
    const shown = st.focus ? st.options.filter((o) => concernKeys(o).includes(st.focus)) : st.options;
    const seats = [...new Set(shown.map((o) => o.seat))];
    const out = [];
    if (st.focus) {
      const what = st.focus.startsWith("card ") ? cardName(st.focus.slice(5)) : st.focus.split(" ").slice(2).join(" ");
      out.push(el("p", { class: "focus-line" }, "On ", el("strong", {}, what), " ", el("button", { type: "button", class: "all", onclick: () => ((st.focus = null), render()) }, "all actions")));
    }
    if (!st.judge) return out.concat(grouped(shown));
    for (const seat of seats) {
      out.push(el("h3", { class: "for-seat", dataset: { seat } }, `${seatName(seat)}'s action`));
      out.push(...grouped(shown.filter((o) => o.seat === seat)));
    }
    return out;
  }

  // The actions that answer the awaited move, then those the seat may take at any time, apart.
  function grouped(shown) {
    const anyTime = shown.filter((o) => o.any_time);
    const out = seatList(shown.filter((o) => !o.any_time));
    if (anyTime.length) {
      out.push(el("h3", { class: "any-time", dataset: { group: "any-time" } }, "At any time"));
      out.push(el("div", { class: "any-time-group", dataset: { group: "any-time" } }, seatList(anyTime)));
    }
    return out;
  }

  function seatList(shown) {
    const plain = shown.filter((o) => !cardConcerns(o).length);
    const byCard = new Map();
    for (const o of shown.filter((o) => cardConcerns(o).length)) {
      const c = cardConcerns(o)[0];
      if (!byCard.has(c)) byCard.set(c, []);
      byCard.get(c).push(o);
    }
    const out = [];
    if (plain.length) out.push(el("div", { class: "opts" }, plain.map(optionControl)));
    for (const [c, list] of byCard) {
      if (!st.focus) out.push(el("h3", { class: "on-card" }, cardName(c)));
      out.push(el("div", { class: "opts" }, list.map(optionControl)));
    }
    return out;
  }

  function valueButtons(p) {
    const o = st.editing;
    const values = [...offered(p)];
    // A long list (a whole pile) reads best in name order.
    if (values.length > 8) values.sort((a, b) => a[1].label.localeCompare(b[1].label));
    return el(
      "div",
      { class: "values" + (values.length > 8 ? " long" : ""), role: "group", "aria-label": p.label },
      values.map(([value, { label, n }]) => {
        const taken = st.picked.filter((v) => v === value).length;
        // A value that records the option on its tap carries the option's id, as every control
        // that records one does.
        const records = p.count === 1 ? { option: o.id, seat: o.seat } : {};
        return el(
          "button",
          { type: "button", class: "value" + (taken ? " on" : ""), "aria-pressed": String(taken > 0), dataset: { ...records, param: p.name, value }, disabled: st.busy, onclick: () => toggleValue(value) },
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
    if (p.kind === "secret") {
      // Cards placed face up or sealed face down: seal.js draws the choices and its Record.
      const cancel = el("button", { type: "button", class: "opt", onclick: () => (cancelEdit(), render()) }, "Cancel");
      return [el("p", { class: "editing" }, el("strong", {}, o.label)), ...kifuSeal.controls(st.gid, o, (v) => send(o, v), st.busy, render), el("div", { class: "opts actions" }, cancel)];
    }
    const ready = st.picked.length === p.count;
    const chosen = p.count > 1 ? el("p", { class: "muted picked-count" }, `${st.picked.length} of ${p.count} picked`) : null;
    return [
      el("p", { class: "editing" }, el("strong", {}, o.label)),
      el("p", {}, p.count > 1 ? `Pick ${p.label} (${p.count}), then Record:` : usesStepper(p) ? `Pick ${p.label}:` : `Tap ${p.label}: it is recorded at once.`),
      usesStepper(p) ? stepper(p) : valueButtons(p),
      chosen,
      el(
        "div",
        { class: "opts actions" },
        p.count > 1 || usesStepper(p)
          ? el("button", { type: "button", class: "opt primary", dataset: { option: o.id, seat: o.seat }, disabled: !ready || st.busy, onclick: () => send(o, st.picked.slice()) }, "Record")
          : null,
        el("button", { type: "button", class: "opt", onclick: () => ((st.dismissed = o.id), cancelEdit(), render()) }, "Cancel")
      ),
    ];
  }

  // An action that ends the game: said plainly, recorded on a second tap.
  function confirmView() {
    const o = st.confirming;
    return [
      el("p", { class: "editing" }, el("strong", {}, o.label), st.judge ? ` (for ${seatName(o.seat)})` : ""),
      el("p", { class: "confirm-line" }, "This ends the game: nothing can be recorded after it. Record it?"),
      el(
        "div",
        { class: "opts actions" },
        el("button", { type: "button", class: "opt primary", dataset: { option: o.id, seat: o.seat, confirm: "yes" }, disabled: st.busy, onclick: () => send(o, []) }, "Yes, record it"),
        el("button", { type: "button", class: "opt", onclick: () => ((st.confirming = null), render()) }, "Cancel")
      ),
    ];
  }

  function statusText() {
    if (st.pending && st.pending.tries) return "not yet recorded: the connection dropped, sending again…";
    if (st.busy) return "recording…";
    if (st.over) return "The game is over.";
    if (st.judge && st.options.length) return `Scorekeeper: recording for ${[...new Set(st.options.map((o) => seatName(o.seat)))].join(", ")}; tap a card or pick an action`;
    const mine = st.mySeats || [];
    if (!st.judge && mine.length && mine.every((s) => st.out.includes(s))) return "You are out of the game: it goes on without you.";
    if (st.awaited && !st.judge) {
      if (st.awaited.some((a) => mine.includes(a.seat))) return st.options.length ? "Your move: tap a card or pick an action" : "Your move";
      const others = st.awaited.filter((a) => !mine.includes(a.seat)).map((a) => a.name);
      if (others.length) return `Waiting for ${others.join(", ")}`;
      return st.options.length ? "No move is awaited: the actions below may be taken at any time" : "Nothing to record now";
    }
    if (st.options.length) return "Your move: tap a card or pick an action";
    return st.waiting ? `Waiting for ${st.waiting}` : "Nothing to record now";
  }

  // The Concede control: apart from the game's actions, for a player's seat that may concede.
  function concedeView() {
    if (st.judge || st.over || st.editing || st.confirming || !st.concede.length) return null;
    return el(
      "div",
      { class: "concede" },
      st.concede.map((seat) =>
        el("button", { type: "button", class: "opt concede-button", dataset: { concede: seat }, disabled: st.busy, onclick: () => concede(seat) }, st.concede.length > 1 ? `Concede for ${seatName(seat)}` : "Concede")
      )
    );
  }

  // What conceding does, in the words confirm() asks with.
  function concedeQuestion(seat) {
    const left = st.players.map((_, s) => s).filter((s) => s !== seat && !st.out.includes(s));
    const what = left.length === 1
      ? `${seatName(seat)} loses this game and ${seatName(left[0])} wins it.`
      : `${seatName(seat)} leaves this game and takes the last place left; ${left.map(seatName).join(", ")} play on.`;
    return `Concede the game? ${what} This cannot be undone.`;
  }

  async function concede(seat) {
    if (st.busy || !window.confirm(concedeQuestion(seat))) return;
    st.busy = true;
    render();
    try {
      take(await api(`/games/${st.gid}/concede`, { method: "POST", body: { seat, expected: st.events }, headers: { "Idempotency-Key": idempotencyKey() } }));
      showError(null);
    } catch (e) {
      if (e.status === 409 && e.data && Array.isArray(e.data.options)) take(e.data);
      showError(e);
    } finally {
      st.busy = false;
    }
    await whoIsAwaited();
    render();
  }

  function render() {
    if (!st.on) return;
    const only = st.options.length === 1 && !st.options[0].any_time ? st.options[0] : null;
    // A picker that opened by itself closes by itself once that action is no longer the seat's
    // only one (another seat's action gave it more to choose from): the list shows them all.
    if (st.auto && st.editing && !(only && only.id === st.editing.id)) cancelEdit();
    if (only && !st.editing && !st.confirming && !st.busy && !st.focus && st.dismissed !== only.id && opensAlone(only)) {
      st.editing = only;
      st.picked = [];
      st.auto = true;
    }
    // Card names come from the board: a panel drawn before the first board is drawn again with it.
    st.beforeBoard = !$("board").querySelector(".seat");
    $("record-status").textContent = statusText();
    // What tools/bench-table reads: when a player opening the page first saw their options.
    if (st.options.length && performance.mark && !performance.getEntriesByName("kifu-first-options").length) performance.mark("kifu-first-options");
    const body = st.confirming ? confirmView() : st.editing ? editorView() : st.over ? overView() : listView();
    body.push(concedeView());
    $("record-body").replaceChildren(...body.filter(Boolean));
    $("record-body").dataset.editing = st.editing ? st.editing.id : "";
    $("record-status").dataset.pending = st.pending && st.pending.tries ? "yes" : "";
    settled();
    mark();
  }

  // A board was drawn: mark what the options concern on it (and name the cards in the panel, if
  // it was drawn before any board).
  function board() {
    if (st.on && st.beforeBoard) render();
    else mark();
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

  // --- the end of the game: the match's result ---
  // The games of this game's match: the ones the server named for it ({tournament}-r{R}-t{T}-gN,
  // as POST .../tables/T/games names them), each kept only if its hashed header binds it to the
  // same match (a name proves nothing), and only finished ones.
  async function matchGames() {
    const b = st.bound;
    const base = `${b.tournament}-r${b.round}-t${b.place.Table}-g`;
    const found = [];
    for (let n = 1; n <= 9; n++) {
      let s;
      try {
        s = await api(`/games/${encodeURIComponent(base + n)}`);
      } catch (_) {
        break;
      }
      const same = s.bound && s.bound.tournament === b.tournament && s.bound.round === b.round && JSON.stringify(s.bound.place) === JSON.stringify(b.place);
      if (same && s.outcome) found.push(s);
    }
    if (!found.some((g) => g.id === st.gid) && st.outcome) found.push({ id: st.gid, players: st.players, outcome: st.outcome });
    return found;
  }

  // W-L-D from `name`'s side: a game won alone is a win, a shared first place a draw.
  function score(games, name) {
    let [w, l, d] = [0, 0, 0];
    for (const g of games) {
      const seat = g.players.indexOf(name);
      const first = (g.outcome.placements || [])[0] || [];
      if (first.length > 1 && first.includes(seat)) d++;
      else if (first.length === 1 && first[0] === seat) w++;
      else if (first.length) l++;
      else d++;
    }
    return `${w}-${l}-${d}`;
  }

  async function startNext() {
    const b = st.bound;
    try {
      const r = await api(`/tournaments/${encodeURIComponent(b.tournament)}/rounds/${b.round}/tables/${b.place.Table}/games`, { method: "POST", body: {} });
      location.href = `/replay/${encodeURIComponent(r.id)}`;
    } catch (e) {
      if (e.status === 409 && e.data && e.data.game) location.href = `/replay/${encodeURIComponent(e.data.game)}`;
      else showError(e);
    }
  }

  // The places a game's outcome gives each seat, as competition ranks (1, 2, 2, 4); when
  // everyone lost, every seat is last (as tournament::pods::places_from_outcome).
  function placesFromOutcome(o, seats) {
    const all = (o.placements || []).flat();
    if (all.length && all.every((s) => (o.eliminated || []).includes(s))) return Array(seats).fill(seats);
    const out = Array(seats).fill(seats);
    let before = 0;
    for (const group of o.placements || []) {
      for (const s of group) if (s < seats) out[s] = before + 1;
      before += group.length;
    }
    return out;
  }

  // A pod's game plays the pod's one game: its players report the pod's places from the outcome
  // (by player, so the seat order cannot be misread), the game linked; the other players of the
  // pod confirm them on the event's page.
  function podReport(b, o) {
    const places = placesFromOutcome(o, st.players.length);
    const byPlayer = Object.fromEntries(st.players.map((p, i) => [p, places[i]]));
    const said = st.players.map((p, i) => `${p} ${places[i]}`).join(", ");
    const panel = el("div", { class: "report", dataset: { report: "pod" } }, el("p", {}, `Pod ${b.place.Pod}'s places from this game: `, el("strong", { dataset: { places: places.join(",") } }, said), "."));
    const event = `/tournament/${encodeURIComponent(b.tournament)}`;
    panel.append(
      el("div", { class: "opts actions" }, el("button", {
        type: "button",
        class: "opt primary",
        dataset: { reportPlaces: places.join(",") },
        onclick: async (e) => {
          e.target.disabled = true;
          try {
            const r = await api(`/tournaments/${encodeURIComponent(b.tournament)}/pods/results`, {
              method: "POST",
              body: { round: b.round, pod: b.place.Pod, places: byPlayer, games: [st.gid] },
            });
            const next = r.recorded ? "Recorded (a judge's entry). " : "Reported. ";
            panel.append(el("p", { class: "ok", role: "status", dataset: { reported: places.join(",") } }, next, el("a", { href: event }, r.recorded ? "The event's page" : "The other players of the pod confirm them on the event's page.")));
          } catch (err) {
            e.target.disabled = false;
            showError(err);
          }
        },
      }, "Report the pod's places"))
    );
    return panel;
  }

  function overView() {
    const o = st.outcome;
    const said = o ? [outcomeText(o, st.players), o.reason].filter((x) => x).join(" — ") : "";
    const out = [el("p", { class: "over-line", dataset: { outcome: o ? outcomeText(o, st.players) : "" } }, "The game is over", said ? `: ${said}` : ".")];
    const b = st.bound;
    if (b && b.place && b.place.Pod !== undefined && o) out.push(podReport(b, o));
    if (!b || !b.place || b.place.Table === undefined) return out;
    const report = el("div", { class: "report", dataset: { report: "panel" } }, el("p", { class: "muted" }, "Reading the match's games…"));
    out.push(report);
    matchGames().then((games) => {
      const me = st.mySeats.length ? st.players[st.mySeats[0]] : st.players[0];
      const them = st.players.filter((p) => p !== me).join(", ");
      const sc = score(games, me);
      report.replaceChildren(
        el("p", {}, `Match so far, from ${me}'s side: `, el("strong", { dataset: { score: sc } }, sc), ` against ${them} (${games.length} game${games.length === 1 ? "" : "s"}).`),
        el(
          "div",
          { class: "opts actions" },
          el("button", {
            type: "button",
            class: "opt primary",
            dataset: { report: sc },
            onclick: async (e) => {
              e.target.disabled = true;
              try {
                await api(`/tournaments/${encodeURIComponent(b.tournament)}/results`, {
                  method: "POST",
                  body: { round: b.round, table: b.place.Table, player: me, score: sc, games: games.map((g) => g.id) },
                });
                report.append(el("p", { class: "ok", role: "status", dataset: { reported: sc } }, `Reported ${sc}. `, el("a", { href: `/tournament/${encodeURIComponent(b.tournament)}` }, "The opponent confirms it on the event's page.")));
              } catch (err) {
                e.target.disabled = false;
                showError(err);
              }
            },
          }, `Report ${sc} for the match`),
          el("button", { type: "button", class: "opt", dataset: { next: "game" }, onclick: startNext }, "Start the next game")
        )
      );
    });
    return out;
  }

  // --- the replay page's hooks ---
  // The page loaded (or its token changed): record mode for a live game's player or judge.
  function start({ gid, summary }) {
    const a = summary.access || {};
    st.gid = gid;
    st.players = summary.players || [];
    st.judge = !!a.judge;
    st.mySeats = a.seats || [];
    st.bound = summary.bound || null;
    st.outcome = summary.outcome || null;
    // A finished game keeps the panel for its players and judges: the match's result is reported
    // from there.
    st.on = (!!summary.live || !!summary.bound) && (st.judge || (a.seats || []).length > 0);
    st.over = !summary.live;
    st.options = [];
    st.awaited = null;
    st.out = [];
    st.concede = [];
    st.events = -1;
    st.focus = null;
    st.dismissed = null;
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
    settled();
  }

  // Keys on a desktop: 1-9 the n-th action (or value) shown, Enter the Record button, Escape
  // back to the list. Not in text boxes (a judge's note), not with modifiers.
  document.addEventListener("keydown", (e) => {
    if (!st.on || e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "TEXTAREA" || t.tagName === "SELECT" || (t.tagName === "INPUT" && t.type !== "range"))) return;
    if (t && t.closest && t.closest("#judge")) return;
    const body = $("record-body");
    if (/^[1-9]$/.test(e.key)) {
      const buttons = [...body.querySelectorAll(st.editing ? "button.value" : "button.opt[data-option], button.value[data-option]")].filter((b) => !b.disabled);
      const b = buttons[Number(e.key) - 1];
      if (b) {
        e.preventDefault();
        e.stopImmediatePropagation();
        b.click();
      }
    } else if (e.key === "Enter" && (st.editing || st.confirming)) {
      const b = body.querySelector("button.primary[data-option]");
      if (b && !b.disabled) {
        e.preventDefault();
        b.click();
      }
    } else if (e.key === "Escape" && (st.editing || st.confirming || st.focus)) {
      e.preventDefault();
      if (st.editing) st.dismissed = st.editing.id;
      st.focus = null;
      cancelEdit();
      render();
    }
  }, true);

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

  return { start, changed, board };
})();
