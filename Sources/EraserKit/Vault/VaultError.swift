/// The Vault's and the Cooling Off bin's reasons for failing.
public enum VaultError: EraserErrorReason {
    /// The Vault has not been set up, or its key is not unlocked.
    case locked
    /// No Vault item has this id.
    case notFound(String)

    public var code: String {
        switch self {
        case .locked: "locked"
        case .notFound: "not_found"
        }
    }

    public var message: String {
        switch self {
        case .locked: "The Vault is locked: unlock it with its passphrase first."
        case .notFound(let id): "No Vault item has the id \(id)."
        }
    }
}
