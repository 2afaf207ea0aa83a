#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KindredClient
import KindredTestSupport
import Testing

/// `FileTokenStore`: file and folder modes, atomic replacement, round trip, clear.
@Suite struct FileTokenStoreTests {
    let folder: TemporaryDirectory
    let profile: URL
    let store: FileTokenStore

    init() throws {
        folder = try TemporaryDirectory()
        profile = folder.url.appendingPathComponent("phones/alice")
        store = FileTokenStore(profileDirectory: profile)
    }

    let session = StoredSession(
        serverURL: URL(string: "http://127.0.0.1:8080")!, app: .soulmate, userID: "0b4e7c0e-8d1a-4f5e-9a51-6a1f2d3c4b5a",
        accessToken: "eyJ.access.token", accessTokenExpiresAt: Date(timeIntervalSince1970: 1_800_000_900),
        refreshToken: "refresh-token-43-characters-of-base64url-xx"
    )

    @Test func saveWritesMode0600InAFolderOfMode0700() throws {
        try store.save(session)

        #expect(try mode(of: profile.appendingPathComponent("session.json")) == 0o600)
        #expect(try mode(of: profile) == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: profile.path) == ["session.json"])
        #expect(try store.load() == session)
    }

    @Test func aReadableOldFileIsReplacedByAPrivateOne() throws {
        try FileManager.default.createDirectory(at: profile, withIntermediateDirectories: true)
        let file = profile.appendingPathComponent("session.json")
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data("{}".utf8), attributes: [.posixPermissions: 0o644]))
        #expect(try mode(of: file) == 0o644)

        try store.save(session)

        #expect(try mode(of: file) == 0o600)
        #expect(try store.load() == session)
    }

    @Test func theFileIsJSONWithISO8601Dates() throws {
        try store.save(session)
        let text = String(decoding: try Data(contentsOf: profile.appendingPathComponent("session.json")), as: UTF8.self)
        #expect(text.contains(#""accessTokenExpiresAt" : "2027-01-15T08:15:00Z""#))
        #expect(text.contains(#""app" : "soulmate""#))
    }

    @Test func clearRemovesTheFileAndIsIdempotent() throws {
        try store.save(session)
        try store.clear()
        try store.clear()
        #expect(try store.load() == nil)
        #expect(!FileManager.default.fileExists(atPath: profile.appendingPathComponent("session.json").path))
    }

    @Test func aFileThatIsNotASessionIsAStorageError() throws {
        try ProfileDirectory(url: profile).write("session.json", Data("not json".utf8))
        #expect(throws: KindredClientError.storage("\(profile.path)/session.json is not a stored session")) {
            try store.load()
        }
    }

    /// The permission bits of `url`.
    private func mode(of url: URL) throws -> mode_t {
        var status = stat()
        guard stat(url.path, &status) == 0 else { throw POSIXError(.ENOENT) }
        return status.st_mode & 0o777
    }
}
