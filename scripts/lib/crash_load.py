#!/usr/bin/env python3
"""Crash consistency: a load through Kindred's public API while `kindred serve` is killed.

Runs `kindred serve` on one database, drives writes from several threads (e-mail sign-ups,
profile updates, push-token registrations, RevenueCat webhooks) and records every write the
server acknowledged (a 2xx received). At a random moment it kills the server with SIGKILL,
checks the database (every acknowledged write present, nothing half-applied), restarts the
server on the same database, reads the last round's writes back through the API, and goes on.
After the last kill it waits for the billing inbox to drain and checks that every acknowledged
webhook was applied exactly once. Prints a summary and exits 1 on any violation.

Usage: crash_load.py --kindred BIN --database-url URL [--kills N] [--threads T] [--seed S]
                     [--psql PATH] [--work DIR]
Standard library only (http.client, threading, json, sqlite3; psql through subprocess).
"""

import argparse
import hashlib
import http.client
import json
import os
import random
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time

WEBHOOK_AUTH = "Bearer crash-test"
APP = "pulse"
PASSWORD = "crash-test-password"
MAX_TOKENS_PER_USER = 15  # the server keeps 20 per account and drops the oldest beyond


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Refused(Exception):
    """The request certainly did not reach the server (connection refused)."""


class Unknown(Exception):
    """The request may or may not have been applied (the connection broke, or a 5xx)."""


