#!/usr/bin/env python3
"""Writes Vectors/argon2id.json and Vectors/blake2b.json from independent implementations:
argon2-cffi (the reference C library) for Argon2id and PHC strings, Python's hashlib for BLAKE2b
and for H' (written from RFC 9106 §3.3). Deterministic (seeded salts and passwords).

Run from the repository root: python3 Tests/KindredCryptoTests/Interop/make_argon2_vectors.py
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from argon2_interop import argon2id_raw, hprime  # noqa: E402
import hashlib  # noqa: E402
from argon2 import Type  # noqa: E402
from argon2.low_level import hash_secret  # noqa: E402

VECTORS = os.path.join(os.path.dirname(__file__), "..", "Vectors")
rng = random.Random(20240609)


def rand_hex(n):
    return bytes(rng.randrange(256) for _ in range(n)).hex()


def argon2_vectors():
    rfc = dict(password="01" * 32, salt="02" * 16, secret="03" * 8, ad="04" * 12, m=32, t=3, p=4, length=32)
    rfc["tag"] = argon2id_raw(rfc)
    assert rfc["tag"] == "0d640df58d78766c08c037a34a8b53c9d01ef0452d75b65eb52520e96b01e659"
    cases = []
    for name, (pw, salt, m, t, p, length) in {
        "closer (m=46080, t=3, p=1)": ("password".encode().hex(), "somesaltsalt".encode().hex(), 46080, 3, 1, 32),
        "OWASP password (m=19456, t=2, p=1)": ("correct horse".encode().hex(), "00" * 16, 19456, 2, 1, 32),
    }.items():
        cases.append(dict(name=name, password=pw, salt=salt, secret="", ad="", m=m, t=t, p=p, length=length))
    for i in range(5):
        p = rng.randint(1, 4)
        case = dict(name="random %d" % i, password=rand_hex(rng.randint(0, 40)), salt=rand_hex(rng.randint(8, 32)),
                    secret=rand_hex(rng.choice([0, 8, 32])), ad=rand_hex(rng.choice([0, 5, 12])),
                    m=rng.randint(8 * p, 256), t=rng.randint(1, 4), p=p, length=rng.choice([4, 16, 32, 64, 65, 100]))
        cases.append(case)
    for case in cases:
        case["tag"] = argon2id_raw(case)
    hp = []
    for length in [1, 4, 32, 64, 65, 96, 100, 1024]:
        data = rand_hex(rng.randint(0, 80))
        hp.append(dict(input=data, length=length, output=hprime(bytes.fromhex(data), length).hex()))
    phc = []
    for (m, t, p, length, salt_length) in [(64, 1, 1, 32, 16), (128, 2, 2, 16, 8), (96, 3, 3, 64, 32)]:
        password = rand_hex(12)
        # The encoder PasswordHasher uses, with a seeded salt instead of a random one.
        encoded = hash_secret(bytes.fromhex(password), bytes.fromhex(rand_hex(salt_length)), time_cost=t,
                              memory_cost=m, parallelism=p, hash_len=length, type=Type.ID, version=19)
        phc.append(dict(password=password, phc=encoded.decode()))
    return {"rfc9106": rfc, "cases": cases, "variableHash": hp, "phc": phc}


def blake2b_vectors():
    cases = [dict(message="616263", key="", length=64)]
    for length_msg in [0, 1, 3, 64, 127, 128, 129, 255, 256, 257, 1000]:
        for key_len in [0, 1, 32, 64]:
            for out_len in [1, 20, 32, 64]:
                if rng.random() < 0.35:
                    cases.append(dict(message=rand_hex(length_msg), key=rand_hex(key_len), length=out_len))
    for c in cases:
        c["digest"] = hashlib.blake2b(bytes.fromhex(c["message"]), key=bytes.fromhex(c["key"]),
                                      digest_size=c["length"]).hexdigest()
    return {"cases": cases}


for name, data in [("argon2id", argon2_vectors()), ("blake2b", blake2b_vectors())]:
    with open(os.path.join(VECTORS, name + ".json"), "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    print("wrote", name)
