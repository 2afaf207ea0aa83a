/// The scan engine's reasons for failing.
public enum ScanError: EraserErrorReason {
    /// The scan's settings cannot work (the reason says which).
    case invalidConfiguration(String)
    /// The configuration asks for nothing: no reference faces, no date range, no contact.
    case nothingToScan
    /// Face matching needs 1 to 5 reference photos (or descriptors); this many were given.
    case referenceCount(Int)
    /// A date range cannot be used: a day that does not exist, or a start after its end.
    case invalidDateRange(index: Int, reason: String)
    /// The time zone identifier is not one the system knows.
    case unknownTimeZone(String)
    /// The contact to look for has no name, phone number or e-mail address.
    case emptyContact
    /// The face threshold is not a positive, finite distance.
    case invalidThreshold(Double)
    /// A reference photo shows no face, or more than one (the path and how many).
    case unusableReference(path: String, faces: Int)
    /// Reference descriptors are empty, of different lengths, or not finite.
    case invalidReferenceDescriptors(String)
    /// The scan needs a service it was not given (a face embedder, a calendar, a contact matcher).
    case missingDependency(String)
    /// The scan was cancelled; it can be resumed.
    case cancelled
    /// A scan is already running on this engine.
    case alreadyRunning
    /// The profile holds no scan (nothing to resume or review).
    case noScan
    /// The profile's scan is not in the state the call needs (the state it is in).
    case wrongState(String)
    /// The item is not one of the scan's results (a decision needs a result).
    case notAResult(String)
    /// The key for the scan's store is not 32 bytes.
    case invalidKey(Int)
    /// The scan's store (`scan.db`) could not be opened, read or written.
    case store(String)
    /// A sealed row of the scan's store does not open with this key (another key, or a modified row).
    case sealedRowDoesNotOpen(String)

    public var code: String {
        switch self {
        case .invalidConfiguration: "invalid_configuration"
        case .nothingToScan: "nothing_to_scan"
        case .referenceCount: "reference_count"
        case .invalidDateRange: "invalid_date_range"
        case .unknownTimeZone: "unknown_time_zone"
        case .emptyContact: "empty_contact"
        case .invalidThreshold: "invalid_threshold"
        case .unusableReference: "unusable_reference"
        case .invalidReferenceDescriptors: "invalid_reference_descriptors"
        case .missingDependency: "missing_dependency"
        case .cancelled: "cancelled"
        case .alreadyRunning: "already_running"
        case .noScan: "no_scan"
        case .wrongState: "wrong_state"
        case .notAResult: "not_a_result"
        case .invalidKey: "invalid_key"
        case .store: "store"
        case .sealedRowDoesNotOpen: "sealed_row_does_not_open"
        }
    }

    public var message: String {
        switch self {
        case .invalidConfiguration(let reason): "The scan cannot start: \(reason)."
        case .nothingToScan: "Choose reference photos, a date range or a contact to scan for."
        case .referenceCount(let count): "Face matching needs 1 to 5 reference photos; \(count) were given."
        case .invalidDateRange(let index, let reason): "Date range \(index + 1) cannot be used: \(reason)."
        case .unknownTimeZone(let identifier): "The time zone \(identifier) is unknown."
        case .emptyContact: "The contact has no name, phone number or e-mail address."
        case .invalidThreshold(let value): "The face threshold must be a positive distance, not \(value)."
        case .unusableReference(let path, let faces):
            faces == 0
                ? "The reference photo \(path) shows no face; choose one that shows the person clearly."
                : "The reference photo \(path) shows \(faces) faces; choose one that shows only the person."
        case .invalidReferenceDescriptors(let reason): "The reference descriptors cannot be used: \(reason)."
        case .missingDependency(let what): "The scan needs \(what), which was not provided."
        case .cancelled: "The scan was cancelled; it can be resumed where it stopped."
        case .alreadyRunning: "A scan is already running."
        case .noScan: "There is no scan to resume or review; start one first."
        case .wrongState(let state): "The scan cannot do that now: it is \(state)."
        case .notAResult(let item): "\(item) is not one of the scan's results."
        case .invalidKey(let count): "The scan store's key must be 32 bytes, not \(count)."
        case .store(let reason): "The scan's store failed: \(reason)."
        case .sealedRowDoesNotOpen(let row): "The scan's \(row) does not open with this key."
        }
    }
}
