// Audit page: an entry's before/after is fetched when its <details> is first opened (the link inside
// stays for when scripts are off).
"use strict";
document.querySelectorAll("details.audit-change[data-src]").forEach(function (details) {
  details.addEventListener("toggle", function () {
    if (!details.open || details.dataset.loaded) return;
    details.dataset.loaded = "1";
    fetch(details.dataset.src, {credentials: "same-origin", headers: {"Accept": "text/html"}})
      .then(function (response) { return response.ok ? response.text() : Promise.reject(response.status); })
      .then(function (html) {
        var holder = document.createElement("div");
        holder.innerHTML = html;
        var link = details.querySelector("a.audit-change-link");
        if (link) link.remove();
        details.appendChild(holder);
      })
      .catch(function () { delete details.dataset.loaded; });
  });
});
