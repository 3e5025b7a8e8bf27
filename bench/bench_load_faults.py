"""Load and faults: many recorders and readers against gunicorn on PostgreSQL, workers SIGKILLed mid-burst.

    .venv/bin/pip install -r bench/requirements.txt   # gunicorn
    .venv/bin/python bench/bench_load_faults.py [--seconds 30] [--clients 50] [--workers 4] [--db ledger_bench]

It makes a fresh PostgreSQL database (``--db``, dropped first), migrates it, creates one user and one night
per recorder, and serves the app with gunicorn.  Half the clients record finished hands (each POST with a
fresh Idempotency-Key), the other half read hand lists and totals.  Half way through, every gunicorn
process (master and workers) is SIGKILLed and gunicorn is started again.  A request that got no answer
(connection refused or reset, timeout, 5xx) is retried with the same key until it is answered.  At the end
it counts hands and runs ``manage.py check_ledger``, and prints requests, p50/p95/p99 and
"hands expected = hands stored, 0 duplicates, 0 zero-sum failures".  Exit 1 if anything is lost or doubled.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = str(ROOT / ".venv" / "bin" / "python")

WIN = lambda seat, pattern="ping_hu": {"player": seat, "pattern": pattern, "roots": 0, "flags": []}  # noqa: E731
HANDS = [
    {"events": [{"type": "win", "from": None, "winners": [WIN(1, "qing_yi_se")]},
                {"type": "win", "from": None, "winners": [WIN(2)]}, {"type": "win", "from": None, "winners": [WIN(3)]}]},
    {"events": [{"type": "win", "from": 0, "winners": [WIN(1), WIN(2, "dui_dui_hu")]},
                {"type": "win", "from": None, "winners": [WIN(3)]}]},
    {"events": [], "exhausted": True},
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self, env: dict[str, str], port: int, workers: int, log: Path) -> None:
        self.env, self.port, self.workers, self.log = env, port, workers, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(ROOT / ".venv" / "bin" / "gunicorn"), "ledger.wsgi", "-w", str(self.workers), "-b",
             f"127.0.0.1:{self.port}", "--timeout", "60"], cwd=ROOT, env=self.env,
            stdout=self.log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.2).close()
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("gunicorn did not start")

    def kill(self) -> int:
        """SIGKILL the master and every worker (its whole process group); return how many died."""
        assert self.process is not None
        pids = subprocess.run(["pgrep", "-g", str(self.process.pid)], capture_output=True, text=True).stdout.split()
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait()
        return len(pids)

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=30)


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.latencies: list[float] = []
        self.requests = self.unanswered = self.errors_4xx = self.replayed = 0
        self.keys_answered: dict[str, tuple[int, int]] = {}  # key -> (night, hand number)

    def add(self, seconds: float) -> None:
        with self.lock:
            self.requests += 1
            self.latencies.append(seconds)


def request(conn_box: list[http.client.HTTPConnection | None], port: int, method: str, path: str,
            body: bytes | None, headers: dict[str, str]) -> tuple[int, bytes] | None:
    """One attempt; None if no answer (the caller retries)."""
    try:
        conn_box[0] = http.client.HTTPConnection("127.0.0.1", port, timeout=30)  # gunicorn's sync workers close
        conn_box[0].request(method, path, body=body, headers=headers)
        response = conn_box[0].getresponse()
        data = response.read()
        conn_box[0].close()
        conn_box[0] = None
        if response.status >= 500:
            return None
        return response.status, data
    except (OSError, http.client.HTTPException):
        if conn_box[0] is not None:
            conn_box[0].close()
        conn_box[0] = None
        return None


def recorder(port: int, token: str, night: int, stop: threading.Event, stats: Stats, index: int) -> None:
    conn: list[http.client.HTTPConnection | None] = [None]
    n = 0
    while not stop.is_set():
        key = uuid.uuid4().hex
        body = json.dumps(HANDS[(index + n) % len(HANDS)]).encode()
        n += 1
        headers = {"Authorization": f"Token {token}", "Content-Type": "application/json", "Idempotency-Key": key}
        while True:  # retry with the same key until answered, even after the burst ends
            started = time.perf_counter()
            answer = request(conn, port, "POST", f"/api/nights/{night}/hands/", body, headers)
            if answer is None:
                with stats.lock:
                    stats.unanswered += 1
                time.sleep(0.05)
                continue
            stats.add(time.perf_counter() - started)
            status, data = answer
            if status == 201:
                with stats.lock:
                    stats.keys_answered[key] = (night, json.loads(data)["number"])
            else:
                with stats.lock:
                    stats.errors_4xx += 1
            break


def reader(port: int, token: str, night: int, stop: threading.Event, stats: Stats) -> None:
    conn: list[http.client.HTTPConnection | None] = [None]
    paths = [f"/api/nights/{night}/hands/", f"/api/nights/{night}/totals/"]
    i = 0
    while not stop.is_set():
        started = time.perf_counter()
        answer = request(conn, port, "GET", paths[i % 2], None, {"Authorization": f"Token {token}"})
        i += 1
        if answer is None:
            with stats.lock:
                stats.unanswered += 1
            time.sleep(0.05)
            continue
        stats.add(time.perf_counter() - started)


def percentile(values: list[float], p: float) -> float:
    return statistics.quantiles(values, n=100)[int(p) - 1] if len(values) > 1 else (values[0] if values else 0.0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--db", default="ledger_bench")
    parser.add_argument("--pg", default="postgres://postgres@127.0.0.1:5432")
    args = parser.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-faults-"))
    env = {**os.environ, "DATABASE_URL": f"{args.pg}/{args.db}", "DEBUG": "false",
           "SECRET_KEY_FILE": str(work / "secret"), "THROTTLE_CALCULATOR": "1000000/min",
           "THROTTLE_WRITES": "1000000/min", "CONN_MAX_AGE": "60"}
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", args.db], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", args.db], check=True)
    subprocess.run([PY, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True)
    recorders = args.clients // 2
    setup = subprocess.run([PY, "manage.py", "shell", "-c", f"""
