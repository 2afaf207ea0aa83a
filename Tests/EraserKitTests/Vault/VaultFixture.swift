import Foundation
import KindredClient
import KindredTestSupport

@testable import EraserKit

/// A profile folder with a set-up Vault, an in-memory secure store and notifier, and a fixed
/// Cooling Off time zone.
final class VaultFixture {
    let directory: TemporaryDirectory
    let store: InMemorySecureStore
    let notifier: InMemoryLocalNotifier
    let schedule: CoolingOffSchedule
    var vault: Vault

    var profile: URL { directory.url.appendingPathComponent("profile") }
    var vaultFolder: URL { profile.appendingPathComponent("vault") }

    /// A fixture with a new Vault; `faults` are given to that Vault.
    init(timeZone: String = "Europe/Istanbul", faults: VaultFaults = VaultFaults()) throws {
        directory = try TemporaryDirectory()
        store = InMemorySecureStore()
        notifier = InMemoryLocalNotifier()
        schedule = CoolingOffSchedule(timeZone: TimeZone(identifier: timeZone) ?? .gmt)
        _ = try Vault.setUp(profileDirectory: directory.url.appendingPathComponent("profile"), secureStore: store,
                            notifier: notifier, schedule: schedule)
        vault = try Vault.open(profileDirectory: directory.url.appendingPathComponent("profile"), secureStore: store,
                               notifier: notifier, schedule: schedule, faults: faults)
    }

    /// Opens the Vault again (as the app does after a restart), with `faults`.
    @discardableResult
    func reopen(faults: VaultFaults = VaultFaults()) throws -> Vault {
        vault = try Vault.open(profileDirectory: profile, secureStore: store, notifier: notifier,
                               schedule: schedule, faults: faults)
        return vault
    }

    /// Writes a file outside the Vault, as the photo library would hold it.
    func original(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let folder = directory.url.appendingPathComponent("library")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// The names in a folder of the Vault, sorted.
    func names(_ subfolder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: vaultFolder.appendingPathComponent(subfolder).path).sorted()
    }

    /// vault.db and its WAL and shared-memory files, concatenated.
    func databaseBytes() throws -> [UInt8] {
        var bytes: [UInt8] = []
        for suffix in ["", "-wal", "-shm"] {
            let path = vaultFolder.appendingPathComponent("vault.db" + suffix).path
            if let data = FileManager.default.contents(atPath: path) { bytes += data }
        }
        return bytes
    }

    /// A photo input from the camera roll.
    static func photo(_ originalID: String, metadata: VaultItemMetadata = VaultItemMetadata()) -> VaultItemInput {
        VaultItemInput(originalID: originalID, type: .photo, matchType: .face, source: .cameraRoll, metadata: metadata)
    }

    /// Deterministic pseudo-random bytes.
    static func bytes(_ count: Int, seed: UInt64 = 1) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }
}

extension [UInt8] {
    /// Whether `needle` occurs in these bytes.
    func contains(bytes needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, needle.count <= count else { return needle.isEmpty }
        let first = needle[0]
        var index = 0
        while index <= count - needle.count {
            if self[index] == first && self[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
