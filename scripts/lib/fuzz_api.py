#!/usr/bin/env python3
"""The contract, fuzzed with state: schemathesis against every contract a running server serves.

Reads the contracts' names from the home page (`/openapi/NAME.yaml`), then makes real accounts
through the public API: a paired Closer couple, a SoulMate pair, two StreakSync friends (and a
pending friend request to the member), an Ex-Eraser account, and for each app a stranger who
belongs to none of them. For every contract it runs schemathesis twice, in positive mode with
every phase (examples, coverage, fuzzing, stateful: the contracts' OpenAPI links chain the
operations with real ids), every method, and the checks below:

  1. with the member's token; the path ids (`coupleId`, `userId`, ...) are drawn mostly from the
     member's real ones, so the authorized paths are reached and not only the 404 of a random id;
  2. with the partner's token (the couple's, pair's or friendship's other member; fuzzing and
     stateful phases, half the member's time), the member playing along;
  3. with the stranger's token and the same real ids (Closer, SoulMate, StreakSync; core and
     Ex-Eraser routes are only ever the caller's own): every couple route must refuse them as the
     contract says (404), never with a 5xx or an undocumented shape. The stranger is unpaired, so
     its own invites are accepted here by throwaway acceptors (who leave again).

The crypto-gated operations (invite material and accept, device keys, answers, thread messages,
release keys, game commitments and openings, capsules, outcomes, recovery wraps; SoulMate's
identity key and envelopes) refuse what a generator makes of their wire formats, so the
schemathesis hooks in fuzz_api_hooks.py send half their cases as a device would (the Closer
couple's two devices are made by the real device code, `kindred closer signup`), and count every
status per operation: the summary prints them (`== statuses: OPERATION: 2xx N, 4xx N ...`), and
--require-success fails the run when a named operation never answered 2xx.

Operations that end the member's state (`POST /v1/auth/logout`, `DELETE /v1/me`, Closer's
`leave`) run last, in a third run per contract: logout and account deletion with a throwaway
account of the same app, leave with the member (after everything else of Closer ran).

Exits 1 when any run finds anything (a 5xx, a status, content type or body the contract does
not allow, or a --require-success operation without a 2xx), 2 when the accounts could not be
made. Standard library only, plus `schemathesis`.

With --kindred BIN it starts `BIN serve` itself on a new SQLite file in the work folder (cheap
password hashing, no per-address limits on loopback, webhook secrets set) and stops it at the end
with SIGTERM; a server that does not exit 0 is a finding too.

Usage: fuzz_api.py (--base-url URL | --kindred BIN) [--seed N] [--max-examples N]
                   [--minutes M] [--workers N] [--contracts a,b] [--schemathesis PATH] [--work DIR]
                   [--rewrite-share F] [--require-success op1,op2]
--minutes is the whole run's time budget, shared by the member, partner and stranger runs in
proportion to their contracts' operation counts (each phase then repeats until its share is
spent). Without --kindred, the couple's accounts are made through the API (no device keys).
"""

import argparse
import base64
import datetime
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.parse
import uuid

from kindred_process import call_json, start_serve

PASSWORD = "fuzz-password-1"
KDF = '{"alg":"argon2id","len":32,"m":64,"p":1,"t":1,"v":19}'
CHECKS = "not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance"

# The operations that end the member's state, run last (see the module's description).
THROWAWAY_OPERATIONS = {"core": ["logOut", "deleteMe"]}
LAST_OPERATIONS = {"closer": ["leaveCloserCouple"]}
# The partner's and the stranger's runs, each a share of the member's time (they skip the
# coverage phase, whose boundary values the member's run already sends).
PARTNER_SHARE = 0.5


class SetupError(Exception):
    """The accounts the runs need could not be made through the API."""


class API:
    def __init__(self, base_url):
        parsed = urllib.parse.urlparse(base_url)
        self.host, self.port = parsed.hostname, parsed.port or 80

    def call(self, method, path, expect, body=None, token=None, app=None):
        status, raw = call_json(self.host, self.port, method, path, token=token, app=app, body=body)
        if status != expect:
            raise SetupError(f"{method} {path}: {status} {raw[:300]!r} (expected {expect})")
        return json.loads(raw) if raw else None


