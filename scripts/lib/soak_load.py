#!/usr/bin/env python3
"""Soak: a mixed load through Kindred's public API for many minutes, with every series sampled.

Starts REPLICAS `kindred serve` processes on one database and, for MINUTES, drives from several
threads each app's common operations that need no device crypto (requests alternate between
the replicas): Pulse anonymous sign-up, /v1/me, subscription and entitlement reads, refresh,
profile update and a RevenueCat webhook (a billing-inbox job on the queue); StreakSync profile,
results upload and pull, a published score, friend code, friend request and acceptance,
leaderboard; Closer e-mail sign-ups, invite with key material, acceptance, the couple; SoulMate
sign-ups with names, pair code, pair request, acceptance, the pair. Realtime subscribers hold one
WebSocket each on one replica (`user:<id>`) while their profile is updated through the other, and
check that every event arrives once, in order (seq 1, 2, 3, ...).

Every SAMPLE seconds it records, per replica, the resident memory (VmRSS) and open descriptors
(/proc/PID/fd), the queue's depth and lag (the oldest due item's wait, read with SQL), the
SQLite -wal file's size, and p50/p99 latency and throughput of the interval. At the end it
writes a CSV and an SVG plot of the series and checks:
  - no request erred (every answer is the operation's documented success status), no realtime
    event was missing, duplicated or out of order, and every replica stopped cleanly on SIGTERM;
  - no series grows without bound: the least-squares slope over the second half of the run is
    at most the threshold in THRESHOLDS (per minute).
Exits 1 when a check fails. Standard library only (http.client, a small WebSocket client,
sqlite3; psql through subprocess).

Usage: soak_load.py --kindred BIN --database-url URL --minutes M --out DIR --label NAME
                    [--replicas N] [--psql PATH] [--sqlite-file PATH] [--workers W]
                    [--subscribers S] [--sample SECONDS]
"""

import argparse
import base64
import datetime
import http.client
import json
import os
import random
import secrets
import signal
import socket
import sqlite3
import struct
import subprocess
import sys
import threading
import time
import uuid

from kindred_process import start_serve

PASSWORD = "soak-password-1"
WEBHOOK_AUTH = "Bearer soak-webhook"
KDF = '{"alg":"argon2id","len":32,"m":64,"p":1,"t":1,"v":19}'

# Per-minute slope limits over the second half of the run (a leak or a backlog grows steadily;
# noise around a level does not). The series are in the units named.
THRESHOLDS = {
    "rss_mib": 2.0,       # a replica's resident memory, MiB/min
    "fds": 2.0,           # a replica's open descriptors, per min
    "queue_depth": 10.0,  # items in kindred_queue_items, per min
    "queue_lag_s": 5.0,   # the oldest due item's wait, s/min
    "wal_mib": 1.0,       # SQLite's -wal file, MiB/min
    "p99_ms": 100.0,      # the interval's 99th-percentile latency, ms/min (loose: other work on the machine moves it)
}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def b64(n):
    return base64.b64encode(os.urandom(n)).decode()


def b64url(n):
    return base64.urlsafe_b64encode(os.urandom(n)).decode().rstrip("=")


class SoakError(Exception):
    """A request that did not get its operation's success answer (already recorded)."""


# MARK: - what happened

class Record:
    """Latencies of the current interval, totals, and every error. Guarded by `lock`."""

    def __init__(self):
        self.lock = threading.RLock()  # `request` records its error while holding it
        self.latencies = []
        self.requests = 0
        self.errors = []
        self.error_count = 0
        self.per_operation = {}
        self.acknowledged_updates = {}  # subscriber user id -> acknowledged profile updates

    def request(self, operation, milliseconds, error=None):
        with self.lock:
            self.latencies.append(milliseconds)
            self.requests += 1
            self.per_operation[operation] = self.per_operation.get(operation, 0) + 1
            if error is not None:
                self.error(f"{operation}: {error}")

    def error(self, text):
        with self.lock:
            self.error_count += 1
            if len(self.errors) < 50:
                self.errors.append(text)

    def drain(self):
        with self.lock:
            latencies, self.latencies = self.latencies, []
            return latencies


