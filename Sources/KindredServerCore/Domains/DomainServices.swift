import NIOConcurrencyHelpers

/// Values the domains offer one another while the server is built, keyed by type: billing puts
/// its administration API here, and the composition root's adapters read it to give the admin
/// console its subscription pages. Domains install in registration order, so a domain reads only
/// what an earlier one provided.
package final class DomainServices: Sendable {
    private let values = NIOLockedValueBox<[ObjectIdentifier: any Sendable]>([:])

    /// An empty registry.
    package init() {}

    /// Offers `value` as the `T` of this server (replacing an earlier one).
    package func provide<T: Sendable>(_ value: T, as type: T.Type = T.self) {
        values.withLockedValue { $0[ObjectIdentifier(type)] = value }
    }

    /// The `T` a domain provided, or nil.
    package func get<T: Sendable>(_ type: T.Type) -> T? {
        values.withLockedValue { $0[ObjectIdentifier(type)] } as? T
    }

    /// The `T` a domain provided.
    /// - Throws: `DomainServices.Missing` when none did (a domain registered after its user).
    package func require<T: Sendable>(_ type: T.Type) throws -> T {
        guard let value = get(type) else { throw Missing(type: "\(type)") }
        return value
    }

    /// No domain provided the service asked for.
    package struct Missing: Error, CustomStringConvertible {
        /// The type asked for.
        package let type: String
        /// A one-line description.
        package var description: String { "no domain provides \(type): register its domain earlier in the list" }
    }
}
