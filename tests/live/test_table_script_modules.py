"""The table page's script as ES modules: every module a page loads is kept for offline use by the service worker,
every import names a module that exists and a name it exports, and main.js only wires the others up."""
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

TABLE = Path(__file__).resolve().parents[2] / "static" / "ledger" / "table"
IMPORT = re.compile(r'^import \{([^}]*)\} from "\./([\w.]+)";$', re.MULTILINE)
EXPORT = re.compile(r"^export (?:async )?(?:function|const|let) ([\w$]+)", re.MULTILINE)


def imports(module: str) -> list[tuple[list[str], str]]:
    source = (TABLE / module).read_text()
    return [([name.strip() for name in names.split(",")], target) for names, target in IMPORT.findall(source)]


def loaded_from(entry: str) -> set[str]:
    seen, todo = set(), [entry]
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(target for _, target in imports(module))
    return seen


def shell(client) -> list[str]:
    first_line = client.get("/sw.js").content.decode().split("\n", 1)[0]
    return json.loads(first_line.removeprefix("const CONFIG = ").removesuffix(";"))["shell"]


@pytest.mark.parametrize("entry", ["main.js", "queue_page.js"])
def test_every_module_a_table_page_loads_is_kept_for_offline_use(client, entry):
    kept = shell(client)
    modules = loaded_from(entry) | {"engine_worker.js"}  # the engine's worker is started by URL, not imported
    assert len(modules) > 1
    for module in sorted(modules):
        assert f"/static/ledger/table/{module}" in kept, module


def test_the_script_is_split_into_small_modules_each_saying_what_it_is_for():
    modules = loaded_from("main.js")
    assert {"state.js", "seats.js", "cards.js", "tiles.js", "exhaustion.js", "preview.js", "save.js"} <= modules
    for module in modules:
        source = (TABLE / module).read_text()
        assert source.startswith("// "), module
        assert source.count("\n") <= 130, module
    wiring = (TABLE / "main.js").read_text()
    assert not re.search(r"^(?:async )?function ", wiring, re.MULTILINE)


def test_every_import_names_a_module_that_exports_it():
    for module in loaded_from("main.js") | loaded_from("queue_page.js"):
        for names, target in imports(module):
            exported = set(EXPORT.findall((TABLE / target).read_text()))
            assert set(names) <= exported, (module, target, set(names) - exported)


def test_the_modules_import_each_other_without_a_cycle():
    def visit(module: str, path: tuple[str, ...]) -> None:
        assert module not in path, " -> ".join((*path, module))
        for _, target in imports(module):
            visit(target, (*path, module))
    visit("main.js", ())


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_every_module_parses_as_an_es_module():
    for module in sorted(TABLE.glob("*.js")):
        result = subprocess.run(["node", "--check", "--input-type=module"], input=module.read_bytes(),
                                capture_output=True, check=False)
        assert result.returncode == 0, (module.name, result.stderr.decode())
