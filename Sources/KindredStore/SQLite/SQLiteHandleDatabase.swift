import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit

/// SQLKit's view of one `SQLiteHandle`: statements serialized with SQLite's dialect, values
/// converted by SQLiteKit's encoder and decoder (so rows decode exactly as through SQLiteKit).
///
/// Each statement runs either on the calling task's thread (`offloads == false`) or with one
/// round trip to the store's thread pool. On the caller's thread is the faster for the statements
/// a request makes: a point read takes a few microseconds, less than the two thread switches
/// (submit, wake, resume) of the round trip, which were a third of `GET /v1/me`'s CPU under load.
struct SQLiteHandleDatabase: SQLDatabase {
    let handle: SQLiteHandle
    let threadPool: NIOThreadPool
    let eventLoop: any EventLoop
    let logger: Logger
    /// Whether statements go to the thread pool instead of running on the caller's thread.
    let offloads: Bool
    private let encoder = SQLiteDataEncoder()
    private let decoder = SQLiteDataDecoder()

    init(handle: SQLiteHandle, threadPool: NIOThreadPool, eventLoop: any EventLoop, logger: Logger, offloads: Bool) {
        self.handle = handle
        self.threadPool = threadPool
        self.eventLoop = eventLoop
        self.logger = logger
        self.offloads = offloads
    }

    var dialect: any SQLDialect { SQLiteDialect() }
    var version: (any SQLDatabaseReportedVersion)? { SQLiteLibraryVersion.runtime }
    /// Statements are not logged: their bound values may be tokens or keys.
    var queryLogLevel: Logger.Level? { nil }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        eventLoop.makeFutureWithTask { try await self.execute(sql: query, onRow) }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        let (sql, rawBinds) = serialize(query)
        let binds = try rawBinds.map { try encoder.encode($0) }
        let handle = handle
        let decoder = decoder
        guard offloads else {
            try handle.run(sql, binds) { row in onRow(SQLiteDecodingRow(row: row, decoder: decoder)) }
            return
        }
        try await threadPool.runIfActive {
            try handle.run(sql, binds) { row in onRow(SQLiteDecodingRow(row: row, decoder: decoder)) }
        }
    }

    func withSession<R>(_ closure: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await closure(self)
    }
}

/// The column names of one prepared statement, shared by its rows.
final class SQLiteColumns: Sendable {
    let names: [String]
    /// The first column of each name (as SQLiteNIO resolves duplicates).
    let offsets: [String: Int]

    init(names: [String]) {
        self.names = names
        offsets = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One row's values, in the statement's column order.
struct SQLiteResultRow: Sendable {
    let columns: SQLiteColumns
    let values: [SQLiteData]

    /// The value of the first column named `name`, or nil when there is none.
    func value(_ name: String) -> SQLiteData? {
        columns.offsets[name].map { values[$0] }
    }
}

/// A row as SQLKit reads it.
struct SQLiteDecodingRow: SQLRow {
    let row: SQLiteResultRow
    let decoder: SQLiteDataDecoder

    var allColumns: [String] { row.columns.names }

    func contains(column: String) -> Bool { row.columns.offsets[column] != nil }

    func decodeNil(column: String) throws -> Bool {
        guard let value = row.value(column) else { return true }
        return value == .null
    }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        guard let value = row.value(column) else {
            throw DecodingError.keyNotFound(
                SQLiteColumnKey(stringValue: column),
                .init(codingPath: [], debugDescription: "no column named \(column) in the result")
            )
        }
        if let decoded = Self.decodeCommon(value, as: D.self) { return decoded }
        return try decoder.decode(D.self, from: value)
    }

    /// The column types Kindred's rows are made of (text, integers, 0/1 booleans, each optional
    /// or not), read without `SQLiteDataDecoder`: it finds a type's conversion with a dynamic
    /// cast, and decodes an optional through a nested `Decoder` (generic metadata lookups and
    /// conformance checks for every column, about 4 % of `GET /v1/me`). Returns nil for any
    /// other type or storage class, which then goes through the decoder as before; the values
    /// returned are the ones the decoder gives for the same data.
    @inline(__always)
    static func decodeCommon<D>(_ value: SQLiteData, as type: D.Type) -> D? {
        switch value {
        case .text(let text):
            if D.self == String.self { return unsafeBitCast(text, to: D.self) }
            if D.self == String?.self { return unsafeBitCast(String?.some(text), to: D.self) }
        case .integer(let integer):
            if D.self == Int64.self { return unsafeBitCast(Int64(integer), to: D.self) }
            if D.self == Int64?.self { return unsafeBitCast(Int64?.some(Int64(integer)), to: D.self) }
            if D.self == Int.self { return unsafeBitCast(integer, to: D.self) }
            if D.self == Int?.self { return unsafeBitCast(Int?.some(integer), to: D.self) }
            if integer == 0 || integer == 1 {
                if D.self == Bool.self { return unsafeBitCast(integer == 1, to: D.self) }
                if D.self == Bool?.self { return unsafeBitCast(Bool?.some(integer == 1), to: D.self) }
            }
        case .null:
            if D.self == String?.self { return unsafeBitCast(String?.none, to: D.self) }
            if D.self == Int64?.self { return unsafeBitCast(Int64?.none, to: D.self) }
            if D.self == Int?.self { return unsafeBitCast(Int?.none, to: D.self) }
            if D.self == Bool?.self { return unsafeBitCast(Bool?.none, to: D.self) }
        case .float, .blob:
            break
        }
        return nil
    }
}

private struct SQLiteColumnKey: CodingKey {
    let stringValue: String
    init(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}

/// The version of the SQLite library in use, as SQLKit compares versions.
struct SQLiteLibraryVersion: SQLDatabaseReportedVersion {
    let intValue: Int
    let stringValue: String

    static let runtime = SQLiteLibraryVersion(
        intValue: Int(SQLiteConnection.libraryVersion()), stringValue: SQLiteConnection.libraryVersionString()
    )

    var majorVersion: Int { intValue / 1_000_000 }
    var minorVersion: Int { intValue % 1_000_000 / 1_000 }
    var patchVersion: Int { intValue % 1_000 }

    func isEqual(to otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        (otherVersion as? Self)?.intValue == intValue
    }

    func isOlder(than otherVersion: any SQLDatabaseReportedVersion) -> Bool {
        guard let other = otherVersion as? Self else { return false }
        return intValue < other.intValue
    }
}
