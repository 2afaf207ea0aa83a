#!/usr/bin/env python3
"""Generates Vectors/tink-aead.json and Vectors/tink-hybrid.json independently of the Swift code.

Ciphertexts are computed with `cryptography` (AES-GCM, ECDH, HKDF) from fixed keys, IVs and
ephemeral scalars; keysets are built with Tink's own protobuf classes (tink.proto), with P-256
values written as Java Tink writes them (33 bytes, leading zero). Every vector is then checked
by decrypting it with Python Tink (C++ Tink underneath). Run from this directory:

    python3 make_tink_vectors.py ../Vectors
"""
import hashlib
import importlib.metadata
import json
import sys

import tink
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from tink import aead, cleartext_keyset_handle, hybrid
from tink.proto import aes_gcm_pb2, common_pb2, ecies_aead_hkdf_pb2, tink_pb2

aead.register()
hybrid.register()

PREFIX_TYPES = {"TINK": tink_pb2.TINK, "LEGACY": tink_pb2.LEGACY, "RAW": tink_pb2.RAW, "CRUNCHY": tink_pb2.CRUNCHY}


def prefix(kind, key_id):
    if kind == "RAW":
        return b""
    return (b"\x01" if kind == "TINK" else b"\x00") + key_id.to_bytes(4, "big")


def keyset_bytes(keys, primary):
    ks = tink_pb2.Keyset(primary_key_id=primary)
    for type_url, value, material, key_id, kind, status in keys:
        k = ks.key.add()
        k.key_data.type_url = type_url
        k.key_data.value = value
        k.key_data.key_material_type = material
        k.status = status
        k.key_id = key_id
        k.output_prefix_type = PREFIX_TYPES[kind]
    return ks.SerializeToString()


def handle(serialized):
    return cleartext_keyset_handle.read(tink.BinaryKeysetReader(serialized))


def aes_key_data(key):
    return aes_gcm_pb2.AesGcmKey(version=0, key_value=key).SerializeToString()


def aead_vectors():
    cases = []
    specs = [
        ("tink-kat", bytes(range(32)), 0x01020304, "TINK", bytes(range(12)), b"hello", b"ad"),
        ("raw", bytes(range(32, 64)), 0x7FFFFFFF, "RAW", bytes(range(100, 112)), b"", b""),
        ("legacy", hashlib.sha256(b"legacy").digest(), 0x80000001, "LEGACY", b"\xff" * 12, b"kindred legacy", b""),
        ("crunchy-aes128", hashlib.sha256(b"aes128").digest()[:16], 42, "CRUNCHY", bytes(12), b"sixteen byte key", b"aad"),
        ("tink-long", hashlib.sha256(b"long").digest(), 1, "TINK", bytes(range(12, 24)), bytes(range(256)) * 3, b"x" * 40),
    ]
    for name, key, key_id, kind, iv, pt, ad in specs:
        ct = prefix(kind, key_id) + iv + AESGCM(key).encrypt(iv, pt, ad)
        ks = keyset_bytes([("type.googleapis.com/google.crypto.tink.AesGcmKey", aes_key_data(key),
                            tink_pb2.KeyData.SYMMETRIC, key_id, kind, tink_pb2.ENABLED)], key_id)
        assert handle(ks).primitive(aead.Aead).decrypt(ct, ad) == pt, name
        cases.append({"name": name, "key": key.hex(), "keyID": key_id, "outputPrefixType": kind, "iv": iv.hex(),
                      "plaintext": pt.hex(), "associatedData": ad.hex(), "ciphertext": ct.hex(), "keyset": ks.hex()})
    return {"source": "make_tink_vectors.py (cryptography AESGCM; checked by Python tink " + importlib.metadata.version("tink") + ")",
            "cases": cases}


def scalar(label):
    n = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
    return int.from_bytes(hashlib.sha256(label).digest(), "big") % n


def point(d):
    pub = ec.derive_private_key(d, ec.SECP256R1()).public_key().public_numbers()
    return pub.x, pub.y


def ecies_params(salt=b"", dem_key_size=16):
    return ecies_aead_hkdf_pb2.EciesAeadHkdfParams(
        kem_params=ecies_aead_hkdf_pb2.EciesHkdfKemParams(curve_type=common_pb2.NIST_P256,
                                                          hkdf_hash_type=common_pb2.SHA256, hkdf_salt=salt),
        dem_params=ecies_aead_hkdf_pb2.EciesAeadDemParams(aead_dem=tink_pb2.KeyTemplate(
            type_url="type.googleapis.com/google.crypto.tink.AesGcmKey",
            value=aes_gcm_pb2.AesGcmKeyFormat(key_size=dem_key_size).SerializeToString(),
            output_prefix_type=tink_pb2.TINK)),
        ec_point_format=common_pb2.UNCOMPRESSED)


