#!/usr/bin/env python3
# Writes the seed corpus of every fuzz target (Fuzz/corpus/NAME/) from the test fixtures: the
# known-answer vectors of Tests/KindredCryptoTests/Vectors, the real share texts of
# Tests/StreakKitTests/Support/ShareCorpus.swift, the .ics texts of Tests/EraserKitTests, and
# requests shaped as the billing tests' fixtures (BillingFixtures.swift) send them. Python 3
# standard library only. Existing files are kept (findings' regression inputs live next to the
# seeds as `regression-*`); run it again after the fixtures change.
#
#   Fuzz/make-corpus.py            write the seeds (prints how many per target)

import base64, glob, hashlib, hmac, json, os, re, struct, sys, zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzz", "corpus")
VECTORS = os.path.join(ROOT, "Tests", "KindredCryptoTests", "Vectors")
counts = {}


def put(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)
    counts[target] = counts.get(target, 0) + 1


def vectors(name):
    with open(os.path.join(VECTORS, name)) as f:
        return json.load(f)


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


# --- Tink keysets and ciphertexts (tink-aead.json, tink-hybrid.json, tink-streaming.json, closer.json)
aead, hybrid, closer = vectors("tink-aead.json"), vectors("tink-hybrid.json"), vectors("closer.json")
for case in aead["cases"]:
    put("tink-keyset", f"aead-{case['name']}", bytes.fromhex(case["keyset"]))
    put("tink-ciphertext", f"aead-{case['name']}", bytes.fromhex(case["ciphertext"]))
for case in hybrid["cases"]:
    for key in ("privateKeyset", "privateKeyset32", "publicKeyset"):
        put("tink-keyset", f"hybrid-{case['name']}-{key}", bytes.fromhex(case[key]))
    put("tink-ciphertext", f"hybrid-{case['name']}", bytes.fromhex(case["ciphertext"]))
put("tink-keyset", "closer-wrap-keyset", bytes.fromhex(closer["wrap"]["keyset"]))
streaming = vectors("tink-streaming.json")
for i, case in enumerate(streaming.get("cases", [])[:4]):
    if "keyset" in case:
        put("tink-keyset", f"streaming-{i}", bytes.fromhex(case["keyset"]))

# --- Canonical JSON
sealed = closer["sealed"]
put("canonical-json", "closer-sealed", sealed["canonicalJSON"])
put("canonical-json", "closer-kdf-params", closer["wrap"]["kdfParams"])
put("canonical-json", "soulmate-payload", vectors("soulmate-chat.json")["payloadJSON"])
put("canonical-json", "nested", '{"a":[1,-2,true,false,null,{"b":"\\u0001\\"\\\\"}],"z":{}}')
put("canonical-json", "escapes", '{"k":"tab\\t nl\\n uni \\u00e9 \\ud83d\\ude00"}')
put("canonical-json", "numbers", '[0,9223372036854775807,-9223372036854775808,1e3,1.5]')

# --- PHC strings (argon2id.json)
for i, case in enumerate(vectors("argon2id.json")["phc"]):
    put("phc-string", f"vector-{i}", case["phc"])

# --- Closer wire strings (closer.json)
for key in ("payload", "commitment", "commitmentSeal"):
    put("closer-wire", f"sealed-{key}", sealed[key])
put("closer-wire", "enc-ciphertext", closer["enc"]["ciphertext"])
invite = closer["invite"]
for key in ("code", "share", "phrase", "encryptedPhrase", "verifier"):
    put("closer-wire", f"invite-{key}", invite[key])
put("closer-wire", "invite-typed-lowercase", invite["share"].lower().replace("-", " "))
put("closer-wire", "recovery-phrase", closer["wrap"]["phrase"])
put("closer-wire", "public-key", "pub:v1:" + b64url(bytes.fromhex(hybrid["cases"][0]["publicKeyset"])))
put("closer-wire", "keybox", "keybox:v1:" + b64url(bytes.fromhex(hybrid["cases"][0]["ciphertext"])))

# --- SoulMate (soulmate-chat.json)
chat = vectors("soulmate-chat.json")
put("soulmate-wire", "payload", chat["payloadJSON"])
put("soulmate-wire", "envelope", chat["envelope"])
put("soulmate-wire", "alice-public-key", chat["alicePublicKeyBase64"])
put("soulmate-wire", "payload-photo", '{"type":"photo","value":"aGVsbG8="}')

