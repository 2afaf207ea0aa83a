"""schemathesis hooks for fuzz_api.py: a device's valid payloads, the partner playing along, a tally.

Loaded by schemathesis (`SCHEMATHESIS_HOOKS=this file`) in every run fuzz_api.py starts; the run's
settings come from the JSON file named by FUZZ_API_HOOKS_CONFIG (fuzz_api.py writes it):

- `token`: the run's bearer token, set on every request here (not with `-H`, which would win
  over the one `acceptors` swaps in).
- Crypto-gated operations: the server never decrypts, but it refuses a payload that does not have
  the device's wire shape (docs/wire-formats.md, "Validators": `enc:v1:`, `sealed:v1:`,
  `sha256:`, `keybox:v1:`, `pub:v1:`, `invite:v1:`, `verifier:v1:`, the Argon2id parameters, the
  exact field set of an answer's schema version), a game opening that does not hash to its
  commitment, and an accept whose verifier is not the invite's. The patterns in the contract do
  not say enough for a generator to meet those, so a `share` of the cases of these operations is
  rewritten here, just before it is sent, into what a device sends: random bytes in the wire
  shape, game commitments computed as docs/wire-formats.md "Closer games" says (and opened later
  with the same nonce and ciphertext), invite verifiers derived from the invite code (so the
  accept presents the verifier the material stored). The other cases go out as generated.
- `other` (the couple's other member): after the caller's answer, thread message, game commit or
  opening succeeds, the other member does the same through the API, so the paths that need both
  (release keys after both sealed, the opening after both commitments, the next round) are reached.
  What a device does first is done here too when the run has not done it yet (a thread with both
  sealed messages before its release keys, an invite with material before an accept, an identity
  key before an envelope). These helper calls are tallied apart and not counted as the run's.
- `acceptors`: unpaired accounts; an invite accept is sent as the next of them (one cannot accept
  one's own invite), and after an accept succeeds that acceptor leaves the couple again, so the
  inviter (the run's unpaired caller) can be paired again later in the run.
- `tally`: every response's status, per operation, appended as `operationId status rewritten`
  lines; fuzz_api.py sums them into the run's summary.
"""

import base64
import datetime
import hashlib
import json
import os
import random
import threading
import urllib.parse

import sys

import schemathesis

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from kindred_process import call_json  # noqa: E402

CONFIG = {}
if os.environ.get("FUZZ_API_HOOKS_CONFIG"):
    with open(os.environ["FUZZ_API_HOOKS_CONFIG"]) as _f:
        CONFIG = json.load(_f)

KDF = '{"alg":"argon2id","len":32,"m":64,"p":1,"t":1,"v":19}'
GAME_LABEL = b"kindred/closer/game-commit/v1"

_rng = random.Random(CONFIG.get("seed", 0))
_lock = threading.RLock()
_acceptor = [0]  # the next acceptor, round robin (each accept attempt counts against its hourly limit)
_accepted_by = {}  # id of an accept case -> the acceptor it was sent as
_rewritten = set()  # ids of the cases rewritten here
# What this run made, for the rewrites to aim at (the stateful phase follows the contract's links
# too, but rarely far enough): invite codes (made; with material), thread ids, game session ids,
# the caller's game slots committed here, the threads the caller's sealed message is in.
_made = {"invites": [], "open invites": [], "threads": [], "games": [], "committed": [], "sealed threads": [],
         "soulmate key": []}


def _pick(kind, probability=0.8):
    """One of what this run made of `kind` (the latest more often), or None."""
    items = _made[kind]
    if not items or _rng.random() >= probability:
        return None
    # An inviter has one invite at a time (a new one replaces the last): only the latest is live.
    return items[-1] if kind.endswith("invites") or _rng.random() < 0.5 else _rng.choice(items)


def _b64(data):
    return base64.b64encode(data).decode()


def _b64url(data):
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def _bytes(low, high):
    return _rng.randbytes(_rng.randint(low, high))


def ciphertext(low=28, high=300):
    """`enc:v1:` and standard Base64 (a Tink ciphertext is at least 28 bytes)."""
    return "enc:v1:" + _b64(_bytes(low, high))


def sealed_payload():
    return "sealed:v1:" + _b64url(_bytes(60, 400))


def commitment_hash():
    return "sha256:" + _b64url(_rng.randbytes(32))


def keybox():
    return "keybox:v1:" + _b64url(_bytes(90, 370))


