import Foundation

/// A result's thumbnail written to a file to look at (`kindred eraser review --open`).
public struct ResultPreview: Sendable, Equatable {
    /// Where the thumbnail came from.
    public enum Source: String, Sendable {
        /// Made now from the photo in the library.
        case library
        /// The Vault's own thumbnail (the photo was vaulted or deleted into Cooling Off).
        case vault
    }

    /// The result's store key (`asset:<id>`).
    public var key: String
    /// The JPEG file written.
    public var file: URL
    /// The thumbnail's size in pixels.
    public var width: Int
    public var height: Int
    public var source: Source
}

extension EraserDevice {
    /// The folder `preview(_:to:)` writes to when not given a file: `<profile>/previews`.
    public var previewsFolder: URL { profile.appendingPathComponent("previews", isDirectory: true) }

    /// Writes the thumbnail of the current scan's result `itemKey` (at most 256 px, JPEG) to
    /// `file`, or to `previews/<key>.jpg` in the profile (readable by this user only). A photo
    /// still in the library gets a thumbnail made now; one already carried into the Vault gets
    /// the Vault's thumbnail, decrypted.
    /// - Throws: `ScanError.notAResult` for a key that is not a result, `VaultError.noThumbnail`
    ///   for an event, a video or a photo that is in neither place, the thumbnail maker's errors
    ///   (`vault.unsupported_image`, `vault.undecodable_image`), `.fileSystem` when the file
    ///   cannot be written.
    public func preview(_ itemKey: String, to file: URL? = nil) throws(EraserKitError) -> ResultPreview {
        guard let item = ScanItem(key: itemKey), try review().results().contains(where: { $0.item == item }) else {
            throw .scan(.notAResult(itemKey))
        }
        guard case .asset(let id) = item else { throw .vault(.noThumbnail(itemKey)) }
        let library = try library(try settings())
        let jpeg: [UInt8]
        let source: ResultPreview.Source
        if let asset = try library.asset(id) {
            guard asset.mediaType == .photo else { throw .vault(.noThumbnail(itemKey)) }
            jpeg = try ThumbnailMaker().thumbnail(ofFile: try library.contentsURL(of: id)).jpeg
            source = .library
        } else if let copy = try vault.items(originalID: id.rawValue)
            .filter({ $0.coolingOff?.status != .deleted && $0.hasThumbnail }).max(by: { $0.createdAt < $1.createdAt }) {
            jpeg = try vault.thumbnail(copy.id)
            source = .vault
        } else {
            throw .vault(.noThumbnail(itemKey))
        }
        let size = try JPEGCodec.size(of: jpeg)
        let destination = file ?? previewsFolder.appendingPathComponent(Self.previewName(itemKey))
        if file == nil { try VaultFileIO.makeFolder(previewsFolder) }
        try VaultFileIO.write(destination) { (output) throws(EraserKitError) in try output.write(jpeg) }
        return ResultPreview(key: itemKey, file: destination, width: size.width, height: size.height, source: source)
    }

    /// A file name for `key`: its letters, digits, `-` and `_`, with `:` as `-` (`asset-<id>.jpg`).
    static func previewName(_ key: String) -> String {
        let safe = key.unicodeScalars.map { scalar -> String in
            if scalar == ":" { return "-" }
            return CharacterSet.alphanumerics.contains(scalar) && scalar.isASCII || scalar == "-" || scalar == "_" ? String(scalar) : "_"
        }
        return safe.joined() + ".jpg"
    }
}
