import Foundation
import KindredCrypto
import KindredServerCore
import KindredStore
import SoulMateAPI
import SQLKit

/// SoulMate's server side (issue 22, docs/soulmate.md): pair codes and requests, unpairing with
/// consent, the single-device session lock, identity keys, sealed locations and the transient
/// relay. The server relays and deletes ciphertext; it never decrypts. One extension per concern.
struct SoulMateController: Sendable {
    let database: Database
    let clock: any WallClock
    let settings: SoulMateSettings
    let events: SoulMateEvents
    let accounts: AccountsController
    let rateLimiter: RateLimiter

    /// The current time in milliseconds.
    var nowMS: Int64 { clock.now().millisecondsSince1970 }

    /// Refuses callers of other apps.
    static func requireSoulMate(_ user: AuthenticatedUser) throws {
        guard user.user.app == AppID.soulmate.rawValue else { throw KindredError.wrongApp }
    }

    /// The caller's pair membership, if any: the pair's id, the partner and since when.
    struct Membership: Sendable {
        var pairID: String
        var partnerID: String
        var joinedAt: Int64
    }

    /// `userID`'s membership, with `locking` held until the transaction ends (PostgreSQL).
    static func membership(of userID: String, locking: Bool = false, on sql: any SQLDatabase) async throws -> Membership? {
        let statement = locking ? SoulMateQueries.membershipOfLocked : SoulMateQueries.membershipOf
        guard let row = try await sql.first(statement.binding(userID))
        else { return nil }
        return Membership(
            pairID: try row.decode(column: "pair_id", as: String.self),
            partnerID: try row.decode(column: "partner_id", as: String.self),
            joinedAt: try row.decode(column: "joined_at", as: Int64.self)
        )
    }

    /// The API form of a person (names only for the people a request or pair shows).
    func person(_ id: String, names: [String: PersonName]) -> Components.Schemas.SoulMatePerson {
        .init(id: id, firstName: names[id]?.first, lastName: names[id]?.last)
    }

    static func date(_ ms: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(ms) / 1000) }
    static func date(_ ms: Int64?) -> Date? { ms.map(date) }
}

/// Validations of SoulMate's inputs.
enum SoulMateInput {
    /// An installation id: 1–128 of `A-Z a-z 0-9 . - _`.
    static func installationID(_ value: String) throws -> String {
        guard (1...128).contains(value.utf8.count),
              value.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || ".-_".unicodeScalars.contains($0)) })
        else { throw KindredError.invalidInstallation("installationId must be 1 to 128 of A-Z, a-z, 0-9, '.', '-' and '_'") }
        return value
    }

    /// A short visible text field (platform, device name, app version).
    static func label(_ value: String, field: String, max: Int) throws -> String {
        let trimmed = value.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= max,
              !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw KindredError.invalidInstallation("\(field) must be 1 to \(max) characters without control characters") }
        return trimmed
    }

    /// A message or request id: 1–64 of `A-Z a-z 0-9 - _`.
    static func isID(_ value: String) -> Bool {
        (1...64).contains(value.utf8.count)
            && value.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_") }
    }

    /// Decoded length of standard Base64 (with padding), or nil when it is not Base64
    /// (KindredCrypto's decoder, the one the envelopes are read with on the phones).
    static func base64Length(_ value: String) -> Int? {
        (try? Base64.decode(value, alphabet: .standard))?.count
    }
}
