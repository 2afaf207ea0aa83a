import KindredServerCore
import Foundation
import KindredCrypto
import KindredStore
import SQLKit

/// An operator of the admin console (never an app user).
public struct AdminOperator: Sendable, Equatable, Codable {
    /// The operator's id.
    public var id: String
    /// The normalised (trimmed, lower-cased) e-mail address they log in with.
    public var email: String
    /// When the operator was created.
    public var createdAt: Date
    /// When the operator was disabled, if so (a disabled operator cannot log in).
    public var disabledAt: Date?
}

/// Why an operator could not be created.
public enum AdminOperatorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The e-mail address is malformed.
    case invalidEmail(String)
    /// The password is too short or too long.
    case weakPassword(String)
    /// An operator with this e-mail exists.
    case emailTaken(String)

    /// A one-line description.
    public var description: String {
        switch self {
        case .invalidEmail(let why), .weakPassword(let why): why
        case .emailTaken(let email): "an operator with the e-mail \(email) already exists"
        }
    }
}

/// The operators of the admin console: created from the command line (`kindred admin create`),
/// checked at the console's login. Passwords are Argon2id PHC strings, as accounts' are.
public struct AdminOperators: Sendable {
    let database: Database
    let clock: any WallClock
    let hasher: PasswordHasher

    /// Operators in `database` (which must be migrated), hashing with `parameters`.
    /// - Throws: `KindredCryptoError.invalidParameters` for Argon2id parameters outside RFC 9106.
    public init(database: Database, clock: any WallClock = SystemClock(), parameters: Argon2id.Parameters = .password) throws {
        self.database = database
        self.clock = clock
        hasher = try PasswordHasher(parameters: parameters, maxConcurrent: 2)
    }

    init(database: Database, clock: any WallClock, hasher: PasswordHasher) {
        self.database = database
        self.clock = clock
        self.hasher = hasher
    }

    /// Creates an operator.
    /// - Throws: `AdminOperatorError` for a malformed e-mail, a weak password or a taken e-mail.
    public func create(email rawEmail: String, password: String) async throws -> AdminOperator {
        let email: String
        do {
            email = try AccountInput.email(rawEmail)
            try AccountInput.newPassword(password)
        } catch let error as KindredError {
            if case .refused(_, "weak_password", let message) = error { throw AdminOperatorError.weakPassword(message) }
            throw AdminOperatorError.invalidEmail(error.message)
        }
        let phc = try await hasher.hash(password)
        let now = clock.now().millisecondsSince1970
        let id = RandomID.make()
        let inserted = try await database.transaction { sql in
            let existing = try await sql.select().column("id").from("kindred_admin_operators")
                .where("email", .equal, email).first()
            guard existing == nil else { return false }
            try await sql.insert(into: "kindred_admin_operators")
                .columns("id", "email", "password_hash", "created_at")
                .values(SQLBind(id), SQLBind(email), SQLBind(phc), SQLBind(now))
                .run()
            return true
        }
        guard inserted else { throw AdminOperatorError.emailTaken(email) }
        return AdminOperator(id: id, email: email, createdAt: Date(millisecondsSince1970: now), disabledAt: nil)
    }

    /// Every operator, oldest first.
    public func list() async throws -> [AdminOperator] {
        try await database.sql.select().columns("id", "email", "created_at", "disabled_at")
            .from("kindred_admin_operators").orderBy("created_at").orderBy("id").all()
            .map { row in
                AdminOperator(
                    id: try row.decode(column: "id", as: String.self),
                    email: try row.decode(column: "email", as: String.self),
                    createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)),
                    disabledAt: try row.decode(column: "disabled_at", as: Int64?.self).map(Date.init(millisecondsSince1970:))
                )
            }
    }

    /// Disables an operator (ending their sessions) or enables them again.
    /// - Returns: false when there is no operator with this e-mail.
    public func setDisabled(email rawEmail: String, _ disabled: Bool) async throws -> Bool {
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let now = clock.now().millisecondsSince1970
        return try await database.transaction { sql in
            guard let row = try await sql.select().column("id").from("kindred_admin_operators")
                .where("email", .equal, email).first()
            else { return false }
            let id = try row.decode(column: "id", as: String.self)
            try await sql.update("kindred_admin_operators")
                .set("disabled_at", to: disabled ? SQLBind(now) : SQLBind(Int64?.none))
                .where("id", .equal, id).run()
            if disabled { try await sql.delete(from: "kindred_admin_sessions").where("operator_id", .equal, id).run() }
            return true
        }
    }

    /// The operator whose e-mail and password these are, if enabled; nil otherwise. An unknown
    /// e-mail costs one hash, as a wrong password does.
    func verify(email rawEmail: String, password: String) async throws -> AdminOperator? {
        let email = rawEmail.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let row = try await database.sql.select().columns("id", "email", "password_hash", "created_at", "disabled_at")
            .from("kindred_admin_operators").where("email", .equal, email).first()
        let phc = try row?.decode(column: "password_hash", as: String.self)
        let plausible = !password.isEmpty && password.utf8.count <= 1024
        guard try await hasher.verify(plausible ? password : "", phc: plausible ? phc : nil), let row else { return nil }
        guard try row.decode(column: "disabled_at", as: Int64?.self) == nil else { return nil }
        return AdminOperator(
            id: try row.decode(column: "id", as: String.self), email: email,
            createdAt: Date(millisecondsSince1970: try row.decode(column: "created_at", as: Int64.self)), disabledAt: nil
        )
    }
}