def b64(n):
    return base64.b64encode(os.urandom(n)).decode()


def b64url(n):
    return base64.urlsafe_b64encode(os.urandom(n)).decode().rstrip("=")


def email(tag):
    return f"fuzz-{tag}-{uuid.uuid4().hex[:12]}@fuzz.test"


def signup(api, app, tag, names=False):
    body = {"email": email(tag), "password": PASSWORD}
    if names:
        body.update({"firstName": tag.capitalize(), "lastName": "Fuzz"})
    session = api.call("POST", "/v1/auth/signup", 201, body=body, app=app)
    return {"token": session["accessToken"], "id": session["user"]["id"], "app": app}


def anonymous(api, app):
    session = api.call("POST", "/v1/auth/anonymous", 201, app=app)
    return {"token": session["accessToken"], "id": session["user"]["id"], "app": app}


def device_signup(api, kindred, work, tag):
    """A Closer account made by the real device code (`kindred closer signup`: it publishes the
    device's ECIES public key, which the server parses), then a session of its own through the
    API."""
    address = email(tag)
    subprocess.run([kindred, "closer", "signup", "--profile", os.path.join(work, f"profile-{tag}"),
                    "--server", f"http://{api.host}:{api.port}", "--email", address, "--password", PASSWORD],
                   check=True, capture_output=True, timeout=120)
    session = api.call("POST", "/v1/auth/login", 200, body={"email": address, "password": PASSWORD}, app="closer")
    return {"token": session["accessToken"], "id": session["user"]["id"], "app": "closer"}


def closer_couple(api, kindred=None, work=None):
    """A paired couple (the invite with its key material, accepted) and a stranger. With a
    `kindred` binary, the couple's two accounts are devices of the real device code."""
    app = "closer"
    if kindred:
        a, b = device_signup(api, kindred, work, "ann"), device_signup(api, kindred, work, "bob")
    else:
        a, b = signup(api, app, "ann"), signup(api, app, "bob")
    stranger = signup(api, app, "sam")
    code = api.call("POST", "/v1/closer/invites", 201, token=a["token"], app=app)["code"]
    verifier = "verifier:v1:" + b64url(32)
    material = {"wrappedCoupleKey": b64(120), "kdfSalt": b64(16), "kdfParams": KDF,
                "encryptedPhrase": "invite:v1:" + b64url(100), "verifier": verifier,
                "inviteKdfSalt": b64(16), "inviteKdfParams": KDF}
    api.call("PUT", f"/v1/closer/invites/{code}", 200, body=material, token=a["token"], app=app)
    accepted = api.call("POST", f"/v1/closer/invites/{code}/accept", 201, body={"verifier": verifier},
                        token=b["token"], app=app)
    couple = accepted["couple"]["id"]
    # What the hooks (fuzz_api_hooks.py) need to send a device's payloads: a registered device
    # each (release keys name their recipients' devices), the day assigned, the game packs, and
    # unpaired accounts to accept the stranger's invites (one cannot accept one's own).
    devices, public_keys, device_keys = {}, [], {}
    for person in (a, b):
        listed = api.call("GET", f"/v1/closer/users/{person['id']}/devices", 200, token=a["token"], app=app)
        for device in listed.get("devices", []):
            devices[person["id"]] = device["deviceId"]
            device_keys[person["id"]] = device["publicKey"]
            public_keys.append(device["publicKey"])
    today = api.call("POST", f"/v1/closer/couples/{couple}/today", 201, token=a["token"], app=app)
    packs = api.call("GET", "/v1/closer/games/packs", 200, token=a["token"], app=app)
    hooks = {"devices": devices, "publicKeys": public_keys, "deviceKeys": device_keys,
             "questionIds": [today["question"]["id"]], "date": today["date"],
             "packs": [[p["kind"], p["id"]] for p in packs.get("packs", []) if not p.get("isPremium")],
             "acceptors": [signup(api, app, f"acceptor{i}") for i in range(6)]}
    return {"member": a, "partner": b, "stranger": stranger, "hooks": hooks,
            "dictionaries": {"coupleId": [couple], "userId": [a["id"], b["id"]], "date": [today["date"]]}}


