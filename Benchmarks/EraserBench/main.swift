// scripts/bench-eraser: Ex-Eraser's scan without the face phase (issue 23: 10,000 assets and
// 5,000 events under 30 s and 200 MB; the seed's figure is 15 minutes for 10,000 photos).
//
// Baseline, measured in the same run on the same files: the least I/O any scan must do — walk
// the folder, open each file and read its first 64 KiB, and read the calendar file. The scan is
// a cold FolderPhotoLibrary open (the index built from nothing) plus a ScanEngine run with a date
// range, a contact and the calendar phase; then a warm re-open and re-scan.
#if canImport(Glibc)
import Glibc
#endif
import Crypto
import EraserKit
import Foundation

let arguments = CommandLine.arguments
if arguments.count > 1, arguments[1] == "vault" {
    // scripts/bench-eraser-vault: Vault open and listing (VaultBench.swift).
    try await VaultBench.run(items: arguments.count > 2 ? Int(arguments[2]) ?? 500 : 500)
    exit(0)
}
if arguments.count > 3, arguments[1] == "faces" {
    // scripts/bench-eraser-faces: the face phase's photos per minute (FaceBench.swift).
    try await FaceBench.run(folder: URL(fileURLWithPath: arguments[2]), reference: URL(fileURLWithPath: arguments[3]),
                            workers: arguments.count > 4 ? Int(arguments[4]) ?? 2 : 2)
    exit(0)
}
let assets = arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000
let events = arguments.count > 2 ? Int(arguments[2]) ?? 5_000 : 5_000

/// Peak resident memory of this process so far, in MiB.
func peakMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

func seconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    let elapsed = ContinuousClock.now - start
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

// MARK: - The library: JPEGs with EXIF dates over three years, about 96 KiB each

func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
    let length = payload.count + 2
    return [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
}

/// A little-endian TIFF with IFD0 → Exif IFD holding DateTimeOriginal.
func exif(date: String) -> [UInt8] {
    func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
    func le32(_ v: Int) -> [UInt8] { le16(v & 0xFFFF) + le16(v >> 16) }
    let text = Array(date.utf8) + [0]  // 20 bytes
    var tiff: [UInt8] = [0x49, 0x49] + le16(42) + le32(8)
    // IFD0 at 8: one entry (ExifIFD pointer), next = 0 → 2 + 12 + 4 = 18 bytes; Exif IFD at 26.
    tiff += le16(1) + le16(0x8769) + le16(4) + le32(1) + le32(26) + le32(0)
    // Exif IFD at 26: one entry (DateTimeOriginal, ASCII, 20, at 44), next = 0.
    tiff += le16(1) + le16(0x9003) + le16(2) + le32(text.count) + le32(44) + le32(0)
    tiff += text
    return tiff
}

func jpeg(date: String, padding: Int) -> [UInt8] {
    var out: [UInt8] = [0xFF, 0xD8]
    out += segment(0xE1, Array("Exif".utf8) + [0, 0] + exif(date: date))
    out += segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
    out += segment(0xC0, [8, 0x0B, 0xD0, 0x0F, 0xC0, 1, 1, 0x11, 0])  // 4032 × 3024
    out += segment(0xDA, [1, 1, 0x00, 0, 63, 0])
    out += [UInt8](repeating: 0x5A, count: padding)
    out += [0xFF, 0xD9]
    return out
}

let root = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-eraser-bench-\(getpid())")
let photos = root.appendingPathComponent("photos")
let profile = root.appendingPathComponent("profile")
try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: root) }

