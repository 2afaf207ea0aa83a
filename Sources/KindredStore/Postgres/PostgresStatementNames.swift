import NIOConcurrencyHelpers

/// The names of the named prepared statements one PostgreSQL database's connections run: one
/// name per SQL text and bind-type signature, shared by every connection of the pool (each
/// connection prepares a name the first time it runs it, and keeps it while it lives).
///
/// At most `capacity` names are ever issued, retired ones included, so a connection never holds
/// more than that many prepared statements; later statement texts run unnamed.
final class PostgresStatementNames: Sendable {
    /// How many names a database issues by default.
    static let defaultCapacity = 1024

    private struct State {
        var names: [String: String] = [:]
        var issued = 0
    }

    private let state = NIOLockedValueBox(State())
    /// The most names this database issues.
    let capacity: Int

    /// Creates an empty set of names.
    init(capacity: Int = defaultCapacity) {
        self.capacity = capacity
    }

    /// The name of the statement `key` (SQL text and bind types), issuing one on first use.
    /// - Returns: nil once `capacity` names have been issued (the statement then runs unnamed).
    func name(for key: String) -> String? {
        state.withLockedValue { state in
            if let name = state.names[key] { return name }
            guard state.issued < capacity else { return nil }
            state.issued += 1
            let name = "kindred_\(state.issued)"
            state.names[key] = name
            return name
        }
    }

    /// Stops using `name` for `key` (its preparation failed, or a schema change altered its
    /// result): the next run prepares the text again under a new name on every connection.
    func retire(_ name: String, for key: String) {
        state.withLockedValue { state in
            if state.names[key] == name { state.names[key] = nil }
        }
    }

    /// How many names have been issued so far, retired ones included.
    var issued: Int { state.withLockedValue { $0.issued } }
}