def public_key():
    """A real device's published key (the server parses the keyset): one of the couple's, which
    the setup's `kindred closer signup` devices published."""
    keys = CONFIG.get("publicKeys") or []
    return _rng.choice(keys) if keys else "pub:v1:" + _b64url(_bytes(96, 700))


def wrap():
    return {"wrappedCoupleKey": _b64(_bytes(28, 400)), "kdfSalt": _b64(_rng.randbytes(16)), "kdfParams": KDF}


def verifier_for(code):
    """The verifier a device derives from the invite secret; here, from the code (case folded,
    as the server looks codes up)."""
    digest = hashlib.sha256(b"fuzz-api/invite-verifier\x00" + code.upper().encode()).digest()
    return "verifier:v1:" + _b64url(digest)


def game_commitment(session_id, user_id, round_, nonce, ciphertext_):
    """docs/wire-formats.md, "Closer games": sha256: ‖ b64url(SHA-256(label ‖ 0 ‖ sessionId ‖ 0 ‖
    userId ‖ 0 ‖ round ‖ 0 ‖ nonce ‖ ciphertext))."""
    h = hashlib.sha256()
    for part in (GAME_LABEL, session_id.encode(), user_id.encode(), str(round_).encode()):
        h.update(part + b"\x00")
    h.update(nonce + ciphertext_.encode())
    return "sha256:" + _b64url(h.digest())


def _opening(session_id, user_id, round_):
    """The nonce and ciphertext of a member's slot, derived from the seed and the slot, so every
    run of the same seed (the member's, the partner's) opens what another committed."""
    seed = hashlib.sha256(f"fuzz-api/game\x00{CONFIG.get('seed', 0)}\x00{session_id}\x00{user_id}\x00{round_}".encode())
    nonce = seed.digest()
    body = hashlib.sha256(nonce + b"ciphertext").digest() * (1 + nonce[0] % 8)
    return nonce, "enc:v1:" + _b64(body)


def sealed_answer():
    return {"schemaVersion": 3, "encryptedPayload": sealed_payload(), "commitmentHash": commitment_hash(),
            "commitmentSeal": ciphertext()}


# Per operation: rewrite the case into what a device sends (body, and the caller's own id where
# the path names the author).

def _own(case):
    """The caller's own answer or message, on the couple's assigned day."""
    if "userId" in case.path_parameters:
        case.path_parameters["userId"] = CONFIG["id"]
    if "date" in case.path_parameters and CONFIG.get("date"):
        case.path_parameters["date"] = CONFIG["date"]


def _answer(case):
    _own(case)
    # Devices seal their answers (schemaVersion 3); 2 is the older field-encrypted answer.
    case.body = sealed_answer() if _rng.random() < 0.9 else {"schemaVersion": 2, "encryptedText": ciphertext()}


def _migration(case):
    _own(case)
    case.body = {"encryptedText": ciphertext()}


def _prepare_sealed_thread(couple):
    """What a device does before it sends a thread's release keys: a thread, the caller's
    sealed message in it and (as the other member) the partner's. Made here once when the run
    made none yet, as the device would (helper calls, tallied apart)."""
    other, questions = CONFIG.get("other"), CONFIG.get("questionIds") or []
    if not other or not questions or not couple:
        return
    base = f"/v1/closer/couples/{couple}/threads"
    status, thread = _call("POST", base, CONFIG["token"], {"questionId": questions[0]})
    _tally("createCloserThread", status, True, helper=True, code=_code(thread))
    if status != 201:
        return
    for person in ({"token": CONFIG["token"], "id": CONFIG["id"]}, other):
        status, answer = _call("PUT", f"{base}/{thread['id']}/messages/{person['id']}", person["token"], sealed_answer())
        _tally("createCloserThreadMessage", status, True, helper=True, code=_code(answer))
        if status // 100 != 2:
            return
    _made["threads"].append(thread["id"])
    _made["sealed threads"].append(thread["id"])


def _prepare_open_invite():
    """What an inviter's device does before the partner accepts: an invite and its material
    (the verifier derived from the code, as `_accept` presents it). Made here when the run has
    no invite with material yet."""
    status, invite = _call("POST", "/v1/closer/invites", CONFIG["token"])
    _tally("createCloserInvite", status, True, helper=True, code=_code(invite))
    if status != 201:
        return
    code = invite["code"]
    body = wrap()
    body.update({"encryptedPhrase": "invite:v1:" + _b64url(_bytes(75, 300)), "verifier": verifier_for(code),
                 "inviteKdfSalt": _b64(_rng.randbytes(16)), "inviteKdfParams": KDF})
    status, answer = _call("PUT", f"/v1/closer/invites/{code}", CONFIG["token"], body)
    _tally("putCloserInviteMaterial", status, True, helper=True, code=_code(answer))
    if status == 200:
        _made["invites"].append(code)
        _made["open invites"].append(code)


