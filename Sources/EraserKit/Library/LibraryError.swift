/// The photo library's reasons for failing. Also an `Error` itself, so the library's internals
/// can throw it typed; the public API wraps it in `EraserKitError.library`.
public enum LibraryError: EraserErrorReason, Error {
    /// No asset has this id.
    case notFound(AssetID)
    /// The library's root folder does not exist or is not a folder.
    case missingRoot(String)
    /// The asset is outside the folders the user allowed (a limited library), or a path would
    /// leave the library's root.
    case outsideAccess(String)
    /// A file could not be read, moved or written.
    case fileSystem(path: String, reason: String)
    /// Restoring would overwrite a different file now at the original path.
    case pathTaken(String)
    /// A photo or video file's metadata is malformed (the reason names the structure and offset).
    case unreadableMetadata(path: String, reason: String)
    /// The file is none of the formats the library reads (JPEG, PNG, HEIC, MP4/QuickTime).
    case unsupportedFormat(String)
    /// A page of `assets(offset:limit:)` was asked with a negative offset or limit.
    case invalidPage(offset: Int, limit: Int)
    /// Restoring an asset whose id is already visible in the library at another path.
    case alreadyInLibrary(AssetID)
    /// The user did not allow it: no access to the photo library (PhotoKit), or a change the
    /// system asked them to confirm was declined. The text says what was refused.
    case accessDenied(String)

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .missingRoot: "missing_root"
        case .outsideAccess: "outside_access"
        case .fileSystem: "file_system"
        case .pathTaken: "path_taken"
        case .unreadableMetadata: "unreadable_metadata"
        case .unsupportedFormat: "unsupported_format"
        case .invalidPage: "invalid_page"
        case .alreadyInLibrary: "already_in_library"
        case .accessDenied: "access_denied"
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No photo or video has the id \(id)."
        case .missingRoot(let path): "The photo library folder \(path) does not exist."
        case .outsideAccess(let path): "\(path) is outside the folders Ex-Eraser may see."
        case .fileSystem(let path, let reason): "Could not use \(path): \(reason)."
        case .pathTaken(let path): "Another file is now at \(path); move it away to restore."
        case .unreadableMetadata(let path, let reason): "The metadata of \(path) is unreadable: \(reason)."
        case .unsupportedFormat(let path): "\(path) is not a JPEG, PNG, HEIC, MP4 or QuickTime file."
        case .invalidPage(let offset, let limit): "A page needs a non-negative offset and limit (got \(offset), \(limit))."
        case .alreadyInLibrary(let id): "The asset \(id) is already in the library at another path."
        case .accessDenied(let what): "Not allowed: \(what)."
        }
    }
}
