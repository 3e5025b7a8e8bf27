// The report buttons: "分享" shares the outcome picture (Web Share API with a file) where the phone
// can, and downloads it otherwise; "复制" copies the text summary. Without this script both links
// still download.
(function () {
  "use strict";

  function download(blob, name) {
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = name;
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10000);
  }

  function fileName(response, fallback) {
    const header = response.headers.get("Content-Disposition") || "";
    const match = /filename\*=UTF-8''([^;]+)/i.exec(header);
    return match ? decodeURIComponent(match[1]) : fallback;
  }

  document.querySelectorAll(".report-buttons .share").forEach((link) => {
    link.addEventListener("click", async (event) => {
      event.preventDefault();
      const box = link.closest(".report-buttons");
      link.setAttribute("aria-busy", "true");
      try {
        const response = await fetch(link.href, { credentials: "same-origin" });
        if (!response.ok) throw new Error(String(response.status));
        const blob = await response.blob();
        const name = fileName(response, "night.png");
        const file = new File([blob], name, { type: "image/png" });
        if (navigator.canShare && navigator.canShare({ files: [file] })) {
          try {
            await navigator.share({ files: [file], title: box.dataset.shareTitle });
          } catch (err) {
            if (err && err.name === "AbortError") return; // the user closed the share sheet
            download(blob, name);
          }
        } else {
          download(blob, name);
        }
      } catch (err) {
        window.location.href = link.href;
      } finally {
        link.removeAttribute("aria-busy");
      }
    });
  });

  // Asked on the document, so a copy button that a live page puts in later (the evening page's) copies too.
  document.querySelectorAll("[data-copy]").forEach((button) => { button.hidden = false; });
  document.addEventListener("click", async (event) => {
    const button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!button) return;
    const source = document.getElementById(button.dataset.copy);
    const text = source.value || source.textContent;
    try {
      await navigator.clipboard.writeText(text);
    } catch (err) {
      source.select();
      document.execCommand("copy");
    }
    if (!button.dataset.label) button.dataset.label = button.textContent;  // a second tap within 2 s keeps it
    button.textContent = button.dataset.copied;
    clearTimeout(button.copiedTimer);
    button.copiedTimer = setTimeout(() => { button.textContent = button.dataset.label; }, 2000);
  });
})();
