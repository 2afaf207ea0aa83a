import SQLKit

extension Database {
    /// The key of the PostgreSQL advisory lock migrations hold ("kindred" in ASCII).
    static let migrationLockKey: Int64 = 0x6B69_6E64_7265_64

    /// Runs `body` on one pinned connection while holding the database-wide migration lock,
    /// so servers starting together migrate one after the other.
    ///
    /// PostgreSQL takes a session advisory lock; SQLite needs none, because each migration's
    /// `BEGIN IMMEDIATE` already takes the file's write lock and re-checks the record inside it.
    /// - Parameter body: the work, given the pinned session and the statement that begins a
    ///   transaction on it.
    func withMigrationLock<T: Sendable>(
        _ body: @escaping @Sendable (_ session: any SQLDatabase, _ begin: String) async throws -> T
    ) async throws -> T {
        guard !isClosed.withLockedValue({ $0 }) else { throw KindredStoreError.closed }
        let begin = beginStatement
        let locks: Bool
        switch pool {
        case .postgres: locks = true
        case .sqlite: locks = false
        }
        return try await sql.withSession { session in
            guard locks else { return try await body(session, begin) }
            try await session.raw("SELECT pg_advisory_lock(\(bind: Self.migrationLockKey))").run()
            let result: T
            do {
                result = try await body(session, begin)
            } catch {
                try? await session.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
                throw error
            }
            try await session.raw("SELECT pg_advisory_unlock(\(bind: Self.migrationLockKey))").run()
            return result
        }
    }
}
