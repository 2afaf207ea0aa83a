import SQLKit

// Column-by-column decoding of the rows read on every authenticated request: SQLKit's model
// decoding with a key strategy converts each key's case on every row.

extension UserRecord {
    /// Decodes the user columns (`UserRecord.Columns.all`) of a row.
    init(row: some SQLRow) throws {
        self.init(
            id: try row.decode(column: "id", as: String.self),
            app: try row.decode(column: "app", as: String.self),
            isAnonymous: try row.decode(column: "is_anonymous", as: Bool.self),
            displayName: try row.decode(column: "display_name", as: String?.self),
            firstName: try row.decode(column: "first_name", as: String?.self),
            lastName: try row.decode(column: "last_name", as: String?.self),
            photoUrl: try row.decode(column: "photo_url", as: String?.self),
            timeZone: try row.decode(column: "time_zone", as: String?.self),
            locale: try row.decode(column: "locale", as: String?.self),
            disabledAt: try row.decode(column: "disabled_at", as: Int64?.self),
            createdAt: try row.decode(column: "created_at", as: Int64.self),
            updatedAt: try row.decode(column: "updated_at", as: Int64.self)
        )
    }
}

extension CredentialRecord {
    /// The credential columns of a join, aliased `credential_*` (table alias `c`).
    static let joinedColumns = ["id", "app", "provider", "subject", "email", "password_hash", "created_at"]
        .map { "c.\($0) AS credential_\($0)" }.joined(separator: ", ")

    /// Decodes the `joinedColumns` of a row joined to `user`'s; nil when the left join found none.
    init?(joinedRow row: some SQLRow, user: UserRecord) throws {
        guard let id = try row.decode(column: "credential_id", as: String?.self) else { return nil }
        self.init(
            id: id, userId: user.id, app: try row.decode(column: "credential_app", as: String.self),
            provider: try row.decode(column: "credential_provider", as: String.self),
            subject: try row.decode(column: "credential_subject", as: String.self),
            email: try row.decode(column: "credential_email", as: String?.self),
            passwordHash: try row.decode(column: "credential_password_hash", as: String?.self),
            createdAt: try row.decode(column: "credential_created_at", as: Int64.self)
        )
    }
}
