"""Login latency during a sign-up flood (issue 21, item 2), driven by scripts/bench-login-flood.

Three phases against a release `kindred serve` on a new SQLite file, each SECONDS long, the same
login client in each (one account, one login at a time, a new session each time):
  quiet      - logins only: the baseline of the same run;
  limited    - FLOOD threads sign up new e-mail accounts as fast as they are answered, all from
               this one address, with the default per-address limit (auth.signUpsPerAddressPerHour,
               20): what the limit leaves of a flood from one address;
  unlimited  - the same flood with the per-address limit lifted (a fresh server): what a flood
               spread over many addresses costs, which the per-address limit cannot stop (the
               hash queue's cap, auth.maxConcurrentHashes and maxQueuedHashes, is then the guard).
Prints each phase's login latency (p50, p95, p99, as ratios to the quiet phase's) and what
happened to the sign-ups and logins (201/200, 429, other).
"""
import argparse
import http.client
import json
import os
import secrets
import socket
import sys
import tempfile
import threading
import time

from kindred_process import start_serve

APP = "closer"
PASSWORD = "correct horse battery staple 2026"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(conn, path, body):
    conn.request("POST", path, body=json.dumps(body),
                 headers={"Content-Type": "application/json", "X-Kindred-App": APP})
    answer = conn.getresponse()
    answer.read()
    return answer.status


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def phase(port, seconds, flood, email):
    """Runs one phase; returns (login latencies in ms, login statuses, sign-up statuses)."""
    stop = threading.Event()
    signups = {}
    lock = threading.Lock()

    def flooder():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        while not stop.is_set():
            try:
                status = post(conn, "/v1/auth/signup",
                              {"email": "flood-%s@example.com" % secrets.token_hex(8), "password": PASSWORD})
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                status = "error"
            with lock:
                signups[status] = signups.get(status, 0) + 1

    threads = [threading.Thread(target=flooder, daemon=True) for _ in range(flood)]
    for thread in threads:
        thread.start()
    if flood:
        time.sleep(1)  # The flood is under way before the first measured login.
    latencies, logins = [], {}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        started = time.monotonic()
        try:
            status = post(conn, "/v1/auth/login", {"email": email, "password": PASSWORD})
        except (OSError, http.client.HTTPException):
            conn.close()
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            status = "error"
        elapsed = (time.monotonic() - started) * 1000
        logins[status] = logins.get(status, 0) + 1
        if status == 200:
            latencies.append(elapsed)
    stop.set()
    for thread in threads:
        thread.join(timeout=40)
    return latencies, logins, signups


def serve(binary, work, name, environment):
    port = free_port()
    log = open(os.path.join(work, name + ".log"), "wb")
    process = start_serve(
        binary, ["--port", str(port), "--database-url", "sqlite:" + os.path.join(work, name + ".sqlite"),
                 "--log-level", "error"], environment, log)
    return process, port


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--kindred", required=True)
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--flood", type=int, default=32)
    args = parser.parse_args()
    work = tempfile.mkdtemp(prefix="kindred-login-flood-")
    base = {key: value for key, value in os.environ.items() if not key.startswith("KINDRED_")}
    email = "login-%s@example.com" % secrets.token_hex(4)
    results = {}
    for name, flood, limit in (("quiet", 0, None), ("limited", args.flood, None), ("unlimited", args.flood, "1000000")):
        environment = dict(base)
        if limit:
            environment["KINDRED_AUTH_SIGN_UPS_PER_ADDRESS_PER_HOUR"] = limit
        process, port = serve(args.kindred, work, name, environment)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            status = post(conn, "/v1/auth/signup", {"email": email, "password": PASSWORD})
            if status != 201:
                sys.exit("the login account could not be made: %s" % status)
            results[name] = phase(port, args.seconds, flood, email)
        finally:
            process.terminate()
            process.wait(timeout=30)
    quiet = results["quiet"][0]
    if len(quiet) < 5:
        sys.exit("too few quiet logins to compare (%d)" % len(quiet))
    base50, base99 = percentile(quiet, 0.5), percentile(quiet, 0.99)
    print("phase       logins  p50 ms  p95 ms  p99 ms   p50 x  p99 x  logins by status        sign-ups by status")
    for name in ("quiet", "limited", "unlimited"):
        latencies, logins, signups = results[name]
        if not latencies:
            print("%-10s  no successful login; logins %s, sign-ups %s" % (name, logins, signups))
            continue
        p50, p95, p99 = (percentile(latencies, f) for f in (0.5, 0.95, 0.99))
        print("%-10s  %6d  %6.1f  %6.1f  %6.1f  %6.2f  %5.2f  %-22s  %s" % (
            name, len(latencies), p50, p95, p99, p50 / base50, p99 / base99,
            json.dumps(logins, sort_keys=True), json.dumps(signups, sort_keys=True)))


if __name__ == "__main__":
    main()
