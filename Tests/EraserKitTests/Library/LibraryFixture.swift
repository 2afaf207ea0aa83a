import Foundation
import KindredTestSupport
#if canImport(Glibc)
import Glibc
#endif

@testable import EraserKit

/// A library folder for a test: files written at relative paths with chosen modification times,
/// and the library opened over it.
struct LibraryFixture {
    let directory: TemporaryDirectory
    var root: URL { directory.url }
    let zone = TimeZone(identifier: "Europe/Berlin")!

    init() throws { directory = try TemporaryDirectory() }

    /// Writes `bytes` at `path` (folders made as needed), with `mtime` as modification time.
    @discardableResult
    func write(_ path: String, _ bytes: [UInt8], mtime: Date? = nil) throws -> URL {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
        if let mtime { try setModificationNanos(path, FileIdentity.nanos(mtime)) }
        return url
    }

    /// Writes many small files fast: plain `open`/`write`/`close` (Foundation's `Data.write`
    /// costs milliseconds a file here). The folders must exist.
    func writeQuickly(_ path: String, _ bytes: [UInt8]) throws {
        let fd = Glibc.open(root.appendingPathComponent(path).path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
    }

    func read(_ path: String) throws -> [UInt8] { Array(try Data(contentsOf: root.appendingPathComponent(path))) }

    func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) }

    /// `lstat` of a file.
    func stat(_ path: String) throws -> FileIdentity {
        guard let identity = try LibraryFiles.identity(root.appendingPathComponent(path).path) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: path])
        }
        return identity
    }

    func setModificationNanos(_ path: String, _ nanos: Int64) throws {
        try LibraryFiles.setModificationTime(root.appendingPathComponent(path).path, nanos: nanos)
    }

    func move(_ from: String, _ to: String) throws {
        let target = root.appendingPathComponent(to)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: root.appendingPathComponent(from), to: target)
    }

    func remove(_ path: String) throws { try FileManager.default.removeItem(at: root.appendingPathComponent(path)) }

    func open(_ access: LibraryAccess = .full) throws -> FolderPhotoLibrary {
        try FolderPhotoLibrary(root: root, access: access, timeZone: zone)
    }

    /// Every visible asset, page by page.
    static func all(_ library: FolderPhotoLibrary, page: Int = 7) throws -> [PhotoAsset] {
        var assets: [PhotoAsset] = []
        while true {
            let batch = try library.assets(offset: assets.count, limit: page)
            assets += batch
            if batch.count < page { return assets }
        }
    }

    /// The asset at `path`.
    static func asset(at path: String, in library: FolderPhotoLibrary) throws -> PhotoAsset? {
        try all(library).first { $0.path == path }
    }

    // MARK: - Files

    /// 2024-07-14T18:30:05+02:00 = 16:30:05Z.
    static let exifInstant = Date(timeIntervalSince1970: 1_720_974_605)

    /// A photo whose EXIF has a date with an offset, a size and GPS.
    static func photo(date: String = "2024:07:14 18:30:05", offset: String? = "+02:00", tag: String = "") -> [UInt8] {
        var tiff = TIFFBuilder.photo(date: date, offset: offset, size: (4000, 3000), gps: TIFFBuilder.gps(
            latitudeRef: "N", latitude: (52, 31, 0), longitudeRef: "E", longitude: (13, 24, 0)))
        // A distinct maker string makes distinct bytes (and fingerprints).
        tiff.ifd0.append((0x0131, .ascii("Software " + tag)))
        return MediaFixtures.jpeg(tiff: tiff.bytes())
    }
}
