import Foundation

/// Where `EntitlementChecker` keeps the last answer the server gave (`closer-entitlement.json`
/// in the profile folder), with the account it belongs to and its expiry.
public struct EntitlementStore: Sendable {
    /// One remembered answer.
    public struct Entry: Codable, Sendable, Equatable {
        /// The account the answer is for.
        public var userId: String
        /// Whether the server said premium.
        public var isPremium: Bool
        /// When it ends (required for the entry to unlock anything offline).
        public var expiresAt: Date?
    }

    /// The file's name inside a profile folder.
    public static let fileName = "closer-entitlement.json"

    /// The file.
    public let url: URL

    /// The store in a profile folder.
    public init(profileDirectory: URL) {
        url = profileDirectory.appendingPathComponent(Self.fileName)
    }

    /// The remembered entry; `nil` when there is none or it does not decode (no answer at all).
    public func load() -> Entry? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return try? decoder.decode(Entry.self, from: data)
    }

    /// Remembers `entry`.
    /// - Throws: `CloserKitError.invalidInput` when the file cannot be written.
    public func save(_ entry: Entry) throws(CloserKitError) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try encoder.encode(entry).write(to: url, options: .atomic)
        } catch {
            throw .invalidInput("the entitlement cache at \(url.path) cannot be written: \(error.localizedDescription)")
        }
    }

    /// Forgets the entry (on sign-out).
    public func clear() {
        try? FileManager.default.removeItem(at: url)
    }
}
