// Forms with data-confirm ask before they are sent (no inline script: the CSP allows only 'self').
document.querySelectorAll("form[data-confirm]").forEach(function (form) {
  form.addEventListener("submit", function (event) {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
});