def soulmate_pair(api):
    app = "soulmate"
    a, b, stranger = (signup(api, app, tag, names=True) for tag in ("ann", "bob", "sam"))
    code = api.call("GET", "/v1/soulmate/pair-code", 200, token=a["token"], app=app)["code"]
    request = api.call("POST", "/v1/soulmate/pair-requests", 201, body={"code": code}, token=b["token"], app=app)
    api.call("POST", f"/v1/soulmate/pair-requests/{request['id']}/accept", 200, token=a["token"], app=app)
    return {"member": a, "partner": b, "stranger": stranger, "hooks": {},
            "dictionaries": {"requestId": [request["id"]]}}


def streak_friends(api):
    app = "streaksync"
    a, b, c, stranger = (anonymous(api, app) for _ in range(4))
    for person, name in ((a, "Ann"), (b, "Bob"), (c, "Cid")):
        api.call("PUT", "/v1/streaksync/profile", 200, body={"displayName": name}, token=person["token"], app=app)
    code = api.call("GET", "/v1/streaksync/friend-code", 200, token=a["token"], app=app)["code"]
    friendship = api.call("POST", "/v1/streaksync/friend-requests", 201, body={"code": code}, token=b["token"], app=app)
    api.call("POST", f"/v1/streaksync/friendships/{friendship['id']}/accept", 200, token=a["token"], app=app)
    # A request still pending, for the member to accept or remove during the run.
    pending = api.call("POST", "/v1/streaksync/friend-requests", 201, body={"code": code}, token=c["token"], app=app)
    day = datetime.date.today().isoformat()
    api.call("PUT", f"/v1/streaksync/scores/wordle/{day}", 200,
             body={"score": 3, "max": 6, "completed": True, "currentStreak": 1}, token=b["token"], app=app)
    return {"member": a, "partner": b, "stranger": stranger, "hooks": {},
            "dictionaries": {"friendshipId": [friendship["id"], pending["id"]], "gameId": ["wordle"], "date": [day]}}


def eraser_account(api):
    app = "exeraser"
    return {"member": anonymous(api, app), "partner": None, "stranger": anonymous(api, app), "hooks": {},
            "dictionaries": {}}


def contracts_served(api):
    page = call_json(api.host, api.port, "GET", "/")[1].decode()
    names = sorted(set(re.findall(r'href="/openapi/([a-z0-9-]+)\.yaml"', page)))
    if not names:
        raise SetupError("the home page lists no /openapi/NAME.yaml")
    return names


def operation_count(api, contract):
    text = call_json(api.host, api.port, "GET", f"/openapi/{contract}.yaml")[1].decode()
    return len(re.findall(r"^    (?:get|put|post|patch|delete):\s*$", text, re.M))


def integrity_environment(work, app):
    """App Attest and Play Integrity settings for APP with throwaway keys (openssl), so the
    integrity routes verify what they are sent (and refuse it with a 4xx) instead of answering
    501 `integrity_not_configured`."""
    root_key, root_pem = os.path.join(work, "attest-root.key"), os.path.join(work, "attest-root.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-384", "-nodes",
                    "-subj", "/CN=Kindred fuzz App Attest root", "-days", "2", "-keyout", root_key, "-out", root_pem],
                   check=True, capture_output=True)
    ec = subprocess.run(["openssl", "ecparam", "-name", "prime256v1", "-genkey", "-noout"],
                        check=True, capture_output=True).stdout
    public = subprocess.run(["openssl", "ec", "-pubout", "-outform", "DER"], input=ec,
                            check=True, capture_output=True).stdout
    prefix = f"KINDRED_APPS_{app.upper()}_"
    with open(root_pem) as f:
        pem = f.read()
    return {
        prefix + "APP_ATTEST_TEAM_ID": "FUZZTEAM01", prefix + "APP_ATTEST_BUNDLE_ID": f"app.kindred.{app}",
        prefix + "APP_ATTEST_ROOT_CERTIFICATE_PEM": pem,
        prefix + "PLAY_INTEGRITY_PACKAGE_NAME": f"app.kindred.{app}",
        prefix + "PLAY_INTEGRITY_DECRYPTION_KEY": base64.b64encode(os.urandom(32)).decode(),
        prefix + "PLAY_INTEGRITY_VERIFICATION_KEY": base64.b64encode(public).decode(),
    }


