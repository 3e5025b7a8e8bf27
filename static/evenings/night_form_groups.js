// The new-night form's group, evening and table fee: switching group swaps the name suggestions and fills the
// group's defaults; an evening sets the date and venue; the fee's amount and wins show only for the modes using them.
(function () {
  const form = document.getElementById("night-form");
  const config = JSON.parse(document.getElementById("group-config").textContent);
  const feeMode = form.elements.fee_mode;
  function showFee() {
    const mode = feeMode.value || "none";
    form.querySelector("[data-fee=amount]").hidden = mode === "none";
    form.querySelector("[data-fee=wins]").hidden = mode !== "per_win";
  }
  function fill(values) {
    for (const [name, value] of Object.entries(values || {})) {
      const field = form.elements[name];
      if (!field || field.type === "hidden") continue;
      if (field.type === "checkbox") field.checked = !!value; else field.value = value === null ? "" : value;
    }
  }
  function useGroup(id) {
    form.querySelectorAll("[data-player-name]").forEach(input => input.setAttribute("list", "player-names-" + id));
    for (const option of form.elements.evening.options) {
      const evening = config.evenings[option.value];
      option.hidden = !!evening && String(evening.group) !== String(id);
    }
  }
  feeMode.addEventListener("change", showFee);
  const group = form.elements.group;
  if (group && group.tagName === "SELECT") {
    group.addEventListener("change", function () {
      fill(config.defaults[this.value]);
      showFee();
      useGroup(this.value);
      const evening = config.evenings[form.elements.evening.value];
      if (evening && String(evening.group) !== String(this.value)) form.elements.evening.value = "";
    });
  }
  form.elements.evening.addEventListener("change", function () {
    const evening = config.evenings[this.value];
    if (!evening) return;
    form.elements.date.value = evening.date;
    if (evening.venue) form.elements.venue.value = evening.venue;
    if (group && group.tagName === "SELECT" && String(group.value) !== String(evening.group)) {
      group.value = evening.group;
      useGroup(evening.group);
    }
  });
  showFee();
  if (group) useGroup(group.value);
})();
