import Foundation
import KindredClient
import KindredTestSupport

@testable import EraserKit

/// A set-up device over a generated library: four JPEGs with EXIF dates (two in 2023, one
/// before, one after) and a calendar with one 2023 event and one 2022 event.
final class DeviceFixture {
    let library: LibraryFixture
    let profileFolder: TemporaryDirectory
    let calendarFolder: TemporaryDirectory
    let store = InMemorySecureStore()
    let device: EraserDevice
    let zone = TimeZone(identifier: "Europe/Berlin")!

    /// The planted photos (in the 2023 range) and the others, by path.
    static let inRange = ["2023/beach.jpg", "2023/party/IMG_0002.jpg"]
    static let outOfRange = ["2021/old.jpg", "2025/new.jpg"]
    static let dates = [
        "2023/beach.jpg": "2023:05:10 12:00:00", "2023/party/IMG_0002.jpg": "2023:12:31 23:30:00",
        "2021/old.jpg": "2021:01:01 10:00:00", "2025/new.jpg": "2024:01:01 00:30:00",
    ]

    var calendarFile: URL { calendarFolder.url.appendingPathComponent("personal.ics") }

    init() throws {
        library = try LibraryFixture()
        profileFolder = try TemporaryDirectory()
        calendarFolder = try TemporaryDirectory()
        for (index, (path, date)) in Self.dates.sorted(by: { $0.key < $1.key }).enumerated() {
            let jpeg = MediaFixtures.jpeg(tiff: TIFFBuilder.photo(date: date).bytes(), width: UInt16(100 + index), height: 80)
            try library.write(path, jpeg, mtime: Date(timeIntervalSince1970: 1_700_000_000.123456789 + Double(index) * 1000))
        }
        try calendarFolder.write("personal.ics", CalendarFixture.calendar(
            CalendarFixture.event("anniversary-2023", ["DTSTAMP:20230101T000000Z", "DTSTART:20230614T180000Z",
                                                       "DTEND:20230614T210000Z", "SUMMARY:Anniversary dinner"])
            + CalendarFixture.event("dentist-2022", ["DTSTAMP:20220101T000000Z", "DTSTART:20220301T090000Z",
                                                     "DTEND:20220301T100000Z", "SUMMARY:Dentist"])))
        device = try EraserDevice.setUp(profileDirectory: profileFolder.url.appendingPathComponent("profile"),
                                        secureStore: store, schedule: CoolingOffSchedule(timeZone: .gmt))
    }

    /// Scans the 2023 date range, photos and calendar.
    func scan() async throws -> ScanSummary {
        try await device.scan(ScanRequest(
            photos: library.root, calendar: calendarFile,
            dateRanges: [ScanDateRange(from: ScanDay(year: 2023, month: 1, day: 1), through: ScanDay(year: 2023, month: 12, day: 31))],
            timeZone: zone))
    }

    /// The library's id of the asset at `path`.
    func assetID(_ path: String) throws -> AssetID {
        guard let asset = try LibraryFixture.all(library.open()).first(where: { $0.path == path }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return asset.id
    }
}
