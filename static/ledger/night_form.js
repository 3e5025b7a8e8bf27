// The new-night form and a group's default rules: presets fill the rule fields (the fan table's pattern fields
// included); on the night form the seats follow the players and the dice pick the first dealer.
(function () {
  const presets = JSON.parse(document.getElementById("presets").textContent);
  const form = document.getElementById("night-form") || document.getElementById("defaults-form");
  if (!form) return;
  // The seats follow the number of players (RULES.md §9: 4, 3 or 2): the others are hidden and not required.
  function seatCount() {
    const players = form.elements.rule_players ? Number(form.elements.rule_players.value) : 0;
    if ([2, 3, 4].includes(players)) return players;
    return (presets[form.elements.preset.value] || {}).players || 4;
  }
  function showSeats() {
    const count = seatCount();
    form.querySelectorAll("[data-seat-field]").forEach(label => {
      const shown = Number(label.dataset.seatField) < count;
      label.hidden = !shown;
      const name = label.querySelector("input[data-player-name]");
      if (name) name.required = shown;
      const dealer = label.querySelector("input[name=first_dealer]");
      if (dealer && !shown && dealer.checked) form.querySelector('input[name=first_dealer][value="0"]').checked = true;
    });
    // A name typed in a seat the table no longer has is kept in its field but not seated: said, not dropped unseen.
    const note = document.getElementById("left-out");
    if (!note) return;
    const left = [...form.querySelectorAll("[data-seat-field][hidden] input[data-player-name]")].map(i => i.value.trim()).filter(Boolean);
    note.hidden = !left.length;
    const names = left.join(note.dataset.sep || "、");
    note.textContent = left.length ? note.dataset.words.replace("{n}", () => count).replace("{names}", () => names) : "";
  }
  form.elements.preset.addEventListener("change", function () {
    const values = presets[this.value];
    // A group's default rules: the fields now show this preset's values (groups/views.py _rules_chosen).
    if (form.elements.rules_shown_for) form.elements.rules_shown_for.value = this.value;
    // The fan table (RULES.md §10 pattern_fan): each pattern's field shows the preset's fan, else the usual one.
    const fans = values.pattern_fan || {};
    form.querySelectorAll("input[data-pattern]").forEach(field => {
      const code = field.dataset.pattern;
      field.value = code in fans ? fans[code] : field.dataset.defaultFan;
    });
    for (const [name, value] of Object.entries(values)) {
      const field = form.elements["rule_" + name];
      if (!field) continue;
      if (field.type === "checkbox") field.checked = !!value;
      else if (typeof value === "boolean") field.value = value ? "True" : "False";  // a yes/no select
      else field.value = value === null ? "" : value;
    }
    showSeats();
  });
  if (form.elements.rule_players) form.elements.rule_players.addEventListener("input", showSeats);
  showSeats();
  // The preset still names the table once a rule is changed under it: which ones, said beside it (a walk chose
  // 三人两房, then 血流成河, and the form still read 三人两房 alone, as if the night were 血战).
  function sameAs(field, value) {
    if (field.type === "checkbox") return field.checked === !!value;
    if (field.value === "" && ("keepPreset" in field.dataset || field.dataset.pattern)) return true;  // empty: the preset's
    if (typeof value === "boolean") return field.value === (value ? "True" : "False");
    return field.value === (value === null || value === undefined ? "" : String(value));
  }
  const nameOf = (field) => {
    const label = field.id && form.querySelector(`label[for="${field.id}"]`) || field.closest("label");
    return label ? label.firstChild.textContent.trim() : field.name;
  };
  function presetChanged() {
    const note = document.getElementById("preset-changed");
    const values = presets[form.elements.preset.value];
    if (!note || !values) return;
    const fans = values.pattern_fan || {};
    const changed = [...form.querySelectorAll("[name^=rule_], input[data-pattern]")].filter(field =>
      field.dataset.pattern ? !sameAs(field, fans[field.dataset.pattern] ?? field.dataset.defaultFan)
        : field.name.slice(5) in values && !sameAs(field, values[field.name.slice(5)]));
    note.hidden = !changed.length;
    note.textContent = changed.length ? note.dataset.words.replace("{names}", () => changed.map(nameOf).join(note.dataset.sep)) : "";
  }
  form.addEventListener("input", presetChanged);
  form.addEventListener("change", presetChanged);
  presetChanged();
  // A two-suit table (两房: 筒 and 条 only) has no 花猪 (RULES.md §9): 查花猪 is off there and cannot be ticked.
  function twoSuits() {
    const suits = form.elements.rule_suits, huaZhu = form.elements.rule_hua_zhu;
    if (!suits || !huaZhu || huaZhu.type !== "checkbox") return;
    const two = suits.value === "ps";
    if (two) huaZhu.checked = false;
    huaZhu.disabled = two;
  }
  if (form.elements.rule_suits) form.elements.rule_suits.addEventListener("change", twoSuits);
  form.elements.preset.addEventListener("change", twoSuits);
  twoSuits();
  // Without 幺九将对 there is no 将七对 (RULES.md §10): its fan is 0 and cannot be typed (a walk typed 4 and the
  // server refused the form). Read-only, not disabled: the 0 is still sent.
  // Back to 算, the fan typed before comes back (a review: it stayed 0, and the night had no 将七对).
  const level = form.elements.rule_yao_jiu_jiang_dui, jiangQiDui = form.elements.rule_jiang_qi_dui_fan;
  function noJiangQiDui() {
    const off = level.value === "False";
    if (off && !jiangQiDui.readOnly) { jiangQiDui.dataset.kept = jiangQiDui.value; jiangQiDui.value = "0"; }
    if (!off && jiangQiDui.readOnly) jiangQiDui.value = jiangQiDui.dataset.kept || jiangQiDui.value;
    jiangQiDui.readOnly = off;
  }
  if (level && jiangQiDui) {
    level.addEventListener("change", noJiangQiDui);
    // A preset's values stand as it gives them: nothing kept from before it.
    form.elements.preset.addEventListener("change", () => { jiangQiDui.readOnly = false; noJiangQiDui(); });
    noJiangQiDui();
  }
  const dice = document.getElementById("dice");
  if (dice) dice.addEventListener("click", function () {
    // Each player rolls two dice; the highest deals first (a tie rolls again).
    let rolls, best;
    do {
      rolls = [0, 1, 2, 3].slice(0, seatCount()).map(() => 2 + Math.floor(Math.random() * 6) + Math.floor(Math.random() * 6));
      best = Math.max(...rolls);
    } while (rolls.filter(r => r === best).length > 1);
    const seat = rolls.indexOf(best);
    form.querySelector(`input[name=first_dealer][value="${seat}"]`).checked = true;
    // Each seat's roll and who deals, in words: "东 张三 4 · 南 李四 8 → 南 李四 坐庄".
    const who = (s) => {
      const label = form.querySelector(`input[name=first_dealer][value="${s}"]`).closest("label").textContent.trim();
      const name = form.querySelector(`[data-seat-field="${s}"] input[data-player-name]`);
      return name && name.value.trim() ? `${label} ${name.value.trim()}` : label;
    };
    const result = document.getElementById("dice-result");
    result.textContent = rolls.map((roll, s) => `${who(s)} ${roll}`).join(" · ") + " → "
      + result.dataset.deals.replace("{who}", who(seat));
  });
})();