# --- Identity tokens: the shape Apple and Google send (RS256, kid); the reader checks structure,
# the signature is checked later against the JWKS, so a stand-in signature is enough here.
def jwt(header, claims):
    return ".".join([b64url(json.dumps(header, separators=(",", ":")).encode()),
                     b64url(json.dumps(claims, separators=(",", ":")).encode()), b64url(b"\x01" * 256)])

put("identity-token", "apple", jwt({"kid": "W6WcOKB", "alg": "RS256"}, {
    "iss": "https://appleid.apple.com", "aud": "app.kindred.closer", "exp": 1700003600, "iat": 1700000000,
    "sub": "001234.abcdef0123456789.1234", "email": "x@privaterelay.appleid.com", "email_verified": "true",
    "is_private_email": "true", "nonce": "n-0S6_WzA2Mj"}))
put("identity-token", "google", jwt({"alg": "RS256", "kid": "1e9gdk7", "typ": "JWT"}, {
    "iss": "accounts.google.com", "aud": ["1234.apps.googleusercontent.com"], "exp": 1700003600, "iat": 1700000000,
    "sub": "110169484474386276334", "email": "sam@example.com", "email_verified": True}))
put("identity-token", "hs256", jwt({"alg": "HS256", "kid": "k"}, {"sub": "1"}))


# --- JWKS documents (RFC 7517) shaped as Apple's and Google's: RSA 2048 keys made once with
# openssl (kept when the folder already has them, so the seeds do not change on every run).
def rsa_jwk(kid):
    import subprocess
    pem = subprocess.run(["openssl", "genrsa", "2048"], capture_output=True, check=True).stdout
    modulus = subprocess.run(["openssl", "rsa", "-noout", "-modulus"], input=pem, capture_output=True, check=True).stdout
    n = bytes.fromhex(modulus.decode().strip().split("=", 1)[1])
    return {"kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256", "n": b64url(n), "e": "AQAB"}


if not os.path.exists(os.path.join(CORPUS, "identity-jwks", "apple")):
    apple = [rsa_jwk("W6WcOKB"), rsa_jwk("rs0M3kOV9p")]
    put("identity-jwks", "apple", json.dumps({"keys": apple}, indent=1))
    put("identity-jwks", "google", json.dumps({"keys": [rsa_jwk("1e9gdk7")]}))
    put("identity-jwks", "mixed-with-ec-and-small", json.dumps({"keys": [
        {"kty": "EC", "kid": "ec-1", "crv": "P-256", "x": "AAAA", "y": "AAAA"},
        {"kty": "RSA", "kid": "small", "alg": "RS256", "n": b64url(b"\xc3" * 64), "e": "AQAB"}, apple[0]]}))
else:
    counts["identity-jwks"] = len(os.listdir(os.path.join(CORPUS, "identity-jwks")))

# --- Webhooks (BillingFixtures.swift shapes), signed as Stripe signs (t=…,v1=HMAC-SHA256)
def rc(id, type, user, event_at, extra=None):
    event = {"id": id, "type": type, "event_timestamp_ms": event_at * 1000, "product_id": "pc_1m",
             "period_type": "NORMAL", "environment": "PRODUCTION", "original_transaction_id": "otx-1",
             "transaction_id": f"otx-1-{id}", "store": "APP_STORE", "entitlement_ids": ["plus"], "app_id": "app1234",
             "app_user_id": user, "original_app_user_id": user, "expiration_at_ms": (event_at + 2592000) * 1000}
    event.update(extra or {})
    return json.dumps({"api_version": "1.0", "event": event}, sort_keys=True, separators=(",", ":"))


def stripe_event(id, type, obj):
    return json.dumps({"id": id, "object": "event", "type": type, "created": 1700000000, "livemode": True,
                       "api_version": "2025-03-31.basil", "data": {"object": obj}}, sort_keys=True, separators=(",", ":"))


subscription = {"id": "sub_1", "object": "subscription", "customer": "cus_1", "status": "active", "livemode": True,
                "metadata": {"userId": "u1"}, "items": {"object": "list", "data": [
                    {"id": "si_sub_1", "price": {"id": "pc_1m"}, "current_period_end": 1702592000}]}}
