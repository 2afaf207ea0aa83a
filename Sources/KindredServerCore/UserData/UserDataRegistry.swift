import Foundation
import SQLKit

/// One table holding a user's rows, as a domain registers it for deletion and export.
public struct UserDataTable: Sendable {
    /// The table name.
    public var name: String
    /// The column naming the owning user.
    public var userColumn: String
    /// Columns left out of exports (hashes, secrets).
    public var omittedColumns: Set<String>

    /// Registers `name` owned through `userColumn` (default `user_id`).
    public init(_ name: String, userColumn: String = "user_id", omitting omittedColumns: Set<String> = []) {
        self.name = name
        self.userColumn = userColumn
        self.omittedColumns = omittedColumns
    }
}

/// What one domain owns of a user: its tables, in the order rows are deleted (children first).
public struct UserDataEntry: Sendable {
    /// The domain's name in exports (`accounts`, `closer`, …).
    public var domain: String
    /// Its tables.
    public var tables: [UserDataTable]
    /// Runs first, in the deletion's transaction, for what deleting rows by user cannot express:
    /// data of *other* users that only existed because of this one (SoulMate: the partner's
    /// sealed location, the pushes that carried copies of the user's envelopes).
    public var beforeDelete: (@Sendable (_ userID: String, _ sql: any SQLDatabase) async throws -> Void)?

    /// Creates an entry.
    public init(
        domain: String, tables: [UserDataTable],
        beforeDelete: (@Sendable (_ userID: String, _ sql: any SQLDatabase) async throws -> Void)? = nil
    ) {
        self.domain = domain
        self.tables = tables
        self.beforeDelete = beforeDelete
    }
}

/// Every domain's entry: the one place that knows how to delete or export all of a user's data.
///
/// Account deletion runs every entry's deletes, in registration order reversed (later domains
/// build on earlier ones), then deletes the user row, all in one transaction. A schema test fails
/// when a table with a `user_id` column is covered by no entry.
public struct UserDataRegistry: Sendable {
    /// The entries, in registration order.
    public private(set) var entries: [UserDataEntry] = []

    /// An empty registry.
    public init() {}

    /// Adds a domain's entry.
    public mutating func register(_ entry: UserDataEntry) {
        entries.append(entry)
    }

    /// Every table some entry covers, plus `kindred_users` itself.
    public var coveredTables: Set<String> {
        Set(entries.flatMap { $0.tables.map(\.name) }).union(["kindred_users"])
    }

    /// Deletes every row of `userID` in every registered table, then the user (inside the
    /// caller's transaction).
    func delete(userID: String, on sql: any SQLDatabase) async throws {
        for entry in entries.reversed() {
            try await entry.beforeDelete?(userID, sql)
        }
        for entry in entries.reversed() {
            for table in entry.tables {
                try await sql.delete(from: table.name).where(SQLIdentifier(table.userColumn), .equal, SQLBind(userID)).run()
            }
        }
        try await sql.delete(from: "kindred_users").where("id", .equal, userID).run()
    }

    /// The rows of `userID` per domain and table, each row keyed by column name.
    func export(userID: String, on sql: any SQLDatabase) async throws -> [String: [String: [[String: (any Sendable)?]]]] {
        var result: [String: [String: [[String: (any Sendable)?]]]] = [:]
        for entry in entries {
            var tables: [String: [[String: (any Sendable)?]]] = [:]
            for table in entry.tables {
                let rows = try await sql.select().column("*").from(table.name)
                    .where(SQLIdentifier(table.userColumn), .equal, SQLBind(userID)).all()
                // A table registered under two user columns (a couple's members) lists both sets of rows.
                tables[table.name, default: []] += rows.map { Self.jsonObject($0, omitting: table.omittedColumns) }
            }
            result[entry.domain] = tables
        }
        return result
    }

    /// A row as JSON values: integers, reals, text, booleans or null; other types as text.
    static func jsonObject(_ row: any SQLRow, omitting omitted: Set<String>) -> [String: (any Sendable)?] {
        var object: [String: (any Sendable)?] = [:]
        for column in row.allColumns where !omitted.contains(column) {
            if (try? row.decodeNil(column: column)) ?? true {
                object[column] = .some(nil)
            } else if let value = try? row.decode(column: column, as: Int.self) {
                object[column] = value
            } else if let value = try? row.decode(column: column, as: Double.self) {
                object[column] = value
            } else if let value = try? row.decode(column: column, as: String.self) {
                object[column] = value
            } else if let value = try? row.decode(column: column, as: Bool.self) {
                object[column] = value
            } else if let value = try? row.decode(column: column, as: Data.self) {
                object[column] = value.base64EncodedString()
            } else {
                object[column] = .some(nil)
            }
        }
        return object
    }
}
