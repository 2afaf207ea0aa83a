import CKindredSQLite
import NIOConcurrencyHelpers
import NIOCore
import SQLiteNIO
import VaporCSQLite

/// One open SQLite connection on the C library SQLiteNIO bundles, keeping its prepared statements.
///
/// SQLiteNIO prepares every statement anew and finalizes it afterwards: parsing and planning were
/// about 12 % of `GET /v1/me`'s CPU. Here each distinct SQL text is prepared once per connection
/// (`SQLITE_PREPARE_PERSISTENT`) and reset after each use; a schema change re-prepares a cached
/// statement inside `sqlite3_step` on its own. The connection runs with the query planner
/// stability guarantee (`SQLITE_DBCONFIG_ENABLE_QPSG`): without it a statement whose plan had
/// looked at a bound value was re-prepared at every run (a tenth of `GET /v1/me`'s CPU). At most `statementCapacity` statements are kept,
/// the least recently used one finalized first.
///
/// The pool lends a handle to one borrower at a time; a lock still serializes the calls (one
/// uncontended lock per statement), because a borrower may run statements of one session
/// concurrently, on two threads, and two runs must never share a kept statement or the cache at
/// once. Since that lock already keeps every call on the connection to one thread at a time, the
/// connection is opened without SQLite's own mutex (`SQLITE_OPEN_NOMUTEX`, SQLite's
/// "multi-thread" mode), which every `bind`, `step` and `column_*` call otherwise locks and
/// unlocks.
///
/// Kept statements are found by their text's hash, worked out once per `SQLiteSQL` (once per
/// program for a `StatementText`): the text of a join is hundreds of characters, and it was
/// hashed three times per run.
final class SQLiteHandle: @unchecked Sendable {
    /// How many prepared statements one connection keeps.
    static let statementCapacity = 256

    private let lock = NIOLock()
    private var raw: OpaquePointer?
    private var statements: [SQLiteSQL: CachedStatement] = [:]
    private var uses: UInt64 = 0

    /// A kept statement (a class, so one lookup finds it for reading and updating).
    private final class CachedStatement {
        let pointer: OpaquePointer
        var columns: SQLiteColumns
        /// SQLite's count of this statement's re-preparations when `columns` were read.
        var reprepares: Int32
        var lastUse: UInt64

        init(pointer: OpaquePointer, columns: SQLiteColumns, reprepares: Int32, lastUse: UInt64) {
            self.pointer = pointer
            self.columns = columns
            self.reprepares = reprepares
            self.lastUse = lastUse
        }
    }

    private static let initialized = NIOLockedValueBox(false)