class Client:
    """Requests to the replicas in turn; each answer is checked against its success status."""

    def __init__(self, ports, record):
        self.ports, self.record = ports, record
        self.turn = random.randrange(len(ports))

    def port(self):
        self.turn = (self.turn + 1) % len(self.ports)
        return self.ports[self.turn]

    def call(self, operation, method, path, expect, body=None, token=None, app="pulse", headers=None, port=None):
        conn = http.client.HTTPConnection("127.0.0.1", port or self.port(), timeout=30)
        h = {"X-Kindred-App": app}
        data = None if body is None else json.dumps(body).encode()
        if data is not None:
            h["Content-Type"] = "application/json"
        if token:
            h["Authorization"] = "Bearer " + token
        h.update(headers or {})
        started = time.monotonic()
        try:
            conn.request(method, path, body=data, headers=h)
            response = conn.getresponse()
            raw = response.read()
            status = response.status
        except (OSError, http.client.HTTPException) as error:
            self.record.request(operation, (time.monotonic() - started) * 1000, f"{method} {path}: {error!r}")
            raise SoakError(operation)
        finally:
            conn.close()
        milliseconds = (time.monotonic() - started) * 1000
        if status != expect:
            self.record.request(operation, milliseconds, f"{method} {path}: {status} {raw[:300]!r}")
            raise SoakError(operation)
        self.record.request(operation, milliseconds)
        try:
            return json.loads(raw) if raw else None
        except ValueError:
            self.record.error(f"{operation}: not JSON: {raw[:200]!r}")
            raise SoakError(operation)


# MARK: - the operations

def today():
    return datetime.date.today().isoformat()


def now_iso():
    return datetime.datetime.now(datetime.timezone.utc).replace(microsecond=0).isoformat().replace("+00:00", "Z")


def email():
    return f"soak-{uuid.uuid4().hex[:16]}@soak.test"


def pulse(c):
    session = c.call("auth.anonymous", "POST", "/v1/auth/anonymous", 201)
    token, user = session["accessToken"], session["user"]["id"]
    c.call("me.get", "GET", "/v1/me", 200, token=token)
    c.call("me.subscription", "GET", "/v1/me/subscription", 200, token=token)
    c.call("me.entitlements", "GET", "/v1/me/entitlements", 200, token=token)
    refreshed = c.call("auth.refresh", "POST", "/v1/auth/refresh", 200, body={"refreshToken": session["refreshToken"]})
    token = refreshed["accessToken"]
    c.call("me.patch", "PATCH", "/v1/me", 200, body={"displayName": "Soak"}, token=token)
    now = int(time.time() * 1000)
    event_id = "soak-" + uuid.uuid4().hex
    event = {"api_version": "1.0", "event": {
        "id": event_id, "type": "INITIAL_PURCHASE", "app_user_id": user, "original_transaction_id": "otx-" + event_id,
        "product_id": "pc_1m", "environment": "PRODUCTION", "event_timestamp_ms": now,
        "expiration_at_ms": now + 2_592_000_000}}
    answer = c.call("webhook.revenuecat", "POST", "/v1/webhooks/revenuecat", 200, body=event,
                    headers={"Authorization": WEBHOOK_AUTH})
    if answer != {"duplicate": False, "received": True}:
        c.record.error(f"webhook.revenuecat: {answer}")
    c.call("me.entitlements", "GET", "/v1/me/entitlements", 200, token=token)


