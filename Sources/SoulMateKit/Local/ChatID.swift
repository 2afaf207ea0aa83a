/// The id of the one chat two partners share: both phones compute the same value.
///
/// `ChatID.make(a, b)` is the two user ids sorted (byte-wise ascending, as Swift's `<` on
/// `String` orders UTF-8) and joined with `_`: `make("u2", "u1") == "u1_u2"`. User ids are
/// 1–64 characters of `A-Z a-z 0-9 -` (Kindred's ids are UUIDs), so the `_` never appears in
/// one and the chat id can be split back. See docs/soulmate-device.md, "Local store".
public enum ChatID {
    /// The separator between the two user ids.
    public static let separator: Character = "_"

    /// The chat id of the two partners `uidA` and `uidB`, in either order.
    /// - Parameters:
    ///   - uidA: one partner's user id.
    ///   - uidB: the other partner's user id.
    /// - Returns: `min(uidA, uidB) + "_" + max(uidA, uidB)`.
    /// - Throws: `SoulMateKitError.invalidInput` for an empty id, an id with a character outside
    ///   `A-Z a-z 0-9 -` or longer than 64, or the same id twice.
    public static func make(_ uidA: String, _ uidB: String) throws(SoulMateKitError) -> String {
        for uid in [uidA, uidB] {
            guard isUserID(uid) else {
                throw .invalidInput("chat id: \"\(uid.prefix(80))\" is not a user id (1–64 of A-Z a-z 0-9 -)")
            }
        }
        guard uidA != uidB else { throw .invalidInput("chat id: a chat needs two different users") }
        return uidA < uidB ? "\(uidA)\(separator)\(uidB)" : "\(uidB)\(separator)\(uidA)"
    }

    /// The two user ids of a chat id made by `make`, in sorted order, or `nil` when `chatID` is not one.
    public static func members(of chatID: String) -> (String, String)? {
        let parts = chatID.split(separator: separator, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let (first, second) = (String(parts[0]), String(parts[1]))
        guard isUserID(first), isUserID(second), first < second else { return nil }
        return (first, second)
    }

    static func isUserID(_ uid: String) -> Bool {
        (1...64).contains(uid.utf8.count) && uid.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D
        }
    }
}
