import SQLKit

/// The database features Kindred's hand-written statements branch on, by name, so that call sites
/// ask for a capability ("does this database lock selected rows?") and never compare a database's
/// name. Row locks come from SQLKit's own dialect capability; SQLKit models none of the others
/// (PostgreSQL's arrays, `LISTEN`/`NOTIFY`, collations), so this is the one place that reads the
/// dialect's name for them.
extension SQLDialect {
    /// Whether `SELECT … FOR UPDATE` locks the rows it reads (SQLKit's
    /// `exclusiveSelectLockExpression`): PostgreSQL's many writers need it; SQLite's single writer
    /// already serializes write transactions.
    public var locksSelectedRows: Bool { exclusiveSelectLockExpression != nil }

    /// ` FOR UPDATE` where `locksSelectedRows`, else nothing: appended to a read whose rows the
    /// transaction then changes.
    public var rowLockClause: String { locksSelectedRows ? " FOR UPDATE" : "" }

    /// Whether several processes write at once and claims must skip each other's locked rows
    /// (`FOR UPDATE SKIP LOCKED`); on SQLite one claimer at a time holds the write lock.
    public var hasConcurrentWriters: Bool { locksSelectedRows }

    /// Whether a bind may be an array (`= ANY($1)`, `json_populate_recordset`): PostgreSQL.
    public var bindsArrays: Bool { isPostgreSQL }

    /// Whether a committed transaction can announce itself to other connections and processes
    /// (`NOTIFY`, delivered at commit to every `LISTEN`er): PostgreSQL.
    public var notifiesListeners: Bool { isPostgreSQL }

    /// The collation clause that orders text by code points (` COLLATE "C"` on PostgreSQL, whose
    /// default follows the locale; SQLite compares bytes already).
    public var codePointCollation: String { isPostgreSQL ? " COLLATE \"C\"" : "" }

    /// PostgreSQL's dialect (the features SQLKit does not model).
    private var isPostgreSQL: Bool { name == "postgresql" }
}

/// The dialect's code-point collation clause (`SQLDialect.codePointCollation`) as an expression,
/// for a builder or an interpolated `SQLQueryString` in code that is not hot (hot statements are
/// `StatementText(perDialect:)`): written by the serializer from its dialect, never spliced.
public struct SQLCodePointCollation: SQLExpression {
    public init() {}

    public func serialize(to serializer: inout SQLSerializer) {
        serializer.write(serializer.dialect.codePointCollation)
    }
}
