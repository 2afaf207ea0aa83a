import KindredClient

extension CloserKitError {
    /// The secure store's failure as CloserKit's: `.secureStore` with the same reason.
    init(_ error: SecureStoreError) {
        self = .secureStore(error.reason)
    }
}

/// Runs `body`, a call into the device's `SecureStore`, reporting its failure as
/// `CloserKitError.secureStore`.
func secureStoreCall<T>(_ body: () throws(SecureStoreError) -> T) throws(CloserKitError) -> T {
    do {
        return try body()
    } catch {
        throw CloserKitError(error)
    }
}
