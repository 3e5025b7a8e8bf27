// Forms with data-confirm ask before they are sent (no inline script: the CSP allows only 'self'). Asked on the
// document, so a form that a live page puts in later (the evening page's 结束/结算) asks too.
document.addEventListener("submit", function (event) {
  const form = event.target;
  if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
    event.preventDefault();
  }
});
