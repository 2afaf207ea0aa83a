import Foundation
import KindredTestSupport
import Testing

/// `kindred eraser review --open KEY [--out FILE]` through the built binary: a result's thumbnail
/// written to look at — made from the photo in the library, and from the Vault once the photo
/// was vaulted — its path printed (plain) or described (`--json`); events, keys that are not
/// results and `--out` alone are errors.
@Suite(.enabled(if: EraserPreviewPhoto.hasPillow, "Pillow is missing (pip install Pillow; CI=true makes this a failure)"))
struct EraserPreviewCommandTests {
    /// A calendar with one event inside the scan's dates.
    static let calendar = [
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Kindred//tests//EN",
        "BEGIN:VEVENT", "UID:dinner", "DTSTAMP:20230101T000000Z", "DTSTART:20230614T180000Z", "DTEND:20230614T210000Z",
        "SUMMARY:Dinner", "END:VEVENT", "END:VCALENDAR", "",
    ].joined(separator: "\r\n")

    /// Writes a 640 × 480 photo (a gradient, JPEG) with Pillow.
    static func writePhoto(_ url: URL) throws {
        let script = "import sys; from PIL import Image; "
            + "Image.linear_gradient('L').convert('RGB').resize((640, 480)).save(sys.argv[1], quality=90)"
        let result = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, url.path])
        try #require(result.status == 0, "Pillow: \(result.stderr)")
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_686_000_000)], ofItemAtPath: url.path)
    }

    /// The width and height in a JPEG's first SOFn segment.
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var index = 2
        while index + 9 < bytes.count, bytes[index] == 0xFF {
            let marker = bytes[index + 1]
            let length = Int(bytes[index + 2]) << 8 | Int(bytes[index + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(bytes[index + 7]) << 8 | Int(bytes[index + 8]), Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]))
            }
            index += 2 + length
        }
        return nil
    }

    @Test func openWritesTheThumbnailFromTheLibraryThenFromTheVault() throws {
        let folder = try TemporaryDirectory()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        try Self.writePhoto(photos.appendingPathComponent("beach.jpg"))
        let calendar = try folder.write("personal.ics", Array(Self.calendar.utf8))
        let profile = folder.url.appendingPathComponent("profile")
        let cli = EraserCLI(profile: profile)
        try cli.setUp()
        _ = try cli.object(["scan", "--photos", photos.path, "--calendar", calendar.path,
                            "--from", "2023-01-01", "--to", "2023-12-31", "--time-zone", "UTC"])
        let results = try cli.results()
        let photo = try #require(results.first { $0["path"] as? String == "beach.jpg" }?["key"] as? String)
        #expect(results.compactMap { $0["key"] as? String }.sorted() == [photo, "event:personal/dinner"])

        // From the library, to the profile's previews folder.
        let opened = try cli.object(["review", "--open", photo])
        let expected = profile.appendingPathComponent("previews")
            .appendingPathComponent(photo.replacingOccurrences(of: ":", with: "-") + ".jpg").path
        #expect(opened["key"] as? String == photo)
        #expect(opened["thumbnail"] as? String == expected)
        #expect(opened["width"] as? Int == 256)
        #expect(opened["height"] as? Int == 192)
        #expect(opened["source"] as? String == "library")
        let thumbnail = Array(try Data(contentsOf: URL(fileURLWithPath: expected)))
        #expect(thumbnail.starts(with: [0xFF, 0xD8, 0xFF]))
        #expect(Self.jpegSize(thumbnail)?.width == 256 && Self.jpegSize(thumbnail)?.height == 192)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: expected)[.posixPermissions] as? Int)
        #expect(mode & 0o777 == 0o600)

        // Plain output is the path alone; --out picks the file.
        let chosen = folder.url.appendingPathComponent("look.jpg")
        let plain = try cli.run(["review", "--open", photo, "--out", chosen.path])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(plain.text == chosen.path + "\n")
        #expect(Array(try Data(contentsOf: chosen)) == thumbnail)

        // Once vaulted the photo is gone from the library: the Vault's thumbnail is written.
        _ = try cli.object(["decide", photo, "vault"])
        _ = try cli.object(["apply"])
        #expect(!FileManager.default.fileExists(atPath: photos.appendingPathComponent("beach.jpg").path))
        try FileManager.default.removeItem(atPath: expected)
        let fromVault = try cli.object(["review", "--open", photo])
        #expect(fromVault["source"] as? String == "vault")
        #expect(fromVault["thumbnail"] as? String == expected)
        #expect(fromVault["width"] as? Int == 256 && fromVault["height"] as? Int == 192)
        let vaulted = Array(try Data(contentsOf: URL(fileURLWithPath: expected)))
        #expect(Self.jpegSize(vaulted)?.width == 256)
    }

    @Test func eventsAndUnknownKeysHaveNoThumbnail() throws {
        let folder = try TemporaryDirectory()
        let photos = folder.url.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: photos, withIntermediateDirectories: true)
        let calendar = try folder.write("personal.ics", Array(Self.calendar.utf8))
        let profile = folder.url.appendingPathComponent("profile")
        let cli = EraserCLI(profile: profile)
        try cli.setUp()
        _ = try cli.object(["scan", "--photos", photos.path, "--calendar", calendar.path,
                            "--from", "2023-01-01", "--to", "2023-12-31", "--time-zone", "UTC"])

        let event = try cli.run(["review", "--open", "event:personal/dinner", "--json"])
        #expect(event.status == 1)
        let eventError = try #require(try JSONSerialization.jsonObject(with: Data(event.text.utf8)) as? [String: [String: String]])
        #expect(eventError["error"]?["code"] == "vault.no_thumbnail")
        #expect(event.stderr == "error: Item event:personal/dinner has no thumbnail. (vault.no_thumbnail)\n")

        let unknown = try cli.run(["review", "--open", "asset:nope", "--json"])
        #expect(unknown.status == 1)
        let unknownError = try #require(try JSONSerialization.jsonObject(with: Data(unknown.text.utf8)) as? [String: [String: String]])
        #expect(unknownError["error"]?["code"] == "scan.not_a_result")
        #expect(!FileManager.default.fileExists(atPath: profile.appendingPathComponent("previews/asset-nope.jpg").path))
    }
}

/// The preview tests' photo maker.
enum EraserPreviewPhoto {
    /// Whether Pillow (which writes the test's photo) is installed; always true on CI.
    static let hasPillow: Bool = ChildProcess.isCI
        || (try? ChildProcess.run("/usr/bin/env", ["python3", "-c", "import PIL"]))?.status == 0
}