def streak(c):
    app = "streaksync"
    a = c.call("auth.anonymous", "POST", "/v1/auth/anonymous", 201, app=app)["accessToken"]
    b = c.call("auth.anonymous", "POST", "/v1/auth/anonymous", 201, app=app)["accessToken"]
    c.call("streak.profile", "PUT", "/v1/streaksync/profile", 200, body={"displayName": "Ann"}, token=a, app=app)
    c.call("streak.profile", "PUT", "/v1/streaksync/profile", 200, body={"displayName": "Bob"}, token=b, app=app)
    day, stamp = today(), now_iso()
    results = [{"id": f"{game}:{n}:{day}", "gameId": game, "puzzle": n, "score": random.randint(1, 6), "max": 6,
                "completed": True, "localDate": day, "recordedAt": stamp, "updatedAt": stamp}
               for n, game in enumerate(["wordle", "connections"], start=1)]
    c.call("streak.results.post", "POST", "/v1/streaksync/results", 200, body={"results": results}, token=a, app=app)
    c.call("streak.results.get", "GET", "/v1/streaksync/results", 200, token=a, app=app)
    for token in (a, b):
        c.call("streak.score", "PUT", f"/v1/streaksync/scores/wordle/{day}", 200,
               body={"score": random.randint(1, 6), "max": 6, "completed": True, "currentStreak": 1}, token=token, app=app)
    code = c.call("streak.friend-code", "GET", "/v1/streaksync/friend-code", 200, token=a, app=app)["code"]
    request = c.call("streak.friend-request", "POST", "/v1/streaksync/friend-requests", 201, body={"code": code},
                     token=b, app=app)
    c.call("streak.friend-accept", "POST", f"/v1/streaksync/friendships/{request['id']}/accept", 200, token=a, app=app)
    c.call("streak.friends", "GET", "/v1/streaksync/friends", 200, token=b, app=app)
    c.call("streak.leaderboard", "GET", f"/v1/streaksync/leaderboards/wordle/{day}", 200, token=b, app=app)


def closer(c):
    app = "closer"
    a = c.call("auth.signup", "POST", "/v1/auth/signup", 201, body={"email": email(), "password": PASSWORD}, app=app)
    b = c.call("auth.signup", "POST", "/v1/auth/signup", 201, body={"email": email(), "password": PASSWORD}, app=app)
    code = c.call("closer.invite", "POST", "/v1/closer/invites", 201, token=a["accessToken"], app=app)["code"]
    verifier = "verifier:v1:" + b64url(32)
    material = {"wrappedCoupleKey": b64(120), "kdfSalt": b64(16), "kdfParams": KDF,
                "encryptedPhrase": "invite:v1:" + b64url(100), "verifier": verifier,
                "inviteKdfSalt": b64(16), "inviteKdfParams": KDF}
    c.call("closer.invite.material", "PUT", f"/v1/closer/invites/{code}", 200, body=material,
           token=a["accessToken"], app=app)
    c.call("closer.invite.accept", "POST", f"/v1/closer/invites/{code}/accept", 201, body={"verifier": verifier},
           token=b["accessToken"], app=app)
    c.call("closer.couple", "GET", "/v1/closer/couple", 200, token=a["accessToken"], app=app)
    c.call("closer.catalog", "GET", "/v1/closer/catalog", 200, token=b["accessToken"], app=app)


def soulmate(c):
    app = "soulmate"
    people = [c.call("auth.signup", "POST", "/v1/auth/signup", 201, app=app,
                     body={"email": email(), "password": PASSWORD, "firstName": first, "lastName": "Soak"})["accessToken"]
              for first in ("Ann", "Bob")]
    a, b = people
    code = c.call("soulmate.pair-code", "GET", "/v1/soulmate/pair-code", 200, token=a, app=app)["code"]
    request = c.call("soulmate.pair-request", "POST", "/v1/soulmate/pair-requests", 201, body={"code": code},
                     token=b, app=app)
    c.call("soulmate.pair-requests", "GET", "/v1/soulmate/pair-requests", 200, token=a, app=app)
    c.call("soulmate.pair-accept", "POST", f"/v1/soulmate/pair-requests/{request['id']}/accept", 200, token=a, app=app)
    c.call("soulmate.pair", "GET", "/v1/soulmate/pair", 200, token=b, app=app)


def realtime_update(c, subscribers, ports):
    """A profile update of one subscriber's account, through another replica than its socket's."""
    subscriber = random.choice(subscribers)
    port = ports[(ports.index(subscriber.port) + 1) % len(ports)]
    with subscriber.update_lock:
        c.call("me.patch.realtime", "PATCH", "/v1/me", 200, body={"displayName": f"Soak {random.randrange(10**6)}"},
               token=subscriber.token, port=port)
        with c.record.lock:
            c.record.acknowledged_updates[subscriber.user] = c.record.acknowledged_updates.get(subscriber.user, 0) + 1


# MARK: - realtime