_prepared_day = []


def _prepare_recipients(couple):
    """Before release keys: the other member's sealed answer on the day (once a run; the caller's
    own comes from the fuzzed `createCloserAnswer`, which has one success a day to give) and the
    other member's device registered again (the fuzzed `deleteCloserDeviceKey` may have removed
    it). Helper calls, tallied apart."""
    other = CONFIG.get("other")
    if not other or not couple:
        return
    device, key = CONFIG.get("devices", {}).get(other["id"]), CONFIG.get("deviceKeys", {}).get(other["id"])
    if device and key:
        status, answer = _call("PUT", f"/v1/closer/devices/{device}", other["token"], {"publicKey": key, "platform": "linux"})
        _tally("putCloserDeviceKey", status, True, helper=True, code=_code(answer))
    if _prepared_day or not CONFIG.get("date"):
        return
    _prepared_day.append(couple)
    status, answer = _call("PUT", f"/v1/closer/couples/{couple}/days/{CONFIG['date']}/answers/{other['id']}",
                           other["token"], sealed_answer())
    _tally("createCloserAnswer", status, True, helper=True, code=_code(answer))


def _release_keys(case, thread):
    _own(case)
    _prepare_recipients(case.path_parameters.get("coupleId"))
    if thread:
        if not _made["sealed threads"]:
            _prepare_sealed_thread(case.path_parameters.get("coupleId"))
        sealed = _pick("sealed threads")
        if sealed:
            case.path_parameters["threadId"] = sealed
    devices = CONFIG.get("devices", {})
    other = CONFIG.get("other") or {}
    keys = []
    for user, device in devices.items():
        if user != CONFIG["id"] or _rng.random() < 0.3:
            keys.append({"recipientDeviceId": device, "recipientUserId": user, "encryptedAnswerKey": keybox()})
    body = {"keys": keys or [{"recipientDeviceId": devices.get(other.get("id"), "fuzz-device"),
                              "encryptedAnswerKey": keybox()}]}
    if CONFIG["id"] in devices:
        body["senderDeviceId"] = devices[CONFIG["id"]]
    if not thread and _rng.random() < 0.5:
        body["isRevealed"] = _rng.random() < 0.5
    case.body = body


def _thread(case):
    questions = CONFIG.get("questionIds") or []
    if questions:
        case.body = {"questionId": _rng.choice(questions)}


def _thread_message(case):
    _own(case)
    thread = _pick("threads")
    if thread:
        case.path_parameters["threadId"] = thread
    case.body = sealed_answer()


def _commit(case):
    p = case.path_parameters
    game = _pick("games", 0.6)
    if game:
        p["sessionId"], p["round"] = game, 1
    session, round_ = str(p.get("sessionId", "")), p.get("round", 1)
    nonce, text = _opening(session, CONFIG["id"], round_)
    case.body = {"commitment": game_commitment(session, CONFIG["id"], round_, nonce, text)}


def _open(case):
    p = case.path_parameters
    slot = _pick("committed")
    if slot:
        p["sessionId"], p["round"] = slot
    session, round_ = str(p.get("sessionId", "")), p.get("round", 1)
    nonce, text = _opening(session, CONFIG["id"], round_)
    case.body = {"ciphertext": text, "nonce": _b64(nonce)}


def _game_session(case):
    packs = CONFIG.get("packs") or []
    if packs:
        kind, pack = _rng.choice(packs)
        case.body = {"kind": kind, "packId": pack}


def _outcome(case):
    case.path_parameters["dayKey"] = "day_0"
    case.body = {"answers": ciphertext(28, 2000)}


def _capsule(case):
    body = dict(case.body) if isinstance(case.body, dict) else {}
    body.update({"title": ciphertext(28, 200), "content": ciphertext(28, 2000)})
    unlock = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=_rng.randint(300, 10 * 365 * 86400))
    body["unlockAt"] = unlock.strftime("%Y-%m-%dT%H:%M:%SZ")
    case.body = body


def _device_key(case):
    body = dict(case.body) if isinstance(case.body, dict) else {}
    body["publicKey"] = public_key()
    body.setdefault("platform", "linux")
    case.body = body


