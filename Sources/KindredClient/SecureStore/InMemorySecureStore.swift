import Synchronization

/// A secure store in memory only: for tests and previews. Forgotten when released.
public final class InMemorySecureStore: SecureStore {
    // Mutex: the items are shared by every task that holds the store.
    private let items = Mutex<[SecureStoreItem: [UInt8]]>([:])

    /// An empty store.
    public init() {}

    /// The bytes under `item`, or `nil`.
    public func read(_ item: SecureStoreItem) throws(SecureStoreError) -> [UInt8]? {
        items.withLock { $0[item] }
    }

    /// Stores `bytes` under `item`.
    public func write(_ item: SecureStoreItem, _ bytes: [UInt8]) throws(SecureStoreError) {
        items.withLock { $0[item] = bytes }
    }

    /// Removes `item`.
    public func remove(_ item: SecureStoreItem) throws(SecureStoreError) {
        _ = items.withLock { $0.removeValue(forKey: item) }
    }
}