def request(port, method, path, body=None, token=None, headers=None, timeout=10):
    """One HTTP exchange; returns (status, decoded JSON or None). Raises Refused or Unknown."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    data = None if body is None else json.dumps(body).encode()
    h = {"X-Kindred-App": APP, "Connection": "close"}
    if data is not None:
        h["Content-Type"] = "application/json"
    if token:
        h["Authorization"] = "Bearer " + token
    h.update(headers or {})
    try:
        try:
            conn.connect()
        except ConnectionRefusedError as error:
            raise Refused(str(error))
        except OSError as error:
            raise Refused(str(error))
        conn.request(method, path, body=data, headers=h)
        response = conn.getresponse()
        raw = response.read()
    except (Refused, Unknown):
        raise
    except (OSError, http.client.HTTPException) as error:
        raise Unknown(f"{method} {path}: {error!r}")
    finally:
        conn.close()
    try:
        decoded = json.loads(raw) if raw else None
    except ValueError:
        decoded = None
    return response.status, decoded


# MARK: - database readers

class SQLiteReader:
    def __init__(self, path):
        self.path = path

    def query(self, sql):
        conn = sqlite3.connect(self.path, timeout=30)
        try:
            return [tuple(row) for row in conn.execute(sql).fetchall()]
        finally:
            conn.close()

    def integrity(self):
        return self.query("PRAGMA integrity_check")[0][0]


class PostgresReader:
    def __init__(self, url, psql):
        self.url, self.psql = url, psql

    def query(self, sql):
        out = subprocess.run([self.psql, self.url, "-X", "-At", "-F", "\t", "-v", "ON_ERROR_STOP=1", "-c", sql],
                             check=True, capture_output=True, text=True).stdout
        return [tuple(line.split("\t")) for line in out.splitlines() if line != ""]

    def integrity(self):
        return "ok"


# MARK: - the recorded history

class History:
    """What the load sent and what the server acknowledged. Guarded by `lock`."""

    def __init__(self):
        self.lock = threading.Lock()
        self.users = {}            # email -> user record (acknowledged sign-ups)
        self.unknown_signups = set()
        self.events = {}           # event id -> body, acknowledged webhooks
        self.unknown_events = set()
        self.acknowledged = 0      # every acknowledged write
        self.round_acked = []      # (kind, key) acknowledged in the current round
        self.errors = []           # unexpected answers (4xx)
        self.server_errors = 0     # 5xx answers (outcome unknown, not a durability violation)
        self.owned = {}            # worker index -> its users (only that worker writes to them)


class Worker(threading.Thread):
    def __init__(self, index, port, history, stop, rng):
        super().__init__(daemon=True)
        self.index, self.port, self.history, self.stop, self.rng = index, port, history, stop, rng
        self.mine = history.owned.setdefault(index, [])
        self.counter = 0

    def run(self):
        while not self.stop.is_set():
            try:
                self.step()
            except Refused:
                time.sleep(0.05)
            except Unknown:
                pass

    def next_id(self, kind):
        self.counter += 1
        return f"{kind}-{os.getpid()}-{self.index}-{self.counter}-{self.rng.randrange(1 << 30)}"

    def ack(self, kind, key):
        with self.history.lock:
            self.history.acknowledged += 1
            self.history.round_acked.append((kind, key))

    def unexpected(self, what, status, body):
        with self.history.lock:
            self.history.errors.append(f"{what}: {status} {body}")

    def server_error(self):
        with self.history.lock:
            self.history.server_errors += 1

    def relogin(self, user):
        status, body = request(self.port, "POST", "/v1/auth/login", {"email": user["email"], "password": PASSWORD})
        if status == 200:
            user["access"] = body["accessToken"]

    def step(self):
        choice = self.rng.random()
        if not self.mine or choice < 0.3:
            return self.signup()
        user = self.rng.choice(self.mine)
        if choice < 0.55:
            return self.profile(user)
        if choice < 0.75 and len(user["tokens"]) + len(user["unknown_tokens"]) < MAX_TOKENS_PER_USER:
            return self.push_token(user)
        return self.webhook(user)

    def signup(self):
        email = self.next_id("u") + "@crash.test"
        try:
            status, body = request(self.port, "POST", "/v1/auth/signup",
                                   {"email": email, "password": PASSWORD, "displayName": "n0"})
        except Unknown:
            with self.history.lock:
                self.history.unknown_signups.add(email)
            raise
        if status >= 500:
            self.server_error()
            with self.history.lock:
                self.history.unknown_signups.add(email)
            return
        if status != 201:
            return self.unexpected("signup", status, body)
        user = {"email": email, "id": body["user"]["id"], "access": body["accessToken"], "name": "n0",
                "profile_acks": 0, "pending_names": [], "tokens": set(), "unknown_tokens": set()}
        self.mine.append(user)
        with self.history.lock:
            self.history.users[email] = user
        self.ack("signup", email)

    def profile(self, user):
        name = "n" + str(self.rng.randrange(1, 1 << 30))
        try:
            status, body = request(self.port, "PATCH", "/v1/me", {"displayName": name}, token=user["access"])
        except Unknown:
            user["pending_names"].append(name)
            raise
        if status >= 500:
            self.server_error()
            user["pending_names"].append(name)
            return
        if status == 401:
            return self.relogin(user)
        if status != 200 or body.get("displayName") != name:
            return self.unexpected("profile", status, body)
        user["name"], user["pending_names"] = name, []
        user["profile_acks"] += 1
        self.ack("profile", user["email"])

    def push_token(self, user):
        token = hashlib.sha256(self.next_id("t").encode()).hexdigest()
        payload = {"token": token, "transport": "apns", "apnsEnvironment": "sandbox", "deviceId": "d-" + token[:16]}
        try:
            status, body = request(self.port, "POST", "/v1/me/push-tokens", payload, token=user["access"])
        except Unknown:
            user["unknown_tokens"].add(token)
            raise
        if status >= 500:
            self.server_error()
            user["unknown_tokens"].add(token)
            return
        if status == 401:
            return self.relogin(user)
        if status != 201:
            return self.unexpected("push token", status, body)
        user["tokens"].add(token)
        self.ack("push", token)

    def webhook(self, user):
        event_id = self.next_id("rc")
        now = int(time.time() * 1000)
        event = {"api_version": "1.0", "event": {
            "id": event_id, "type": "INITIAL_PURCHASE", "app_user_id": user["id"],
            "original_transaction_id": "otx-" + event_id, "product_id": "pc_1m", "environment": "PRODUCTION",
            "event_timestamp_ms": now, "expiration_at_ms": now + 30 * 86_400_000}}
        try:
            status, body = request(self.port, "POST", "/v1/webhooks/revenuecat", event,
                                   headers={"Authorization": WEBHOOK_AUTH})
        except Unknown:
            with self.history.lock:
                self.history.unknown_events.add(event_id)
            raise
        if status >= 500:
            self.server_error()
            with self.history.lock:
                self.history.unknown_events.add(event_id)
            return
        if status != 200 or body != {"duplicate": False, "received": True}:
            return self.unexpected("webhook", status, body)
        with self.history.lock:
            self.history.events[event_id] = event
        self.ack("webhook", event_id)


# MARK: - the server

class Server:
    def __init__(self, binary, database_url, work):
        self.binary, self.database_url, self.work = binary, database_url, work
        self.port = free_port()
        self.process = None
        self.starts = 0
        self.env = {k: v for k, v in os.environ.items() if not k.startswith("KINDRED_")}
        self.env.update({
            "KINDRED_AUTH_PASSWORD_MEMORY_KIB": "1024", "KINDRED_AUTH_PASSWORD_ITERATIONS": "1",
            "KINDRED_AUTH_LOOPBACK_EXEMPT": "true",
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": WEBHOOK_AUTH, "KINDRED_REVENUECAT_MAX_EVENT_AGE_SECONDS": "0",
            "KINDRED_QUEUE_POLL_MILLISECONDS": "50", "KINDRED_BILLING_INBOX_LEASE_SECONDS": "2",
            "KINDRED_BILLING_INBOX_RETRY_BASE_MS": "20", "KINDRED_BILLING_INBOX_RETRY_MAX_MS": "200",
            "KINDRED_BILLING_INBOX_MAX_ATTEMPTS": "1000",
        })

    def start(self):
        self.starts += 1
        log = open(os.path.join(self.work, f"serve-{self.starts}.log"), "wb")
        self.process = subprocess.Popen(
            [self.binary, "serve", "--port", str(self.port), "--database-url", self.database_url,
             "--log-level", "notice"], env=self.env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        log.close()
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.process.poll() is not None:
                raise SystemExit(f"kindred serve exited with {self.process.returncode}; see {log.name}")
            try:
                if request(self.port, "GET", "/ready", timeout=2)[0] == 200:
                    return
            except (Refused, Unknown):
                pass
            time.sleep(0.05)
        raise SystemExit(f"kindred serve not ready within 60 s; see {log.name}")

    def kill(self):
        os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()

    def stop(self):
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()


# MARK: - checks

def check_database(db, history, failures):
    """Every acknowledged write is in the database; nothing is half-applied. Returns the count verified."""
    integrity = db.integrity()
    if integrity != "ok":
        failures.append(f"integrity_check: {integrity}")
    credentials = dict(db.query("SELECT subject, user_id FROM kindred_credentials WHERE provider = 'password'"))
    users = dict(db.query(f"SELECT id, COALESCE(display_name, '') FROM kindred_users WHERE app = '{APP}'"))
    sessions = {row[0] for row in db.query("SELECT DISTINCT user_id FROM kindred_sessions")}
    refresh = {row[0] for row in db.query("SELECT DISTINCT user_id FROM kindred_refresh_tokens")}
    tokens = {row[0]: row[1] for row in db.query("SELECT token, user_id FROM kindred_push_tokens")}
    keys = {row[0] for row in db.query("SELECT dedupe_key FROM kindred_queue_dedupe_keys")}
    keys |= {row[0] for row in db.query("SELECT dedupe_key FROM kindred_queue_items WHERE dedupe_key IS NOT NULL")}
    applied = {row[0] for row in db.query("SELECT event_id FROM kindred_billing_events")}
    verified = 0
    with history.lock:
        for email, user in history.users.items():
            uid = user["id"]
            if credentials.get(email) != uid or uid not in users:
                failures.append(f"acknowledged sign-up {email} ({uid}) missing")
                continue
            if uid not in sessions or uid not in refresh:
                failures.append(f"acknowledged sign-up {email}: no session or refresh token")
                continue
            verified += 1
            if users[uid] != user["name"] and users[uid] not in user["pending_names"]:
                failures.append(f"user {uid}: acknowledged display name {user['name']!r} missing (found {users[uid]!r})")
            else:
                # The last acknowledged update is there (or a later unanswered one): every
                # earlier acknowledged update of this account is superseded in order.
                verified += user["profile_acks"]
            for token in user["tokens"]:
                if tokens.get(token) != uid:
                    failures.append(f"acknowledged push token {token[:12]}… of {uid} missing")
                else:
                    verified += 1
        for event_id in history.events:
            if f"revenuecat:{event_id}" in keys or event_id in applied:
                verified += 1
            else:
                failures.append(f"acknowledged webhook {event_id} missing")
        # Half-applied: a sign-up that was not answered is all there or not at all.
        for email in history.unknown_signups:
            uid = credentials.get(email)
            if uid is not None and (uid not in users or uid not in sessions or uid not in refresh):
                failures.append(f"unanswered sign-up {email} half-applied")
    # No account of the load without its credential, session and refresh token.
    owners = set(credentials.values())
    for uid in users:
        if uid not in owners or uid not in sessions or uid not in refresh:
            failures.append(f"user {uid} without its credential, session or refresh token")
    orphans = db.query("SELECT COUNT(*) FROM kindred_billing_plans p WHERE NOT EXISTS "
                       "(SELECT 1 FROM kindred_billing_events e WHERE e.event_id = p.event_id)")
    if int(orphans[0][0]) != 0:
        failures.append(f"{orphans[0][0]} plan entries without their event record")
    return verified


def check_round_through_api(port, history, round_acked, failures):
    """The last round's acknowledged writes, read back through the API after the restart."""
    verified = 0
    by_email = {}
    with history.lock:
        for kind, key in round_acked:
            if kind in ("signup", "profile"):
                by_email[key] = history.users[key]
        push_owner = {t: u for u in history.users.values() for t in u["tokens"]}
    for kind, key in round_acked:
        if kind == "push":
            by_email.setdefault(push_owner[key]["email"], push_owner[key])
    for email, user in by_email.items():
        status, body = request(port, "POST", "/v1/auth/login", {"email": email, "password": PASSWORD})
        if status != 200 or body["user"]["id"] != user["id"]:
            failures.append(f"login of acknowledged {email}: {status} {body}")
            continue
        user["access"] = body["accessToken"]
        name = body["user"].get("displayName", "")
        if name != user["name"] and name not in user["pending_names"]:
            failures.append(f"{email}: API display name {name!r}, acknowledged {user['name']!r}")
        status, listed = request(port, "GET", "/v1/me/push-tokens", token=user["access"])
        present = {t["token"] for t in listed.get("tokens", [])} if status == 200 else set()
        missing = user["tokens"] - present
        if missing:
            failures.append(f"{email}: {len(missing)} acknowledged push tokens missing through the API")
        verified += 1
    return verified


