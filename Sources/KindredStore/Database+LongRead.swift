import SQLKit

extension Database {
    /// Runs a long or unbounded read (an operator's page, a search, a listing) off Swift's
    /// cooperative threads: on SQLite its statements run on one reader connection, each on the
    /// readers' own threads, so a slow scan never holds one of the two threads every request
    /// shares (plain `sql` statements run on the caller's thread, right for the short hot reads);
    /// on PostgreSQL it pins one pooled connection, whose I/O is on NIO's event loops already.
    /// - Parameter body: the reads, on the session it is given.
    /// - Returns: what `body` returns.
    /// - Throws: `KindredStoreError.closed`, or what `body` throws.
    public func longRead<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        guard !isClosed.withLockedValue({ $0 }) else { throw KindredStoreError.closed }
        return try await sql.withSession(body)
    }
}
