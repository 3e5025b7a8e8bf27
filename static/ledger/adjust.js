// The 诈胡 form (table page and its own page): the line under its heading says what the fan typed costs, from the
// amounts the server wrote beside it (exact, in the night's stake); a blank fan is the night's default.
(function () {
  "use strict";
  const data = document.getElementById("zha-hu-amounts");
  const form = document.getElementById("adjust-zha_hu");
  if (!data || !form) return;
  const amounts = JSON.parse(data.textContent);
  const fan = form.querySelector("input[name=fan]");
  const cost = form.querySelector(".zha-hu-cost");
  if (!fan || !cost) return;
  function show() {
    const typed = fan.value.trim();
    const key = typed === "" ? "default" : String(Number(typed));
    cost.textContent = /^\d+$/.test(typed) || typed === "" ? (amounts[key] || "") : "";
  }
  fan.addEventListener("input", show);
  show();
})();
