import KindredCrypto

/// The fixed keys the ciphertext targets decrypt with: the known-answer vectors of
/// `Tests/KindredCryptoTests/Vectors` (so the corpus holds ciphertexts that really open).
enum FuzzFixtures {
    /// `tink-aead.json`, case `tink-kat`: AES-256-GCM, key 00…1f, key id 16909060, TINK prefix.
    static let aeadKeyset = keyset(
        "088486880812630a580a30747970652e676f6f676c65617069732e636f6d2f676f6f676c652e63727970746f2e74696e6b2e41657347636d4b657912221a20000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f1801100118848688082001"
    )
    /// `tink-hybrid.json`, case `tink-kat`: the ECIES P-256 private keyset.
    static let hybridPrivateKeyset = keyset(
        "08848688081283020af7010a3e747970652e676f6f676c65617069732e636f6d2f676f6f676c652e63727970746f2e74696e6b2e456369657341656164486b6466507269766174654b657912b201128c0112440a0408021003123a12380a30747970652e676f6f676c65617069732e636f6d2f676f6f676c652e63727970746f2e74696e6b2e41657347636d4b657912021010180118011a210066dd8b6b0304c9d4a00706cb0f527ed710fc9d984722028c68060c3cc84f6477222100fe45b081bf4329541732ae931b5b834d24136e1e79dfa0e941fb49ad4712338b1a2100d832bd89ec5b8fd7128ef83879f07e9937a15b184220a29291b356772ba150d31802100118848688082001"
    )
    /// `closer.json`, `enc`: the couple key (00…1f, key id 705367053).
    static let coupleKeyset: Keyset? = (try? Hex.decode("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"))
        .flatMap { key in try? Keyset.aes256GCM(key: key, keyID: 705_367_053) }
    /// `closer.json`, `enc`: the couple the field ciphertexts are bound to.
    static let coupleId = "couple-7Hq2"
    /// `soulmate-chat.json`: the pair key Alice and Bob derive.
    static let soulMatePairKey = try? Hex.decode("a3dbee213bbbb0fddd26fe2c904349af7bbe0e15bb61c4b79813b754d971ef6f")

    /// The AEAD of ``aeadKeyset``.
    static let aead: TinkAEAD? = aeadKeyset.flatMap { try? TinkAEAD(keyset: $0) }
    /// The hybrid decryption of ``hybridPrivateKeyset``.
    static let hybridDecrypt: TinkHybridDecrypt? = hybridPrivateKeyset.flatMap { try? TinkHybridDecrypt(privateKeyset: $0) }
    /// The field cipher of ``coupleKeyset``.
    static let fieldCipher: CloserFieldCipher? = coupleKeyset.flatMap { try? CloserFieldCipher(coupleKeyset: $0) }
    /// The SoulMate chat key of ``soulMatePairKey``.
    static let chatKey: SoulMateChatKey? = soulMatePairKey.flatMap { try? SoulMateChatKey(keyBytes: $0) }

    /// A keyset from its serialized hex, nil when it does not parse (a fixture error the targets report).
    private static func keyset(_ hex: String) -> Keyset? {
        guard let bytes = try? Hex.decode(hex) else { return nil }
        return try? Keyset(serialized: bytes)
    }

    /// Throws unless `value` loaded (the fixtures are constants: a nil is a broken fixture, not an input's fault).
    static func loaded<T>(_ value: T?, _ target: String, _ what: String) throws(FuzzFinding) -> T {
        guard let value else { throw FuzzFinding(target: target, message: "fixture \(what) did not load") }
        return value
    }
}
