#!/usr/bin/env python3
"""Independent reference implementation of Closer's wire formats (docs/wire-formats.md),
used by the Swift tests as an interop peer. Reads one JSON request on stdin, writes one JSON
response on stdout. Built only on the Python standard library, `cryptography`, `argon2-cffi`
and `tink` -- it shares no code with KindredCrypto."""
import base64, hashlib, hmac, json, random, sys


def b64(b): return base64.b64encode(b).decode()
def ub64(s): return base64.b64decode(s, validate=True)
def b64url(b): return base64.urlsafe_b64encode(b).decode().rstrip("=")
def ub64url(s): return base64.urlsafe_b64decode(s + "=" * (-len(s) % 4))


# RFC 8785 for strings, integers, literals, arrays and objects.
def jcs_str(s):
    out = ['"']
    for ch in s:
        o = ord(ch)
        if ch == '"': out.append('\\"')
        elif ch == '\\': out.append('\\\\')
        elif ch == '\b': out.append('\\b')
        elif ch == '\f': out.append('\\f')
        elif ch == '\n': out.append('\\n')
        elif ch == '\r': out.append('\\r')
        elif ch == '\t': out.append('\\t')
        elif o < 0x20: out.append('\\u%04x' % o)
        else: out.append(ch)
    out.append('"')
    return ''.join(out)


def jcs(v):
    if v is None: return 'null'
    if v is True: return 'true'
    if v is False: return 'false'
    if isinstance(v, int):
        assert abs(v) <= 2**53 - 1
        return str(v)
    if isinstance(v, str): return jcs_str(v)
    if isinstance(v, list): return '[' + ','.join(jcs(x) for x in v) + ']'
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode('utf-16-be'))  # UTF-16 code-unit order
        return '{' + ','.join(jcs_str(k) + ':' + jcs(v[k]) for k in keys) + '}'
    raise TypeError(type(v))


POOL = ['a', 'b', 'Z', '1', '\r', '\n', '\x00', '\x1f', '\x7f', '"', '\\', '/', '\u0080', '\u00f6', '\u20ac',
        '\ud7ff', '\ue000', '\ufb33', '\uffff', '\U0001f600', '\U00010000', '\U0010ffff', ' ', 'é']


def rand_text(r):
    return ''.join(r.choice(POOL) for _ in range(r.randint(0, 5)))


def rand_value(r, depth=0):
    k = r.randint(0, 6 if depth < 3 else 3)
    if k == 0: return None
    if k == 1: return r.random() < 0.5
    if k == 2: return r.randint(-(2**53 - 1), 2**53 - 1) if r.random() < 0.3 else r.randint(-1000, 1000)
    if k == 3: return rand_text(r)
    if k == 4: return [rand_value(r, depth + 1) for _ in range(r.randint(0, 3))]
    return {rand_text(r): rand_value(r, depth + 1) for _ in range(r.randint(0, 5))}


def kdf(params, password, salt):
    from argon2.low_level import hash_secret_raw, Type
    p = json.loads(params)
    assert p["alg"] == "argon2id" and p["v"] == 19 and p["len"] == 32
    return hash_secret_raw(password, salt, time_cost=p["t"], memory_cost=p["m"], parallelism=p["p"],
                           hash_len=32, type=Type.ID, version=19)


def aesgcm_seal(key, iv, pt, aad):
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    return iv + AESGCM(key).encrypt(iv, pt, aad)


def aesgcm_open(key, blob, aad):
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM
    return AESGCM(key).decrypt(blob[:12], blob[12:], aad)


def hkdf(ikm, info):
    prk = hmac.new(b"\x00" * 32, ikm, hashlib.sha256).digest()  # RFC 5869: empty salt = HashLen zeros
    return hmac.new(prk, info + b"\x01", hashlib.sha256).digest()


def invite_keys(secret13, code, salt, params):
    stretched = kdf(params, secret13.encode(), salt)
    return (hkdf(stretched, ("closer-invite-v1|phrase-key|" + code).encode()),
            hkdf(stretched, ("closer-invite-v1|verifier-key|" + code).encode()))


def tink_handle(keyset_hex):
    import tink
    from tink import secret_key_access
    return tink.proto_keyset_format.parse(bytes.fromhex(keyset_hex), secret_key_access.TOKEN)


