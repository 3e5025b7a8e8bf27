// The table page: build one hand's record by tapping, preview its payments, save it.
(function () {
  "use strict";
  const cfg = JSON.parse(document.getElementById("table-config").textContent);
  const T = cfg.strings;
  const $ = (id) => document.getElementById(id);
  const seatButtons = Array.from(document.querySelectorAll("#seats .seat"));
  const csrf = (document.cookie.match(/csrftoken=([^;]+)/) || [])[1] || "";

  let state = loadDraft() || cfg.initial || { events: [], exhausted: false, ready: {}, hua_zhu: [] };
  state.ready = state.ready || {}; state.hua_zhu = state.hua_zhu || []; state.events = state.events || [];
  let mode = null;          // what a seat tap means now
  let draft = null;         // the win or kong being picked
  let ui = {};              // tile-entry switches, per winner/ready seat
  let previewTimer = null;

  function loadDraft() {
    try { return JSON.parse(localStorage.getItem(cfg.draftKey)); } catch (e) { return null; }
  }
  function saveDraft() { localStorage.setItem(cfg.draftKey, JSON.stringify(state)); }
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
      else if (k === "class") node.className = v;
      else if (v !== false && v !== null && v !== undefined) node.setAttribute(k, v === true ? "" : v);
    }
    for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c);
    return node;
  }
  const name = (seat) => cfg.players[seat];

  // Who has won before event index i (those players no longer play).
  function wonBefore(i) {
    const won = new Set();
    state.events.slice(0, i).forEach(e => { if (e.type === "win") e.winners.forEach(w => won.add(w.player)); });
    return won;
  }
  function activeAt(i) { const won = wonBefore(i); return [0, 1, 2, 3].filter(s => !won.has(s)); }

  // Modifier flags that can apply to winner w of event i (the form never offers an illegal one).
  function legalFlags(i, w) {
    const e = state.events[i], prev = state.events[i - 1];
    const selfDraw = e.from === null;
    const earlierWin = state.events.slice(0, i).some(x => x.type === "win");
    const flags = ["bao_jiao"];
    if (selfDraw && prev && prev.type === "kong" && prev.player === w.player) flags.push("gang_shang_hua");
    if (!selfDraw && prev && prev.type === "kong" && prev.player === e.from) flags.push("gang_shang_pao");
    if (!selfDraw) flags.push("qiang_gang_hu");
    if (selfDraw && i === 0 && w.player === cfg.dealer) flags.push("tian_hu");
    if (!earlierWin && w.player !== cfg.dealer) flags.push("di_hu");
    if (selfDraw && i === state.events.length - 1 && cfg.rules.hai_di_fan > 0) flags.push("hai_di");
    if (cfg.rules.jin_gou_diao_fan > 0) flags.push("jin_gou_diao");
    return flags;
  }

  // ---- seat picking -------------------------------------------------------------------
  function setMode(next, prompt) {
    mode = next;
    $("prompt").textContent = prompt || "";
    const i = state.events.length;
    const active = activeAt(i);
    seatButtons.forEach(b => {
      const seat = Number(b.dataset.seat);
      let ok = false;
      if (mode === "winner" || mode === "konger") ok = active.includes(seat);
      if (mode === "from") ok = active.includes(seat) && !draft.winners.some(w => w.player === seat);
      if (mode === "more") ok = active.includes(seat) && seat !== draft.from && !draft.winners.some(w => w.player === seat);
      if (mode === "kongFrom") ok = active.includes(seat) && seat !== draft.player;
      b.disabled = !ok;
      b.classList.toggle("pickable", ok);
    });
    renderPicker();
  }
  seatButtons.forEach(b => b.addEventListener("click", () => tapSeat(Number(b.dataset.seat))));

  function tapSeat(seat) {
    if (mode === "winner") {
      draft = { type: "win", from: null, winners: [{ player: seat, pattern: "ping_hu", roots: 0, flags: [] }] };
      setMode("from", T.pickFrom);
    } else if (mode === "from") {
      draft.from = seat;
      commit(draft);
      draft = state.events[state.events.length - 1];
      setMode("more", T.pickMore);
    } else if (mode === "more") {
      draft.winners.push({ player: seat, pattern: "ping_hu", roots: 0, flags: [] });
      changed();
      setMode("more", T.pickMore);
    } else if (mode === "konger") {
      draft = { type: "kong", player: seat };
      setMode("kind", T.pickKind);
    } else if (mode === "kongFrom") {
      draft.from = seat;
      commit(draft);
      setMode(null);
    }
  }
  function commit(event) { state.events.push(event); changed(); }

  function renderPicker() {
    const box = $("picker");
    box.replaceChildren();
    box.hidden = !mode;
    if (mode === "from") {
      box.append(el("button", { type: "button", class: "big chip-strong", id: "pick-self-draw", on: { click: () => {
        draft.from = null; commit(draft); setMode(null);
      } } }, T.selfDraw));
    }
    if (mode === "kind") {
      for (const kind of ["direct", "added", "concealed"]) {
        box.append(el("button", { type: "button", class: "big", "data-kind": kind, on: { click: () => {
          draft.kind = kind;
          if (kind === "direct") setMode("kongFrom", T.pickKongFrom); else { commit(draft); setMode(null); }
        } } }, T[kind]));
      }
    }
    if (mode) box.append(el("button", { type: "button", class: "link", on: { click: () => { draft = null; setMode(null); } } }, T.cancel));
  }

  $("add-win").addEventListener("click", () => setMode("winner", T.pickWinner));
  $("add-kong").addEventListener("click", () => setMode("konger", T.pickKonger));
  $("toggle-exhausted").addEventListener("click", () => {
    state.exhausted = !state.exhausted;
    if (!state.exhausted) { state.ready = {}; state.hua_zhu = []; }
    setMode(null); changed();
  });

  // ---- events list ---------------------------------------------------------------------
  function renderEvents() {
    const box = $("events");
    box.replaceChildren();
    if (!state.events.length) box.append(el("p", { class: "muted" }, T.noEvents));
    state.events.forEach((e, i) => box.append(e.type === "kong" ? kongCard(e, i) : winCard(e, i)));
    $("toggle-exhausted").classList.toggle("on", state.exhausted);
    renderExhaustion();
  }
  function removeButton(i) {
    return el("button", { type: "button", class: "link remove", "aria-label": T.remove, on: { click: () => {
      state.events.splice(i, 1); setMode(null); changed();
    } } }, "✕");
  }
  function kongCard(e, i) {
    let text = `${name(e.player)} ${T[e.kind]}`;
    if (e.kind === "direct") text += ` ← ${name(e.from)}`;
    return el("div", { class: "card event", "data-path": `events[${i}]` }, el("div", { class: "row" }, el("span", {}, text), removeButton(i)), errorSlot(`events[${i}]`));
  }
  function winCard(e, i) {
    const head = e.from === null ? `${name(e.winners[0].player)} ${T.selfDraw}` : `${T.from}: ${name(e.from)}`;
    const card = el("div", { class: "card event", "data-path": `events[${i}]` },
      el("div", { class: "row" }, el("strong", {}, head), removeButton(i)));
    e.winners.forEach((w, j) => card.append(winnerBlock(e, i, w, j)));
    card.append(errorSlot(`events[${i}]`));
    return card;
  }
  function winnerBlock(e, i, w, j) {
    const path = `events[${i}].winners[${j}]`;
    const key = `w${i}-${j}`;
    const useTiles = ui[key] !== undefined ? ui[key] : (w.tiles !== undefined);
    const block = el("div", { class: "winner", "data-path": path });
    const title = el("div", { class: "row" }, el("span", { class: "who" }, `${name(w.player)} ${T.winsOn}`),
      el("button", { type: "button", class: "link", on: { click: () => {
        ui[key] = !useTiles;
        if (ui[key]) { delete w.pattern; delete w.roots; w.tiles = w.tiles || ""; w.melds = w.melds || []; }
        else { delete w.tiles; delete w.melds; w.pattern = "ping_hu"; w.roots = 0; }
        changed();
      } } }, useTiles ? T.quick : T.tiles));
    if (e.winners.length > 1) title.append(el("button", { type: "button", class: "link", on: { click: () => {
      e.winners.splice(j, 1); changed();
    } } }, "✕"));
    block.append(title);
    if (useTiles) block.append(tilesInput(w, path, false));
    else {
      const chips = el("div", { class: "chips" });
      cfg.patterns.forEach(p => chips.append(el("button", {
        type: "button", class: "chip" + (w.pattern === p.code ? " selected" : ""), "data-pattern": p.code,
        on: { click: () => { w.pattern = p.code; w.roots = Math.min(w.roots || 0, maxRoots(p.code)); changed(); } },
      }, `${p.name} ${p.fan}`)));
      block.append(chips, stepper(T.roots, w.roots || 0, 0, maxRoots(w.pattern), v => { w.roots = v; changed(); }));
    }
    const flags = el("div", { class: "chips flags" });
    legalFlags(i, w).forEach(f => flags.append(el("button", {
      type: "button", class: "chip small" + (w.flags.includes(f) ? " selected" : ""), "data-flag": f,
      on: { click: () => { w.flags = w.flags.includes(f) ? w.flags.filter(x => x !== f) : [...w.flags, f]; changed(); } },
    }, cfg.modifiers[f])));
    w.flags = w.flags.filter(f => legalFlags(i, w).includes(f));
    block.append(flags, errorSlot(path));
    return block;
  }
  function maxRoots(pattern) { return cfg.patterns.find(p => p.code === pattern).maxRoots; }
  function stepper(label, value, low, high, set) {
    return el("div", { class: "stepper" }, el("span", {}, label),
      el("button", { type: "button", class: "step", disabled: value <= low, on: { click: () => set(value - 1) } }, "−"),
      el("output", {}, String(value)),
      el("button", { type: "button", class: "step", disabled: value >= high, on: { click: () => set(value + 1) } }, "+"));
  }
  // Tile entry: typed tiles and melds, analysed as they are typed.
  function tilesInput(target, path, ready) {
    const info = el("div", { class: "analysis muted" });
    const tiles = el("input", { value: target.tiles || "", placeholder: T.tilesHint, inputmode: "text", autocomplete: "off", "data-field": "tiles" });
    const melds = el("input", { value: (target.melds || []).join(" "), placeholder: T.meldsHint, autocomplete: "off", "data-field": "melds" });
    const update = () => {
      target.tiles = tiles.value.trim();
      target.melds = melds.value.split(/[\s,，]+/).filter(Boolean);
      saveDraft(); analyse(target, ready, info); schedulePreview();
    };
    tiles.addEventListener("input", update);
    melds.addEventListener("input", update);
    analyse(target, ready, info);
    return el("div", { class: "tiles-entry" }, tiles, melds, info);
  }
  function analyse(target, ready, info) {
    if (!target.tiles) { info.textContent = ""; return; }
    postJSON(cfg.analyseUrl, { tiles: target.tiles, melds: target.melds, ready }).then(({ ok, data }) => {
      if (!ok) { info.textContent = data.errors.map(e => e.message).join("；"); info.className = "analysis error"; return; }
      info.className = "analysis ok";
      const patternName = code => (cfg.patterns.find(p => p.code === code) || {}).name || code;
      if (ready) info.textContent = `${T.waits}: ` + data.waits.map(w => `${w.tile} ${patternName(w.pattern)} ${w.fan}${T.fan}`).join("，");
      else info.textContent = `${patternName(data.pattern)}${data.roots ? " +" + data.roots + T.roots : ""} · ${data.fan}${T.fan}`;
    });
  }

  // ---- 流局 / 查叫 ------------------------------------------------------------------------
  function renderExhaustion() {
    const box = $("exhaustion");
    box.hidden = !state.exhausted;
    box.replaceChildren();
    if (!state.exhausted) return;
    box.append(el("strong", {}, T.exhausted));
    const unfinished = activeAt(state.events.length);
    for (const seat of Object.keys(state.ready)) if (!unfinished.includes(Number(seat))) delete state.ready[seat];
    state.hua_zhu = state.hua_zhu.filter(s => unfinished.includes(s));
    unfinished.forEach(seat => {
      const key = String(seat), entry = state.ready[key];
      const isPig = state.hua_zhu.includes(seat);
      const row = el("div", { class: "ready-row", "data-path": `ready.${key}` });
      row.append(el("span", { class: "who" }, name(seat)),
        el("button", { type: "button", class: "chip" + (entry ? " selected" : ""), "data-ready": key, on: { click: () => {
          if (entry) delete state.ready[key]; else { state.ready[key] = { fan: 0 }; state.hua_zhu = state.hua_zhu.filter(s => s !== seat); }
          changed();
        } } }, entry ? T.ready : T.notReady));
      if (cfg.rules.hua_zhu && !entry) row.append(el("button", { type: "button", class: "chip" + (isPig ? " selected" : ""), on: { click: () => {
        state.hua_zhu = isPig ? state.hua_zhu.filter(s => s !== seat) : [...state.hua_zhu, seat]; changed();
      } } }, T.huaZhu));
      if (entry) {
        const useTiles = entry.tiles !== undefined;
        row.append(el("button", { type: "button", class: "link", on: { click: () => {
          state.ready[key] = useTiles ? { fan: 0 } : { tiles: "", melds: [] }; changed();
        } } }, useTiles ? T.quick : T.tiles));
        row.append(useTiles ? tilesInput(entry, `ready.${key}`, true)
          : stepper(T.fan, entry.fan || 0, 0, 13, v => { entry.fan = v; changed(); }));
      }
      row.append(errorSlot(`ready.${key}`));
      box.append(row);
    });
  }

  // ---- preview and errors ---------------------------------------------------------------
  function errorSlot(path) { return el("div", { class: "field-error", "data-error-for": path }); }
  function document_() {
    const doc = { events: state.events, exhausted: state.exhausted };
    if (state.exhausted) { doc.ready = state.ready; doc.hua_zhu = state.hua_zhu; }
    return doc;
  }
  function showErrors(errors) {
    document.querySelectorAll(".field-error").forEach(n => { n.textContent = ""; });
    const general = [];
    errors.forEach(err => {
      // The most specific slot whose path starts the error's path shows it.
      const slots = Array.from(document.querySelectorAll("[data-error-for]"))
        .filter(n => err.path === n.dataset.errorFor || err.path.startsWith(n.dataset.errorFor + ".") || err.path.startsWith(n.dataset.errorFor + "["))
        .sort((a, b) => b.dataset.errorFor.length - a.dataset.errorFor.length);
      if (slots.length) slots[0].textContent += (slots[0].textContent ? "；" : "") + err.message;
      else general.push(err.message);
    });
    return general;
  }
  function schedulePreview() { clearTimeout(previewTimer); previewTimer = setTimeout(preview, 150); }
  function preview() {
    const box = $("preview");
    if (!state.events.length && !state.exhausted) { box.textContent = T.previewEmpty; showErrors([]); return; }
    postJSON(cfg.previewUrl, { ...document_(), dealer: cfg.dealer }).then(({ ok, data }) => {
      box.replaceChildren();
      if (!ok) {
        const general = showErrors(data.errors || []);
        box.className = "preview card bad";
        box.append(el("div", {}, ...general.map(m => el("p", { class: "error" }, m))));
        if (!general.length) box.append(el("p", { class: "error" }, "⚠ " + data.errors.map(e => e.message).join("；")));
        return;
      }
      showErrors([]);
      box.className = "preview card good";
      const net = el("div", { class: "net" });
      data.net.forEach((amount, seat) => {
        const n = Number(amount);
        net.append(el("span", { class: n > 0 ? "pos" : n < 0 ? "neg" : "" }, `${name(seat)} ${n > 0 ? "+" : ""}${amount}`));
      });
      const list = el("ul", { class: "payments" });
      data.payments.forEach(p => list.append(el("li", {}, `${name(p.from)} → ${name(p.to)} ${p.amount} (${T[p.reason] || p.reason})`)));
      box.append(net, list);
    }).catch(() => { box.textContent = T.offline; });
  }
  function changed() { saveDraft(); renderEvents(); schedulePreview(); }

  function postJSON(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, "Accept-Language": document.documentElement.lang },
      body: JSON.stringify(body),
    }).then(r => r.json().then(data => ({ ok: r.ok, status: r.status, data })));
  }

  // ---- save and undo --------------------------------------------------------------------
  $("save").addEventListener("click", () => {
    const body = document_();
    if (cfg.correcting) {
      const reason = $("reason").value.trim();
      if (!reason) { $("reason").focus(); $("prompt").textContent = T.reasonNeeded; return; }
      body.reason = reason;
    } else body.dealer = cfg.dealer;
    $("save").disabled = true;
    postJSON(cfg.saveUrl, body).then(({ ok, data }) => {
      $("save").disabled = false;
      if (!ok) { preview(); showErrors(data.errors || []); return; }
      localStorage.removeItem(cfg.draftKey);
      window.location = cfg.correcting ? cfg.handsUrl : `${cfg.tableUrl}?saved=${data.number}`;
    }).catch(() => { $("save").disabled = false; $("prompt").textContent = T.offline; });
  });

  if (cfg.saved) {
    const toast = $("toast");
    toast.hidden = false;
    toast.append(el("span", {}, `${T.saved} #${cfg.saved} `), el("button", { type: "button", class: "chip", id: "undo", on: { click: () => {
      postJSON(cfg.voidUrl.replace("{n}", cfg.saved), { reason: "undo" }).then(({ ok }) => {
        if (ok) window.location = cfg.tableUrl;
      });
    } } }, T.undo));
    history.replaceState(null, "", cfg.tableUrl);
    setTimeout(() => { toast.hidden = true; }, 10000);
  }

  setMode(null);
  renderEvents();
  schedulePreview();
})();
