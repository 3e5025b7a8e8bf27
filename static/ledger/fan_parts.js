// The fan table of the night form and a group's defaults (RULES.md §10 pattern_fan): a pattern's fan changed by
// hand leaves the patterns made of it where they were (对对胡 2番 beside 清对 and 将对 still at 3). The note under
// the table says so and offers them the same step in one tap, as the preset 对对胡两番 does; nothing changes unasked.
(function () {
  const note = document.getElementById("fan-parts-note");
  if (!note) return;
  const fields = [...document.querySelectorAll("input[data-pattern]")];
  const byCode = Object.fromEntries(fields.map((f) => [f.dataset.pattern, f]));
  const label = (f) => (document.querySelector(`label[for="${f.id}"]`) || {}).textContent || f.dataset.pattern;
  const fill = (text, values) => text.replace(/\{(\w+)\}/g, (all, key) => (key in values ? values[key] : all));
  const button = note.querySelector("button");
  let step = null;
  function hide() { note.hidden = true; step = null; }
  // Said while typing (a walk typed 2 and tapped 开始 before leaving the box: the note had waited for the change),
  // measured from the fan the field had before this edit.
  function said(field) {
    const before = Number(field.dataset.was), now = Number(field.value);
    const others = (field.dataset.contains || "").split(" ").filter((c) => byCode[c]).map((c) => byCode[c]);
    if (field.value === "" || !Number.isInteger(now) || !Number.isInteger(before) || now === before || !others.length) {
      hide(); return;
    }
    step = { by: now - before, others };
    const listed = others.map((f) => fill(note.dataset.fan, { name: label(f), fan: f.value })).join(note.dataset.sep);
    note.querySelector("span").textContent = fill(note.dataset.words, { pattern: label(field), fan: now, others: listed });
    button.textContent = fill(step.by > 0 ? note.dataset.raise : note.dataset.lower, { n: Math.abs(step.by) });
    note.hidden = false;
  }
  fields.forEach((field) => {
    field.dataset.was = field.value;
    field.addEventListener("input", () => said(field));
    // The edit is done: the next one is measured from here; the note stays until answered or replaced.
    field.addEventListener("change", () => { field.dataset.was = field.value; });
  });
  button.addEventListener("click", () => {
    if (!step) return;
    step.others.forEach((f) => {
      const low = Number(f.min || 0), high = Number(f.max || 10);
      f.value = String(Math.min(high, Math.max(low, Number(f.value || f.dataset.defaultFan) + step.by)));
      f.dataset.was = f.value;
    });
    hide();
  });
  // A preset fills the whole table: what was said no longer holds.
  const preset = document.querySelector("[name=preset]");
  if (preset) preset.addEventListener("change", () => { hide(); fields.forEach((f) => { f.dataset.was = f.value; }); });
})();