bodies = {
    "rc-initial-purchase": rc("rc-1", "INITIAL_PURCHASE", "u1", 1700000000),
    "rc-renewal": rc("rc-2", "RENEWAL", "u1", 1700000000),
    "rc-transfer": rc("rc-3", "TRANSFER", "u2", 1700000000, {"transferred_from": ["u1"], "transferred_to": ["u2"]}),
    "rc-cancellation": rc("rc-4", "CANCELLATION", "u1", 1700000000, {"cancel_reason": "UNSUBSCRIBE"}),
    "stripe-subscription-created": stripe_event("evt_1", "customer.subscription.created", subscription),
    "stripe-subscription-deleted": stripe_event("evt_2", "customer.subscription.deleted", dict(subscription, status="canceled", ended_at=1700000000)),
    "stripe-checkout-completed": stripe_event("evt_3", "checkout.session.completed", {
        "id": "cs_1", "object": "checkout.session", "customer": "cus_1", "subscription": "sub_1", "client_reference_id": "u1"}),
}
for name, body in bodies.items():
    put("billing-webhook", name, body)
    if name.startswith("stripe"):
        mac = hmac.new(b"whsec_fuzz", f"1700000000.{body}".encode(), hashlib.sha256).hexdigest()
        put("stripe-signature", name, f"t=1700000000,v1={mac},v0={'0' * 64}\n{body}")
    else:
        put("stripe-signature", name, "DL1YbD06xSNh0I3jT+Xi3B1lJBN9g0FrCeQzxI4bbMbyh1cCNxo8vB3jqZ4iRS8JdoqtMAWvpPAqzZcB1LeDAA==\n" + body)
put("stripe-signature", "two-v1", "t=1700000000, v1=" + "ab" * 32 + ",v1=" + "CD" * 32 + "\n{}")

# --- Admin console form bodies (application/x-www-form-urlencoded)
put("admin-form", "sign-in", "email=ops%40example.com&password=correct+horse%20battery&csrf=Zm9v")
put("admin-form", "search", "q=sam+o%27neil&page=2&kind=account")
put("admin-form", "repeat-and-bad-escape", "a=1&a=2&b=%zz&=empty&c&d=%E2%9C%93")

# --- X-Forwarded-For: line 1 the peer, then the header values
put("forwarded-for", "one-proxy", "10.0.0.7\n203.0.113.9")
put("forwarded-for", "chain", "127.0.0.1\n198.51.100.1, 10.1.2.3\n10.0.0.2")
put("forwarded-for", "ipv6", "::1\n2001:db8:0:7::1, fd00::5")
put("forwarded-for", "mapped-and-garbage", "10.0.0.1\n::ffff:192.0.2.1, not-an-ip")

# --- Realtime client frames
put("realtime-frame", "subscribe", '{"op":"subscribe","channel":"couple:7Hq2","after":42}')
put("realtime-frame", "unsubscribe", '{"op":"unsubscribe","channel":"user:u1"}')
put("realtime-frame", "pong", '{"op":"pong"}')
put("realtime-frame", "channel-escapes", '{"op":"subscribe","channel":"a\\"b\\\\c\\u0000\\ud83d\\ude00"}')

# --- StreakSync share texts (ShareCorpus.swift) and links
def swift_string(literal):
    out, i = [], 0
    while i < len(literal):
        c = literal[i]
        if c == "\\":
            n = literal[i + 1]
            if n == "u":
                end = literal.index("}", i)
                out.append(chr(int(literal[i + 3:end], 16)))
                i = end + 1
                continue
            out.append({"n": "\n", "r": "\r", "t": "\t", "0": "\0"}.get(n, n))
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


with open(os.path.join(ROOT, "Tests", "StreakKitTests", "Support", "ShareCorpus.swift"), encoding="utf-8") as f:
    source = f.read()
for i, match in enumerate(re.finditer(r'ShareCase\(text: "((?:[^"\\]|\\.)*)", game: \.(\w+)', source)):
    put("streak-share", f"{match.group(2)}-{i:02d}", swift_string(match.group(1)))
put("streak-share", "link-friend", "streaksync://friend/ABCD-EFGH")
put("streak-share", "csv", "date,game,puzzle,score,max_score,completed\n2024-05-01,wordle,1063,4,7,true\n")

