import Foundation

/// What `EraserDevice.scan` is asked to look for, and where.
public struct ScanRequest: Sendable, Equatable {
    /// The photo library's folder; `nil` when the device's sources need none (PhotoKit).
    public var photos: URL?
    /// The calendar: an `.ics` file or a folder of them (its events in the ranges, and the contact
    /// phase, need it); `nil` for none, or when the device's sources need no file (EventKit).
    public var calendar: URL?
    /// Whether the calendar is scanned: by default when `calendar` names one; set it for sources
    /// whose calendar has no file (EventKit).
    public var includeCalendar: Bool
    /// 1–5 photos of the ex's face; empty skips the face phase (and the face worker).
    public var references: [URL]
    /// Days the relationship covered.
    public var dateRanges: [ScanDateRange]
    /// The ex as a contact, or `nil`.
    public var contact: ScanContact?
    /// The zone dates are read in.
    public var timeZone: TimeZone
    /// The country calling code for phone numbers written without one (`44`), if any.
    public var defaultCountryCode: Int?
    /// Assets or events per batch.
    public var batchSize: Int

    /// A request; see the properties.
    public init(photos: URL?, calendar: URL? = nil, includeCalendar: Bool? = nil, references: [URL] = [],
                dateRanges: [ScanDateRange] = [], contact: ScanContact? = nil, timeZone: TimeZone = .current,
                defaultCountryCode: Int? = nil, batchSize: Int = ScanConfiguration.defaultBatchSize) {
        self.photos = photos
        self.calendar = calendar
        self.includeCalendar = includeCalendar ?? (calendar != nil)
        self.references = references
        self.dateRanges = dateRanges
        self.contact = contact
        self.timeZone = timeZone
        self.defaultCountryCode = defaultCountryCode
        self.batchSize = batchSize
    }

    /// The scan engine's configuration for this request.
    var configuration: ScanConfiguration {
        ScanConfiguration(references: references.isEmpty ? nil : .photos(references), dateRanges: dateRanges,
                          contact: contact, includeCalendar: includeCalendar, timeZone: timeZone, batchSize: batchSize)
    }
}
