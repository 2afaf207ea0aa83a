import Foundation

/// Where a device keeps its `LocalQuestionCatalog`: one JSON file in the profile folder
/// (`closer-catalog.json`), replaced atomically on every save. The catalog is public content,
/// so it is not encrypted; the assignment holds only ids and dates.
public struct LocalCatalogStore: Sendable {
    /// The file's name inside a profile folder.
    public static let fileName = "closer-catalog.json"

    /// The file.
    public let url: URL

    /// The store at `url`.
    public init(url: URL) {
        self.url = url
    }

    /// The store in a profile folder.
    public init(profileDirectory: URL) {
        self.init(url: profileDirectory.appendingPathComponent(Self.fileName))
    }

    /// The stored copy; an empty one when the file does not exist yet.
    /// - Throws: `CloserKitError.invalidInput` when the file cannot be read or does not decode.
    public func load() throws(CloserKitError) -> LocalQuestionCatalog {
        guard FileManager.default.fileExists(atPath: url.path) else { return LocalQuestionCatalog() }
        do {
            let data = try Data(contentsOf: url)
            return try Self.decoder.decode(LocalQuestionCatalog.self, from: data)
        } catch {
            throw .invalidInput("the local question catalog at \(url.path) cannot be read: \(error.localizedDescription)")
        }
    }

    /// Replaces the stored copy with `catalog`.
    /// - Throws: `CloserKitError.invalidInput` when the file cannot be written.
    public func save(_ catalog: LocalQuestionCatalog) throws(CloserKitError) {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Self.encoder.encode(catalog).write(to: url, options: .atomic)
        } catch {
            throw .invalidInput("the local question catalog at \(url.path) cannot be written: \(error.localizedDescription)")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
