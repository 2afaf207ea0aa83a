/// What went wrong in Ex-Eraser's device side: one case per area, each carrying that area's
/// documented reasons (declared next to the area's code). Every error has a stable `code`
/// (`library.not_found`, `vault.locked`, …) for scripts and the UI, and a sentence for a person.
public enum EraserKitError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The photo library (`PhotoLibrary`): missing assets, unreadable files, refused moves.
    case library(LibraryError)
    /// The calendar (`CalendarStore`, the .ics reader and its recurrence expansion).
    case calendar(CalendarError)
    /// The face embedder (`FaceEmbedder`): a missing model or worker, an unreadable image.
    case faces(FaceError)
    /// The Vault and the Cooling Off bin.
    case vault(VaultError)
    /// The scan engine: a bad configuration, a cancelled or missing scan, a bad decision.
    case scan(ScanError)

    /// The stable code: the area, a dot, and the reason's code.
    public var code: String {
        switch self {
        case .library(let reason): "library.\(reason.code)"
        case .calendar(let reason): "calendar.\(reason.code)"
        case .faces(let reason): "faces.\(reason.code)"
        case .vault(let reason): "vault.\(reason.code)"
        case .scan(let reason): "scan.\(reason.code)"
        }
    }

    /// A sentence for a person.
    public var message: String {
        switch self {
        case .library(let reason): reason.message
        case .calendar(let reason): reason.message
        case .faces(let reason): reason.message
        case .vault(let reason): reason.message
        case .scan(let reason): reason.message
        }
    }

    public var description: String { "\(code): \(message)" }
}

/// The reasons of one area of `EraserKitError`.
public protocol EraserErrorReason: Error, Equatable, Sendable {
    /// The reason's stable code within its area (`not_found`).
    var code: String { get }
    /// A sentence for a person.
    var message: String { get }
}