class Server:
    """`kindred serve` on a new SQLite file, for a self-contained run."""

    def __init__(self, binary, work):
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.log_path = os.path.join(work, "serve.log")
        environment = {k: v for k, v in os.environ.items() if not k.startswith("KINDRED_")}
        environment.update({
            "KINDRED_AUTH_PASSWORD_MEMORY_KIB": "1024", "KINDRED_AUTH_PASSWORD_ITERATIONS": "1",
            "KINDRED_AUTH_LOOPBACK_EXEMPT": "true",
            # Webhook secrets set, so unsigned events get the documented 401 (not 500 not configured).
            "KINDRED_REVENUECAT_WEBHOOK_AUTH": "Bearer fuzz-webhook-secret",
            "KINDRED_STRIPE_WEBHOOK_SECRET": "whsec_fuzz",
        })
        for app in ("closer", "soulmate", "streaksync", "exeraser"):
            environment.update(integrity_environment(work, app))
        self.log = open(self.log_path, "wb")
        self.process = start_serve(
            binary, ["--port", str(self.port), "--database-url", f"sqlite:{work}/kindred.sqlite", "--log-level", "notice"],
            environment, self.log, error=SetupError)

    def stop(self):
        self.process.send_signal(signal.SIGTERM)
        try:
            status = self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait()
        self.log.close()
        return status

    def unhandled_errors(self):
        with open(self.log_path, errors="replace") as f:
            return [line.rstrip() for line in f if "unhandled error" in line]


def toml_string(value):
    return json.dumps(str(value))


# The payment provider is not configured on the fuzzed server (it would be the network): the
# Stripe operations answer their documented 503 `billing_unavailable` to valid requests.
UNCONFIGURED_PROVIDER = {"503": ["createStripeCheckout", "createStripePurchaseCheckout", "verifyStripeCheckout"]}


def write_config(path, app, dictionaries, seed, max_examples, stateful_examples, workers):
    """A schemathesis.toml: positive mode, the app header fixed, the real ids as dictionaries."""
    lines = [f"seed = {seed}", f"workers = {workers}"]
    lines += ["", "[generation]", 'mode = "positive"', f"max-examples = {max_examples}",
              "", "[phases.stateful]", "max-steps = 10",
              "", "[phases.stateful.generation]", 'mode = "positive"', f"max-examples = {stateful_examples}",
              "", "[parameters]", f'"header.X-Kindred-App" = {toml_string(app)}']
    for name in sorted(dictionaries):
        # Mostly the real ids (the authorized paths); sometimes a generated one (the 404s).
        lines.append(f'"path.{name}" = {{ dictionary = {toml_string(name)}, probability = 0.9 }}')
    for name, values in sorted(dictionaries.items()):
        lines += ["", f"[dictionaries.{name}]", "values = [" + ", ".join(toml_string(v) for v in values) + "]"]
    for status, operations in UNCONFIGURED_PROVIDER.items():
        lines += ["", "[[operations]]", "include-operation-id = [" + ", ".join(toml_string(o) for o in operations) + "]",
                  f'checks.not_a_server_error.expected-statuses = ["2xx", "3xx", "4xx", "{status}"]']
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


SUMMARY = re.compile(r"API Operations:\s+Selected: (\d+)/\d+\s+Tested: (\d+)")
SCENARIOS = re.compile(r"Scenarios:\s+(\d+)")
LINKS = re.compile(r"API Links:\s+(\d+) covered / (\d+) selected")
CASES = re.compile(r"Test cases:\s+(\d+) generated")


HOOKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fuzz_api_hooks.py")

