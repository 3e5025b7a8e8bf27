"""Serving: phones on the local network reach a debug server; several processes share live events via Redis."""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from ledger.web.lan import local_hosts

ROOT = Path(__file__).resolve().parents[2]


def settings_in_a_fresh_process(**env):
    code = "import django, json; django.setup(); from django.conf import settings; print(json.dumps(settings.ALLOWED_HOSTS))"
    clean = {k: v for k, v in os.environ.items() if k not in ("ALLOWED_HOSTS", "DEBUG")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                         env={**clean, "DJANGO_SETTINGS_MODULE": "ledger.settings", **env})
    return json.loads(out.stdout)


def routed_address():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        udp.connect(("10.255.255.255", 1))
        return udp.getsockname()[0]


def test_a_debug_server_allows_the_addresses_it_serves_on_the_lan():
    assert routed_address() in local_hosts()
    hosts = settings_in_a_fresh_process(DEBUG="true")
    assert routed_address() in hosts and "localhost" in hosts


def test_production_allows_only_the_configured_hosts():
    assert settings_in_a_fresh_process(DEBUG="false", SECRET_KEY="x" * 50) == [
        "localhost", "127.0.0.1", "[::1]", "testserver"]
    assert settings_in_a_fresh_process(DEBUG="true", ALLOWED_HOSTS="mahjong.example") == ["mahjong.example"]


# ---- several processes, one Redis -------------------------------------------------------------------------

SETUP = """
import datetime as dt, json
from decimal import Decimal
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from ledger.services import nights as services
from ledger.services import sharing as join_services
owner = get_user_model().objects.create_user("owner", password="pw")
players = [services.player_get_or_create(name=n, group=services.personal_group(owner)) for n in ("张三", "李四", "王五", "赵六")]
night = services.night_create(owner=owner, title="redis", date=dt.date(2026, 11, 27), base=Decimal(1),
                              players=players, first_dealer=0)
view = join_services.link_renew(night=night, by=owner, kind="view")
print(json.dumps({"night": night.pk, "view": view.token, "token": Token.objects.create(user=owner).key}))
"""


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until_serving(port, process):
    for _ in range(100):
        if process.poll() is not None:
            raise AssertionError(f"server on {port} exited: {process.stdout.read()}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/login/", timeout=1)
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"server on {port} did not start")


@pytest.mark.skipif(not os.environ.get("REDIS_URL"), reason="needs REDIS_URL (e.g. redis://127.0.0.1:6379/0)")
def test_an_event_published_by_one_process_reaches_a_socket_held_by_another(tmp_path):
    from websockets.sync.client import connect

    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}", "DEBUG": "true",
           "REDIS_PREFIX": f"ledger-live-test-{uuid.uuid4().hex[:8]}", "DJANGO_SETTINGS_MODULE": "ledger.settings"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run(manage + ["migrate", "-v0"], env=env, cwd=ROOT, check=True)
    ids = json.loads(subprocess.run(manage + ["shell", "-v0", "-c", SETUP], env=env, cwd=ROOT, check=True,
                                    capture_output=True, text=True).stdout)
    ports = [free_port(), free_port()]
    servers = [subprocess.Popen([sys.executable, "-m", "uvicorn", "ledger.asgi:application", "--host", "127.0.0.1",
                                 "--port", str(port), "--log-level", "warning"], env=env, cwd=ROOT,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) for port in ports]
    try:
        for port, server in zip(ports, servers):
            wait_until_serving(port, server)
        listener, writer = ports
        with connect(f"ws://127.0.0.1:{listener}/ws/view/{ids['view']}/",
                     origin=f"http://127.0.0.1:{listener}", open_timeout=5) as sock:
            hand = {"events": [{"type": "win", "from": None,
                                "winners": [{"player": 1, "pattern": "ping_hu", "roots": 0, "flags": []}]}],
                    "exhausted": True}
            request = urllib.request.Request(
                f"http://127.0.0.1:{writer}/api/nights/{ids['night']}/hands/", data=json.dumps(hand).encode(),
                headers={"Content-Type": "application/json", "Authorization": f"Token {ids['token']}"})
            assert urllib.request.urlopen(request, timeout=10).status == 201
            event = json.loads(sock.recv(timeout=5))
        assert event == {"kind": "hand_recorded", "night": ids["night"], "number": 1, "next_dealer": 1,
                         "hand_count": 1}
    finally:
        for server in servers:
            server.terminate()
            server.wait(timeout=10)