import datetime as dt, json
from decimal import Decimal
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from ledger.services import nights as services
out = []
for i in range({recorders}):
    user = get_user_model().objects.create_user(f"bench{{i}}", password=None)
    players = [services.player_get_or_create(name=f"p{{i}}-{{s}}", group=services.personal_group(user)) for s in range(4)]
    night = services.night_create(owner=user, title=f"bench {{i}}", date=dt.date(2026, 11, 30), base=Decimal(2),
                                  players=players, first_dealer=0)
    out.append([night.pk, Token.objects.create(user=user).key])
print(json.dumps(out))
"""], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    tables = json.loads(setup.stdout.strip().splitlines()[-1])

    port = free_port()
    server = Server(env, port, args.workers, work / "gunicorn.log")
    server.start()
    stats, stop = Stats(), threading.Event()
    threads = [threading.Thread(target=recorder, args=(port, tables[i][1], tables[i][0], stop, stats, i))
               for i in range(recorders)]
    threads += [threading.Thread(target=reader, args=(port, tables[i % recorders][1], tables[i % recorders][0],
                                                      stop, stats)) for i in range(args.clients - recorders)]
    started = time.perf_counter()
    for t in threads:
        t.start()
    time.sleep(args.seconds / 2)
    killed = server.kill()
    killed_at = time.perf_counter() - started
    time.sleep(1)
    server.start()
    time.sleep(max(0.0, args.seconds - (time.perf_counter() - started)))
    stop.set()
    for t in threads:
        t.join()
    elapsed = time.perf_counter() - started
    server.stop()

    counts = subprocess.run([PY, "manage.py", "shell", "-c", """
import json
from ledger.models import Hand, IdempotencyRecord
print(json.dumps({"hands": Hand.objects.count(), "keys": IdempotencyRecord.objects.count()}))
"""], cwd=ROOT, env=env, check=True, capture_output=True, text=True)
    stored = json.loads(counts.stdout.strip().splitlines()[-1])
    check = subprocess.run([PY, "manage.py", "check_ledger"], cwd=ROOT, env=env, capture_output=True, text=True)
    zero_sum_failures = sum(1 for line in check.stdout.splitlines() if "sum to zero" in line)
    expected = len(stats.keys_answered)
    numbers = list(stats.keys_answered.values())
    duplicates = stored["hands"] - expected + (len(numbers) - len(set(numbers)))
    lat = sorted(stats.latencies)
    print(f"{elapsed:.1f} s, {args.clients} clients ({recorders} recorders), gunicorn -w {args.workers}; "
          f"{killed} gunicorn processes SIGKILLed at {killed_at:.1f} s and restarted")
    print(f"requests answered: {stats.requests} ({stats.requests / elapsed:.0f}/s), unanswered attempts retried: "
          f"{stats.unanswered}, 4xx: {stats.errors_4xx}")
    print(f"latency p50 {percentile(lat, 50) * 1000:.0f} ms, p95 {percentile(lat, 95) * 1000:.0f} ms, "
          f"p99 {percentile(lat, 99) * 1000:.0f} ms")
    print(f"hands expected {expected} = hands stored {stored['hands']}, {duplicates} duplicates, "
          f"{zero_sum_failures} zero-sum failures; check_ledger: {(check.stdout + check.stderr).strip().splitlines()[-1]}")
    ok = expected == stored["hands"] and duplicates == 0 and zero_sum_failures == 0 and check.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
