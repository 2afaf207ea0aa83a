#!/usr/bin/env python3
"""The operators' console at scale (scripts/bench-console).

fill DB USERS COUPLES   fills a migrated Kindred SQLite database with generated rows, in bulk
                        (recursive CTEs inside SQLite, so a million rows take seconds).
measure URL DB ROUNDS   logs in as the operator the script created and fetches each console page
                        ROUNDS times over one kept-alive connection; prints median and p95 per page
                        and their ratio to `/health` fetched the same way in the same run.
"""

import http.client
import re
import sqlite3
import statistics
import sys
import time
import urllib.parse

DAY_MS = 86_400_000
APPS = ["closer", "soulmate", "streaksync", "exeraser", "pulse"]


def fill(path, users, couples):
    now = int(time.time() * 1000)
    db = sqlite3.connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=OFF")
    started = time.time()
    with db:
        # Users over five apps, sign-ups spread over the last 365 days; Ex-Eraser's are anonymous.
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO kindred_users (id, app, is_anonymous, display_name, created_at, updated_at)
            SELECT printf('u%07d', i), (CASE i % 5 WHEN 0 THEN 'closer' WHEN 1 THEN 'soulmate'
                   WHEN 2 THEN 'streaksync' WHEN 3 THEN 'exeraser' ELSE 'pulse' END),
                   (i % 5 = 3), printf('Person %d', i), ? - (i * 7919 % 365) * ? - i % 86400000,
                   ? - (i * 7919 % 365) * ?
            FROM n
            """,
            (users, now, DAY_MS, now, DAY_MS),
        )
        db.execute(
            """
            INSERT INTO kindred_credentials (id, user_id, app, provider, subject, email, password_hash, created_at)
            SELECT 'c' || id, id, app, 'password', 'user' || substr(id, 2) || '@example.com',
                   'user' || substr(id, 2) || '@example.com', '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA', created_at
            FROM kindred_users WHERE NOT is_anonymous
            """
        )
        # One session each, refreshed within the last 60 days; 30-day lifetime.
        db.execute(
            """
            INSERT INTO kindred_sessions (id, user_id, app, created_at, refreshed_at, expires_at, revoked_at)
            SELECT 's' || id, id, app, created_at, ? - (CAST(substr(id, 2) AS INTEGER) * 31 % 60) * ?,
                   ? - (CAST(substr(id, 2) AS INTEGER) * 31 % 60) * ? + 30 * ?, NULL
            FROM kindred_users
            """,
            (now, DAY_MS, now, DAY_MS, DAY_MS),
        )
        # Couples from Closer's users, two by two.
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ?)
            INSERT INTO closer_couples (id, user_a_id, user_b_id, invite_code, created_at, updated_at, streak_count,
                pack_cursor, time_zone, assignment_minute, next_assignment_at, encryption_version, migration_users)
            SELECT printf('k%07d', i), printf('u%07d', i * 10), printf('u%07d', i * 10 + 5), printf('INV%07d', i),
                   ? - (i % 300) * ?, ?, i % 30, 0, 'Europe/Istanbul', 540, ? + (i % 1440) * 60000, 2, '[]'
            FROM n
            """,
            (couples, now, DAY_MS, now, now),
        )
        db.execute(
            """
            INSERT INTO closer_members (user_id, couple_id, partner_id, joined_at)
            SELECT user_a_id, id, user_b_id, created_at FROM closer_couples
            UNION ALL SELECT user_b_id, id, user_a_id, created_at FROM closer_couples
            """
        )
        # A tenth of the couples answered today (both partners: a reveal).
        today = time.strftime("%Y-%m-%d", time.gmtime(now / 1000))
        db.execute(
            """
            INSERT INTO closer_days (couple_id, date_key, question_id, assigned_at, expires_at, completed_at)
            SELECT id, ?, 'q-001', ? - 3600000, ? + ?, ? - 60000 FROM closer_couples WHERE CAST(substr(id, 2) AS INTEGER) % 10 = 0
            """,
            (today, now, now, DAY_MS, now),
        )
        for column in ("user_a_id", "user_b_id"):
            db.execute(
                f"""
                INSERT INTO closer_answers (couple_id, date_key, user_id, question_id, schema_version, encrypted_text,
                    answer_key_released, is_revealed, created_at, updated_at)
                SELECT c.id, d.date_key, c.{column}, d.question_id, 2, 'enc:v1:AAAA', 0, 0, ? - 120000, ? - 120000
                FROM closer_days d JOIN closer_couples c ON c.id = d.couple_id
                """,
                (now, now),
            )
        # Some queue items and dead letters, push tokens for a tenth of the users, audit rows.
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 5000)
            INSERT INTO kindred_queue_items (id, queue, payload, attempts, run_at, created_at)
            SELECT printf('q%06d', i), (CASE i % 3 WHEN 0 THEN 'notifications' WHEN 1 THEN 'billing.inbox' ELSE 'closer' END),
                   '{}', i % 3, ? + i * 1000, ? - i * 1000 FROM n
            """,
            (now, now),
        )
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 500)
            INSERT INTO kindred_queue_dead_letters (id, queue, payload, attempts, last_error, created_at, failed_at)
            SELECT printf('d%05d', i), 'notifications', '{}', 5, 'provider said no', ? - i * 60000, ? - i * 60000 FROM n
            """,
            (now, now),
        )
        db.execute(
            """
            INSERT INTO kindred_push_tokens (id, user_id, app, transport, token, device_id, created_at, updated_at)
            SELECT 't' || id, id, app, (CASE CAST(substr(id, 2) AS INTEGER) % 2 WHEN 0 THEN 'apns' ELSE 'fcm' END),
                   'token-' || id, 'device-' || id, created_at, created_at
            FROM kindred_users WHERE CAST(substr(id, 2) AS INTEGER) % 10 = 1
            """
        )
        db.execute(
            """
            WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < 20000)
            INSERT INTO kindred_admin_audit (id, operator_id, operator_email, action, target, detail, created_at)
            SELECT printf('a%06d', i), 'op', 'ops@example.com', 'user.disable', printf('u%07d', i), '', ? - i * 60000 FROM n
            """,
            (now,),
        )
    db.execute("ANALYZE")
    db.close()
    print(f"filled in {time.time() - started:.1f} s")


