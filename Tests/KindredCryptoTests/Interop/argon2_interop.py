#!/usr/bin/env python3
"""Argon2id interop peer for the KindredCrypto tests (argon2-cffi, the reference C library).

Usage: argon2_interop.py REQUEST.json  ->  prints a JSON answer on stdout.
A request is {"command": ..., ...}; bytes are lower-case hex:

  check                      -> {"ok": true} if argon2-cffi is importable
  raw    {"cases": [{password, salt, secret, ad, m, t, p, length}]}
                             -> {"tags": [hex, ...]}   Argon2id v=19 tags (hash_secret_raw, or
                                argon2_ctx when a secret or associated data is present)
  phc_hash   {"passwords": [hex], "m", "t", "p", "length", "salt_length"}
                             -> {"phc": [str, ...]}   argon2.PasswordHasher(...).hash
  phc_verify {"items": [{"phc", "password"}]}
                             -> {"results": [bool, ...]}  argon2.PasswordHasher().verify
  blake2b    {"cases": [{message, key, length}]}  -> {"digests": [hex]}  (hashlib)
  hprime     {"cases": [{input, length}]}          -> {"outputs": [hex]}  (RFC 9106 H', hashlib)
"""
import hashlib
import json
import sys


def argon2id_raw(case):
    """Argon2id v=19 tag: hash_secret_raw, or argon2_ctx when a secret or associated data is given."""
    from argon2.low_level import ffi, lib, Type, error_to_str, hash_secret_raw

    if not case.get("secret") and not case.get("ad"):
        return hash_secret_raw(bytes.fromhex(case["password"]), bytes.fromhex(case["salt"]),
                               time_cost=case["t"], memory_cost=case["m"], parallelism=case["p"],
                               hash_len=case["length"], type=Type.ID, version=19).hex()

    def buf(hex_text):
        data = bytes.fromhex(hex_text)
        return ffi.new("uint8_t[]", data or b"\0"), len(data)

    pwd, pwdlen = buf(case["password"])
    salt, saltlen = buf(case["salt"])
    secret, secretlen = buf(case.get("secret", ""))
    ad, adlen = buf(case.get("ad", ""))
    out = ffi.new("uint8_t[]", case["length"])
    ctx = ffi.new("argon2_context *", dict(
        out=out, outlen=case["length"],
        pwd=pwd, pwdlen=pwdlen, salt=salt, saltlen=saltlen,
        secret=secret if secretlen else ffi.NULL, secretlen=secretlen,
        ad=ad if adlen else ffi.NULL, adlen=adlen,
        t_cost=case["t"], m_cost=case["m"], lanes=case["p"], threads=case["p"],
        version=0x13, allocate_cbk=ffi.NULL, free_cbk=ffi.NULL, flags=lib.ARGON2_DEFAULT_FLAGS,
    ))
    rc = lib.argon2_ctx(ctx, Type.ID.value)
    if rc != lib.ARGON2_OK:
        raise SystemExit("argon2_ctx failed: " + error_to_str(rc))
    return bytes(ffi.buffer(out, case["length"])).hex()


def hprime(data, length):
    """RFC 9106 §3.3 H', written from the RFC text."""
    prefix = length.to_bytes(4, "little")
    if length <= 64:
        return hashlib.blake2b(prefix + data, digest_size=length).digest()
    r = (length + 31) // 32 - 2
    v = hashlib.blake2b(prefix + data, digest_size=64).digest()
    out = v[:32]
    for _ in range(1, r):
        v = hashlib.blake2b(v, digest_size=64).digest()
        out += v[:32]
    return out + hashlib.blake2b(v, digest_size=length - 32 * r).digest()


def main():
    with open(sys.argv[1]) as f:
        request = json.load(f)
    command = request["command"]
    if command == "check":
        import argon2  # noqa: F401
        answer = {"ok": True}
    elif command == "raw":
        answer = {"tags": [argon2id_raw(c) for c in request["cases"]]}
    elif command == "phc_hash":
        from argon2 import PasswordHasher, Type
        hasher = PasswordHasher(time_cost=request["t"], memory_cost=request["m"], parallelism=request["p"],
                                hash_len=request["length"], salt_len=request["salt_length"], type=Type.ID)
        answer = {"phc": [hasher.hash(bytes.fromhex(p)) for p in request["passwords"]]}
    elif command == "phc_verify":
        from argon2 import PasswordHasher
        from argon2.exceptions import VerificationError, InvalidHashError
        results = []
        for item in request["items"]:
            try:
                results.append(PasswordHasher().verify(item["phc"], bytes.fromhex(item["password"])))
            except (VerificationError, InvalidHashError):
                results.append(False)
        answer = {"results": results}
    elif command == "blake2b":
        answer = {"digests": [hashlib.blake2b(bytes.fromhex(c["message"]), key=bytes.fromhex(c["key"]),
                                              digest_size=c["length"]).hexdigest() for c in request["cases"]]}
    elif command == "hprime":
        answer = {"outputs": [hprime(bytes.fromhex(c["input"]), c["length"]).hex() for c in request["cases"]]}
    else:
        raise SystemExit("unknown command " + command)
    json.dump(answer, sys.stdout)


if __name__ == "__main__":
    main()
