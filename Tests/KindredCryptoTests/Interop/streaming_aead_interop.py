#!/usr/bin/env python3
"""Python tink peer for KindredCrypto's streaming AEAD interop tests.

Usage:
  streaming_aead_interop.py check
  streaming_aead_interop.py new-keyset KEYSET_OUT
  streaming_aead_interop.py encrypt KEYSET AAD_HEX IN OUT
  streaming_aead_interop.py decrypt KEYSET AAD_HEX IN OUT
  streaming_aead_interop.py describe KEYSET

Keysets are Tink binary keysets (what BinaryKeysetWriter writes). Files are streamed in
64 KiB chunks. Exit status 0 on success; 1 with a message on stderr on failure; 3 when
the `tink` module is missing.
"""
import json
import sys

try:
    import tink
    from tink import proto_keyset_format, secret_key_access, streaming_aead
    from tink.proto import aes_gcm_hkdf_streaming_pb2, tink_pb2
except ImportError as error:  # pragma: no cover - reported to the Swift test
    print(f"python tink is not installed: {error}", file=sys.stderr)
    sys.exit(3)

CHUNK = 1 << 16


def load(path):
    with open(path, "rb") as f:
        return proto_keyset_format.parse(f.read(), secret_key_access.TOKEN)


def primitive(path):
    return load(path).primitive(streaming_aead.StreamingAead)


def main(argv):
    streaming_aead.register()
    command = argv[1] if len(argv) > 1 else ""
    if command == "check":
        print("ok")
    elif command == "new-keyset":
        handle = tink.new_keyset_handle(streaming_aead.streaming_aead_key_templates.AES256_GCM_HKDF_1MB)
        with open(argv[2], "wb") as f:
            f.write(proto_keyset_format.serialize(handle, secret_key_access.TOKEN))
    elif command == "encrypt":
        aead = primitive(argv[2])
        aad = bytes.fromhex(argv[3])
        with open(argv[4], "rb") as src, open(argv[5], "wb") as dst:
            with aead.new_encrypting_stream(dst, aad) as stream:
                while chunk := src.read(CHUNK):
                    stream.write(chunk)
    elif command == "decrypt":
        aead = primitive(argv[2])
        aad = bytes.fromhex(argv[3])
        with open(argv[4], "rb") as src, open(argv[5], "wb") as dst:
            with aead.new_decrypting_stream(src, aad) as stream:
                while chunk := stream.read(CHUNK):
                    dst.write(chunk)
    elif command == "describe":
        # Reads the keyset with tink (which validates every key) and prints its key parameters.
        handle = load(argv[2])
        with open(argv[2], "rb") as f:
            keyset = tink_pb2.Keyset.FromString(f.read())
        keys = []
        for key in keyset.key:
            proto = aes_gcm_hkdf_streaming_pb2.AesGcmHkdfStreamingKey.FromString(key.key_data.value)
            keys.append({
                "key_id": key.key_id,
                "type_url": key.key_data.type_url,
                "output_prefix_type": tink_pb2.OutputPrefixType.Name(key.output_prefix_type),
                "status": tink_pb2.KeyStatusType.Name(key.status),
                "ciphertext_segment_size": proto.params.ciphertext_segment_size,
                "derived_key_size": proto.params.derived_key_size,
                "hkdf_hash_type": proto.params.hkdf_hash_type,
                "key_value_size": len(proto.key_value),
            })
        print(json.dumps({"primary_key_id": handle.keyset_info().primary_key_id, "keys": keys}))
    else:
        print(__doc__, file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv))
    except tink.TinkError as error:
        print(f"tink error: {error}", file=sys.stderr)
        sys.exit(1)
