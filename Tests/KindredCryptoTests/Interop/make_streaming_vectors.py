#!/usr/bin/env python3
"""Writes Vectors/tink-streaming.json: known-answer vectors for AES-GCM-HKDF streaming AEAD.

Each ciphertext is computed here by an independent implementation of the format (HKDF and
AES-GCM from the `cryptography` package, following docs/wire-formats.md) with a
fixed salt and nonce prefix, and then checked by decrypting it with Python tink. Run:

  python3 Tests/KindredCryptoTests/Interop/make_streaming_vectors.py > Tests/KindredCryptoTests/Vectors/tink-streaming.json
"""
import hashlib
import io
import json
import sys

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
import tink
from tink import proto_keyset_format, secret_key_access, streaming_aead
from tink.proto import aes_gcm_hkdf_streaming_pb2, common_pb2, tink_pb2

TYPE_URL = "type.googleapis.com/google.crypto.tink.AesGcmHkdfStreamingKey"
HASHES = {"SHA1": (hashes.SHA1, common_pb2.SHA1), "SHA256": (hashes.SHA256, common_pb2.SHA256),
          "SHA512": (hashes.SHA512, common_pb2.SHA512)}
HEX_LIMIT = 4096  # longer plaintexts and ciphertexts are given by pattern and SHA-256


def pattern(length):
    """The test plaintext of a given length: byte i is i mod 251."""
    return bytes(i % 251 for i in range(length))


def encrypt(key_value, segment_size, derived, hash_name, salt, prefix, aad, plaintext):
    header_length = 1 + derived + 7
    key = HKDF(algorithm=HASHES[hash_name][0](), length=derived, salt=salt, info=aad).derive(key_value)
    chunks, index, capacity = [], 0, segment_size - 16 - header_length
    while len(plaintext) - index > capacity:  # a full segment is never the last unless nothing follows
        chunks.append(plaintext[index:index + capacity])
        index += capacity
        capacity = segment_size - 16
    chunks.append(plaintext[index:])
    out = bytes([header_length]) + salt + prefix
    for number, chunk in enumerate(chunks):
        nonce = prefix + number.to_bytes(4, "big") + bytes([number == len(chunks) - 1])
        out += AESGCM(key).encrypt(nonce, chunk, None)
    return out


def keyset(key_id, key_value, segment_size, derived, hash_name):
    key = aes_gcm_hkdf_streaming_pb2.AesGcmHkdfStreamingKey(
        version=0, key_value=key_value,
        params=aes_gcm_hkdf_streaming_pb2.AesGcmHkdfStreamingParams(
            ciphertext_segment_size=segment_size, derived_key_size=derived, hkdf_hash_type=HASHES[hash_name][1]))
    return tink_pb2.Keyset(primary_key_id=key_id, key=[tink_pb2.Keyset.Key(
        key_data=tink_pb2.KeyData(type_url=TYPE_URL, value=key.SerializeToString(),
                                  key_material_type=tink_pb2.KeyData.SYMMETRIC),
        status=tink_pb2.ENABLED, key_id=key_id, output_prefix_type=tink_pb2.RAW)]).SerializeToString()


def tink_decrypt(keyset_bytes, ciphertext, aad):
    handle = proto_keyset_format.parse(keyset_bytes, secret_key_access.TOKEN)
    aead = handle.primitive(streaming_aead.StreamingAead)
    with aead.new_decrypting_stream(io.BytesIO(ciphertext), aad) as stream:
        return stream.read()


def vector(name, segment_size, derived, hash_name, aad, plaintext_length=None, plaintext=None):
    key_value = bytes(range(derived))
    salt = bytes((0xa0 + i) % 256 for i in range(derived))
    prefix = b"Kindred"
    plaintext = pattern(plaintext_length) if plaintext is None else plaintext
    ciphertext = encrypt(key_value, segment_size, derived, hash_name, salt, prefix, aad, plaintext)
    keyset_bytes = keyset(0x4b494e44, key_value, segment_size, derived, hash_name)
    if tink_decrypt(keyset_bytes, ciphertext, aad) != plaintext:
        sys.exit(f"tink does not decrypt vector {name}")
    small = len(ciphertext) <= HEX_LIMIT
    return {
        "name": name, "keyset_hex": keyset_bytes.hex(), "key_value_hex": key_value.hex(),
        "ciphertext_segment_size": segment_size, "derived_key_size": derived, "hkdf_hash": hash_name,
        "salt_hex": salt.hex(), "nonce_prefix_hex": prefix.hex(), "aad_hex": aad.hex(),
        "plaintext_length": len(plaintext), "plaintext_hex": plaintext.hex() if small else None,
        "ciphertext_length": len(ciphertext), "ciphertext_hex": ciphertext.hex() if small else None,
        "ciphertext_sha256_hex": hashlib.sha256(ciphertext).hexdigest(),
    }


def main():
    streaming_aead.register()
    mib = 1 << 20
    vectors = [
        vector("empty, AES256_GCM_HKDF_1MB", mib, 32, "SHA256", b"", plaintext=b""),
        vector("short, AES256_GCM_HKDF_1MB", mib, 32, "SHA256", b"vault:video:1", plaintext=b"Ex-Eraser keeps no PII."),
        vector("exactly one first segment, AES256_GCM_HKDF_1MB", mib, 32, "SHA256", b"aad", plaintext_length=mib - 56),
        vector("three segments, AES256_GCM_HKDF_1MB", mib, 32, "SHA256", b"aad", plaintext_length=(mib - 56) + (mib - 16) + 4321),
        vector("two full segments, 128-byte segments", 128, 32, "SHA256", b"", plaintext_length=72 + 112),
        vector("four segments, 128-byte segments", 128, 32, "SHA256", b"aad", plaintext_length=300),
        vector("AES-128, HKDF-SHA512, 64-byte segments", 64, 16, "SHA512", b"sha512", plaintext_length=100),
        vector("AES-128, HKDF-SHA1, 4 KiB segments", 4096, 16, "SHA1", b"sha1", plaintext_length=5000),
    ]
    json.dump({"comment": __doc__.strip().splitlines()[0], "plaintext_pattern": "byte i is i mod 251",
               "vectors": vectors}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
