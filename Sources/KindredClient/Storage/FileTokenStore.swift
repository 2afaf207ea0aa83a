import Foundation

/// A token store in a profile folder: `session.json` (mode 0600) in a folder of mode 0700.
///
/// The file is JSON, replaced atomically on every save (see `ProfileDirectory`), so a crash
/// leaves the previous session or the new one, and no other user can read the tokens.
public struct FileTokenStore: TokenStore {
    /// The file name of the session in the profile folder.
    public static let fileName = "session.json"

    /// The profile folder.
    public let profile: ProfileDirectory

    /// A store in `profileDirectory` (created on the first save).
    public init(profileDirectory: URL) {
        profile = ProfileDirectory(url: profileDirectory)
    }

    /// The stored session, or `nil` when there is no `session.json`.
    /// - Throws: `KindredClientError.storage` when the file cannot be read or is not a session.
    public func load() throws(KindredClientError) -> StoredSession? {
        guard let data = try profile.read(Self.fileName) else { return nil }
        do {
            return try Self.decoder.decode(StoredSession.self, from: data)
        } catch {
            throw .storage("\(profile.url.appendingPathComponent(Self.fileName).path) is not a stored session")
        }
    }

    /// Writes `session` to `session.json`, atomically, mode 0600.
    public func save(_ session: StoredSession) throws(KindredClientError) {
        let data: Data
        do {
            data = try Self.encoder.encode(session)
        } catch {
            throw .storage("cannot encode the session")
        }
        try profile.write(Self.fileName, data)
    }

    /// Removes `session.json`.
    public func clear() throws(KindredClientError) {
        try profile.remove(Self.fileName)
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    private static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
