"""The service worker at the site root, the engine zip, and the page shown when something needs the network."""
from __future__ import annotations

import hashlib
import json
from functools import lru_cache
from pathlib import Path

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe

from ledger.views.engine_files import PYODIDE_FILES, pyodide_prefix, scoring_zip

STATIC_SOURCE = Path(settings.BASE_DIR) / "static"
SW_SOURCE = STATIC_SOURCE / "ledger" / "sw.js"
#: The app shell: kept when the service worker installs, so a night opened once opens again without a network.
#: Every script the table page loads is in it (all of static/ledger/table/, and turn.js: without it the picture
#: turned to the recorder's seat came back unturned offline, a walk): a script left out breaks the page offline.
SHELL = ("ledger/app.css", "ledger/live.css", "ledger/icon.svg", "ledger/icon-192.png", "ledger/follow.js",
         "ledger/live.js", "ledger/turn.js", "ledger/adjust.js", "reports/share.js",
         *sorted(path.relative_to(STATIC_SOURCE).as_posix() for path in (STATIC_SOURCE / "ledger" / "table").glob("*.js")),
         "ledger/register_sw.js")


def engine_urls() -> list[str]:
    """Pyodide's files and the scoring zip: fetched once after the first paint, kept by the service worker."""
    digest, _ = scoring_zip()
    return [static(f"{pyodide_prefix()}/{name}") for name in PYODIDE_FILES] + [
        reverse("engine-zip", args=[digest])]


@lru_cache(maxsize=1)
def _worker_script() -> str:
    shell = [static(path) for path in SHELL]
    # A new version whenever the worker, the shell files or the engine change: the old caches are then dropped.
    digest = hashlib.sha256(SW_SOURCE.read_bytes())
    for path in SHELL:
        source = STATIC_SOURCE / path
        digest.update(source.read_bytes() if source.is_file() else path.encode())
    digest.update(json.dumps(engine_urls()).encode())
    config = {"version": digest.hexdigest()[:12], "shell": shell, "engine": engine_urls(),
              "offline": reverse("offline-page"), "logout": reverse("logout"), "static": static("")}
    return f"const CONFIG = {json.dumps(config)};\n" + SW_SOURCE.read_text()


@require_safe
def service_worker(request: HttpRequest) -> HttpResponse:
    """/sw.js: served from the root so that its scope covers every page (/nights/…)."""
    response = HttpResponse(_worker_script(), content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser checks for a new version on every visit
    return response


@require_safe
@cache_control(public=True, max_age=31536000, immutable=True)
def engine_zip(request: HttpRequest, digest: str) -> HttpResponse:
    """The `scoring` package zipped from its source, named by its digest (an old digest is gone: 404)."""
    current, data = scoring_zip()
    if digest != current:
        raise Http404
    return HttpResponse(data, content_type="application/zip")


@require_safe
def offline_page(request: HttpRequest) -> HttpResponse:
    """What the service worker shows for a page it has not kept when there is no network."""
    return render(request, "offline.html")