# The operations whose success paths only a device's payloads reach (fuzz_api_hooks.py rewrites a
# share of their cases): the summary prints their statuses, and --require-success names those
# that must answer 2xx at least once.
CRYPTO_GATED = {"closer": ["putCloserInviteMaterial", "acceptCloserInvite", "putCloserDeviceKey", "createCloserAnswer",
                           "migrateCloserAnswer", "createCloserAnswerReleaseKeys", "createCloserThreadMessage",
                           "createCloserThreadReleaseKeys", "createCloserGameSession", "commitCloserGameSlot",
                           "openCloserGameSlot", "submitCloserOutcome", "createCloserCapsule", "putCloserRecoveryWrap",
                           "startCloserEncryptionMigration"],
                "soulmate": ["publishSoulMateIdentityKey", "sendSoulMateEnvelope"]}


def run_schemathesis(args, label, contract, config, caller, setup, work, include=None, exclude=None, max_time=None,
                     phases=None, other=None, acceptors=None):
    """One schemathesis run as `caller`; its statuses per operation are tallied by the hooks."""
    slug = re.sub(r"[^a-z]+", "-", f"{contract}-{label}")
    tally = os.path.join(work, f"tally-{slug}.txt")
    hooks = {"seed": args.seed, "base_url": args.base_url, "app": caller["app"], "token": caller["token"],
             "id": caller["id"], "share": args.rewrite_share, "tally": tally,
             "other": other, "acceptors": acceptors or []}
    hooks.update({k: v for k, v in setup.get("hooks", {}).items() if k != "acceptors"})
    hooks_config = os.path.join(work, f"hooks-{slug}.json")
    with open(hooks_config, "w") as f:
        json.dump(hooks, f)
    open(tally, "w").close()
    command = [args.schemathesis, "--config-file", config, "run", f"{args.base_url}/openapi/{contract}.yaml",
               "--checks", CHECKS, "--no-color"]
    if phases:
        command += ["--phases", phases]
    if max_time:
        command += ["--max-time", str(max_time)]
    for operation in include or []:
        command += ["--include-operation-id", operation]
    for operation in exclude or []:
        command += ["--exclude-operation-id", operation]
    started = time.monotonic()
    environment = dict(os.environ, SCHEMATHESIS_HOOKS=HOOKS, FUZZ_API_HOOKS_CONFIG=hooks_config)
    run = subprocess.run(command, capture_output=True, text=True, env=environment)
    seconds = time.monotonic() - started
    out = run.stdout + run.stderr
    operations = SUMMARY.search(out)
    cases = CASES.search(out)
    scenarios = SCENARIOS.search(out)
    links = LINKS.search(out)
    figures = {"label": label, "contract": contract, "status": run.returncode, "seconds": round(seconds, 1),
               "operations": int(operations.group(2)) if operations else 0,
               "selected": int(operations.group(1)) if operations else 0,
               "cases": int(cases.group(1)) if cases else 0,
               "scenarios": int(scenarios.group(1)) if scenarios else 0,
               "links_covered": int(links.group(1)) if links else 0,
               "links": int(links.group(2)) if links else 0,
               "statuses": read_tally(tally)}
    if run.returncode == 0 and not operations:
        # A run that tested nothing (a changed summary, a filter that matched nothing) is a failure.
        figures["status"] = 3
        out += "\nfuzz-api: schemathesis tested no operation (no \"Selected: N/M, Tested: N\" summary)"
    print(f"== {label}: {contract}: exit {figures['status']}, {figures['operations']}/{figures['selected']} operations, "
          f"{figures['cases']} cases, {figures['scenarios']} stateful scenarios "
          f"({figures['links_covered']}/{figures['links']} links), {seconds:.0f} s", flush=True)
    if figures["status"] != 0:
        print(out, flush=True)
    elif args.verbose:
        print(out, flush=True)
    return figures


def read_tally(path):
    """{operation: {"2xx": n, "4xx": n, "5xx": n, "rewritten 2xx": n, ...}} from a hooks tally
    (the calls the hooks make themselves, as the other member or an acceptor, not counted)."""
    statuses = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[2].endswith("-helper"):
                continue
            operation, status, how = parts[0], parts[1], parts[2]
            counts = statuses.setdefault(operation, {})
            key = status[0] + "xx"
            counts[key] = counts.get(key, 0) + 1
            if how == "rewritten":
                counts["rewritten " + key] = counts.get("rewritten " + key, 0) + 1
    return statuses