class WebSocket:
    """The smallest RFC 6455 client the soak needs: text frames, ping/pong, close."""

    def __init__(self, port, token, app):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /v1/realtime HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
                           f"Authorization: Bearer {token}\r\nX-Kindred-App: {app}\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise OSError("closed during the upgrade")
            self.buffer += chunk
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        if not head.startswith(b"HTTP/1.1 101"):
            raise OSError(f"upgrade refused: {head[:200]!r}")
        self.send_lock = threading.Lock()

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise OSError("connection closed")
            self.buffer += chunk
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    def send(self, opcode, payload):
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        with self.send_lock:
            self.sock.sendall(head + mask + masked)

    def send_text(self, text):
        self.send(0x1, text.encode())

    def receive_text(self):
        """The next text message; answers pings; raises OSError on close."""
        message = b""
        while True:
            first, second = self._read(2)
            opcode, length = first & 0x0F, second & 0x7F
            if length == 126:
                length = struct.unpack("!H", self._read(2))[0]
            elif length == 127:
                length = struct.unpack("!Q", self._read(8))[0]
            mask = self._read(4) if second & 0x80 else None
            payload = self._read(length)
            if mask:
                payload = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
            if opcode == 0x9:
                self.send(0xA, payload)
            elif opcode == 0x8:
                raise OSError(f"closed by the server: {payload[:2].hex()} {payload[2:]!r}")
            elif opcode in (0x0, 0x1):
                message += payload
                if first & 0x80:
                    return message.decode()

    def close(self):
        try:
            self.send(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        self.sock.close()


class Subscriber(threading.Thread):
    """One socket on `user:<id>`: every event must be the next sequence number."""

    def __init__(self, port, token, user, record):
        super().__init__(daemon=True)
        self.port, self.token, self.user, self.record = port, token, user, record
        self.channel = f"user:{user}"
        self.last_seq = 0
        self.update_lock = threading.Lock()
        self.stopping = threading.Event()
        self.socket = WebSocket(port, token, "pulse")
        self.socket.sock.settimeout(75)  # longer than two heartbeats: a silent server is an error
        self.socket.send_text(json.dumps({"op": "subscribe", "channel": self.channel}))
        subscribed = json.loads(self.socket.receive_text())
        if subscribed != {"op": "subscribed", "channel": self.channel, "seq": 0}:
            raise OSError(f"subscribe: {subscribed}")

    def run(self):
        while not self.stopping.is_set():
            try:
                frame = json.loads(self.socket.receive_text())
            except (OSError, ValueError) as error:
                if not self.stopping.is_set():
                    self.record.error(f"realtime {self.channel} on :{self.port}: {error!r}")
                return
            if frame.get("op") == "ping":
                self.socket.send_text('{"op":"pong"}')
            elif frame.get("op") == "event" and frame.get("channel") == self.channel:
                if frame.get("seq") != self.last_seq + 1:
                    self.record.error(f"realtime {self.channel}: seq {frame.get('seq')} after {self.last_seq}")
                self.last_seq = max(self.last_seq, frame.get("seq", 0))
            else:
                self.record.error(f"realtime {self.channel}: unexpected frame {frame}")

    def stop(self):
        self.stopping.set()
        self.socket.close()


# MARK: - the servers and the database

class Replica:
    def __init__(self, binary, database_url, environment, log_path):
        self.port = free_port()
        self.log = open(log_path, "wb")
        self.process = start_serve(
            binary, ["--port", str(self.port), "--database-url", database_url, "--log-level", "notice"],
            environment, self.log)

    def rss_mib(self):
        with open(f"/proc/{self.process.pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        return 0.0

    def fds(self):
        return len(os.listdir(f"/proc/{self.process.pid}/fd"))

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            return self.process.wait()


class Queue:
    """Queue depth (every item) and lag (how long the oldest due item has waited), by SQL."""

    QUERY = "SELECT COUNT(*), COALESCE(MIN(CASE WHEN run_at <= {now} THEN run_at END), {now}) FROM kindred_queue_items"

    def __init__(self, database_url, psql, sqlite_file):
        self.database_url, self.psql, self.sqlite_file = database_url, psql, sqlite_file

    def sample(self):
        now = int(time.time() * 1000)
        query = self.QUERY.format(now=now)
        if self.sqlite_file:
            conn = sqlite3.connect(f"file:{self.sqlite_file}?mode=ro", uri=True, timeout=30)
            try:
                depth, oldest = conn.execute(query).fetchone()
            finally:
                conn.close()
        else:
            out = subprocess.run([self.psql, self.database_url, "-X", "-At", "-F", "\t", "-c", query],
                                 check=True, capture_output=True, text=True).stdout.strip()
            depth, oldest = (int(x) for x in out.split("\t"))
        return int(depth), max(0, now - int(oldest)) / 1000


# MARK: - analysis and the plot

def percentile(values, fraction):
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def slope_per_minute(points):
    """Least-squares slope of (seconds, value) points, per minute."""
    if len(points) < 3:
        return 0.0
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_v = sum(v for _, v in points) / n
    denominator = sum((t - mean_t) ** 2 for t, _ in points)
    if denominator == 0:
        return 0.0
    return sum((t - mean_t) * (v - mean_v) for t, v in points) / denominator * 60


def svg_plot(rows, series, title, path):
    """Small multiples: one panel per quantity, one line per replica, minutes on the x axis."""
    colours = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd"]
    width, panel_h, left, right, top = 760, 120, 70, 20, 40
    panels = [(key, unit) for key, unit in series if any(r.get(key) is not None for r in rows)]
    height = top + len(panels) * (panel_h + 40) + 10
    end = max((r["t"] for r in rows), default=1) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'font-family="sans-serif" font-size="11">',
           '<rect width="100%" height="100%" fill="white"/>',
           f'<text x="{left}" y="22" font-size="14" font-weight="bold">{title}</text>']
    for index, (key, unit) in enumerate(panels):
        y0 = top + index * (panel_h + 40) + 20
        values = [r[key] for r in rows if r.get(key) is not None]
        low, high = 0.0, max(values) * 1.1 if values and max(values) > 0 else 1.0
        out.append(f'<text x="{left}" y="{y0 - 6}">{unit}</text>')
        out.append(f'<rect x="{left}" y="{y0}" width="{width - left - right}" height="{panel_h}" '
                   f'fill="none" stroke="#999"/>')
        for fraction in (0, 0.5, 1):
            y = y0 + panel_h - fraction * panel_h
            out.append(f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{low + fraction * (high - low):.3g}</text>')
        for minute in range(0, int(end // 60) + 1):
            x = left + minute * 60 / end * (width - left - right)
            out.append(f'<line x1="{x:.1f}" y1="{y0 + panel_h}" x2="{x:.1f}" y2="{y0 + panel_h + 4}" stroke="#999"/>')
            out.append(f'<text x="{x:.1f}" y="{y0 + panel_h + 15}" text-anchor="middle">{minute} min</text>')
        lines = sorted({r["replica"] for r in rows if r.get(key) is not None})
        if key in WHOLE_RUN:
            lines = lines[:1]  # one value for the whole run, repeated on every replica's row
        for n, replica in enumerate(lines):
            points = [(r["t"], r[key]) for r in rows if r["replica"] == replica and r.get(key) is not None]
            coordinates = " ".join(
                f'{left + t / end * (width - left - right):.1f},{y0 + panel_h - (v - low) / (high - low) * panel_h:.1f}'
                for t, v in points)
            colour = colours[n % len(colours)]
            out.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{coordinates}"/>')
            if len(lines) > 1:
                out.append(f'<text x="{width - right - 4}" y="{y0 + 14 + 13 * n}" text-anchor="end" '
                           f'fill="{colour}">{replica}</text>')
    out.append("</svg>")
    with open(path, "w") as file:
        file.write("\n".join(out) + "\n")


PLOTTED = [("rss_mib", "resident memory (MiB), per replica"), ("fds", "open descriptors, per replica"),
           ("p50_ms", "p50 latency (ms)"), ("p99_ms", "p99 latency (ms)"), ("rps", "requests per second"),
           ("queue_depth", "queue items"), ("queue_lag_s", "queue lag (s)"), ("wal_mib", "SQLite -wal (MiB)")]
WHOLE_RUN = {"queue_depth", "queue_lag_s", "wal_mib", "p50_ms", "p99_ms", "rps"}
COLUMNS = ["t", "replica", "rss_mib", "fds", "queue_depth", "queue_lag_s", "p50_ms", "p99_ms", "rps", "wal_mib"]


# MARK: - the run

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kindred", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--minutes", type=float, default=10)
    parser.add_argument("--replicas", type=int, default=1)
    parser.add_argument("--psql")
    parser.add_argument("--sqlite-file")
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--subscribers", type=int, default=8)
    parser.add_argument("--sample", type=float, default=5)
    parser.add_argument("--out", required=True)
    parser.add_argument("--label", required=True)
    args = parser.parse_args()
    os.makedirs(args.out, exist_ok=True)

    environment = {k: v for k, v in os.environ.items() if not k.startswith("KINDRED_")}
    environment.update({
        # Password hashing at test cost: e-mail sign-ups would otherwise measure Argon2id alone.
        "KINDRED_AUTH_PASSWORD_MEMORY_KIB": "1024", "KINDRED_AUTH_PASSWORD_ITERATIONS": "1",
        "KINDRED_AUTH_LOOPBACK_EXEMPT": "true",  # one address signs everyone up
        "KINDRED_REVENUECAT_WEBHOOK_AUTH": WEBHOOK_AUTH,
        "KINDRED_OPERATIONS_TOKEN": secrets.token_hex(32),
    })
    replicas = []
    for n in range(args.replicas):
        replicas.append(Replica(args.kindred, args.database_url, environment,
                                os.path.join(args.out, f"{args.label}-serve-{n + 1}.log")))
    ports = [r.port for r in replicas]
    record = Record()
    queue = Queue(args.database_url, args.psql, args.sqlite_file)
    print(f"{args.label}: {len(replicas)} replica(s) on :{', :'.join(map(str, ports))}, {args.minutes:g} min, "
          f"{args.workers} load threads, {args.subscribers} realtime subscribers", flush=True)

    setup = Client(ports, record)
    subscribers = []
    for n in range(args.subscribers):
        session = setup.call("auth.anonymous", "POST", "/v1/auth/anonymous", 201)
        subscriber = Subscriber(ports[n % len(ports)], session["accessToken"], session["user"]["id"], record)
        subscriber.start()
        subscribers.append(subscriber)

    started = time.monotonic()
    deadline = started + args.minutes * 60
    stop = threading.Event()

    def worker(index):
        c = Client(ports, record)
        rotation = [pulse, streak, closer, soulmate]
        n = index
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                rotation[n % len(rotation)](c)
                for _ in range(3):
                    realtime_update(c, subscribers, ports)
            except SoakError:
                time.sleep(0.2)  # recorded; keep going, the run fails in the end
            except Exception as error:  # a bug of the load itself: count it, do not die silently
                record.error(f"load: {error!r}")
                time.sleep(0.2)
            n += 1

    threads = [threading.Thread(target=worker, args=(i,), daemon=True) for i in range(args.workers)]
    for thread in threads:
        thread.start()

    rows = []
    last_requests, last_time = 0, started
    while time.monotonic() < deadline:
        time.sleep(max(0.0, min(args.sample, deadline - time.monotonic())))
        now = time.monotonic()
        latencies = record.drain()
        with record.lock:
            total = record.requests
        rps = (total - last_requests) / max(now - last_time, 1e-6)
        last_requests, last_time = total, now
        try:
            depth, lag = queue.sample()
        except (subprocess.CalledProcessError, sqlite3.Error) as error:
            record.error(f"queue sample: {error}")
            depth, lag = None, None
        wal = None
        if args.sqlite_file:
            try:
                wal = os.path.getsize(args.sqlite_file + "-wal") / 1048576
            except OSError:
                wal = 0.0
        t = round(now - started, 1)
        p50, p99 = percentile(latencies, 0.50), percentile(latencies, 0.99)
        for n, replica in enumerate(replicas):
            rows.append({"t": t, "replica": f"replica {n + 1}", "rss_mib": round(replica.rss_mib(), 2),
                         "fds": replica.fds(), "queue_depth": depth, "queue_lag_s": lag if lag is None else round(lag, 3),
                         "p50_ms": round(p50, 2), "p99_ms": round(p99, 2), "rps": round(rps, 1),
                         "wal_mib": None if wal is None else round(wal, 3)})
        shown = " ".join(f"rss{n + 1}={r['rss_mib']:.1f}MiB fd{n + 1}={r['fds']}" for n, r in enumerate(rows[-len(replicas):]))
        print(f"  t={t:6.1f}s {shown} queue={depth} lag={lag}s p50={p50:.1f}ms p99={p99:.1f}ms {rps:.0f} req/s"
              + (f" wal={wal:.2f}MiB" if wal is not None else "") + f" errors={record.error_count}", flush=True)

    stop.set()
    for thread in threads:
        thread.join(timeout=60)
    # Every acknowledged update reaches its subscriber (the last ones may still be on the way).
    catch_up = time.monotonic() + 15
    while time.monotonic() < catch_up and any(
            s.last_seq < record.acknowledged_updates.get(s.user, 0) for s in subscribers):
        time.sleep(0.1)
    events = 0
    for s in subscribers:
        expected = record.acknowledged_updates.get(s.user, 0)
        if s.last_seq != expected:
            record.error(f"realtime {s.channel}: {s.last_seq} events received, {expected} updates acknowledged")
        events += s.last_seq
        s.stop()
    statuses = [r.stop() for r in replicas]
    for n, status in enumerate(statuses):
        if status != 0:
            record.error(f"replica {n + 1} exited {status} on SIGTERM")

    # Trends over the second half.
    half = args.minutes * 30
    trends = {}
    failures = []
    for key, limit in THRESHOLDS.items():
        for replica in sorted({r["replica"] for r in rows}):
            if key in WHOLE_RUN and replica != "replica 1":
                continue  # one value for the whole run, repeated per replica
            points = [(r["t"], r[key]) for r in rows if r["replica"] == replica and r["t"] >= half and r[key] is not None]
            if not points:
                continue
            name = key if key in WHOLE_RUN else f"{key} ({replica})"
            slope = slope_per_minute(points)
            trends[name] = round(slope, 3)
            if slope > limit:
                failures.append(f"{name} grows {slope:.3g}/min over the second half (limit {limit:g}/min)")

    csv_path = os.path.join(args.out, f"{args.label}.csv")
    with open(csv_path, "w") as file:
        file.write(",".join(COLUMNS) + "\n")
        for r in rows:
            file.write(",".join("" if r[c] is None else str(r[c]) for c in COLUMNS) + "\n")
    svg_path = os.path.join(args.out, f"{args.label}.svg")
    svg_plot(rows, PLOTTED, f"kindred soak: {args.label}, {len(replicas)} replica(s), {args.minutes:g} min", svg_path)

    def span(key, replica):
        values = [r[key] for r in rows if r["replica"] == replica and r[key] is not None]
        return [values[0], values[-1], max(values)] if values else None

    summary = {
        "label": args.label, "replicas": len(replicas), "minutes": args.minutes, "requests": record.requests,
        "errors": record.error_count, "realtime_events": events,
        "requests_per_second": round(record.requests / max(time.monotonic() - started, 1), 1),
        "p50_ms": round(percentile([r["p50_ms"] for r in rows], 0.5), 1),
        "p99_ms_median_interval": round(percentile([r["p99_ms"] for r in rows], 0.5), 1),
        "rss_mib_first_last_max": {f"replica {n + 1}": span("rss_mib", f"replica {n + 1}") for n in range(len(replicas))},
        "fds_first_last_max": {f"replica {n + 1}": span("fds", f"replica {n + 1}") for n in range(len(replicas))},
        "queue_depth_max": max((r["queue_depth"] or 0 for r in rows), default=0),
        "queue_lag_s_max": max((r["queue_lag_s"] or 0 for r in rows), default=0),
        "wal_mib_max": max((r["wal_mib"] or 0 for r in rows), default=None) if args.sqlite_file else None,
        "slopes_per_minute_second_half": trends, "csv": csv_path, "svg": svg_path,
        "operations": dict(sorted(record.per_operation.items())),
    }
    for error in record.errors:
        print(f"  ERROR {error}")
    for failure in failures:
        print(f"  TREND {failure}")
    passed = record.error_count == 0 and not failures
    print(f"{args.label}: {'PASS' if passed else 'FAIL'}: {record.requests} requests, {record.error_count} errors, "
          f"{events} realtime events, trends {'within limits' if not failures else 'exceeded'}", flush=True)
    print(json.dumps(summary, sort_keys=True), flush=True)
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
