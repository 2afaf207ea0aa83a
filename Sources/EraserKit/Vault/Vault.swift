import Foundation
import GRDB
import KindredClient
import Synchronization

/// Ex-Eraser's encrypted Vault and its Cooling Off bin, in `<profile>/vault/`:
///
/// ```
/// vault/
/// ├── keyset.enc                 the media keyset, wrapped by the Vault key
/// ├── media/{uuid}.enc           each item's bytes (photo, video, VEVENT text, message export)
/// ├── thumbnails/{uuid}_thumb.enc
/// └── vault.db                   vault_items, cooling_off, scan_history (GRDB, WAL)
/// ```
///
/// ## Key hierarchy
///
/// - **Vault key** (`VaultKey`): 32 random bytes in the `SecureStore` (`eraser.vault-key`): the
///   keychain behind Face ID on iOS, `FileSecureStore` on Linux, whose passphrase mode stands in
///   for the biometric gate. Nothing else on disk opens the Vault without it.
/// - **Keyset-wrap key** = HKDF-SHA256(Vault key, info `ex-eraser.vault.keyset-wrap.v1`). It seals
///   (AES-256-GCM, associated data `ex-eraser.vault.keyset.v1`) the **media keyset** in
///   `keyset.enc`: a Tink `AES256_GCM_HKDF_1MB` streaming keyset made at setup. Opening the
///   keyset is also the check that the Vault key is right (`VaultError.wrongKey`). A keyset lets
///   a new primary key be added later while older files stay readable.
/// - Media files and thumbnails are Tink streaming AEAD ciphertexts under the media keyset, with
///   associated data `ex-eraser.vault.media.v1` or `ex-eraser.vault.thumbnail.v1`, a zero byte
///   and the item id: a file swapped with another item's, or a thumbnail put in place of a
///   media file, does not decrypt (`VaultError.corrupted`).
/// - **Metadata key** = HKDF(Vault key, `ex-eraser.vault.metadata.v1`): AES-256-GCM over the JSON
///   of the original id, size and `VaultItemMetadata`, bound to the item id, in
///   `vault_items.metadata`.
/// - **Original-id key** = HKDF(Vault key, `ex-eraser.vault.original-id.v1`): `vault_items.original_id`
///   is HMAC-SHA256 of the original id, so look-ups work without the id being readable.
///
/// vault.db itself is plain SQLite (no SQLCipher here): what it shows in clear is the item
/// type, match type, source, dates and the Cooling Off state, never a name, path, place or id.
///
/// ## Crash safety
///
/// - Adding: the media file, then the thumbnail, are written to temporary names, synced and
///   renamed into place; only then is the row inserted (one transaction). A crash before the
///   insert leaves files without a row, which the next `open` deletes: the add was never
///   acknowledged, and the caller removes the original only after `add` returns, so nothing
///   accepted is ever lost.
/// - Opening runs `recover()`: leftover temporary files and files without a row are deleted.
/// - The Cooling Off check destroys an item's files first, then deletes its row and marks its
///   entry `deleted` in one transaction; a crash between the two leaves a pending, past-due entry,
///   which the next check completes (removing files that are already gone is not an error).
/// - `remove(_:)` deletes the rows first, then the files; a crash between leaves files without a
///   row, which the next `open` deletes.
///
/// One process at a time per profile (a profile is one simulated device). The type is safe to
/// share between tasks: GRDB serializes database access, and each item's files are its own.
public final class Vault: Sendable {
    /// The Vault's folder name in the profile.
    public static let folderName = "vault"
    /// The wrapped keyset's file name in the vault folder.
    public static let keysetFileName = "keyset.enc"
    /// The database's file name in the vault folder.
    public static let databaseFileName = "vault.db"

    /// `<profile>/vault`.
    public let folder: URL
    /// What `open` found and cleaned up.
    public let recovery: VaultRecoveryReport

    let database: DatabasePool
    let ciphers: VaultCiphers
    let notifier: any LocalNotifier
    let schedule: CoolingOffSchedule
    let thumbnails: ThumbnailMaker
    let faults: VaultFaults
    // Mutex: serializes the Cooling Off bin's changes (put in, restore, remove, the check), so a
    // restore can never interleave with the destruction of the same item.
    let binLock = Mutex(())

    var mediaFolder: URL { folder.appendingPathComponent("media") }
    var thumbnailFolder: URL { folder.appendingPathComponent("thumbnails") }

