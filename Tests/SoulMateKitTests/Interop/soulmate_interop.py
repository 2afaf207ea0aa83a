#!/usr/bin/env python3
"""An independent SoulMate peer, written from docs/wire-formats.md ("SoulMate chat envelopes")
and docs/soulmate-device.md ("Location") on Python's `cryptography` package, for the interop
tests of SoulMateKit.

Reads one JSON request on stdin: {"ops": [{"op": NAME, ...}, ...]} and writes
{"results": [...]}, one object of strings per op, in order. An op that fails returns
{"error": "..."} instead of stopping the batch. Keys and public keys are standard Base64,
pair keys lower-case hex, payloads {"type", "value"} strings.

Ops:
  identity                                    -> private, public (a fresh random X25519 identity)
  seal       private, peer_public, type, value -> envelope, pair_key, plaintext_b64, public
  open       private, peer_public, envelope    -> type, value, pair_key, plaintext_b64
  location-seal   pair_key, lat, lon, at      -> sealed, plaintext
  location-open   pair_key, sealed            -> lat, lon, at, plaintext
"""
import base64
import json
import os
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from cryptography.hazmat.primitives.serialization import Encoding, NoEncryption, PrivateFormat, PublicFormat

INFO = b"soulmate-chat-v1"
SALT_PREFIX = "SoulMate::"
LOCATION_AD = b"soulmate-location-v1"
KINDS = {"text", "emoji", "gif", "secret", "heartbeat"}


def b64(data):
    return base64.b64encode(data).decode("ascii")


def unb64(text):
    return base64.b64decode(text.encode("ascii"), validate=True)


def public_b64(private):
    return b64(private.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw))


def private_from(text):
    raw = unb64(text)
    if len(raw) != 32:
        raise ValueError("a private key is 32 bytes")
    return X25519PrivateKey.from_private_bytes(raw)


def pair_key(private, peer_public_b64):
    peer_raw = unb64(peer_public_b64)
    if len(peer_raw) != 32:
        raise ValueError("a public key is 32 bytes")
    shared = private.exchange(X25519PublicKey.from_public_bytes(peer_raw))
    # Both partners sort the two Base64 strings, so they derive the same salt.
    salt = (SALT_PREFIX + "|".join(sorted([public_b64(private), b64(peer_raw)]))).encode("utf-8")
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=INFO).derive(shared)


def payload_json(kind, value):
    if kind not in KINDS:
        raise ValueError("unknown message type")
    return json.dumps({"type": kind, "value": value}, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def seal(req):
    private = private_from(req["private"])
    key = pair_key(private, req["peer_public"])
    plaintext = payload_json(req["type"], req["value"])
    nonce = os.urandom(12)
    envelope = nonce + AESGCM(key).encrypt(nonce, plaintext, None)
    return {"envelope": b64(envelope), "pair_key": key.hex(), "plaintext_b64": b64(plaintext), "public": public_b64(private)}


def open_envelope(req):
    private = private_from(req["private"])
    key = pair_key(private, req["peer_public"])
    data = unb64(req["envelope"])
    if len(data) < 28:
        raise ValueError("truncated envelope")
    plaintext = AESGCM(key).decrypt(data[:12], data[12:], None)
    payload = json.loads(plaintext.decode("utf-8"))
    if set(payload) != {"type", "value"} or payload["type"] not in KINDS:
        raise ValueError("not a chat payload")
    return {"type": payload["type"], "value": payload["value"], "pair_key": key.hex(), "plaintext_b64": b64(plaintext)}


def hundredths(text):
    value = round(float(text) * 100)
    sign = "-" if value < 0 else ""
    return "%s%d.%02d" % (sign, abs(value) // 100, abs(value) % 100)


def location_seal(req):
    key = bytes.fromhex(req["pair_key"])
    plaintext = '{"at":%d,"lat":%s,"lon":%s}' % (int(req["at"]), hundredths(req["lat"]), hundredths(req["lon"]))
    nonce = os.urandom(12)
    sealed = nonce + AESGCM(key).encrypt(nonce, plaintext.encode("utf-8"), LOCATION_AD)
    return {"sealed": b64(sealed), "plaintext": plaintext}


def location_open(req):
    key = bytes.fromhex(req["pair_key"])
    data = unb64(req["sealed"])
    if len(data) < 28:
        raise ValueError("truncated location")
    plaintext = AESGCM(key).decrypt(data[:12], data[12:], LOCATION_AD).decode("utf-8")
    location = json.loads(plaintext)
    if set(location) != {"at", "lat", "lon"}:
        raise ValueError("not a location")
    return {"lat": "%.2f" % location["lat"], "lon": "%.2f" % location["lon"], "at": str(location["at"]), "plaintext": plaintext}


def identity(_req):
    private = X25519PrivateKey.generate()
    raw = private.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
    return {"private": b64(raw), "public": public_b64(private)}


OPS = {
    "identity": identity,
    "seal": seal,
    "open": open_envelope,
    "location-seal": location_seal,
    "location-open": location_open,
}


def run(req):
    op = OPS.get(req.get("op"))
    if op is None:
        raise ValueError("unknown op %r" % req.get("op"))
    return op(req)


def main():
    request = json.load(sys.stdin)
    results = []
    for req in request["ops"]:
        try:
            results.append(run(req))
        except Exception as error:  # one failed op must not stop the batch
            results.append({"error": "%s: %s" % (type(error).__name__, error)})
    json.dump({"results": results}, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
