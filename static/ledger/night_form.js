// The new-night form: presets fill the rule fields; the dice pick the first dealer.
(function () {
  const presets = JSON.parse(document.getElementById("presets").textContent);
  const form = document.getElementById("night-form");
  form.elements.preset.addEventListener("change", function () {
    const values = presets[this.value];
    for (const [name, value] of Object.entries(values)) {
      const field = form.elements["rule_" + name];
      if (!field) continue;
      if (field.type === "checkbox") field.checked = !!value;
      else if (value !== null && typeof value === "object") field.value = JSON.stringify(value);  // a fan table
      else if (typeof value === "boolean") field.value = value ? "True" : "False";  // a yes/no select
      else field.value = value === null ? "" : value;
    }
  });
  document.getElementById("dice").addEventListener("click", function () {
    // Each player rolls two dice; the highest deals first (a tie rolls again).
    let rolls, best;
    do {
      rolls = [0, 1, 2, 3].map(() => 2 + Math.floor(Math.random() * 6) + Math.floor(Math.random() * 6));
      best = Math.max(...rolls);
    } while (rolls.filter(r => r === best).length > 1);
    const seat = rolls.indexOf(best);
    form.querySelector(`input[name=first_dealer][value="${seat}"]`).checked = true;
    document.getElementById("dice-result").textContent = rolls.join(" · ");
  });
})();
