/// A row of `kindred_users`. Timestamps are milliseconds since 1970.
package struct UserRecord: Codable, Sendable, Equatable {
    package var id: String
    package var app: String
    var isAnonymous: Bool
    var displayName: String?
    package var firstName: String?
    package var lastName: String?
    var photoUrl: String?
    var timeZone: String?
    var locale: String?
    var disabledAt: Int64?
    var createdAt: Int64
    var updatedAt: Int64

    /// Column names, for builders.
    enum Columns {
        static let all = [
            "id", "app", "is_anonymous", "display_name", "first_name", "last_name", "photo_url",
            "time_zone", "locale", "disabled_at", "created_at", "updated_at",
        ]
    }
}

/// A row of `kindred_credentials`: one sign-in method of one account.
struct CredentialRecord: Codable, Sendable, Equatable {
    var id: String
    var userId: String
    var app: String
    /// An `AppConfiguration.AuthProvider` raw value: `password`, `apple` or `google`.
    var provider: String
    /// The normalised e-mail (password) or the provider's `sub`.
    var subject: String
    /// The address, only when the app stores e-mail addresses.
    var email: String?
    /// The Argon2id PHC string (password only).
    var passwordHash: String?
    var createdAt: Int64
}

/// The account a bearer token authenticates, loaded with its session in one query.
package struct AuthenticatedUser: Sendable {
    /// The account.
    package var user: UserRecord
    /// The session the token belongs to.
    package var sessionID: String

    /// The account's id.
    package var id: String { user.id }
    /// The account's app (`closer`, …).
    package var app: String { user.app }
}
