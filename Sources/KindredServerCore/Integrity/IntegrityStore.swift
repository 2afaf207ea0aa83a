import DeviceIntegrity
import Foundation
import KindredStore
import SQLKit

/// The stored App Attest keys and verdicts.
package struct IntegrityStore: Sendable {
    let database: Database
    let clock: any WallClock

    /// Creates the store on `database`, stamping records with `clock`.
    package init(database: Database, clock: any WallClock) {
        self.database = database
        self.clock = clock
    }

    /// Stores an attested key for `userID` and `app`.
    /// - Throws: 409 `integrity_key_in_use` when the key id is already registered.
    func insertKey(_ key: AppAttestKey, device: String, userID: String, app: AppID, environment: String) async throws {
        let now = clock.now().millisecondsSince1970
        let inserted = try await database.sql.raw("""
            INSERT INTO kindred_integrity_keys (key_id, user_id, app, environment, public_key, counter, receipt, created_at, updated_at)
            VALUES (\(bind: device), \(bind: userID), \(bind: app.rawValue), \(bind: environment),
            \(bind: Data(key.publicKey).base64EncodedString()), \(bind: Int64(key.counter)),
            \(bind: Data(key.receipt).base64EncodedString()), \(bind: now), \(bind: now))
            ON CONFLICT (key_id) DO NOTHING RETURNING key_id
            """).all()
        guard !inserted.isEmpty else { throw KindredError.integrityKeyInUse }
    }

    /// The key `device` of `userID` and `app`, or nil (another user's key is nil too).
    func key(device: String, userID: String, app: AppID) async throws -> AppAttestKey? {
        guard let row = try await database.sql.select().columns("public_key", "counter", "receipt")
            .from("kindred_integrity_keys")
            .where("key_id", .equal, device).where("user_id", .equal, userID).where("app", .equal, app.rawValue)
            .first()
        else { return nil }
        guard let keyID = Data(base64Encoded: device),
            let publicKey = Data(base64Encoded: try row.decode(column: "public_key", as: String.self)),
            let receipt = Data(base64Encoded: try row.decode(column: "receipt", as: String.self)),
            let counter = UInt32(exactly: try row.decode(column: "counter", as: Int64.self))
        else { throw KindredError.internal }
        return AppAttestKey(keyID: Array(keyID), publicKey: Array(publicKey), counter: counter, receipt: Array(receipt))
    }

    /// Moves the key's counter to `counter` if it is still below it.
    /// - Returns: false when a concurrent assertion already moved it as far (a replay).
    func advanceCounter(device: String, userID: String, to counter: UInt32) async throws -> Bool {
        let updated = try await database.sql.raw("""
            UPDATE kindred_integrity_keys SET counter = \(bind: Int64(counter)), updated_at = \(bind: clock.now().millisecondsSince1970)
            WHERE key_id = \(bind: device) AND user_id = \(bind: userID) AND counter < \(bind: Int64(counter))
            RETURNING key_id
            """).all()
        return !updated.isEmpty
    }

    /// Records a verdict and returns it.
    @discardableResult
    func record(
        _ verdict: DeviceVerdict, userID: String, app: AppID, device: String, platform: IntegrityPlatform
    ) async throws -> IntegrityVerdictRecord {
        let id = RandomID.make()
        let reason: String? = if case .failed(let why) = verdict { String(why.prefix(500)) } else { nil }
        try await database.sql.insert(into: "kindred_integrity_verdicts")
            .columns("id", "user_id", "app", "device", "platform", "verdict", "reason", "created_at")
            .values(
                SQLBind(id), SQLBind(userID), SQLBind(app.rawValue), SQLBind(device), SQLBind(platform.rawValue),
                SQLBind(verdict.name), SQLBind(reason), SQLBind(clock.now().millisecondsSince1970)
            )
            .run()
        guard let row = try await database.sql.select().column("*").from("kindred_integrity_verdicts")
            .where("id", .equal, id).first()
        else { throw KindredError.internal }
        return try IntegrityVerdictRecord(row: row)
    }

    /// The device's verdict: the newest record's, `missing` when there is none or a pass is older
    /// than `lifetime`.
    func currentVerdict(userID: String, app: AppID, device: String, lifetime: Duration) async throws -> DeviceVerdict {
        guard let row = try await database.sql.select().columns("verdict", "reason", "created_at")
            .from("kindred_integrity_verdicts")
            .where("user_id", .equal, userID).where("app", .equal, app.rawValue).where("device", .equal, device)
            // Within one millisecond a failure outranks a pass ("failed" sorts first).
            .orderBy("created_at", .descending).orderBy("verdict", .ascending).limit(1).first()
        else { return .missing }
        let created = try row.decode(column: "created_at", as: Int64.self)
        switch try row.decode(column: "verdict", as: String.self) {
        case "passed":
            let age = clock.now().millisecondsSince1970 - created
            return age <= lifetime.integrityMilliseconds ? .passed : .missing
        default:
            return .failed(reason: try row.decode(column: "reason", as: String?.self) ?? "failed")
        }
    }

    /// Recorded verdicts, newest first, of one user or of everyone.
    package func verdicts(userID: String?, limit: Int) async throws -> [IntegrityVerdictRecord] {
        var query = database.sql.select().column("*").from("kindred_integrity_verdicts")
        if let userID { query = query.where("user_id", .equal, userID) }
        return try await query.orderBy("created_at", .descending).orderBy("id", .descending).limit(limit).all()
            .map { try IntegrityVerdictRecord(row: $0) }
    }
}