    /// Opens `path` (`:memory:` for a private in-memory database) for reading and writing,
    /// creating the file if needed. Call it on the thread pool.
    /// - Throws: `KindredStoreError.connectionFailed`.
    init(path: String) throws(KindredStoreError) {
        // SQLite's global configuration must be initialized once before connections race to it.
        Self.initialized.withLockedValue { done in
            if !done {
                sqlite_nio_sqlite3_initialize()
                done = true
            }
        }
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
            | SQLITE_OPEN_EXRESCODE
        var handle: OpaquePointer?
        let code = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? Self.describe(code)
            sqlite_nio_sqlite3_close(handle)
            throw .connectionFailed("cannot open \(path): \(message)")
        }
        // Kept statements must not be re-prepared whenever a bound value changes (SQLite does
        // that for statements whose plan looked at a bound value, e.g. a bound LIMIT).
        let stability = kindred_sqlite_enable_qpsg(UnsafeMutableRawPointer(handle))
        guard stability == SQLITE_OK else {
            sqlite_nio_sqlite3_close(handle)
            throw .connectionFailed("cannot configure \(path): \(Self.describe(stability))")
        }
        raw = handle
    }

    /// A handle dropped without `close()` (a database its owner never closed) still releases its
    /// statements and connection.
    deinit {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
        if let raw { sqlite_nio_sqlite3_close(raw) }
    }

    /// Runs the first statement of `sql` with `binds`, calling `onRow` for each row, on the
    /// calling thread.
    /// - Throws: `SQLiteStatementError` from SQLite (the statement is reset and kept), or
    ///   `KindredStoreError.closed` after `close()`.
    func run(_ sql: SQLiteSQL, _ binds: [SQLiteData], _ onRow: (SQLiteResultRow) throws -> Void) throws {
        try lock.withLock { try runLocked(sql, binds, onRow) }
    }

    /// `run` with a text whose hash is worked out for this call.
    func run(_ sql: String, _ binds: [SQLiteData], _ onRow: (SQLiteResultRow) throws -> Void) throws {
        try run(SQLiteSQL(sql), binds, onRow)
    }

    private func runLocked(_ sql: SQLiteSQL, _ binds: [SQLiteData], _ onRow: (SQLiteResultRow) throws -> Void) throws {
        guard let raw else { throw KindredStoreError.closed }
        let cached = try prepared(sql, on: raw)
        let statement = cached.pointer
        var columns = cached.columns
        var columnsChecked = false
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        for (offset, value) in binds.enumerated() {
            try check(Self.bind(value, at: Int32(offset + 1), to: statement), on: raw)
        }
        while true {
            let code = sqlite_nio_sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw SQLiteStatementError(code: code, message: Self.message(raw, code)) }
            if !columnsChecked {
                // A schema change since the last run re-prepared the statement inside `step`: its
                // columns may have changed (`SELECT *` after `ALTER TABLE … ADD COLUMN`).
                columns = refreshedColumns(cached)
                columnsChecked = true
            }
            var values: [SQLiteData] = []
            values.reserveCapacity(columns.names.count)
            for column in 0..<Int32(columns.names.count) {
                values.append(try Self.value(of: statement, at: column))
            }
            try onRow(SQLiteResultRow(columns: columns, values: values))
        }
    }

    /// Finalizes every kept statement and closes the connection. Call it on the thread pool,
    /// once nothing runs on the handle.
    func close() {
        lock.withLock {
            for statement in statements.values { sqlite_nio_sqlite3_finalize(statement.pointer) }
            statements.removeAll()
            sqlite_nio_sqlite3_close(raw)
            raw = nil
        }
    }

    /// How many prepared statements are kept (for tests).
    var cachedStatementCount: Int { lock.withLock { statements.count } }

    /// How many times SQLite re-prepared the kept statement of `sql`, or nil when none is kept
    /// (for tests).
    func reprepareCount(of sql: String) -> Int32? {
        lock.withLock { statements[SQLiteSQL(sql)].map { Self.reprepares(of: $0.pointer) } }
    }

    // MARK: Statements

    private func prepared(_ sql: SQLiteSQL, on raw: OpaquePointer) throws -> CachedStatement {
        uses &+= 1
        if let cached = statements[sql] {
            cached.lastUse = uses
            return cached
        }
        var statement: OpaquePointer?
        let code = sqlite_nio_sqlite3_prepare_v3(raw, sql.text, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteStatementError(code: code, message: Self.message(raw, code))
        }
        let columns = Self.columns(of: statement)
        if statements.count >= Self.statementCapacity, let oldest = statements.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            sqlite_nio_sqlite3_finalize(oldest.value.pointer)
            statements[oldest.key] = nil
        }
        let cached = CachedStatement(
            pointer: statement, columns: columns, reprepares: Self.reprepares(of: statement), lastUse: uses
        )
        statements[sql] = cached
        return cached
    }

    /// The statement's columns, read again if SQLite re-prepared it since they were read.
    private func refreshedColumns(_ cached: CachedStatement) -> SQLiteColumns {
        let count = Self.reprepares(of: cached.pointer)
        guard cached.reprepares != count else { return cached.columns }
        cached.columns = Self.columns(of: cached.pointer)
        cached.reprepares = count
        return cached.columns
    }

    private static func columns(of statement: OpaquePointer) -> SQLiteColumns {
        let count = sqlite_nio_sqlite3_column_count(statement)
        return SQLiteColumns(
            names: (0..<count).map { column in
                sqlite_nio_sqlite3_column_name(statement, column).map { String(cString: $0) } ?? ""
            }
        )
    }

    private static func reprepares(of statement: OpaquePointer) -> Int32 {
        sqlite_nio_sqlite3_stmt_status(statement, SQLITE_STMTSTATUS_REPREPARE, 0)
    }

    private static func bind(_ value: SQLiteData, at index: Int32, to statement: OpaquePointer) -> Int32 {
        switch value {
        case .integer(let integer):
            return sqlite_nio_sqlite3_bind_int64(statement, index, Int64(integer))
        case .float(let double):
            return sqlite_nio_sqlite3_bind_double(statement, index, double)
        case .text(let text):
            var text = text
            return text.withUTF8 { bytes in
                bytes.withMemoryRebound(to: CChar.self) { characters in
                    // An empty text is '', not NULL: SQLite needs a non-nil pointer for it.
                    guard let start = characters.baseAddress, !characters.isEmpty else {
                        return sqlite_nio_sqlite3_bind_text64(statement, index, "", 0, transient, UInt8(SQLITE_UTF8))
                    }
                    return sqlite_nio_sqlite3_bind_text64(
                        statement, index, start, UInt64(characters.count), transient, UInt8(SQLITE_UTF8)
                    )
                }
            }
        case .blob(let buffer):
            return buffer.withUnsafeReadableBytes { bytes in
                // An empty blob is a zero-length blob, not NULL.
                guard let start = bytes.baseAddress, !bytes.isEmpty else {
                    return sqlite_nio_sqlite3_bind_zeroblob(statement, index, 0)
                }
                return sqlite_nio_sqlite3_bind_blob64(statement, index, start, UInt64(bytes.count), transient)
            }
        case .null:
            return sqlite_nio_sqlite3_bind_null(statement, index)
        }
    }

    private static func value(of statement: OpaquePointer, at column: Int32) throws -> SQLiteData {
        switch sqlite_nio_sqlite3_column_type(statement, column) {
        case SQLITE_INTEGER:
            return .integer(Int(sqlite_nio_sqlite3_column_int64(statement, column)))
        case SQLITE_FLOAT:
            return .float(sqlite_nio_sqlite3_column_double(statement, column))
        case SQLITE_TEXT:
            guard let text = sqlite_nio_sqlite3_column_text(statement, column) else { return .text("") }
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            return .text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self))
        case SQLITE_BLOB:
            let count = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
            var buffer = ByteBufferAllocator().buffer(capacity: count)
            if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: count))
            }
            return .blob(buffer)
        default:
            return .null
        }
    }

    private func check(_ code: Int32, on raw: OpaquePointer) throws {
        guard code == SQLITE_OK else { throw SQLiteStatementError(code: code, message: Self.message(raw, code)) }
    }

    private static func message(_ raw: OpaquePointer, _ code: Int32) -> String {
        sqlite_nio_sqlite3_errmsg(raw).map { String(cString: $0) } ?? describe(code)
    }

    private static func describe(_ code: Int32) -> String {
        sqlite_nio_sqlite3_errstr(code).map { String(cString: $0) } ?? "SQLite error \(code)"
    }
}

/// An SQL text and its hash, worked out once: the key of a connection's kept statements.
struct SQLiteSQL: Hashable, Sendable {
    let text: String
    private let hash: Int

    init(_ text: String) {
        self.text = text
        hash = text.hashValue
    }

    func hash(into hasher: inout Hasher) { hasher.combine(hash) }

    static func == (lhs: SQLiteSQL, rhs: SQLiteSQL) -> Bool {
        // Texts sharing one storage (a `StatementText`'s, every run) compare without reading it.
        lhs.hash == rhs.hash && lhs.text == rhs.text
    }
}

/// SQLite's `SQLITE_TRANSIENT`: it copies a bound value before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A statement SQLite refused or failed: its result code (extended) and message. Messages name the
/// constraint or syntax at fault, never a bound value.
public struct SQLiteStatementError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code (`SQLITE_CONSTRAINT_UNIQUE` is 2067, `SQLITE_BUSY` 5, …).
    public let code: Int32
    /// SQLite's message.
    public let message: String

    /// The primary result code (`SQLITE_CONSTRAINT` for every constraint failure).
    public var primaryCode: Int32 { code & 0xFF }

    public var description: String { "SQLite error \(code): \(message)" }
}