def status_line(operation, counts):
    parts = [f"{k} {counts[k]}" for k in ("2xx", "3xx", "4xx", "5xx") if counts.get(k)]
    rewritten = sum(v for k, v in counts.items() if k.startswith("rewritten"))
    return f"{operation}: {', '.join(parts) or 'not called'} ({rewritten} sent as a device would, " \
           f"{counts.get('rewritten 2xx', 0)} of them 2xx)"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--base-url")
    where.add_argument("--kindred", help="start this `kindred` binary on a new SQLite file")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--max-examples", type=int, default=5, help="per operation, in the fuzzing phase")
    parser.add_argument("--stateful-examples", type=int, default=30, help="scenarios of the stateful phase")
    parser.add_argument("--minutes", type=float, default=None, help="the whole run's time budget")
    # One worker: with several, Hypothesis (threads in one process) once failed with an internal
    # `FlakyFailure` (a KeyError in its lambda-source cache), which is the tool, not the server.
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--contracts", default=None, help="comma-separated; default every contract served")
    parser.add_argument("--schemathesis", default="schemathesis")
    parser.add_argument("--work", default=None)
    parser.add_argument("--rewrite-share", type=float, default=0.5,
                        help="the share of the crypto-gated operations' cases sent as a device would (fuzz_api_hooks.py)")
    parser.add_argument("--require-success", default="",
                        help="comma-separated operation ids that must answer 2xx at least once (else exit 1)")
    parser.add_argument("--verbose", action="store_true")
    args = parser.parse_args()
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 2**31)
    print(f"== seed {args.seed} (replay: --seed {args.seed})", flush=True)
    work = args.work or tempfile.mkdtemp(prefix="fuzz-api-")
    os.makedirs(work, exist_ok=True)
    server = None
    if args.kindred:
        try:
            server = Server(args.kindred, work)
        except (SetupError, OSError, subprocess.CalledProcessError) as error:
            print(f"fuzz-api: {error}", file=sys.stderr)
            return 2
        args.base_url = f"http://127.0.0.1:{server.port}"
        print(f"== {args.kindred} serve on {args.base_url}, log {server.log_path}", flush=True)
    args.base_url = args.base_url.rstrip("/")
    try:
        status = fuzz(args, work)
    finally:
        if server:
            stopped = server.stop()
    if server and stopped != 0:
        print(f"== FAILED: kindred serve exited with {stopped} on SIGTERM; see {server.log_path}", flush=True)
        return 1
    if server and server.unhandled_errors():
        print("== FAILED: the server logged unhandled errors:\n" + "\n".join(server.unhandled_errors()[:20]), flush=True)
        return 1
    return status


