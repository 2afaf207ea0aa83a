import KindredCrypto

/// New ids of accounts, sessions and credentials: UUIDs in lower case, random (version 4) or,
/// for sessions, time-ordered (version 7).
///
/// The randomness comes from `SecureRandom` (`getentropy`); Foundation's `UUID()` opens
/// `/dev/urandom` for every id on Linux, a visible share of a sign-up's time.
package enum RandomID {
    /// A new id, e.g. `3f2b8c1e-9d4a-4e7b-8a1c-2b3d4e5f6a7b`.
    package static func make() -> String {
        var bytes = SecureRandom.bytes(16)
        bytes[6] = (bytes[6] & 0x0F) | 0x40  // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return format(bytes)
    }

    /// A new time-ordered id (a version-7 UUID, RFC 9562): the first 48 bits are
    /// `milliseconds` since 1970, the other 74 free bits random. Their text sorts in time order,
    /// so each new one goes to the last page of an index on it instead of a random one.
    ///
    /// Only for ids whose creation time their holders already know: a session's id is seen
    /// only by its own devices, whose first access token says when it was issued. Accounts
    /// keep random ids: an account id is shown to a partner and to friends, and must not tell
    /// them when the account was made.
    package static func makeTimeOrdered(milliseconds: Int64) -> String {
        var bytes = SecureRandom.bytes(16)
        let time = UInt64(max(0, min(milliseconds, (1 << 48) - 1)))
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: time >> (40 - 8 * UInt64(index))) }
        bytes[6] = (bytes[6] & 0x0F) | 0x70  // version 7
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 4122 variant
        return format(bytes)
    }

    /// 16 bytes as a lower-case UUID, written into the string's storage: 8-4-4-4-12 hex digits.
    private static func format(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            var index = 0
            for (offset, byte) in bytes.enumerated() {
                if offset == 4 || offset == 6 || offset == 8 || offset == 10 {
                    out[index] = UInt8(ascii: "-")
                    index += 1
                }
                out[index] = Hex.digit(byte >> 4)
                out[index + 1] = Hex.digit(byte & 15)
                index += 2
            }
            return index
        }
    }
}
