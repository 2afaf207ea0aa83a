import Crypto
import Foundation
import KindredClient

/// Ex-Eraser on one device (a profile folder): its secure store, Vault, scan store and local
/// notifier, and the flows that join them — scan, review decisions, carrying them out into the
/// Vault or the Cooling Off bin, restoring, and the background tick (seed §4.1–4.3).
///
/// The library and calendar a scan named are remembered in `eraser-device.json`, so later
/// commands (apply, restore) act on the same ones; the device's `DeviceSources` make them from
/// those settings (folder library and `.ics` files by default, PhotoKit and EventKit in the
/// app). One process at a time per profile.
public final class EraserDevice: Sendable {
    /// The secure-store item holding the scan store's 32-byte key.
    public static let scanKeyItem = SecureStoreItem("eraser.scan-key")

    /// The profile folder.
    public let profile: URL
    /// The profile's Vault.
    public let vault: Vault
    /// The profile's notifier (`notifications.json`).
    public let notifier: FileLocalNotifier
    /// The profile's scan store (`scan.db`).
    public let scanStore: ScanStore
    /// Where the photo library and the calendar come from.
    public let sources: DeviceSources
    let schedule: CoolingOffSchedule

    private init(profile: URL, vault: Vault, notifier: FileLocalNotifier, scanStore: ScanStore, sources: DeviceSources,
                 schedule: CoolingOffSchedule) {
        self.profile = profile
        self.vault = vault
        self.notifier = notifier
        self.scanStore = scanStore
        self.sources = sources
        self.schedule = schedule
    }

    /// Sets up Ex-Eraser in `profileDirectory`: the Vault (its key in `secureStore`) and the scan
    /// store's key. `sources` as for `open`.
    /// - Throws: `VaultError.alreadySetUp` when the profile has a Vault, `.locked` when the secure
    ///   store cannot be used, and the errors of `open`.
    public static func setUp(profileDirectory: URL, secureStore: any SecureStore,
                             schedule: CoolingOffSchedule = CoolingOffSchedule(),
                             sources: DeviceSources = .folders) throws(EraserKitError) -> EraserDevice {
        let notifier = FileLocalNotifier(profileDirectory: profileDirectory)
        _ = try Vault.setUp(profileDirectory: profileDirectory, secureStore: secureStore, notifier: notifier, schedule: schedule)
        let key = SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
        do {
            try secureStore.write(scanKeyItem, key)
        } catch {
            throw .vault(.locked)
        }
        return try open(profileDirectory: profileDirectory, secureStore: secureStore, schedule: schedule, sources: sources)
    }

    /// Opens the device of `profileDirectory`, its library and calendar made by `sources` (the
    /// folder library and `.ics` files the last scan named, by default).
    /// - Throws: `VaultError.notSetUp` when `setUp` never ran, `.locked` when the secure store
    ///   cannot be read (a missing or wrong passphrase), the Vault's `open` errors, `ScanError.store`.
    public static func open(profileDirectory: URL, secureStore: any SecureStore,
                            schedule: CoolingOffSchedule = CoolingOffSchedule(),
                            sources: DeviceSources = .folders) throws(EraserKitError) -> EraserDevice {
        let notifier = FileLocalNotifier(profileDirectory: profileDirectory)
        let vault = try Vault.open(profileDirectory: profileDirectory, secureStore: secureStore, notifier: notifier, schedule: schedule)
        let keyBytes: [UInt8]?
        do {
            keyBytes = try secureStore.read(scanKeyItem)
        } catch {
            throw .vault(.locked)
        }
        guard let keyBytes else { throw .vault(.notSetUp) }
        let store = try ScanStore(profile: profileDirectory, key: try ScanStoreKey(bytes: keyBytes))
        return EraserDevice(profile: profileDirectory, vault: vault, notifier: notifier, scanStore: store, sources: sources,
                            schedule: schedule)
    }

    /// What the profile remembers (library, calendar, zone, the current scan's figures).
    public func settings() throws(EraserKitError) -> DeviceSettings { try DeviceSettings.load(profile: profile) }

    /// The library the last scan named, from the device's sources.
    /// - Throws: `ScanError.noScan` when no scan named one (folder sources), the library's errors.
    func library(_ settings: DeviceSettings) throws(EraserKitError) -> any PhotoLibrary {
        try sources.library(settings)
    }

    /// The calendar the last scan named, from the device's sources, or `nil`.
    func calendar(_ settings: DeviceSettings) throws(EraserKitError) -> (any CalendarStore)? {
        try sources.calendar(settings)
    }

    /// The review of the current scan, over its library and calendar.
    public func review() throws(EraserKitError) -> ScanReview {
        let settings = try settings()
        return ScanReview(store: scanStore, library: try library(settings), calendar: try calendar(settings))
    }

    /// Records `decision` for the result with store key `itemKey` (`asset:<id>`, `event:<id>`).
    /// - Throws: `ScanError.notAResult` for a key that is not a result, the review's errors.
    public func decide(_ itemKey: String, _ decision: ReviewDecision) throws(EraserKitError) {
        guard let item = ScanItem(key: itemKey) else { throw .scan(.notAResult(itemKey)) }
        try review().decide(item, decision)
    }

    /// The Vault's scan history, newest first.
    public func history() throws(EraserKitError) -> [VaultScanRecord] { try vault.history() }

    /// Saves `figures` in the settings and the Vault's history.
    func record(_ figures: DeviceScanFigures) throws(EraserKitError) {
        var settings = try settings()
        settings.scan = figures
        try settings.save(profile: profile)
        try vault.recordScan(figures.record)
    }
}
