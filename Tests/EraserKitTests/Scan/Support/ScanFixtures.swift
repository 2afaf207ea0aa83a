import Foundation
import KindredTestSupport

@testable import EraserKit

/// Shared values for the scan tests: descriptors at exact distances from one reference, photos,
/// dates, events and a store in a temporary profile.
enum ScanFixtures {
    /// The descriptor length (dlib's).
    static let dimensions = 128

    /// The ex's reference descriptor: 1 on axis 0.
    static let reference: [Float] = (0..<dimensions).map { $0 == 0 ? 1 : 0 }

    /// A descriptor `distance` away from `reference` (moved along `axis`, 1…127).
    static func face(at distance: Float, axis: Int = 1) -> DetectedFace {
        var descriptor = reference
        descriptor[axis] = distance
        return DetectedFace(box: FaceBox(x: 10, y: 10, width: 80, height: 80), descriptor: descriptor)
    }

    /// Someone else: 1.3 away on axis 2.
    static let stranger = face(at: 1.3, axis: 2)

    /// The store key tests use.
    static let keyBytes: [UInt8] = (0..<32).map { UInt8($0 &* 7 &+ 3) }

    /// A store in `directory`.
    static func store(in directory: TemporaryDirectory, keyBytes: [UInt8] = keyBytes) throws -> ScanStore {
        try ScanStore(profile: directory.url.appendingPathComponent("profile"), key: ScanStoreKey(bytes: keyBytes))
    }

    /// UTC.
    static let utc = TimeZone(identifier: "UTC")!

    /// An instant given as UTC wall-clock fields.
    static func date(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 12, _ minute: Int = 0, _ second: Double = 0) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let whole = calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute))!
        return whole.addingTimeInterval(second)
    }

    /// A photo `p<n>` (zero-padded so ids sort in index order) captured at `date`.
    static func photo(_ n: Int, _ date: Date, mediaType: MediaType = .photo) -> PhotoAsset {
        PhotoAsset(
            id: assetID(n), mediaType: mediaType, path: "roll/p\(n).jpg",
            captureDate: CaptureDate(date: date, source: .exifWithOffset, utcOffsetSeconds: 0), byteCount: 1000)
    }

    /// The id of photo `n`.
    static func assetID(_ n: Int) -> AssetID {
        let digits = String(n)
        return AssetID(rawValue: "p" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits)
    }

    /// The index of an id made by `assetID`.
    static func index(of id: AssetID) -> Int? { Int(id.rawValue.dropFirst()) }

    /// An event `e-<name>` on the `home` calendar.
    static func event(
        _ name: String, title: String = "Dinner", start: Date, hours: Double = 1,
        attendees: [EventPerson] = [], organizer: EventPerson? = nil
    ) -> CalendarEvent {
        CalendarEvent(
            id: EventID(rawValue: "home/e-\(name)"), calendar: "home", title: title,
            start: start, end: start.addingTimeInterval(hours * 3600), organizer: organizer, attendees: attendees)
    }
}

extension ScanResult {
    /// The result's asset or event id, as text (for compact expectations).
    var rawID: String {
        switch item {
        case .asset(let id): id.rawValue
        case .event(let id): id.rawValue
        }
    }
}