# --- Ex-Eraser: .ics texts from the EraserKit tests, and image headers with EXIF
ics_count = 0
for path in sorted(glob.glob(os.path.join(ROOT, "Tests", "EraserKitTests", "Calendar", "*.swift"))):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for match in re.finditer(r'"((?:[^"\\\n]|\\.)*BEGIN:VCALENDAR(?:[^"\\\n]|\\.)*)"', text):
        put("eraser-ics", f"{os.path.basename(path)[:-6]}-{ics_count:02d}", swift_string(match.group(1)))
        ics_count += 1
put("eraser-ics", "recurring", "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VTIMEZONE\r\nTZID:Europe/Istanbul\r\n"
    "BEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:+0300\r\nTZOFFSETTO:+0300\r\nEND:STANDARD\r\n"
    "END:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:r1\r\nDTSTART;TZID=Europe/Istanbul:20240105T190000\r\n"
    "RRULE:FREQ=WEEKLY;BYDAY=FR;COUNT=10\r\nEXDATE;TZID=Europe/Istanbul:20240112T190000\r\nSUMMARY:Dinner w\r\n ith Sam\r\n"
    "ATTENDEE;CN=\"Sam, S\":mailto:sam@example.com\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")


def tiff_exif(little=True):
    """A TIFF/EXIF block: IFD0 with Make, DateTime, ExifIFD and GPS pointers; the EXIF IFD with
    DateTimeOriginal and OffsetTimeOriginal; the GPS IFD with latitude/longitude."""
    e = "<" if little else ">"
    head = (b"II" if little else b"MM") + struct.pack(e + "HI", 42, 8)
    def ifd(entries, offset, extra_at):
        data, blob = struct.pack(e + "H", len(entries)), b""
        for tag, typ, count, value in entries:
            if isinstance(value, bytes) and len(value) > 4:
                data += struct.pack(e + "HHII", tag, typ, count, extra_at + len(blob))
                blob += value
            elif isinstance(value, bytes):
                data += struct.pack(e + "HHI", tag, typ, count) + value.ljust(4, b"\0")
            else:
                data += struct.pack(e + "HHII", tag, typ, count, value)
        return data + struct.pack(e + "I", 0), blob
    rational = lambda *pairs: b"".join(struct.pack(e + "II", a, b) for a, b in pairs)
    ifd0_size = 2 + 4 * 12 + 4
    exif_at = 8 + ifd0_size + 64
    gps_at = exif_at + 2 + 2 * 12 + 4 + 64
    ifd0, blob0 = ifd([(0x010F, 2, 6, b"Apple\0"), (0x0132, 2, 20, b"2024:05:01 18:30:00\0"),
                       (0x8769, 4, 1, exif_at), (0x8825, 4, 1, gps_at)], 8, 8 + ifd0_size)
    exif, blobx = ifd([(0x9003, 2, 20, b"2024:05:01 18:30:00\0"), (0x9011, 2, 7, b"+03:00\0")], exif_at, exif_at + 30)
    gps, blobg = ifd([(0x0001, 2, 2, b"N\0"), (0x0002, 5, 3, rational((41, 1), (0, 1), (5, 1))),
                      (0x0003, 2, 2, b"E\0"), (0x0004, 5, 3, rational((28, 1), (58, 1), (30, 1)))], gps_at, gps_at + 54)
    out = bytearray(head + ifd0 + blob0)
    out += b"\0" * (exif_at - len(out))
    out += exif + blobx
    out += b"\0" * (gps_at - len(out))
    out += gps + blobg
    return bytes(out)


def jpeg(exif):
    app1 = b"Exif\0\0" + exif
    return (b"\xff\xd8" + b"\xff\xe1" + struct.pack(">H", len(app1) + 2) + app1
            + b"\xff\xc0" + struct.pack(">HBHHB", 11, 8, 480, 640, 1) + b"\x01\x11\x00" + b"\xff\xd9")


def png(exif):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0))
            + chunk(b"eXIf", exif) + chunk(b"IEND", b""))


put("eraser-media", "jpeg-exif-le", jpeg(tiff_exif(True)))
put("eraser-media", "jpeg-exif-be", jpeg(tiff_exif(False)))
put("eraser-media", "png-exif", png(tiff_exif(True)))
put("eraser-media", "tiff", tiff_exif(True))

for target in sorted(counts):
    print(f"{target}: {counts[target]} seeds")