def main():
    req = json.load(sys.stdin)
    op = req["op"]
    if op == "jcs-check":  # re-canonicalize Swift's canonical output
        res = [jcs(json.loads(bytes.fromhex(h).decode())).encode().hex() for h in req["items"]]
    elif op == "jcs-generate":  # non-canonical JSON text and its canonical form
        r = random.Random(req["seed"])
        res = []
        for _ in range(req["count"]):
            v = {rand_text(r): rand_value(r) for _ in range(r.randint(0, 6))}
            text = json.dumps(v, ensure_ascii=r.random() < 0.5, indent=r.choice([None, 1]))
            res.append({"text": text.encode("utf-8", "surrogatepass").hex(), "canonical": jcs(v).encode().hex()})
    elif op == "sealed-open":  # decrypt a sealed:v1 payload, check its commitment
        blob = ub64url(req["payload"][len("sealed:v1:"):])
        pt = aesgcm_open(bytes.fromhex(req["key"]), blob, req["aad"].encode())
        res = {"json": pt.hex(), "canonical": jcs(json.loads(pt)) == pt.decode(),
               "commitment": "sha256:" + b64url(hashlib.sha256(pt).digest())}
    elif op == "sealed-seal":
        v = {"v": 1, "coupleId": req["coupleId"], "questionId": req["questionId"], "userId": req["userId"],
             "answer": req["answer"], "nonce": b64url(bytes.fromhex(req["nonce"]))}
        pt = jcs(v).encode()
        aad = "|".join([req["coupleId"], req["questionId"], req["userId"]]).encode()
        blob = aesgcm_seal(bytes.fromhex(req["key"]), bytes.fromhex(req["iv"]), pt, aad)
        res = {"json": pt.hex(), "payload": "sealed:v1:" + b64url(blob),
               "commitment": "sha256:" + b64url(hashlib.sha256(pt).digest())}
    elif op == "wrap":
        key = kdf(req["kdfParams"], req["phrase"].encode(), ub64(req["kdfSalt"]))
        blob = aesgcm_seal(key, bytes.fromhex(req["iv"]), bytes.fromhex(req["keyset"]), b"closer_couple_key")
        res = {"wrappedCoupleKey": b64(blob)}
    elif op == "unwrap":
        key = kdf(req["kdfParams"], req["phrase"].encode(), ub64(req["kdfSalt"]))
        res = {"keyset": aesgcm_open(key, ub64(req["wrappedCoupleKey"]), b"closer_couple_key").hex()}
    elif op == "invite-create":
        pk, vk = invite_keys(req["secret"], req["code"], ub64(req["kdfSalt"]), req["kdfParams"])
        blob = aesgcm_seal(pk, bytes.fromhex(req["iv"]), req["phrase"].encode(), ("closer-invite-phrase-v1|" + req["code"]).encode())
        mac = hmac.new(vk, ("closer-invite-verifier-v1|" + req["code"]).encode(), hashlib.sha256).digest()
        res = {"encryptedPhrase": "invite:v1:" + b64url(blob), "verifier": "verifier:v1:" + b64url(mac),
               "phraseKey": pk.hex(), "verifierKey": vk.hex()}
    elif op == "invite-open":
        pk, vk = invite_keys(req["secret"], req["code"], ub64(req["kdfSalt"]), req["kdfParams"])
        pt = aesgcm_open(pk, ub64url(req["encryptedPhrase"][len("invite:v1:"):]), ("closer-invite-phrase-v1|" + req["code"]).encode())
        mac = hmac.new(vk, ("closer-invite-verifier-v1|" + req["code"]).encode(), hashlib.sha256).digest()
        res = {"phrase": pt.decode(), "verifier": "verifier:v1:" + b64url(mac)}
    elif op == "invite-check":  # the check symbol of 13 data symbols
        d = hashlib.sha256(("closer-invite-check-v1|" + req["secret"]).encode()).digest()
        res = {"check": "0123456789ABCDEFGHJKMNPQRSTVWXYZ"[d[0] >> 3]}
    elif op == "enc-decrypt":  # enc:v1 with python tink
        from tink import aead
        aead.register()
        prim = tink_handle(req["keyset"]).primitive(aead.Aead)
        res = {"plaintext": prim.decrypt(ub64(req["ciphertext"][len("enc:v1:"):]), req["aad"].encode()).hex()}
    elif op == "enc-encrypt":
        from tink import aead
        aead.register()
        prim = tink_handle(req["keyset"]).primitive(aead.Aead)
        res = {"ciphertext": "enc:v1:" + b64(prim.encrypt(bytes.fromhex(req["plaintext"]), req["aad"].encode()))}
    elif op == "keybox-unwrap":  # keybox:v1 with python tink, private keyset given
        from tink import hybrid
        hybrid.register()
        prim = tink_handle(req["privateKeyset"]).primitive(hybrid.HybridDecrypt)
        res = {"key": prim.decrypt(ub64url(req["keybox"][len("keybox:v1:"):]), req["context"].encode()).hex()}
    elif op == "keybox-wrap":  # wrap to a pub:v1 string
        import tink
        from tink import hybrid
        hybrid.register()
        pub = tink.proto_keyset_format.parse_without_secret(ub64url(req["publicKey"][len("pub:v1:"):]))
        ct = pub.primitive(hybrid.HybridEncrypt).encrypt(bytes.fromhex(req["key"]), req["context"].encode())
        res = {"keybox": "keybox:v1:" + b64url(ct)}
    elif op == "ecies-new":  # a fresh ECIES keyset: private (hex) and pub:v1
        import tink
        from tink import hybrid, secret_key_access
        hybrid.register()
        h = tink.new_keyset_handle(hybrid.hybrid_key_templates.ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM)
        res = {"privateKeyset": tink.proto_keyset_format.serialize(h, secret_key_access.TOKEN).hex(),
               "publicKey": "pub:v1:" + b64url(tink.proto_keyset_format.serialize_without_secret(h.public_keyset_handle()))}
    else:
        raise SystemExit("unknown op " + op)
    json.dump(res, sys.stdout)


if __name__ == "__main__":
    main()
