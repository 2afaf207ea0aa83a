#!/usr/bin/env python3
"""Python Tink (C++ Tink underneath) as the interop peer of Kindred's Tink tests.

Reads one JSON request on stdin: {"ops": [{"op": NAME, ...hex fields}, ...]} and writes
{"results": [...]} with one object of strings per op, in order. Bytes are lower-case hex. An op
that fails returns {"error": "..."} instead of stopping the batch.

Ops:
  aead-decrypt      keyset, ciphertext, ad                -> plaintext
  aead-encrypt      keyset, plaintext, ad                 -> ciphertext
  aead-generate     plaintext, ad                         -> keyset (TINK key, then RAW primary),
                                                             ciphertext_tink, ciphertext_raw
  keyset-rewrite    keyset                                -> keyset (read, then written by Python)
  hybrid-generate                                         -> private_keyset (template ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM)
  hybrid-public     private_keyset                        -> public_keyset
  hybrid-encrypt    public_keyset, plaintext, context     -> ciphertext
  hybrid-decrypt    private_keyset, ciphertext, context   -> plaintext
  hybrid-template                                         -> type_url, value, output_prefix_type
"""
import io
import json
import sys

import tink
from tink import aead, cleartext_keyset_handle, hybrid
from tink.proto import tink_pb2

aead.register()
hybrid.register()


def read(hex_keyset):
    return cleartext_keyset_handle.read(tink.BinaryKeysetReader(bytes.fromhex(hex_keyset)))


def write(handle):
    out = io.BytesIO()
    cleartext_keyset_handle.write(tink.BinaryKeysetWriter(out), handle)
    return out.getvalue().hex()


def aead_generate(req):
    first = tink.new_keyset_handle(aead.aead_key_templates.AES256_GCM)
    second = tink.new_keyset_handle(aead.aead_key_templates.AES256_GCM_RAW)
    pt, ad = bytes.fromhex(req["plaintext"]), bytes.fromhex(req["ad"])
    cts = [h.primitive(aead.Aead).encrypt(pt, ad).hex() for h in (first, second)]
    merged = tink_pb2.Keyset()
    merged.ParseFromString(bytes.fromhex(write(first)))
    raw = tink_pb2.Keyset()
    raw.ParseFromString(bytes.fromhex(write(second)))
    merged.key.extend(raw.key)
    merged.primary_key_id = raw.primary_key_id
    return {"keyset": merged.SerializeToString().hex(), "ciphertext_tink": cts[0], "ciphertext_raw": cts[1]}


def run(req):
    op = req["op"]
    if op == "aead-decrypt":
        p = read(req["keyset"]).primitive(aead.Aead)
        return {"plaintext": p.decrypt(bytes.fromhex(req["ciphertext"]), bytes.fromhex(req["ad"])).hex()}
    if op == "aead-encrypt":
        p = read(req["keyset"]).primitive(aead.Aead)
        return {"ciphertext": p.encrypt(bytes.fromhex(req["plaintext"]), bytes.fromhex(req["ad"])).hex()}
    if op == "aead-generate":
        return aead_generate(req)
    if op == "keyset-rewrite":
        return {"keyset": write(read(req["keyset"]))}
    if op == "hybrid-generate":
        t = hybrid.hybrid_key_templates.ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM
        return {"private_keyset": write(tink.new_keyset_handle(t))}
    if op == "hybrid-public":
        return {"public_keyset": write(read(req["private_keyset"]).public_keyset_handle())}
    if op == "hybrid-encrypt":
        p = read(req["public_keyset"]).primitive(hybrid.HybridEncrypt)
        return {"ciphertext": p.encrypt(bytes.fromhex(req["plaintext"]), bytes.fromhex(req["context"])).hex()}
    if op == "hybrid-decrypt":
        p = read(req["private_keyset"]).primitive(hybrid.HybridDecrypt)
        return {"plaintext": p.decrypt(bytes.fromhex(req["ciphertext"]), bytes.fromhex(req["context"])).hex()}
    if op == "hybrid-template":
        t = hybrid.hybrid_key_templates.ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM
        return {"type_url": t.type_url, "value": t.value.hex(), "output_prefix_type": str(int(t.output_prefix_type))}
    raise ValueError(f"unknown op {op}")


def main():
    results = []
    for req in json.load(sys.stdin)["ops"]:
        try:
            results.append(run(req))
        except Exception as e:  # reported per op, so the Swift test can assert on it
            results.append({"error": f"{type(e).__name__}: {e}"})
    json.dump({"results": results}, sys.stdout)


if __name__ == "__main__":
    main()