def drain_and_count(db, history, server, failures):
    """Waits for the billing inbox to drain; every acknowledged event applied exactly once."""
    deadline = time.time() + 120
    while time.time() < deadline:
        if int(db.query("SELECT COUNT(*) FROM kindred_queue_items WHERE queue = 'billing.webhooks'")[0][0]) == 0:
            break
        time.sleep(0.2)
    else:
        failures.append("the billing inbox did not drain within 120 s")
    events = {}
    for event_id, outcome in db.query("SELECT event_id, outcome FROM kindred_billing_events"):
        events[event_id] = outcome
    plans = {}
    for event_id, n in db.query("SELECT event_id, COUNT(*) FROM kindred_billing_plans GROUP BY event_id"):
        plans[event_id] = int(n)
    dead = int(db.query("SELECT COUNT(*) FROM kindred_queue_dead_letters")[0][0])
    if dead:
        failures.append(f"{dead} dead letters")
    applied, duplicates = 0, 0
    with history.lock:
        acked = set(history.events)
        unknown = set(history.unknown_events)
    for event_id in acked:
        if events.get(event_id) != "applied":
            failures.append(f"acknowledged webhook {event_id}: outcome {events.get(event_id)!r}")
        elif plans.get(event_id) != 1:
            failures.append(f"acknowledged webhook {event_id}: {plans.get(event_id, 0)} plan entries")
            duplicates += plans.get(event_id, 0) > 1
        else:
            applied += 1
    for event_id in events:
        if event_id not in acked and event_id not in unknown:
            failures.append(f"event {event_id} applied but never sent")
        if plans.get(event_id, 0) > 1:
            duplicates += event_id not in acked
    # Provider retries after the crashes: every redelivery is recognised, nothing applied twice.
    with history.lock:
        sample = list(history.events.values())[:100]
    for event in sample:
        status, body = request(server.port, "POST", "/v1/webhooks/revenuecat", event,
                               headers={"Authorization": WEBHOOK_AUTH})
        if status != 200 or body != {"duplicate": True, "received": True}:
            failures.append(f"redelivery of {event['event']['id']}: {status} {body}")
    time.sleep(1)
    again = {e: int(n) for e, n in db.query("SELECT event_id, COUNT(*) FROM kindred_billing_plans GROUP BY event_id")}
    if again != plans:
        duplicates += sum(1 for e in again if again[e] != plans.get(e))
        failures.append("redeliveries changed the plan history")
    return applied, duplicates, len(events)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kindred", required=True)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--threads", type=int, default=8)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--psql", default="psql")
    parser.add_argument("--work", default=None)
    parser.add_argument("--label", default="")
    args = parser.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 31)
    rng = random.Random(seed)
    work = args.work or os.getcwd()
    if args.database_url.startswith("sqlite:"):
        db = SQLiteReader(args.database_url[len("sqlite:"):])
    else:
        db = PostgresReader(args.database_url, args.psql)
    label = args.label or args.database_url.split(":")[0]
    print(f"[{label}] seed {seed}, {args.kills} kills, {args.threads} threads", flush=True)

    server = Server(args.kindred, args.database_url, work)
    history = History()
    failures = []
    verified_db = verified_api = 0
    started = time.time()
    server.start()
    try:
        for kill in range(1, args.kills + 1):
            stop = threading.Event()
            workers = [Worker(i, server.port, history, stop, random.Random(rng.random())) for i in range(args.threads)]
            for w in workers:
                w.start()
            time.sleep(rng.uniform(0.3, 2.5))
            server.kill()
            stop.set()
            for w in workers:
                w.join()
            with history.lock:
                round_acked, history.round_acked = history.round_acked, []
            verified_db = check_database(db, history, failures)
            server.start()
            verified_api += check_round_through_api(server.port, history, round_acked, failures)
            print(f"[{label}] kill {kill}: {len(round_acked)} acknowledged this round, "
                  f"{history.acknowledged} in all, {len(failures)} failures", flush=True)
            if failures:
                break
        applied, duplicates, events = drain_and_count(db, history, server, failures)
        verified_db = check_database(db, history, failures)
    finally:
        server.stop()
    missing = sum(1 for f in failures if "missing" in f)
    summary = {
        "backend": label, "seed": seed, "kills": server.starts - 1, "acknowledged": history.acknowledged,
        "signups": len(history.users), "webhooks": len(history.events), "webhooksApplied": applied,
        "eventsInLedger": events, "verified": verified_db, "accountsReadBackThroughAPI": verified_api,
        "unansweredWrites": len(history.unknown_signups) + len(history.unknown_events),
        "missing": missing, "duplicates": duplicates, "failures": len(failures),
        "serverErrors": history.server_errors, "unexpectedAnswers": len(history.errors), "seconds": round(time.time() - started, 1),
    }
    for line in failures[:30] + history.errors[:10]:
        print(f"[{label}] FAIL {line}", file=sys.stderr)
    print(json.dumps(summary), flush=True)
    return 1 if failures or history.errors else 0


if __name__ == "__main__":
    sys.exit(main())
