/// The photo library's reasons for failing.
public enum LibraryError: EraserErrorReason {
    /// No asset has this id.
    case notFound(AssetID)
    /// The library's root folder does not exist or is not a folder.
    case missingRoot(String)
    /// The asset is outside the folders the user allowed (a limited library).
    case outsideAccess(String)
    /// A file could not be read, moved or written.
    case fileSystem(path: String, reason: String)
    /// Restoring would overwrite a different file now at the original path.
    case pathTaken(String)

    public var code: String {
        switch self {
        case .notFound: "not_found"
        case .missingRoot: "missing_root"
        case .outsideAccess: "outside_access"
        case .fileSystem: "file_system"
        case .pathTaken: "path_taken"
        }
    }

    public var message: String {
        switch self {
        case .notFound(let id): "No photo or video has the id \(id)."
        case .missingRoot(let path): "The photo library folder \(path) does not exist."
        case .outsideAccess(let path): "\(path) is outside the folders Ex-Eraser may see."
        case .fileSystem(let path, let reason): "Could not use \(path): \(reason)."
        case .pathTaken(let path): "Another file is now at \(path); move it away to restore."
        }
    }
}
