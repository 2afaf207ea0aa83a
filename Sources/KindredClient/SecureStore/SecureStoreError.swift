/// Why a `SecureStore` could not read, write or decrypt its items.
///
/// A secure store fails in one way only as far as its callers are concerned (the secret is not
/// available), so the error is its reason: a sentence naming the item or file and what to do
/// (`… is protected by a passphrase; set KINDRED_PROFILE_PASSPHRASE`). It never contains a secret.
/// Each app kit reports it as its own error (CloserKit: `CloserKitError.secureStore`).
public struct SecureStoreError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What failed and where, for people and logs.
    public let reason: String

    /// An error with `reason`.
    public init(_ reason: String) {
        self.reason = reason
    }

    /// One line for people and logs: `secure store: <reason>`.
    public var description: String { "secure store: \(reason)" }
}