def _wrap(case):
    case.body = wrap()


def _invite_material(case):
    code = _pick("invites")
    if code:
        case.path_parameters["code"] = code
    code = str(case.path_parameters.get("code", ""))
    body = wrap()
    body.update({"encryptedPhrase": "invite:v1:" + _b64url(_bytes(75, 300)), "verifier": verifier_for(code),
                 "inviteKdfSalt": _b64(_rng.randbytes(16)), "inviteKdfParams": KDF})
    case.body = body


def _accept(case):
    if not _made["open invites"] and CONFIG.get("acceptors"):
        _prepare_open_invite()
    code = _pick("open invites")
    if code:
        case.path_parameters["code"] = code
    case.body = {"verifier": verifier_for(str(case.path_parameters.get("code", "")))}


def soulmate_public_key():
    """An X25519 public key, standard Base64: every 32-byte string is one (a u-coordinate)."""
    return _b64(_rng.randbytes(32))


def _identity_key(case):
    case.body = {"publicKey": soulmate_public_key()}


def _soulmate_key_version():
    """The caller's identity key version: the last one published in this run, else one published
    here first, as the device does before it sends (a helper call)."""
    if not _made["soulmate key"]:
        status, key = _call("PUT", "/v1/soulmate/identity-key", CONFIG["token"], {"publicKey": soulmate_public_key()})
        _tally("publishSoulMateIdentityKey", status, True, helper=True, code=_code(key))
        if status == 200 and isinstance(key, dict):
            _made["soulmate key"].append(key.get("keyVersion"))
    return _made["soulmate key"][-1] if _made["soulmate key"] else 1


def _envelope(case):
    other = CONFIG.get("other") or {}
    sent = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(seconds=_rng.randint(0, 600))
    case.body = {"id": "fuzz-" + _rng.randbytes(8).hex(), "recipientId": other.get("id", CONFIG["id"]),
                 "sentAt": sent.strftime("%Y-%m-%dT%H:%M:%SZ"), "keyVersion": _soulmate_key_version(),
                 "ciphertext": _b64(_bytes(28, 600))}


# The operations whose successes the rewrites aim at later, and what they made.
MADE = {"createCloserInvite": "invites", "putCloserInviteMaterial": "open invites", "createCloserThread": "threads",
        "createCloserGameSession": "games", "commitCloserGameSlot": "committed",
        "createCloserThreadMessage": "sealed threads", "publishSoulMateIdentityKey": "soulmate key"}

REWRITES = {
    "createCloserAnswer": _answer,
    "migrateCloserAnswer": _migration,
    "createCloserAnswerReleaseKeys": lambda case: _release_keys(case, thread=False),
    "createCloserThreadReleaseKeys": lambda case: _release_keys(case, thread=True),
    "createCloserThread": _thread,
    "createCloserThreadMessage": _thread_message,
    "commitCloserGameSlot": _commit,
    "openCloserGameSlot": _open,
    "createCloserGameSession": _game_session,
    "submitCloserOutcome": _outcome,
    "createCloserCapsule": _capsule,
    "putCloserDeviceKey": _device_key,
    "putCloserRecoveryWrap": _wrap,
    "startCloserEncryptionMigration": _wrap,
    "putCloserInviteMaterial": _invite_material,
    "acceptCloserInvite": _accept,
    "publishSoulMateIdentityKey": _identity_key,
    "sendSoulMateEnvelope": _envelope,
}


def operation_id(case):
    raw = case.operation.definition.raw
    return raw.get("operationId", case.operation.label) if isinstance(raw, dict) else case.operation.label


def _call(method, path, token, body=None):
    """A request of the other member or an acceptor (not a fuzzed case): the status, the JSON."""
    parsed = urllib.parse.urlparse(CONFIG["base_url"])
    status, raw = call_json(parsed.hostname, parsed.port or 80, method, path, token=token, app=CONFIG["app"], body=body)
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, None


def _tally(operation, status, rewritten, helper=False, code=None):
    if not CONFIG.get("tally"):
        return
    how = ("rewritten" if rewritten else "generated") + ("-helper" if helper else "")
    with open(CONFIG["tally"], "a") as f:
        f.write(f"{operation} {status} {how} {code or '-'}\n")