var utc = Calendar(identifier: .gregorian)
utc.timeZone = TimeZone(identifier: "UTC")!
let first = utc.date(from: DateComponents(year: 2022, month: 1, day: 1))!
let formatter = DateFormatter()
formatter.locale = Locale(identifier: "en_US_POSIX")
formatter.timeZone = TimeZone(identifier: "UTC")
formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
var planted = 0
for index in 0..<assets {
    let date = first.addingTimeInterval(Double(index) * 3 * 365 * 86_400 / Double(assets))
    if utc.component(.year, from: date) == 2023 { planted += 1 }
    let folder = photos.appendingPathComponent(String(format: "%03d", index / 500))
    if index % 500 == 0 { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
    let bytes = jpeg(date: formatter.string(from: date), padding: 96 * 1024 + index % 1024)
    try Data(bytes).write(to: folder.appendingPathComponent("IMG_\(index).jpg"))
}

// MARK: - The calendar: 5,000 events, every 50th with the ex as an attendee

var ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Kindred//bench//EN\r\n"
let stamp = DateFormatter()
stamp.locale = Locale(identifier: "en_US_POSIX")
stamp.timeZone = TimeZone(identifier: "UTC")
stamp.dateFormat = "yyyyMMdd'T'HHmmss'Z'"
var withEx = 0
for index in 0..<events {
    let start = first.addingTimeInterval(Double(index) * 3 * 365 * 86_400 / Double(events))
    ics += "BEGIN:VEVENT\r\nUID:bench-\(index)@kindred\r\nDTSTAMP:\(stamp.string(from: first))\r\n"
    ics += "DTSTART:\(stamp.string(from: start))\r\nDTEND:\(stamp.string(from: start.addingTimeInterval(3600)))\r\n"
    ics += "SUMMARY:Meeting \(index)\r\nORGANIZER;CN=Me:mailto:me@example.com\r\n"
    if index % 50 == 0 {
        ics += "ATTENDEE;CN=Sam Taylor:mailto:sam.taylor@example.com\r\n"
        withEx += 1
    } else {
        ics += "ATTENDEE;CN=Colleague \(index):mailto:colleague\(index)@example.com\r\n"
    }
    ics += "END:VEVENT\r\n"
}
ics += "END:VCALENDAR\r\n"
let calendarFile = root.appendingPathComponent("calendar.ics")
try Data(ics.utf8).write(to: calendarFile)
print("generated \(assets) photos (\(planted) in 2023) and \(events) events (\(withEx) with the ex)")

// MARK: - Baseline: walk, read 64 KiB of each file, read the calendar

var baselineBytes = 0
let baseline = try await seconds {
    let enumerator = FileManager.default.enumerator(at: photos, includingPropertiesForKeys: [.isRegularFileKey])!
    var buffer = [UInt8](repeating: 0, count: 65_536)
    for case let url as URL in enumerator where url.pathExtension == "jpg" {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else { continue }
        baselineBytes += buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, 65_536) }
        close(fd)
    }
    baselineBytes += try Data(contentsOf: calendarFile).count
}

// MARK: - The scan

let key = try ScanStoreKey(SymmetricKey(size: .bits256))
let configuration = ScanConfiguration(
    dateRanges: [ScanDateRange(from: ScanDay(year: 2023, month: 1, day: 1), through: ScanDay(year: 2023, month: 12, day: 31))],
    contact: ScanContact(name: "Sam Taylor", phones: ["+90 532 123 45 67"], emails: ["sam.taylor@example.com"]),
    includeCalendar: true, timeZone: TimeZone(identifier: "UTC")!
)
func scan() async throws -> ScanSummary {
    let library = try FolderPhotoLibrary(root: photos, timeZone: TimeZone(identifier: "UTC")!)
    let calendar = try ICSCalendarStore(location: calendarFile, floatingTimeZone: TimeZone(identifier: "UTC")!)
    let engine = ScanEngine(
        library: library, calendar: calendar, contactMatcher: { ContactMatcher($0, defaultCountryCode: 90) },
        store: try ScanStore(profile: profile, key: key)
    )
    return try await engine.start(configuration)
}
var summary: ScanSummary?
let cold = try await seconds { summary = try await scan() }
let coldPeak = peakMiB()
let warm = try await seconds { summary = try await scan() }
let result = summary!

print("results: \(result)")
print(String(format: "baseline (walk + 64 KiB a file + calendar): %.2f s", baseline))
print(String(format: "scan, cold (index built): %.2f s = %.1fx baseline; target < 30 s: %@", cold, cold / baseline, cold < 30 ? "met" : "MISSED"))
print(String(format: "scan, warm (index reused): %.2f s = %.1fx baseline", warm, warm / baseline))
print(String(format: "peak memory after the cold scan: %.0f MiB; target < 200 MB (190.7 MiB): %@", coldPeak, coldPeak < 190.7 ? "met" : "MISSED"))
print(String(format: "peak memory overall: %.0f MiB", peakMiB()))