def fuzz(args, work):
    api = API(args.base_url)
    try:
        served = contracts_served(api)
        contracts = args.contracts.split(",") if args.contracts else served
        closer = closer_couple(api, args.kindred, work)
        setups = {"core": closer, "closer": closer, "soulmate": soulmate_pair(api),
                  "streaksync": streak_friends(api), "exeraser": eraser_account(api)}
    except (SetupError, OSError, KeyError, ValueError, subprocess.SubprocessError) as error:
        print(f"fuzz-api: could not make the accounts: {error}", file=sys.stderr)
        return 2
    unknown = [c for c in contracts if c not in setups or c not in served]
    if unknown:
        print(f"fuzz-api: no accounts for contract(s) {', '.join(unknown)} (served: {', '.join(served)})",
              file=sys.stderr)
        return 2
    print(f"== contracts: {', '.join(contracts)}", flush=True)
    shares = {}
    if args.minutes:
        counts = {contract: max(1, operation_count(api, contract)) for contract in contracts}
        # The member, partner and stranger runs share the budget by operation count (the partner
        # and the stranger skip the coverage phase: half a member run's time each).
        runs = {c: 1 if c in ("core", "exeraser") else 1 + 2 * PARTNER_SHARE for c in contracts}
        total = sum(counts[c] * runs[c] for c in contracts)
        for contract, count in counts.items():
            shares[contract] = max(1, int(args.minutes * 60 * count / total))

    results = []
    for contract in contracts:
        setup = setups[contract]
        app = setup["member"]["app"]
        config = os.path.join(work, f"{contract}.toml")
        write_config(config, app, setup["dictionaries"], args.seed, args.max_examples, args.stateful_examples,
                     args.workers)
        held_back = THROWAWAY_OPERATIONS.get(contract, []) + LAST_OPERATIONS.get(contract, [])
        share = shares.get(contract)
        partner = setup.get("partner")
        results.append(run_schemathesis(args, "member", contract, config, setup["member"], setup, work, exclude=held_back,
                                        max_time=share, other=partner))
        # The partner: the same couple from the other side (the paths where the author, the
        # inviter or the first to commit is the member, now seen by the one who answers second),
        # with the member playing along.
        if partner and contract != "core":
            results.append(run_schemathesis(args, "partner", contract, config, partner, setup, work, exclude=held_back,
                                            max_time=share and max(1, int(share * PARTNER_SHARE)),
                                            phases="fuzzing,stateful", other=setup["member"]))
        # The stranger is refused (404) wherever an id matters: the coverage phase's boundary
        # values add nothing there, so the stranger gets the fuzzing and stateful phases. The
        # contracts without shared resources (core, Ex-Eraser: every route is the caller's own)
        # have nothing to refuse a stranger.
        if setup["dictionaries"] and contract != "core":
            # The stranger is unpaired: its own invites are accepted by the setup's acceptors (who
            # leave again), so the invite's success paths are reached here.
            results.append(run_schemathesis(args, "stranger", contract, config, setup["stranger"], setup, work,
                                            exclude=held_back, max_time=share and max(1, int(share * PARTNER_SHARE)),
                                            phases="fuzzing,stateful",
                                            acceptors=setup.get("hooks", {}).get("acceptors")))
        if contract in LAST_OPERATIONS:
            results.append(run_schemathesis(args, "member, last", contract, config, setup["member"], setup, work,
                                            include=LAST_OPERATIONS[contract], phases="coverage,fuzzing"))
        if contract in THROWAWAY_OPERATIONS:
            try:
                throwaway = anonymous(api, app)
            except (SetupError, OSError) as error:
                print(f"fuzz-api: could not make the throwaway account: {error}", file=sys.stderr)
                return 2
            results.append(run_schemathesis(args, "throwaway", contract, config, throwaway, setup, work,
                                            include=THROWAWAY_OPERATIONS[contract], phases="coverage,fuzzing"))

    failed = [r for r in results if r["status"] != 0]
    operations = sum(r["operations"] for r in results if r["label"] in ("member", "member, last", "throwaway"))
    cases = sum(r["cases"] for r in results)
    print(f"== summary: seed {args.seed}, {len(results)} runs, {operations} operations tested as the member, "
          f"{cases} test cases, {len(failed)} run(s) with findings", flush=True)
    # The crypto-gated operations' statuses, summed over the runs (member, partner, stranger).
    totals = {}
    for result in results:
        for operation, counts in result["statuses"].items():
            into = totals.setdefault(operation, {})
            for key, n in counts.items():
                into[key] = into.get(key, 0) + n
    for contract in contracts:
        for operation in CRYPTO_GATED.get(contract, []):
            print("== statuses: " + status_line(operation, totals.get(operation, {})), flush=True)
    unreached = [o for o in args.require_success.split(",") if o and not totals.get(o, {}).get("2xx")]
    with open(os.path.join(work, "summary.json"), "w") as f:
        json.dump({"seed": args.seed, "runs": results, "statuses": totals}, f, indent=1)
    if unreached:
        print(f"== FAILED: no 2xx on {', '.join(unreached)} (their success paths were not reached)", flush=True)
        print(f"== replay: --seed {args.seed}", flush=True)
        return 1
    if failed:
        print("== FAILED: " + ", ".join(f"{r['contract']} ({r['label']})" for r in failed), flush=True)
        print(f"== replay: --seed {args.seed}", flush=True)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