def ecies_keys(d, width, salt=b"", dem_key_size=16):
    x, y = point(d)
    pub = ecies_aead_hkdf_pb2.EciesAeadHkdfPublicKey(version=0, params=ecies_params(salt, dem_key_size),
                                                     x=x.to_bytes(width, "big"), y=y.to_bytes(width, "big"))
    priv = ecies_aead_hkdf_pb2.EciesAeadHkdfPrivateKey(version=0, public_key=pub, key_value=d.to_bytes(width, "big"))
    return priv.SerializeToString(), pub.SerializeToString()


def ecies_encrypt(d_recipient, d_ephemeral, iv, pt, info, salt=b"", dem_key_size=16):
    eph = ec.derive_private_key(d_ephemeral, ec.SECP256R1())
    rx, ry = point(d_recipient)
    recipient = ec.EllipticCurvePublicNumbers(rx, ry, ec.SECP256R1()).public_key()
    shared = eph.exchange(ec.ECDH(), recipient)
    kem = b"\x04" + eph.public_key().public_numbers().x.to_bytes(32, "big") + \
        eph.public_key().public_numbers().y.to_bytes(32, "big")
    dem_key = HKDF(algorithm=hashes.SHA256(), length=dem_key_size, salt=salt or None, info=info).derive(kem + shared)
    return kem + iv + AESGCM(dem_key).encrypt(iv, pt, b""), dem_key


def hybrid_vectors():
    template = hybrid.hybrid_key_templates.ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM
    cases = []
    specs = [
        ("tink-kat", b"kindred recipient 1", b"kindred ephemeral 1", 0x01020304, "TINK", bytes(range(12)),
         b"hello", b"context", b"", 16),
        ("raw", b"kindred recipient 2", b"kindred ephemeral 2", 0x00000005, "RAW", b"\x00" * 12, b"", b"", b"", 16),
        ("legacy-salt-aes256", b"kindred recipient 3", b"kindred ephemeral 3", 0xFFFFFFFF, "LEGACY", b"\xab" * 12,
         b"salted, 256-bit DEM", b"info", b"some salt", 32),
    ]
    for name, rlabel, elabel, key_id, kind, iv, pt, info, salt, dem in specs:
        d, e = scalar(rlabel), scalar(elabel)
        body, dem_key = ecies_encrypt(d, e, iv, pt, info, salt, dem)
        ct = prefix(kind, key_id) + body
        priv33, pub33 = ecies_keys(d, 33, salt, dem)
        priv32, _ = ecies_keys(d, 32, salt, dem)
        private_keyset = keyset_bytes([("type.googleapis.com/google.crypto.tink.EciesAeadHkdfPrivateKey", priv33,
                                        tink_pb2.KeyData.ASYMMETRIC_PRIVATE, key_id, kind, tink_pb2.ENABLED)], key_id)
        private_keyset32 = keyset_bytes([("type.googleapis.com/google.crypto.tink.EciesAeadHkdfPrivateKey", priv32,
                                          tink_pb2.KeyData.ASYMMETRIC_PRIVATE, key_id, kind, tink_pb2.ENABLED)], key_id)
        public_keyset = keyset_bytes([("type.googleapis.com/google.crypto.tink.EciesAeadHkdfPublicKey", pub33,
                                       tink_pb2.KeyData.ASYMMETRIC_PUBLIC, key_id, kind, tink_pb2.ENABLED)], key_id)
        for ks in (private_keyset, private_keyset32):
            assert handle(ks).primitive(hybrid.HybridDecrypt).decrypt(ct, info) == pt, name
        x, y = point(d)
        cases.append({"name": name, "recipientScalar": d.to_bytes(32, "big").hex(),
                      "recipientX": x.to_bytes(32, "big").hex(), "recipientY": y.to_bytes(32, "big").hex(),
                      "ephemeralScalar": e.to_bytes(32, "big").hex(), "keyID": key_id, "outputPrefixType": kind,
                      "hkdfSalt": salt.hex(), "demKeySize": dem, "iv": iv.hex(), "plaintext": pt.hex(),
                      "contextInfo": info.hex(), "demKey": dem_key.hex(), "ciphertext": ct.hex(),
                      "privateKeyset": private_keyset.hex(), "privateKeyset32": private_keyset32.hex(),
                      "publicKeyset": public_keyset.hex()})
    return {"source": "make_tink_vectors.py (cryptography ECDH/HKDF/AESGCM; checked by Python tink " +
                      importlib.metadata.version("tink") + ")",
            "templateTypeURL": template.type_url, "templateValue": template.value.hex(),
            "paramsSerialized": ecies_params().SerializeToString().hex(), "cases": cases}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    for name, data in (("tink-aead", aead_vectors()), ("tink-hybrid", hybrid_vectors())):
        with open(f"{out}/{name}.json", "w") as f:
            json.dump(data, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
