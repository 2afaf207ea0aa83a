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
        let sql: SQLiteSQL
        let binds: [SQLiteData]
        if let statement = query as? StatementText.Bound {
            // Written once, its text and hash at hand (`StatementText.sqlite`).
            sql = statement.statement.sqlite
            binds = try statement.values.map { try Self.encodeCommon($0) ?? encoder.encode($0) }
        } else {
            let (text, rawBinds) = serialize(query)
            sql = SQLiteSQL(text)
            binds = try rawBinds.map { try Self.encodeCommon($0) ?? encoder.encode($0) }
        }
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

    /// The bound values Kindred's statements are made of (text, integers, booleans, each
    /// optional or not), converted without `SQLiteDataEncoder`: it first asks whether the value
    /// conforms to `SQLiteDataConvertible` (a conformance lookup for every value) and encodes an
    /// optional through a nested `Encoder`; on the writer, which runs every sign-up's inserts
    /// one after another, that was about 8 % of its work. Returns nil for any other type, which
    /// then goes through the encoder; the values returned are the encoder's for the same input.
    static func encodeCommon(_ value: any Encodable) -> SQLiteData? {
        func open<T: Encodable>(_ value: T) -> SQLiteData? {
            let type = ObjectIdentifier(T.self)
            let common = CommonTypes.shared
            switch type {
            case common.string: return .text(unsafeBitCast(value, to: String.self))
            case common.int: return .integer(unsafeBitCast(value, to: Int.self))
            case common.int64: return .integer(Int(unsafeBitCast(value, to: Int64.self)))
            case common.bool: return .integer(unsafeBitCast(value, to: Bool.self) ? 1 : 0)
            case common.optionalString: return unsafeBitCast(value, to: String?.self).map { .text($0) } ?? .null
            case common.optionalInt: return unsafeBitCast(value, to: Int?.self).map { .integer($0) } ?? .null
            case common.optionalInt64: return unsafeBitCast(value, to: Int64?.self).map { .integer(Int($0)) } ?? .null
            case common.optionalBool: return unsafeBitCast(value, to: Bool?.self).map { .integer($0 ? 1 : 0) } ?? .null
            default: return nil
            }
        }
        return open(value)
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
        // Compared by identity with types looked up once: `D.self == String?.self` would look
        // up `Optional<String>`'s metadata in the runtime's cache on every call.
        let type = ObjectIdentifier(D.self)
        let common = CommonTypes.shared
        switch value {
        case .text(let text):
            if type == common.string { return unsafeBitCast(text, to: D.self) }
            if type == common.optionalString { return unsafeBitCast(String?.some(text), to: D.self) }
        case .integer(let integer):
            if type == common.int64 { return unsafeBitCast(Int64(integer), to: D.self) }
            if type == common.optionalInt64 { return unsafeBitCast(Int64?.some(Int64(integer)), to: D.self) }
            if type == common.int { return unsafeBitCast(integer, to: D.self) }
            if type == common.optionalInt { return unsafeBitCast(Int?.some(integer), to: D.self) }
            if integer == 0 || integer == 1 {
                if type == common.bool { return unsafeBitCast(integer == 1, to: D.self) }
                if type == common.optionalBool { return unsafeBitCast(Bool?.some(integer == 1), to: D.self) }
            }
        case .null:
            if type == common.optionalString { return unsafeBitCast(String?.none, to: D.self) }
            if type == common.optionalInt64 { return unsafeBitCast(Int64?.none, to: D.self) }
            if type == common.optionalInt { return unsafeBitCast(Int?.none, to: D.self) }
            if type == common.optionalBool { return unsafeBitCast(Bool?.none, to: D.self) }
        case .float, .blob:
            break
        }
        return nil
    }
}

/// The identities of the types `decodeCommon` and `encodeCommon` convert themselves.
private final class CommonTypes: Sendable {
    static let shared = CommonTypes()

    let string = ObjectIdentifier(String.self)
    let int = ObjectIdentifier(Int.self)
    let int64 = ObjectIdentifier(Int64.self)
    let bool = ObjectIdentifier(Bool.self)
    let optionalString = ObjectIdentifier(String?.self)
    let optionalInt = ObjectIdentifier(Int?.self)
    let optionalInt64 = ObjectIdentifier(Int64?.self)
    let optionalBool = ObjectIdentifier(Bool?.self)
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
