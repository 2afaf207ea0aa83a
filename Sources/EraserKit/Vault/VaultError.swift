/// The Vault's and the Cooling Off bin's reasons for failing (also the thumbnails' and the local
/// notifier's, which exist for the Vault).
public enum VaultError: EraserErrorReason {
    /// The Vault has not been set up, or its key is not unlocked.
    case locked
    /// No Vault item has this id.
    case notFound(String)
    /// There is no Vault in this profile yet (`Vault.setUp` makes one).
    case notSetUp
    /// `Vault.setUp` was called on a profile that already has a Vault key.
    case alreadySetUp
    /// The Vault's files exist but its key is gone from the secure store: nothing can open them.
    case keyLost
    /// The key in the secure store is not this Vault's key.
    case wrongKey
    /// Stored bytes failed authentication or do not parse: modified, swapped between items, or
    /// truncated (the thing and the reason).
    case corrupted(what: String, reason: String)
    /// A file or folder of the Vault could not be read, written, renamed or removed.
    case fileSystem(path: String, reason: String)
    /// vault.db could not be opened, migrated, read or written.
    case database(String)
    /// The caller's input cannot be stored (the reason says why).
    case invalidInput(String)
    /// Export would overwrite an existing file.
    case exportTargetExists(String)
    /// The item is waiting in the Cooling Off bin; restore it before removing it another way.
    case inCoolingOff(String)
    /// The item is not waiting in the Cooling Off bin.
    case notInCoolingOff(String)
    /// The item has no thumbnail (a video, an event, a message, or an image that did not decode).
    case noThumbnail(String)
    /// The image's format has no decoder here (HEIC, GIF, …): it is vaulted without a thumbnail.
    case unsupportedImage(String)
    /// The image could not be decoded (the decoder's reason).
    case undecodableImage(String)
    /// The image is too large to decode for a thumbnail.
    case imageTooLarge(String)
    /// This build has no JPEG codec (the CEraserImage C target is not linked).
    case thumbnailUnavailable
    /// The local notifier could not schedule, cancel or list reminders.
    case notifier(String)

    public var code: String {
        switch self {
        case .locked: "locked"
        case .notFound: "not_found"
        case .notSetUp: "not_set_up"
        case .alreadySetUp: "already_set_up"
        case .keyLost: "key_lost"
        case .wrongKey: "wrong_key"
        case .corrupted: "corrupted"
        case .fileSystem: "file_system"
        case .database: "database"
        case .invalidInput: "invalid_input"
        case .exportTargetExists: "export_target_exists"
        case .inCoolingOff: "in_cooling_off"
        case .notInCoolingOff: "not_in_cooling_off"
        case .noThumbnail: "no_thumbnail"
        case .unsupportedImage: "unsupported_image"
        case .undecodableImage: "undecodable_image"
        case .imageTooLarge: "image_too_large"
        case .thumbnailUnavailable: "thumbnail_unavailable"
        case .notifier: "notifier"
        }
    }

    public var message: String {
        switch self {
        case .locked: "The Vault is locked: unlock it with its passphrase first."
        case .notFound(let id): "No Vault item has the id \(id)."
        case .notSetUp: "There is no Vault yet: set one up first."
        case .alreadySetUp: "This profile already has a Vault."
        case .keyLost: "The Vault's key is missing from the secure store, so its items cannot be opened."
        case .wrongKey: "The key in the secure store does not open this Vault."
        case .corrupted(let what, let reason): "\(what) is damaged or was modified: \(reason)."
        case .fileSystem(let path, let reason): "Could not use \(path): \(reason)."
        case .database(let reason): "The Vault's database failed: \(reason)."
        case .invalidInput(let reason): "The Vault cannot store this: \(reason)."
        case .exportTargetExists(let path): "\(path) already exists; choose another folder."
        case .inCoolingOff(let id): "Item \(id) is in the Cooling Off bin; restore it first."
        case .notInCoolingOff(let id): "Item \(id) is not in the Cooling Off bin."
        case .noThumbnail(let id): "Item \(id) has no thumbnail."
        case .unsupportedImage(let format): "No thumbnail can be made from \(format) images."
        case .undecodableImage(let reason): "The image could not be decoded: \(reason)."
        case .imageTooLarge(let reason): "The image is too large for a thumbnail: \(reason)."
        case .thumbnailUnavailable: "This build cannot make JPEG thumbnails."
        case .notifier(let reason): "Reminders could not be updated: \(reason)."
        }
    }
}
