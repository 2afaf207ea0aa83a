import Foundation

/// A fresh temporary directory, removed when the value is released.
public final class TemporaryDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Creates an empty directory under the system's temporary folder.
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("kindred-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `bytes` to `name` in the directory and returns its URL.
    @discardableResult
    public func write(_ name: String, _ bytes: [UInt8]) throws -> URL {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file
    }

    /// Writes `bytes` to `name` in the directory and returns its path.
    public func file(_ name: String, _ bytes: [UInt8]) throws -> String {
        try write(name, bytes).path
    }

    /// Reads `name` from the directory.
    public func read(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: url.appendingPathComponent(name)))
    }

    deinit { try? FileManager.default.removeItem(at: url) }
}