class Console:
    def __init__(self, base):
        url = urllib.parse.urlsplit(base)
        self.connection = http.client.HTTPConnection(url.hostname, url.port)
        self.cookies = {}

    def request(self, method, path, body=None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if body is not None:
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        data = response.read()
        for header, value in response.getheaders():
            if header.lower() == "set-cookie":
                name, _, rest = value.partition("=")
                self.cookies[name] = rest.split(";", 1)[0]
        return response.status, data

    def log_in(self, email, password):
        status, page = self.request("GET", "/admin/login")
        token = re.search(rb'name="csrf" value="([^"]+)"', page)
        if status != 200 or not token:
            sys.exit(f"login form: {status}")
        form = urllib.parse.urlencode({"csrf": token.group(1).decode(), "email": email, "password": password})
        status, _ = self.request("POST", "/admin/login", form)
        if status != 303:
            sys.exit(f"login refused: {status}")


def timed(console, path, rounds):
    samples = []
    for _ in range(rounds):
        started = time.perf_counter()
        status, _ = console.request("GET", path)
        samples.append((time.perf_counter() - started) * 1000)
        if status != 200:
            sys.exit(f"{path}: status {status}")
    samples.sort()
    return statistics.median(samples), samples[min(len(samples) - 1, int(len(samples) * 0.95))]


def measure(base, path, rounds):
    import os

    console = Console(base)
    console.log_in("ops@example.com", os.environ["KINDRED_PASSWORD"])
    db = sqlite3.connect(path)
    user = db.execute("SELECT user_id FROM closer_members ORDER BY user_id LIMIT 1").fetchone()[0]
    email = db.execute("SELECT email FROM kindred_credentials WHERE user_id = ?", (user,)).fetchone()[0]
    counts = {t: db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0] for t in ("kindred_users", "closer_couples", "closer_answers")}
    db.close()
    print("rows: " + ", ".join(f"{t} {n:,}" for t, n in counts.items()))
    pages = [
        ("/health (baseline)", "/health"),
        ("overview", "/admin"),
        ("users (list)", "/admin/users"),
        ("users (search by e-mail)", "/admin/users?q=" + urllib.parse.quote(email)),
        ("users (search by id)", "/admin/users?q=" + user),
        ("users (search by name prefix)", "/admin/users?q=" + urllib.parse.quote("Person 99999")),
        ("user page", f"/admin/users/{user}"),
        ("jobs", "/admin/jobs"),
        ("queues", "/admin/queues"),
        ("dead letters", "/admin/dead-letters"),
        ("push", "/admin/push"),
        ("realtime", "/admin/realtime"),
        ("audit log", "/admin/audit"),
        ("operators", "/admin/operators"),
        ("subscriptions", "/admin/subscriptions"),
    ]
    baseline = None
    worst = 0.0
    print(f"{'page':34} {'median ms':>10} {'p95 ms':>8} {'x /health':>10}")
    for name, page in pages:
        timed(console, page, 2)  # warm: the first read of a page's rows from disk
        median, p95 = timed(console, page, rounds)
        if baseline is None:
            baseline = median
        else:
            worst = max(worst, median)
        print(f"{name:34} {median:10.2f} {p95:8.2f} {median / baseline:10.1f}")
    print(f"slowest page median {worst:.2f} ms (target < 100 ms): {'met' if worst < 100 else 'MISSED'}")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "fill":
        fill(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    elif len(sys.argv) == 5 and sys.argv[1] == "measure":
        measure(sys.argv[2], sys.argv[3], int(sys.argv[4]))
    else:
        sys.exit(__doc__)
