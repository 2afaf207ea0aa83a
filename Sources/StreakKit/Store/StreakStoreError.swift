/// Every failure of the device's StreakSync store (`StreakStore`), one case per kind of problem,
/// each with a message a person can act on.
public enum StreakStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The store could not be opened, created or migrated at `path`.
    case open(path: String, reason: String)
    /// The store could not be read.
    case read(String)
    /// The store could not be written (the change was rolled back).
    case write(String)
    /// A stored row holds a value outside the schema (the file was modified by hand, or by a newer app).
    case corruptRow(table: String, id: String, reason: String)
    /// A result is not one the catalog's game can produce (an unknown game, or a value out of bounds).
    case invalidResult(id: String, reason: String)
    /// A results CSV could not be read (the line is named).
    case csv(StreakCSVError)
    /// A row of a results CSV is well formed but not a result its game can produce.
    case invalidImportRow(line: Int, reason: String)
    /// A setting's value is not usable (the reason says which and why).
    case invalidSetting(String)
    /// Refused because of guest mode: a guest is playing (nothing is synced or published), or
    /// guest mode was asked to start or end when it cannot (the reason says which).
    case guestMode(String)
    /// A share-extension inbox file could not be written, read or removed.
    case inbox(String)

    /// A stable snake_case code for scripts (`kindred streaks … --json`).
    public var code: String {
        switch self {
        case .open, .read, .write, .corruptRow: "local_store"
        case .invalidResult: "invalid_result"
        case .csv(let error): error.code
        case .invalidImportRow: "invalid_import_row"
        case .invalidSetting: "invalid_setting"
        case .guestMode: "guest_mode"
        case .inbox: "inbox"
        }
    }

    /// One line for people and logs.
    public var description: String {
        switch self {
        case .open(let path, let reason): "streak store: cannot open \(path): \(reason)"
        case .read(let reason): "streak store: cannot read: \(reason)"
        case .write(let reason): "streak store: cannot write: \(reason)"
        case .corruptRow(let table, let id, let reason): "streak store: \(table) row \(id) is corrupt: \(reason)"
        case .invalidResult(let id, let reason): "result \(id): \(reason)"
        case .csv(let error): error.description
        case .invalidImportRow(let line, let reason): "line \(line): \(reason)"
        case .invalidSetting(let reason): reason
        case .guestMode(let reason): "guest mode: \(reason)"
        case .inbox(let reason): "share inbox: \(reason)"
        }
    }
}
