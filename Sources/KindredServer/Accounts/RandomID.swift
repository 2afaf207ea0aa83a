import KindredCrypto

/// New ids of accounts, sessions and credentials: random UUIDs (version 4), lower-case.
///
/// The randomness comes from `SecureRandom` (`getentropy`); Foundation's `UUID()` opens
/// `/dev/urandom` for every id on Linux, a visible share of a sign-up's time.
enum RandomID {
    /// A new id, e.g. `3f2b8c1e-9d4a-4e7b-8a1c-2b3d4e5f6a7b`.
    static func make() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        let hex = Array(Hex.encode(bytes).utf8)
        var text: [UInt8] = []
        text.reserveCapacity(36)
        for (index, digit) in hex.enumerated() {
            if index == 8 || index == 12 || index == 16 || index == 20 { text.append(UInt8(ascii: "-")) }
            text.append(digit)
        }
        return String(decoding: text, as: UTF8.self)
    }
}
