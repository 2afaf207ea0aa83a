/// The part of the folder tree a library may see: all of it, or some folders (relative to the
/// root, normalised: no empty, `.` or `..` components, no leading or trailing `/`).
struct LibraryScope: Sendable, Equatable {
    /// `nil` for the whole library.
    let folders: [String]?

    init(_ access: LibraryAccess) throws(LibraryError) {
        switch access {
        case .full:
            folders = nil
        case .limited(let given):
            var normalised: [String] = []
            for folder in given {
                guard !folder.hasPrefix("/") else { throw .outsideAccess(folder) }
                let components = folder.split(separator: "/", omittingEmptySubsequences: true).filter { $0 != "." }
                guard !components.contains("..") else { throw .outsideAccess(folder) }
                normalised.append(components.joined(separator: "/"))
            }
            // A folder inside another listed folder adds nothing.
            let sorted = Set(normalised).sorted()
            folders = sorted.filter { folder in !sorted.contains { $0 != folder && Self.isInside(folder, $0) } }
        }
    }

    /// Whether the relative `path` is in sight.
    func contains(_ path: String) -> Bool {
        guard let folders else { return true }
        return folders.contains { Self.isInside(path, $0) }
    }

    /// Whether `path` is `folder` or lies under it (the empty folder is the root).
    static func isInside(_ path: String, _ folder: String) -> Bool {
        folder.isEmpty || path == folder || (path.hasPrefix(folder) && path.utf8.dropFirst(folder.utf8.count).first == UInt8(ascii: "/"))
    }

    /// The folders to walk: the root, or each allowed folder.
    var walkRoots: [String] { folders ?? [""] }
}
