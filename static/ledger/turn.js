// Turning the table picture (↻ 转): any viewer puts their own seat at the bottom, kept on this phone per night.
// A viewer's own choice, so it works for members, view links and closed nights, not only for recorders.
(() => {
  const seats = document.getElementById("seats");
  const button = document.getElementById("turn");
  if (!seats || !button || !seats.dataset.turnKey) return;
  const key = seats.dataset.turnKey;
  const count = seats.querySelectorAll(".seat[data-seat]").length || 4;
  let turn = 0;
  try { turn = (Number(localStorage.getItem(key)) || 0) % count; } catch (e) { /* private mode */ }
  function show() {
    for (let r = 0; r < 4; r++) seats.classList.toggle(`turn-${r}`, r === turn);
  }
  button.addEventListener("click", () => {
    turn = (turn + 1) % count;
    try { localStorage.setItem(key, String(turn)); } catch (e) { /* private mode */ }
    show();
  });
  show();
})();