@schemathesis.hook
def before_call(context, case, kwargs):
    operation = operation_id(case)
    token = CONFIG.get("token")
    with _lock:
        rewrite = REWRITES.get(operation)
        if rewrite and _rng.random() < CONFIG.get("share", 0.5):
            rewrite(case)
            if case.body is not None:
                case.media_type = "application/json"
            _rewritten.add(id(case))
        else:
            _rewritten.discard(id(case))
        acceptors = CONFIG.get("acceptors") or []
        if operation == "acceptCloserInvite" and acceptors:
            acceptor = acceptors[_acceptor[0] % len(acceptors)]
            _acceptor[0] += 1
            _accepted_by[id(case)] = acceptor
            token = acceptor["token"]
    if token:
        case.headers = case.headers if case.headers is not None else {}
        case.headers["Authorization"] = "Bearer " + token


@schemathesis.hook
def after_call(context, case, response):
    operation = operation_id(case)
    status = response.status_code
    code = _code(_json(response)) if status >= 400 else None
    with _lock:
        _tally(operation, status, id(case) in _rewritten, code=code)
        if 200 <= status < 300:
            _after_success(operation, case, response)
        _accepted_by.pop(id(case), None)
        _rewritten.discard(id(case))


def _code(document):
    """The error envelope's code, if any."""
    return ((document.get("error") or {}).get("code") if isinstance(document, dict) else None)


def _json(response):
    try:
        return json.loads(response.content)
    except (ValueError, TypeError):
        return None


def _after_success(operation, case, response):
    """Remembers what was made; the other member plays along; an acceptor leaves again."""
    p = case.path_parameters
    document = _json(response) if operation in MADE else None
    if isinstance(document, dict):
        kind = MADE[operation]
        value = document.get("code") or document.get("id") if kind in ("invites", "threads", "games") else None
        if kind == "open invites":
            value = p.get("code")
        if kind == "committed" and id(case) in _rewritten:
            value = (p.get("sessionId"), p.get("round"))
        if kind == "sealed threads":
            value = p.get("threadId")
        if kind == "soulmate key":
            value = document.get("keyVersion")
        if value and value not in _made[kind]:
            _made[kind].append(value)
            if kind == "invites":
                _made["open invites"].clear()
    if operation == "createCloserThreadReleaseKeys" and p.get("threadId") in _made["sealed threads"]:
        # Its keys are out: the next upload goes to a thread sealed afresh.
        _made["sealed threads"].remove(p.get("threadId"))
    if operation == "acceptCloserInvite" and id(case) in _accepted_by:
        acceptor = _accepted_by[id(case)]
        if p.get("code") in _made["open invites"]:
            _made["open invites"].remove(p.get("code"))
        couple = ((_json(response) or {}).get("couple") or {}).get("id")
        if couple:
            status, answer = _call("POST", f"/v1/closer/couples/{couple}/leave", acceptor["token"])
            _tally("leaveCloserCouple", status, True, helper=True, code=_code(answer))
        return
    other = CONFIG.get("other")
    if not other or p.get("userId") not in (None, CONFIG["id"]):
        return
    couple = p.get("coupleId")
    base = f"/v1/closer/couples/{couple}"
    if operation == "createCloserAnswer":
        status, answer = _call("PUT", f"{base}/days/{p['date']}/answers/{other['id']}", other["token"], sealed_answer())
        _tally("createCloserAnswer", status, True, helper=True, code=_code(answer))
    elif operation == "createCloserThreadMessage":
        status, answer = _call("PUT", f"{base}/threads/{p['threadId']}/messages/{other['id']}", other["token"], sealed_answer())
        _tally("createCloserThreadMessage", status, True, helper=True, code=_code(answer))
    elif operation == "commitCloserGameSlot" and id(case) in _rewritten:
        session, round_ = str(p["sessionId"]), p["round"]
        nonce, text = _opening(session, other["id"], round_)
        status, answer = _call("PUT", f"{base}/games/{session}/rounds/{round_}/commitment", other["token"],
                          {"commitment": game_commitment(session, other["id"], round_, nonce, text)})
        _tally("commitCloserGameSlot", status, True, helper=True, code=_code(answer))
    elif operation == "openCloserGameSlot" and id(case) in _rewritten:
        session, round_ = str(p["sessionId"]), p["round"]
        nonce, text = _opening(session, other["id"], round_)
        status, answer = _call("PUT", f"{base}/games/{session}/rounds/{round_}/opening", other["token"],
                          {"ciphertext": text, "nonce": _b64(nonce)})
        _tally("openCloserGameSlot", status, True, helper=True, code=_code(answer))
