import Foundation
import KindredClient

/// The last answer the server gave, kept for offline use.
///
/// It is honoured only for the account it was read for and only while its latest expiration
/// is still ahead: past that it proves nothing, so a device offline long enough falls back to
/// no access. On the iOS app this belongs in the Keychain with the session (a user editing
/// the file gains at most access they could have bought; the server's checks stand).
public struct CachedAccess: Sendable, Codable, Equatable {
    /// The account the answer is about.
    public var userID: String
    /// The app.
    public var app: String
    /// The answer as read from the server.
    public var answer: AccessAnswer
    /// The app's entitlements as last read (name → expiry), when read.
    public var entitlements: [String: Date]?

    /// Creates an entry.
    public init(userID: String, app: String, answer: AccessAnswer, entitlements: [String: Date]? = nil) {
        self.userID = userID
        self.app = app
        self.answer = answer
        self.entitlements = entitlements
    }
}

/// Where the last answer is kept.
public protocol AccessCache: Sendable {
    /// The kept entry, nil when there is none (or it cannot be read: the caller fails closed).
    func load() async -> CachedAccess?
    /// Keeps `entry`, replacing the previous one.
    func save(_ entry: CachedAccess) async throws(PulseKitError)
    /// Forgets the entry (on sign-out).
    func clear() async throws(PulseKitError)
}

/// An `AccessCache` in a profile directory: `pulse-access.json`, written atomically.
public struct FileAccessCache: AccessCache {
    /// The file.
    public let url: URL

    /// A cache in `profileDirectory`.
    public init(profileDirectory: URL) {
        url = profileDirectory.appendingPathComponent("pulse-access.json")
    }

    public func load() async -> CachedAccess? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(CachedAccess.self, from: data)
    }

    public func save(_ entry: CachedAccess) async throws(PulseKitError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(entry).write(to: url, options: [.atomic])
        } catch {
            throw .cache("cannot write \(url.lastPathComponent): \(error.localizedDescription)")
        }
    }

    public func clear() async throws(PulseKitError) {
        do {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        } catch {
            throw .cache("cannot remove \(url.lastPathComponent): \(error.localizedDescription)")
        }
    }
}
