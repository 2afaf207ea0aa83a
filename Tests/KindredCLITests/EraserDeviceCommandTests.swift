import Foundation
import KindredTestSupport
import Testing

/// `kindred eraser setup/scan/review/decide/apply/vault` on a tiny folder library, as a user would run them.
@Suite struct EraserDeviceCommandTests {
    let passphrase = "correct horse battery staple"

    /// A JPEG without EXIF (its capture date is its modification time): SOI, JFIF, DQT, SOF0, SOS, EOI.
    static func jpeg(width: UInt8) -> [UInt8] {
        func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
            [0xFF, marker, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        }
        return [0xFF, 0xD8] + segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
            + segment(0xDB, [0x00] + [UInt8](repeating: 1, count: 64))
            + segment(0xC0, [8, 0, 16, 0, width, 1, 1, 0x11, 0]) + segment(0xDA, [1, 1, 0x00, 0, 63, 0])
            + [0x12, 0x34, 0xFF, 0x00, 0x56, 0xFF, 0xD9]
    }

    func eraser(_ arguments: [String], profile: URL, stdin: String = "", passphrase: String?) throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment
        environment["KINDRED_PROFILE_PASSPHRASE"] = passphrase
        environment["KINDRED_PROFILE"] = nil
        return try ChildProcess.run(ChildProcess.kindredExecutable.path, ["eraser"] + arguments + ["--profile", profile.path],
                                    input: Array(stdin.utf8), environment: environment)
    }

    func json(_ result: ChildProcess.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.text.utf8)) as? [String: Any])
    }

    @Test func setupScanReviewDecideApplyOnATinyLibrary() throws {
        let folder = try TemporaryDirectory()
        let photos = folder.url.appendingPathComponent("photos")
        let profile = folder.url.appendingPathComponent("profile")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("trip"), withIntermediateDirectories: true)
        let planted = photos.appendingPathComponent("trip/us.jpg")
        let other = photos.appendingPathComponent("cat.jpg")
        try Data(Self.jpeg(width: 20)).write(to: planted)
        try Data(Self.jpeg(width: 30)).write(to: other)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_686_000_000)], ofItemAtPath: planted.path)  // 2023-06-05
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: 1_577_900_000)], ofItemAtPath: other.path)  // 2020-01-01

        let setup = try eraser(["setup", "--json"], profile: profile, stdin: passphrase + "\n", passphrase: nil)
        #expect(setup.status == 0, "\(setup.stderr)")
        #expect(try json(setup)["vault"] as? String == profile.appendingPathComponent("vault").path)
        let again = try eraser(["setup", "--json"], profile: profile, passphrase: passphrase)
        #expect(again.status == 1)
        #expect((try json(again)["error"] as? [String: Any])?["code"] as? String == "vault.already_set_up")

        let scanArguments = ["scan", "--photos", photos.path, "--from", "2023-01-01", "--to", "2023-12-31", "--time-zone", "UTC", "--json"]
        let locked = try eraser(scanArguments, profile: profile, passphrase: nil)
        #expect(locked.status == 1)
        #expect(locked.stderr.contains("error:"))

        let scan = try eraser(scanArguments, profile: profile, passphrase: passphrase)
        #expect(scan.status == 0, "\(scan.stderr)")
        #expect(try json(scan)["resultCount"] as? Int == 1)
        #expect(scan.stderr.contains("scan: date_ranges (1/1) 2/2"))

        let review = try eraser(["review", "--json"], profile: profile, passphrase: passphrase)
        #expect(review.status == 0, "\(review.stderr)")
        let results = try #require(try json(review)["results"] as? [[String: Any]])
        #expect(results.count == 1)
        #expect(results.first?["kind"] as? String == "photo")
        #expect(results.first?["categories"] as? [String] == ["date_range"])
        let key = try #require(results.first?["key"] as? String)

        #expect(try eraser(["decide", key, "vault", "--json"], profile: profile, passphrase: passphrase).status == 0)
        #expect(try eraser(["decide", key, "shred"], profile: profile, passphrase: passphrase).status != 0)
        let apply = try eraser(["apply", "--json"], profile: profile, passphrase: passphrase)
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(!FileManager.default.fileExists(atPath: planted.path))
        #expect(FileManager.default.fileExists(atPath: other.path))
        let id = try #require((try json(apply)["applied"] as? [[String: Any]])?.first?["vaultItemID"] as? String)

        let restore = try eraser(["vault", "restore", id, "--json"], profile: profile, passphrase: passphrase)
        #expect(restore.status == 0, "\(restore.stderr)")
        #expect(try json(restore)["id"] as? String == id)
        #expect(try json(restore)["restoredAs"] as? String == key)  // The folder library keeps the id.
        #expect(Array(try Data(contentsOf: planted)) == Self.jpeg(width: 20))
        let reviewed = try eraser(["review", "--json"], profile: profile, passphrase: passphrase)
        let after = try #require(try json(reviewed)["results"] as? [[String: Any]])
        #expect(after.first?["key"] as? String == key)
        #expect(after.first?["decision"] as? String == "keep")
        #expect(after.first?["path"] as? String == "trip/us.jpg")
        let list = try eraser(["vault", "list", "--json"], profile: profile, passphrase: passphrase)
        #expect(list.status == 0, "\(list.stderr)")
        #expect((try JSONSerialization.jsonObject(with: Data(list.text.utf8)) as? [Any])?.count == 0)
    }
}