    /// Sets up a new Vault in `profileDirectory`: creates the Vault key in `secureStore`, the
    /// media keyset and the folders, then opens it.
    /// - Throws: `VaultError.alreadySetUp` when the store has a Vault key or the profile has a
    ///   Vault, `.locked` when the store cannot be used, and the errors of `open`.
    public static func setUp(profileDirectory: URL, secureStore: any SecureStore, notifier: any LocalNotifier,
                             schedule: CoolingOffSchedule = CoolingOffSchedule()) throws(EraserKitError) -> Vault {
        let folder = profileDirectory.appendingPathComponent(folderName)
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(keysetFileName).path) {
            throw .vault(.alreadySetUp)
        }
        _ = try VaultKey.create(in: secureStore)
        return try open(profileDirectory: profileDirectory, secureStore: secureStore, notifier: notifier, schedule: schedule)
    }

    /// Opens the Vault of `profileDirectory` with the key in `secureStore`, and recovers from an
    /// interrupted add or removal (see "Crash safety").
    /// - Throws: `VaultError.notSetUp` when there is no Vault, `.locked` when the secure store
    ///   cannot be read, `.keyLost` when the Vault exists but its key does not, `.wrongKey` when
    ///   the key is another Vault's, `.database`/`.fileSystem` when the files cannot be opened.
    public static func open(profileDirectory: URL, secureStore: any SecureStore, notifier: any LocalNotifier,
                            schedule: CoolingOffSchedule = CoolingOffSchedule()) throws(EraserKitError) -> Vault {
        try open(profileDirectory: profileDirectory, secureStore: secureStore, notifier: notifier,
                 schedule: schedule, faults: VaultFaults())
    }

    /// `open`, with fault injection for crash tests.
    static func open(profileDirectory: URL, secureStore: any SecureStore, notifier: any LocalNotifier,
                     schedule: CoolingOffSchedule, faults: VaultFaults) throws(EraserKitError) -> Vault {
        let folder = profileDirectory.appendingPathComponent(folderName)
        let keysetFile = folder.appendingPathComponent(keysetFileName)
        let keysetExists = FileManager.default.fileExists(atPath: keysetFile.path)
        guard let key = try VaultKey.load(from: secureStore) else {
            throw .vault(keysetExists ? .keyLost : .notSetUp)
        }
        let vaultFolder = ProfileDirectory(url: folder)
        do {
            try vaultFolder.create()
        } catch {
            throw .vault(.fileSystem(path: folder.path, reason: error.description))
        }
        if !keysetExists {
            // A key without a keyset: setUp stopped between the two. Finish it, unless items exist.
            let database = folder.appendingPathComponent(databaseFileName).path
            if FileManager.default.fileExists(atPath: database) {
                throw .vault(.corrupted(what: "the Vault", reason: "\(keysetFile.path) is missing"))
            }
            let wrapped = try VaultCiphers.newWrappedKeyset(rootKey: key)
            do {
                try vaultFolder.write(keysetFileName, Data(wrapped))
            } catch {
                throw .vault(.fileSystem(path: keysetFile.path, reason: error.description))
            }
        }
        let wrapped: Data?
        do { wrapped = try vaultFolder.read(keysetFileName) } catch {
            throw .vault(.fileSystem(path: keysetFile.path, reason: error.description))
        }
        let ciphers = try VaultCiphers(rootKey: key, wrappedKeyset: [UInt8](wrapped ?? Data()))
        let pool = try VaultDatabase.open(folder.appendingPathComponent(databaseFileName))
        return try Vault(folder: folder, database: pool, ciphers: ciphers, notifier: notifier,
                         schedule: schedule, faults: faults)
    }

    private init(folder: URL, database: DatabasePool, ciphers: VaultCiphers, notifier: any LocalNotifier,
                 schedule: CoolingOffSchedule, faults: VaultFaults) throws(EraserKitError) {
        self.folder = folder
        self.database = database
        self.ciphers = ciphers
        self.notifier = notifier
        self.schedule = schedule
        self.faults = faults
        thumbnails = ThumbnailMaker()
        try VaultFileIO.makeFolder(folder.appendingPathComponent("media"))
        try VaultFileIO.makeFolder(folder.appendingPathComponent("thumbnails"))
        recovery = try Self.recover(folder: folder, database: database)
    }

    // MARK: - Paths

    /// `media/<id>.enc`, relative to the vault folder.
    static func mediaPath(_ id: VaultItemID) -> String { "media/\(id.rawValue).enc" }
    /// `thumbnails/<id>_thumb.enc`, relative to the vault folder.
    static func thumbnailPath(_ id: VaultItemID) -> String { "thumbnails/\(id.rawValue)_thumb.enc" }

    /// A path stored in vault.db, resolved in the vault folder (refusing anything that leaves it).
    func file(_ relative: String) throws(EraserKitError) -> URL {
        let parts = relative.split(separator: "/")
        guard parts.count == 2, parts[0] == "media" || parts[0] == "thumbnails",
              !parts[1].hasPrefix("."), !parts[1].contains("\\") else {
            throw .vault(.corrupted(what: "vault.db", reason: "\(relative) is not a Vault file path"))
        }
        return folder.appendingPathComponent(relative)
    }
}

/// Hooks that make a Vault operation fail at a chosen point, so tests can simulate a crash.
struct VaultFaults: Sendable {
    /// Runs during destruction after an item's files are removed, before its rows change.
    var afterDestroyingFiles: @Sendable (VaultItemID) throws(EraserKitError) -> Void = { _ in }
    /// Runs during `add` after the item's files are in place, before its row is inserted.
    var beforeInsertingRow: @Sendable (VaultItemID) throws(EraserKitError) -> Void = { _ in }
}
