"""What the browser tests share: Chromium and its screen, the ASGI server, a phone-sized page, a night at a table,
and the steps a person takes on a page (sign in, tap a win, read the totals, run axe)."""
import asyncio
import datetime as dt
import os
import socket
import threading
import time
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from ledger.services import nights as services
from ledger.services import sharing as join_services

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run"]
SHOTS = Path(os.environ.get("SCREENSHOT_DIR", "/tmp/ledger-screens"))
PHONE = {"viewport": {"width": 360, "height": 740}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True,
         "locale": "zh-CN"}
AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture
def asgi_server(transactional_db):
    """The ASGI app (HTTP and WebSocket) under uvicorn in a thread, on the test database."""
    import uvicorn
    from asgiref.sync import sync_to_async
    from django.db import connections

    from ledger.asgi import application

    # An in-memory SQLite test database lives in this process's connection: share it, as Django's live server does.
    shared = {alias: connections[alias] for alias in connections
              if connections[alias].vendor == "sqlite" and connections[alias].is_in_memory_db()}
    for conn in shared.values():
        conn.inc_thread_sharing()
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(application, log_level="warning", lifespan="off"))

    def share() -> None:
        for alias, conn in shared.items():
            connections[alias] = conn

    def close() -> None:
        for conn in connections.all(initialized_only=True):
            if conn.alias not in shared:
                conn.close()

    async def serve() -> None:
        await sync_to_async(share)()  # the thread where the app's sync code (views, consumers' queries) runs
        await server.serve(sockets=[sock])
        await sync_to_async(close)()

    thread = threading.Thread(target=lambda: asyncio.run(serve()), daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    server.should_exit = True
    thread.join(10)
    for conn in shared.values():
        conn.dec_thread_sharing()


@contextmanager
def chromium():
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield browser
        finally:
            browser.close()
            from django.db import connections
            connections.close_all()


@pytest.fixture
def table(db):
    users = get_user_model().objects
    owner = users.create_user("owner", password="pw-owner")
    keeper = users.create_user("keeper", password="pw-keeper")
    players = [services.player_get_or_create(name=n, group=services.personal_group(owner)) for n in ("张三", "李四", "王五", "赵六")]
    night = services.night_create(owner=owner, title="周五夜", date=dt.date(2026, 11, 27), base=Decimal(2),
                                  players=players, first_dealer=0, scorekeepers=[keeper])
    view = join_services.link_renew(night=night, by=owner, kind="view")
    invite = join_services.link_renew(night=night, by=owner, kind="invite")
    return {"night": night, "view": view.token, "invite": invite.token}


def sign_in(page, url, username, password):
    page.goto(f"{url}/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("button.primary")
    page.wait_for_url(f"{url}/")


def totals(page):
    return [page.locator(f".seat-{s} .total").all_inner_texts() for s in range(4)]


def live(page):
    page.wait_for_selector("html[data-live=on]", state="attached")  # selectors, not functions: the CSP forbids eval
    page.evaluate("window.__sameDocument = true")  # gone if the page reloads


def page_diary(page):
    """What the page said while a test ran (console messages, page errors, failed requests, answers of 400 and more,
    each with its second): printed when the test fails, so that a failure seen once in CI can be read."""
    diary, start = [], time.monotonic()

    def note(what):
        diary.append(f"{time.monotonic() - start:7.2f}s {what}")
    page.on("console", lambda m: note(f"console.{m.type}: {m.text}"))
    page.on("pageerror", lambda e: note(f"page error: {e}"))
    page.on("requestfailed", lambda r: note(f"failed: {r.method} {r.url} {r.failure}"))
    page.on("response", lambda r: r.status >= 400 and note(f"{r.status}: {r.request.method} {r.url}"))
    page.on("framenavigated", lambda f: f == page.main_frame and note(f"at {f.url}"))
    return diary


@pytest.fixture
def browser_page(request):
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"  # Playwright's sync API runs an event loop in this thread
    from playwright.sync_api import sync_playwright
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport={"width": 360, "height": 780}, device_scale_factor=2, is_mobile=True,
                                has_touch=True, locale="zh-CN",
                                bypass_csp=True)  # wait_for_function evaluates strings; the app's CSP is tested in test_browser_csp
        request.node.page_diary = diary = page_diary(page)  # put in a failed test's report (tests/conftest.py)
        yield page
        call = getattr(request.node, "phase_call", None)  # tests/conftest.py, pytest_runtest_makereport
        if call is not None and call.failed:
            try:
                preview = page.locator("#preview")
                if preview.count():
                    diary.append(f"#preview ({preview.get_attribute('class')}): {preview.inner_text(timeout=2000)}")
                SHOTS.mkdir(parents=True, exist_ok=True)
                attempt = getattr(request.node, "execution_count", 1)  # pytest-rerunfailures: 1, then 2
                page.screenshot(path=str(SHOTS / f"failed-{request.node.name[:150]}-{attempt}.png"))
            except Exception as error:  # the page itself may be what failed
                diary.append(f"(the page could not be read: {error})")
            print("What the page said:", *diary, sep="\n  ")
        browser.close()
        # Playwright's sync API switches greenlets, and with them Django's connection context:
        # close what this context opened, or PostgreSQL keeps the test database busy.
        from django.db import connections
        connections.close_all()


def seat_total(page, seat):
    text = page.locator(f".seat-{seat} .total").inner_text()
    return Decimal(text.replace("+", ""))


def open_demo_night(page, url, rules=None, prepare=None):
    """Load the demo night (with `rules` over its own: a house rule to try; `prepare` called to change its data
    before any page asks for it), sign in as its owner and open its table page."""
    call_command("demo")
    if prepare:
        prepare()
    if rules:
        from ledger.models import Night
        night = Night.objects.get(title="周五夜 · 演示")
        Night.objects.filter(pk=night.pk).update(rules={**night.rules, **rules})
    page.goto(f"{url}/login/")
    page.fill("input[name=username]", "demo")
    page.fill("input[name=password]", "demo")
    page.click("button.primary")
    page.click("text=周五夜 · 演示")
    wait_for_table(page)


def wait_for_table(page):
    """The table page drawn and its modules loaded, every control wired (main.js marks html[data-table-ready] last):
    before any tap, since a tap on a control not yet wired does nothing."""
    page.wait_for_selector("#add-win")
    page.wait_for_selector("html[data-table-ready]", state="attached")


def tap_a_win(page, winner, discarder=None):
    """+ 胡牌, the winner, then the discarder (or 自摸); the engine's choices decide which seats may be tapped."""
    page.tap("#add-win")
    page.tap(f".seat-{winner}:not([disabled])")
    if discarder is None:
        page.tap("#pick-self-draw")
    else:
        page.tap(f".seat-{discarder}:not([disabled])")
        # The engine's answer: others may win on that discard too (their seats can be tapped: 完成 says nobody
        # did), or nobody else can, and the step ended by itself.
        page.wait_for_function("document.getElementById('picker').hidden"
                               " || !!document.querySelector('#seats .seat.pickable')")
        if page.locator("#pick-done").count():
            page.tap("#pick-done")


def a_later_win_after_four_of(page, key):
    """李四 self-draws holding four `key` (tapped on the keypad), then 王五 self-draws: 王五's hand, on the keypad."""
    tap_a_win(page, 1)
    page.locator("[data-path='events[0].winners[0]'] [data-action=tiles]").tap()
    for _ in range(4):
        page.locator(f"[data-path='events[0].winners[0]'] [data-key='{key}']").tap()
    tap_a_win(page, 2)
    later = page.locator("[data-path='events[1].winners[0]']")
    later.locator("[data-action=tiles]").tap()
    return later


def ready_by_tiles(page, seats):
    """流局/查叫, and these seats ready, each given by tiles (an empty keypad)."""
    page.tap("#toggle-exhausted")
    for seat in seats:
        page.tap(f"[data-ready='{seat}']")
        page.locator("#exhaustion [data-action=tiles]").last.tap()


def serious(page):
    page.add_script_tag(path=str(AXE))
    found = page.evaluate("async () => (await axe.run(document)).violations.map(v => ({id: v.id, impact: v.impact,"
                          " help: v.help, targets: v.nodes.map(n => n.target.join(' ')).slice(0, 5)}))")
    return [v for v in found if v["impact"] in ("serious", "critical")]


def no_sideways_scroll(page):
    # Against the phone's own width: a mobile page wider than the screen widens its layout viewport (innerWidth) to
    # fit, so comparing with innerWidth passed a page zoomed out to show a long name.
    return page.evaluate("(width) => document.documentElement.scrollWidth <= width", page.viewport_size["width"])
