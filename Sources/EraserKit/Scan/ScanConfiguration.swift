import Foundation

/// What a scan looks for (seed §4.1): the ex's face, date ranges, the ex as a contact in the
/// calendar, and whether calendar events in the date ranges count too.
public struct ScanConfiguration: Sendable, Equatable, Codable {
    /// The ex's face: 1–5 reference photos, or descriptors already computed from them.
    public enum FaceReferences: Sendable, Equatable, Codable {
        /// Reference photos; each must show exactly one face.
        case photos([URL])
        /// Reference descriptors, one per reference face, all of one length.
        case descriptors([[Float]])

        /// How many references there are.
        public var count: Int {
            switch self {
            case .photos(let urls): urls.count
            case .descriptors(let descriptors): descriptors.count
            }
        }
    }

    /// The default number of assets (or events) per batch (seed §3.1: 50 at a time).
    public static let defaultBatchSize = 50
    /// The fewest and most reference photos (seed §3.1: 3–5 selected; 1 is accepted).
    public static let referenceLimits = 1...5

    /// The ex's face, or `nil` to skip the face phase.
    public var references: FaceReferences?
    /// Days the relationship covered; photos and (with `includeCalendar`) events in them match.
    public var dateRanges: [ScanDateRange]
    /// The ex as a contact, or `nil` to skip the contact phase.
    public var contact: ScanContact?
    /// Whether calendar events in `dateRanges` are results too.
    public var includeCalendar: Bool
    /// The zone `dateRanges` are read in (an IANA identifier, `Europe/Istanbul`).
    public var timeZoneIdentifier: String
    /// Assets or events per batch; a checkpoint is written after each.
    public var batchSize: Int
    /// The face distance threshold (`FaceDistance`).
    public var threshold: Double

    /// A configuration; `validate()` says whether it can run.
    public init(
        references: FaceReferences? = nil, dateRanges: [ScanDateRange] = [], contact: ScanContact? = nil,
        includeCalendar: Bool = false, timeZone: TimeZone = .current,
        batchSize: Int = ScanConfiguration.defaultBatchSize, threshold: Double = FaceDistance.defaultThreshold
    ) {
        self.references = references
        self.dateRanges = dateRanges
        self.contact = contact
        self.includeCalendar = includeCalendar
        self.timeZoneIdentifier = timeZone.identifier
        self.batchSize = batchSize
        self.threshold = threshold
    }

    /// The phases this configuration runs, in the order they run.
    public var phases: [ScanPhase] {
        var phases: [ScanPhase] = []
        if references != nil { phases.append(.faces) }
        if !dateRanges.isEmpty { phases.append(.dateRanges) }
        if contact != nil { phases.append(.contacts) }
        if includeCalendar && !dateRanges.isEmpty { phases.append(.calendar) }
        return phases
    }

    /// The time zone, or a typed error for an unknown identifier.
    public func timeZone() throws(EraserKitError) -> TimeZone {
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else {
            throw .scan(.unknownTimeZone(timeZoneIdentifier))
        }
        return zone
    }

    /// The date ranges as instants, in order.
    public func instantRanges() throws(EraserKitError) -> [ScanInstantRange] {
        let zone = try timeZone()
        var ranges: [ScanInstantRange] = []
        for (index, range) in dateRanges.enumerated() {
            ranges.append(try range.instants(in: zone, index: index))
        }
        return ranges
    }

    /// Checks that the scan can run.
    /// - Throws: `ScanError.nothingToScan`, `.referenceCount`, `.invalidReferenceDescriptors`,
    ///   `.invalidDateRange`, `.unknownTimeZone`, `.emptyContact`, `.invalidThreshold`, or
    ///   `.invalidConfiguration` for a batch size outside 1…10 000.
    public func validate() throws(EraserKitError) {
        if phases.isEmpty { throw .scan(.nothingToScan) }
        if let references {
            guard Self.referenceLimits.contains(references.count) else { throw .scan(.referenceCount(references.count)) }
            if case .descriptors(let descriptors) = references {
                try Self.validateDescriptors(descriptors)
            }
        }
        _ = try instantRanges()
        if let contact, contact.isEmpty { throw .scan(.emptyContact) }
        guard FaceDistance.isValidThreshold(threshold) else { throw .scan(.invalidThreshold(threshold)) }
        guard (1...10_000).contains(batchSize) else {
            throw .scan(.invalidConfiguration("the batch size must be 1 to 10000, not \(batchSize)"))
        }
    }

    /// Checks reference descriptors: non-empty, one length, finite.
    static func validateDescriptors(_ descriptors: [[Float]]) throws(EraserKitError) {
        guard let length = descriptors.first?.count, length > 0 else {
            throw .scan(.invalidReferenceDescriptors("a descriptor is empty"))
        }
        guard descriptors.allSatisfy({ $0.count == length }) else {
            throw .scan(.invalidReferenceDescriptors("they differ in length"))
        }
        guard descriptors.allSatisfy({ $0.allSatisfy(\.isFinite) }) else {
            throw .scan(.invalidReferenceDescriptors("a value is not finite"))
        }
    }
}
