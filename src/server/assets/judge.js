// The judge at the table, on the replay page: everything `kifu game rule` and `kifu game act
// --force` do, without typing JSON or ids. A judge's token sees a "Judge" panel with four tools:
// a warning or game loss to a player, a backup (showing which events it will undo), a note, and
// forcing an action the rules refuse (drawn as a form from the game's event schema; the page
// checks it first and shows which rules it breaks with their summaries, then records it forced
// with the judge's note about it). The rules and their summaries come from GET .../rules.
// Controls carry data-judge="<tool>" and data-field="<path>", so tests drive the page without
// knowing its layout.
"use strict";

const kifuJudge = (() => {
  const { api, el } = kifu;
  const $ = (id) => document.getElementById(id);
  const st = { gid: null, on: false, name: "", players: [], rules: null, schema: null, checked: null };

  // The rule list (once per game): [{rule, summary}] and the entry schema.
  async function loadRules() {
    if (st.rules) return st.rules;
    const r = await api(`/games/${st.gid}/rules`);
    st.rules = r.rules;
    st.schema = r.schema;
    return st.rules;
  }

  // The event the board stands after (the one a ruling is most likely about), or null at 0.
  function shownEvent() {
    const n = Number($("board").dataset.seq || 0);
    return n > 0 ? n - 1 : null;
  }
  function eventText(seq) {
    const li = document.querySelector(`#events li.ev[data-seq="${seq}"] .text`) || document.querySelector(`#events li.ev[data-seq="${seq}"]`);
    return li ? li.textContent.trim() : "";
  }

  function say(text, bad) {
    const box = $("judge-status");
    box.textContent = text;
    box.classList.toggle("error", !!bad);
  }

  function post(path, body) {
    const key = window.crypto && crypto.randomUUID ? crypto.randomUUID() : "judge-" + Date.now() + "-" + Math.random().toString(36).slice(2);
    return api(path, { method: "POST", body, headers: { "Idempotency-Key": key } });
  }

  const label = (text, control) => el("label", { class: "field" }, el("span", {}, text), control);

  function seatSelect(field) {
    return el("select", { dataset: { field } }, st.players.map((p, i) => el("option", { value: String(i) }, p)));
  }

  function aboutSelect(field) {
    const at = shownEvent();
    return el(
      "select",
      { dataset: { field } },
      el("option", { value: "" }, "no event"),
      at === null ? null : el("option", { value: String(at), selected: true }, `event #${at}: ${eventText(at) || "the one shown"}`)
    );
  }

  function ruleSelect(field) {
    return el(
      "select",
      { dataset: { field } },
      el("option", { value: "" }, "no rule named"),
      (st.rules || []).map((r) => el("option", { value: r.rule }, `${r.rule} — ${r.summary}`))
    );
  }

  const noteBox = (field, placeholder) => el("textarea", { dataset: { field }, rows: 2, maxlength: 2000, placeholder });
  const val = (root, field) => root.querySelector(`[data-field="${field}"]`).value;

  async function ruling(ruling, done) {
    try {
      const r = await post(`/games/${st.gid}/rulings`, { ruling });
      say(`Recorded as event #${r.seq}.`);
      done && done();
    } catch (e) {
      say("Not recorded: " + e.message, true);
    }
  }

  // --- the tools ---
  function penaltyTool() {
    const box = el("div", { class: "judge-form" });
    box.append(
      label("Player", seatSelect("seat")),
      label("Penalty", el("select", { dataset: { field: "kind" } }, el("option", { value: "WarningIssued" }, "Warning"), el("option", { value: "GameLossIssued" }, "Game loss"))),
      label("Rule", ruleSelect("rule")),
      label("About", aboutSelect("about")),
      label("Note", noteBox("note", "what happened")),
      el("button", {
        type: "button",
        class: "opt primary",
        dataset: { judge: "penalty" },
        onclick: () => {
          const kind = val(box, "kind");
          if (kind === "GameLossIssued" && !confirm(`A game loss ends the game for ${st.players[Number(val(box, "seat"))]}. Record it?`)) return;
          const about = val(box, "about");
          ruling({ [kind]: { judge: st.name, seat: Number(val(box, "seat")), rule: val(box, "rule") || null, about: about === "" ? null : Number(about), note: val(box, "note") } }, () => (box.querySelector('[data-field="note"]').value = ""));
        },
      }, "Record penalty")
    );
    return box;
  }

  function noteTool() {
    const box = el("div", { class: "judge-form" });
    box.append(
      label("About", aboutSelect("about")),
      label("Note", noteBox("note", "for the record")),
      el("button", {
        type: "button",
        class: "opt primary",
        dataset: { judge: "note" },
        onclick: () => {
          const note = val(box, "note").trim();
          if (!note) return say("Write the note first.", true);
          const about = val(box, "about");
          ruling({ NoteRecorded: { judge: st.name, about: about === "" ? null : Number(about), note } }, () => (box.querySelector('[data-field="note"]').value = ""));
        },
      }, "Record note")
    );
    return box;
  }

  // A backup to before an event: the events it undoes, listed before the judge confirms.
  function backupTool() {
    const box = el("div", { class: "judge-form" });
    const to = el("input", { type: "number", min: 1, dataset: { field: "to_seq" }, value: String(Math.max(1, shownEvent() ?? 1)) });
    const preview = el("div", { class: "undone", dataset: { field: "undone" } });
    // Each change supersedes the previous preview: only the newest answer is drawn, so a slow
    // earlier fetch never adds its list beside the newer one.
    let asked = 0;
    async function show() {
      const n = Number(to.value);
      const mine = ++asked;
      preview.replaceChildren();
      if (!Number.isInteger(n) || n < 1) return;
      try {
        const page = await api(`/games/${st.gid}/events?as=judge&from=${n}&limit=50`);
        if (mine !== asked) return;
        const rows = page.entries.map((e) => el("li", { class: e.undone ? "undone" : "" }, `#${e.seq} ${e.text}`, e.undone ? el("span", { class: "undone-tag" }, "undone already") : null));
        preview.replaceChildren(
          el("p", {}, rows.length ? `Undoes ${page.events - n} event${page.events - n === 1 ? "" : "s"} (they stay in the log, no longer counted):` : "Nothing to undo: that is the head."),
          el("ol", { class: "undone-list" }, rows),
          page.next !== null && page.next !== undefined ? el("p", { class: "muted" }, "… and more") : null
        );
      } catch (e) {
        if (mine === asked) preview.replaceChildren(el("p", { class: "error" }, e.message));
      }
    }
    to.addEventListener("change", show);
    box.append(
      label("Back up to before event #", to),
      preview,
      label("Note", noteBox("note", "why")),
      el("button", {
        type: "button",
        class: "opt primary",
        dataset: { judge: "backup" },
        onclick: () => {
          const n = Number(to.value);
          if (!confirm(`Undo every event from #${n} on? They stay in the log as backed up.`)) return;
          ruling({ BackedUp: { judge: st.name, to_seq: n, note: val(box, "note") } });
        },
      }, "Back up")
    );
    show();
    return box;
  }

  // --- forcing: a form drawn from the event schema ---
  const SEAT_FIELDS = new Set(["seat", "by", "first", "winner", "loser", "chooser", "leader", "user", "attacker", "blocker", "mate", "to"]);

  function resolve(s) {
    let n = 0;
    while (s && s.$ref && n++ < 20) s = st.schema.$defs[s.$ref.split("/").pop()];
    return s || {};
  }

  // A control for schema `s` at `path`; returns { node, value() }. Never a JSON text box.
  function control(s, path, name) {
    s = resolve(s);
    const types = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
    const nullable = types.includes("null") || (s.anyOf && s.anyOf.some((a) => a.type === "null"));
    if (s.anyOf) {
      const inner = s.anyOf.find((a) => a.type !== "null");
      return optional(inner, path, name);
    }
    if (nullable && types.length === 2) return optional({ ...s, type: types.find((t) => t !== "null") }, path, name);
    if (s.oneOf) return variants(s.oneOf, path);
    if (s.enum) {
      const sel = el("select", { dataset: { field: path } }, s.enum.map((v) => el("option", { value: String(v) }, String(v))));
      return { node: sel, value: () => sel.value };
    }
    if (s.const !== undefined) return { node: null, value: () => s.const };
    const t = types[0];
    if (t === "object") return object(s, path);
    if (t === "array") return array(s, path);
    if (t === "boolean") {
      const c = el("input", { type: "checkbox", dataset: { field: path } });
      return { node: c, value: () => c.checked };
    }
    if (t === "integer" || t === "number") {
      if (SEAT_FIELDS.has(name) && s.maximum === 255) {
        const sel = seatSelect(path);
        return { node: sel, value: () => Number(sel.value) };
      }
      const i = el("input", { type: "number", inputmode: "numeric", dataset: { field: path }, value: String(s.minimum ?? 0), min: s.minimum, max: s.maximum });
      return { node: i, value: () => Number(i.value) };
    }
    // A string: card ids are offered from the board (a datalist), anything else is text.
    const i = el("input", { type: "text", list: "judge-cards", dataset: { field: path }, autocomplete: "off" });
    return { node: i, value: () => i.value };
  }

  function optional(s, path, name) {
    const on = el("input", { type: "checkbox", dataset: { field: path + "?" } });
    const inner = control(s, path, name);
    const wrap = el("span", { class: "opt-field" }, el("label", {}, on, " set"), inner.node);
    if (inner.node) inner.node.hidden = true;
    on.addEventListener("change", () => inner.node && (inner.node.hidden = !on.checked));
    return { node: wrap, value: () => (on.checked ? inner.value() : null) };
  }

  function object(s, path) {
    const props = Object.entries(s.properties || {});
    const parts = props.map(([k, sub]) => [k, control(sub, path ? path + "." + k : k, k)]);
    const node = el("div", { class: "obj" }, parts.filter(([, c]) => c.node).map(([k, c]) => label(k.replace(/_/g, " "), c.node)));
    return {
      node,
      value: () => {
        const o = {};
        for (const [k, c] of parts) {
          const v = c.value();
          if (v !== null || (s.required || []).includes(k)) o[k] = v;
        }
        return o;
      },
    };
  }

  function array(s, path) {
    const items = [];
    const list = el("div", { class: "arr" });
    const add = el("button", { type: "button", class: "small", dataset: { field: path + "+" } }, "+ add");
    add.addEventListener("click", () => {
      const c = control(s.items || {}, `${path}.${items.length}`, path.split(".").pop());
      const row = el("div", { class: "arr-item" }, c.node);
      const item = { c, row };
      row.append(el("button", { type: "button", class: "small", "aria-label": "remove", onclick: () => (items.splice(items.indexOf(item), 1), row.remove()) }, "×"));
      items.push(item);
      list.append(row);
    });
    return { node: el("div", {}, list, add), value: () => items.map((i) => i.c.value()) };
  }

  function spoken(name) {
    const words = name.replace(/_/g, " ").replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase();
    return words.charAt(0).toUpperCase() + words.slice(1);
  }

  // An enum of variants: unit ones ("TurnEnded") and ones with a body ({"CardDrawn": {...}}).
  function variants(alts, path) {
    const opts = alts.map((a) => {
      a = resolve(a);
      if (a.enum) return a.enum.map((v) => ({ name: String(v), unit: true, desc: a.description }));
      if (a.const !== undefined) return [{ name: String(a.const), unit: true, desc: a.description }];
      const name = Object.keys(a.properties || {})[0];
      return name ? [{ name, unit: false, schema: a.properties[name], desc: a.description }] : [];
    }).flat();
    // The players' words, not type names: "FirstPlayerChosen" reads "First player chosen".
    const sel = el("select", { dataset: { field: path || "event" } }, opts.map((o) => el("option", { value: o.name, title: o.desc || "" }, spoken(o.name))));
    const body = el("div", { class: "variant" });
    let cur = null;
    function draw() {
      const o = opts.find((o) => o.name === sel.value);
      body.replaceChildren();
      cur = o && !o.unit ? control(o.schema, path ? path + "." + o.name : o.name, o.name) : null;
      if (o && o.desc) body.append(el("p", { class: "muted desc" }, o.desc.split("\n")[0]));
      if (cur && cur.node) body.append(cur.node);
    }
    sel.addEventListener("change", draw);
    draw();
    return {
      node: el("div", { class: "variants" }, sel, body),
      value: () => {
        const o = opts.find((o) => o.name === sel.value);
        return o.unit ? o.name : { [o.name]: cur ? cur.value() : {} };
      },
    };
  }

  // The event schema: the entry schema's `Played` variant.
  function eventSchema() {
    const played = (st.schema.oneOf || []).find((a) => a.properties && a.properties.Played);
    return played ? played.properties.Played : {};
  }

  function cardList() {
    const cards = [...document.querySelectorAll("#board .card[data-instance]")];
    const seen = new Set();
    return el(
      "datalist",
      { id: "judge-cards" },
      cards.filter((c) => !seen.has(c.dataset.instance) && seen.add(c.dataset.instance)).map((c) => el("option", { value: c.dataset.instance }, (c.querySelector(".cname") || {}).textContent || ""))
    );
  }

  function forceTool() {
    const box = el("div", { class: "judge-form" });
    if (!st.schema) {
      box.append(el("p", { class: "muted" }, "loading the game's events…"));
      return box;
    }
    const form = control(eventSchema(), "", "event");
    const verdict = el("div", { class: "verdict", dataset: { field: "verdict" }, role: "status" });
    const note = noteBox("note", "why the table's action stands");
    const record = el("button", { type: "button", class: "opt primary", dataset: { judge: "force" }, disabled: true }, "Force it, with the note");
    async function check() {
      verdict.replaceChildren();
      record.disabled = true;
      st.checked = null;
      try {
        const event = form.value();
        const r = await post(`/games/${st.gid}/events/check`, { event, forced: true });
        st.checked = { event, events: r.events, violations: r.violations };
        if (!r.violations.length) {
          verdict.append(el("p", {}, "It breaks no rule now: the seat can record it, or you can enter it for them (it is recorded as entered by you)."));
        } else {
          verdict.append(
            el("p", {}, "It breaks:"),
            el("ul", { class: "broke" }, r.violations.map((v) => el("li", { dataset: { rule: v.rule } }, el("strong", { class: "rule" }, v.rule), " ", v.summary ? `— ${v.summary}` : "", el("div", { class: "muted" }, v.message))))
          );
        }
        record.disabled = false;
        record.textContent = r.violations.length ? "Force it, with the note" : "Enter it for the seat";
      } catch (e) {
        verdict.append(el("p", { class: "error" }, "Cannot check it: " + e.message));
      }
    }
    record.addEventListener("click", async () => {
      const c = st.checked;
      if (!c) return;
      const forced = c.violations.length > 0;
      if (forced && !val(box, "note").trim()) return say("A forced action needs a note: say why it stands.", true);
      try {
        const r = await post(`/games/${st.gid}/events`, { event: c.event, forced, expected: c.events });
        if (forced) {
          await post(`/games/${st.gid}/rulings`, { ruling: { NoteRecorded: { judge: st.name, about: r.seq, note: val(box, "note").trim() } } });
          say(`Forced as event #${r.seq}, with your note.`);
        } else say(`Recorded as event #${r.seq}.`);
        verdict.replaceChildren();
        record.disabled = true;
        st.checked = null;
      } catch (e) {
        say("Not recorded: " + e.message, true);
      }
    });
    box.append(
      cardList(),
      el("p", { class: "muted" }, "The action the table took, as the game records it:"),
      form.node,
      el("div", { class: "opts" }, el("button", { type: "button", class: "opt", dataset: { judge: "check" }, onclick: check }, "Check it")),
      verdict,
      label("Note", note),
      record
    );
    return box;
  }

  const TOOLS = [
    ["penalty", "Warning or game loss", penaltyTool],
    ["backup", "Back up", backupTool],
    ["note", "Note", noteTool],
    ["force", "Force an action", forceTool],
  ];

  function render() {
    const body = $("judge-body");
    body.replaceChildren(
      ...TOOLS.map(([key, title, draw]) => {
        const d = el("details", { dataset: { tool: key } }, el("summary", { dataset: { judge: "open-" + key } }, title));
        // Drawn when opened, so each form starts from the board as it stands then.
        d.addEventListener("toggle", () => {
          if (!d.open) return;
          d.querySelector(".judge-form")?.remove();
          d.append(draw());
        });
        return d;
      })
    );
  }

  // The page loaded (or its token changed): the panel for the game's judges.
  async function start({ gid, summary }) {
    const a = summary.access || {};
    st.gid = gid;
    st.players = summary.players || [];
    st.name = a.name || "";
    st.on = !!a.judge;
    st.rules = null;
    st.schema = null;
    $("judge").hidden = !st.on;
    if (!st.on) return;
    say("");
    render();
    try {
      await loadRules();
    } catch (e) {
      say("The rules could not be loaded: " + e.message, true);
    }
  }

  return { start };
})();
