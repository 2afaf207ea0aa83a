import Foundation

/// What a profile remembers between runs of the device (`eraser-device.json`): where its photo
/// library and calendar are, the zone scans read dates in, and the current scan's history figures.
/// Nothing personal beyond the two paths: matches and decisions live sealed in `scan.db`.
public struct DeviceSettings: Sendable, Equatable, Codable {
    /// The settings file's name in the profile folder.
    public static let fileName = "eraser-device.json"

    /// The photo library's folder, once a scan has named it (`nil` for sources without folders:
    /// PhotoKit).
    public var photosPath: String?
    /// The calendar (`.ics` file or folder), when a scan named one.
    public var calendarPath: String?
    /// The zone of date ranges and of EXIF dates without an offset.
    public var timeZoneIdentifier: String
    /// The scan the Vault's history row is about.
    public var scan: DeviceScanFigures?

    /// Empty settings in `timeZone`.
    public init(timeZoneIdentifier: String = TimeZone.current.identifier) {
        self.timeZoneIdentifier = timeZoneIdentifier
    }

    /// The zone of `timeZoneIdentifier`.
    /// - Throws: `ScanError.unknownTimeZone` for an identifier this system does not know.
    public func timeZone() throws(EraserKitError) -> TimeZone {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else { throw .scan(.unknownTimeZone(timeZoneIdentifier)) }
        return zone
    }

    /// The settings of `profile`, or empty ones when the file does not exist.
    /// - Throws: `VaultError.corrupted` when the file does not parse, `.fileSystem` when unreadable.
    static func load(profile: URL) throws(EraserKitError) -> DeviceSettings {
        let url = profile.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return DeviceSettings() }
        do {
            return try JSONDecoder().decode(DeviceSettings.self, from: Data(contentsOf: url))
        } catch let error as DecodingError {
            throw .vault(.corrupted(what: url.path, reason: "\(error)"))
        } catch {
            throw .vault(.fileSystem(path: url.path, reason: error.localizedDescription))
        }
    }

    /// Writes the settings to `profile` atomically (mode 0600).
    func save(profile: URL) throws(EraserKitError) {
        let url = profile.appendingPathComponent(Self.fileName)
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            try encoder.encode(self).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw .vault(.fileSystem(path: url.path, reason: error.localizedDescription))
        }
    }
}

/// The current scan's history figures, kept by the device and written to the Vault's history.
public struct DeviceScanFigures: Sendable, Equatable, Codable {
    /// The scan's id (the history row's).
    public var id: String
    /// When the scan started.
    public var startedAt: Date
    /// When the scan reached its review, if it did.
    public var completedAt: Date?
    /// Assets and events looked at.
    public var totalScanned: Int?
    /// Results found.
    public var totalMatched: Int?
    /// Results moved into the Vault so far.
    public var totalVaulted: Int
    /// Results put into the Cooling Off bin so far.
    public var totalDeleted: Int

    /// The record these figures make.
    var record: VaultScanRecord {
        VaultScanRecord(id: id, startedAt: startedAt, completedAt: completedAt, totalScanned: totalScanned,
                        totalMatched: totalMatched, totalVaulted: totalVaulted, totalDeleted: totalDeleted)
    }
}
