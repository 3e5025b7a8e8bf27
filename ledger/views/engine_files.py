"""The files the engine in the phone needs: Pyodide (from the pinned npm package) and `scoring` zipped from source."""
from __future__ import annotations

import hashlib
import io
import json
import zipfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

from django.conf import settings
from django.contrib.staticfiles.finders import BaseFinder
from django.core.checks import CheckMessage
from django.core.files.storage import FileSystemStorage

#: What Pyodide needs to start with the standard library only (the engine is pure Python): the loader, the
#: runtime, the standard library and the lock file it reads at start. The rest of the npm package (a console,
#: type declarations, source maps) is not served.
PYODIDE_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
SCORING_DIR = Path(__file__).resolve().parent.parent.parent / "scoring"


def pyodide_dir() -> Path:
    return Path(settings.BASE_DIR) / "node_modules" / "pyodide"


@lru_cache(maxsize=1)
def pyodide_version() -> str:
    """The installed npm package's version (package.json pins it); "missing" when `npm ci` has not run."""
    try:
        return str(json.loads((pyodide_dir() / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return "missing"


def pyodide_prefix() -> str:
    """Where the Pyodide files are served under STATIC_URL: versioned, so the service worker may keep them for ever."""
    return f"vendor/pyodide-{pyodide_version()}"


class PyodideFinder(BaseFinder):
    """Static files finder for the few Pyodide files the phone needs, straight from node_modules (no copy)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.storage = FileSystemStorage(location=str(pyodide_dir()))
        self.storage.prefix = pyodide_prefix()  # type: ignore[attr-defined]  # as FileSystemFinder does

    def check(self, **kwargs: Any) -> list[CheckMessage]:
        return []

    # Django returns [] for "not found" whatever find_all says (its stubs say None): this does as Django does.
    def find(self, path: str, find_all: bool = False, **kwargs: Any) -> str | list[str]:  # type: ignore[override]
        prefix = pyodide_prefix() + "/"
        name = path[len(prefix):] if path.startswith(prefix) else ""
        found = [str(pyodide_dir() / name)] if name in PYODIDE_FILES and (pyodide_dir() / name).is_file() else []
        if find_all or kwargs.get("all"):
            return found
        return found[0] if found else []

    def list(self, ignore_patterns: Any) -> Iterator[tuple[str, FileSystemStorage]]:
        for name in PYODIDE_FILES:
            if (pyodide_dir() / name).is_file():
                yield name, self.storage


@lru_cache(maxsize=1)
def scoring_zip() -> tuple[str, bytes]:
    """The `scoring` package as a zip of its source files, and its digest (the URL names it, so a phone keeps one
    version until the engine changes). Built once per process, byte for byte the same in every process."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for source in sorted(SCORING_DIR.glob("*.py")):
            info = zipfile.ZipInfo(f"scoring/{source.name}", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, source.read_bytes())
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:16], data


def engine_setup(night: Any) -> dict[str, Any]:
    """What the table page's engine needs: where Pyodide and the zip are, and the night's base and frozen rules
    (the same base string and rules the server's preview gives scoring.preview)."""
    from django.templatetags.static import static
    from django.urls import reverse

    from ledger.services.nights import night_base

    digest, _ = scoring_zip()
    return {"worker": static("ledger/table/engine_worker.js"), "pyodide": static(f"{pyodide_prefix()}/pyodide.mjs"),
            "indexURL": static(f"{pyodide_prefix()}/"), "zip": reverse("engine-zip", args=[digest]),
            "base": night_base(night), "rules": night.rules}
