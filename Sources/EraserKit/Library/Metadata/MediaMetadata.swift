import Foundation

/// A file format `MediaMetadataReader` recognises from a file's first bytes.
public enum MediaFormat: String, Sendable, Codable, CaseIterable {
    case jpeg
    case png
    /// HEIC/HEIF (an ISO BMFF file whose brand is an image brand): recognised, not parsed.
    case heic
    /// MP4, M4V or QuickTime MOV (ISO BMFF with a movie).
    case isoMovie = "iso_movie"

    /// Photos or videos.
    public var mediaType: MediaType { self == .isoMovie ? .video : .photo }
}

/// What `MediaMetadataReader` found in one file.
public struct MediaMetadata: Sendable, Equatable {
    public var format: MediaFormat
    public var mediaType: MediaType { format.mediaType }
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    public var location: GeoLocation?
    /// The capture date recorded inside the file (EXIF or the movie header), or `nil` when the
    /// file records none: then the file's modification time is used (`captureDate(fileModificationDate:)`).
    public var embeddedCaptureDate: CaptureDate?
    /// For an `.exifLocal` date: the wall-clock time as seconds since 1970 read as if it were
    /// UTC, so the library can re-read it in another time zone without opening the file again.
    var wallClockSeconds: Double?

    public init(
        format: MediaFormat, pixelWidth: Int? = nil, pixelHeight: Int? = nil, location: GeoLocation? = nil,
        embeddedCaptureDate: CaptureDate? = nil
    ) {
        self.format = format
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.location = location
        self.embeddedCaptureDate = embeddedCaptureDate
    }

    /// The capture date: the one recorded in the file, or else `fileModificationDate` (`.fileTime`).
    public func captureDate(fileModificationDate: Date) -> CaptureDate {
        embeddedCaptureDate ?? CaptureDate(date: fileModificationDate, source: .fileTime)
    }
}

/// An EXIF `DateTimeOriginal` ("YYYY:MM:DD HH:MM:SS"), with its sub-seconds and UTC offset when
/// the file records them.
struct ExifDateTime: Equatable {
    var year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// `SubSecTimeOriginal` as a fraction of a second.
    var fraction: Double = 0
    /// `OffsetTimeOriginal` in seconds east of UTC.
    var offsetSeconds: Int?

    /// Parses the 19 characters of an EXIF date. `nil` for the "unknown" forms the standard
    /// allows (blanks, or all zeros); throws for anything else that is not a real date.
    static func parse(_ text: String) throws(MetadataFailure) -> ExifDateTime? {
        let chars = Array(text.utf8)
        if chars.allSatisfy({ $0 == 0x20 || $0 == UInt8(ascii: ":") }) || text == "0000:00:00 00:00:00" { return nil }
        let separators: [Int: UInt8] = [4: 0x3A, 7: 0x3A, 10: 0x20, 13: 0x3A, 16: 0x3A]
        guard chars.count == 19, separators.allSatisfy({ chars[$0.key] == $0.value }) else {
            throw MetadataFailure("DateTimeOriginal \"\(text)\" is not YYYY:MM:DD HH:MM:SS")
        }
        func number(_ range: Range<Int>) throws(MetadataFailure) -> Int {
            var value = 0
            for index in range {
                let digit = chars[index]
                guard (0x30...0x39).contains(digit) else {
                    throw MetadataFailure("DateTimeOriginal \"\(text)\" is not YYYY:MM:DD HH:MM:SS")
                }
                value = value * 10 + Int(digit - 0x30)
            }
            return value
        }
        let date = ExifDateTime(
            year: try number(0..<4), month: try number(5..<7), day: try number(8..<10),
            hour: try number(11..<13), minute: try number(14..<16), second: try number(17..<19))
        guard date.year >= 1, (1...12).contains(date.month),
              (1...daysInMonth(year: date.year, month: date.month)).contains(date.day),
              date.hour < 24, date.minute < 60, date.second <= 60 else {
            throw MetadataFailure("DateTimeOriginal \"\(text)\" is not a real date")
        }
        return date
    }

    /// Parses an EXIF offset ("+09:00", "-05:30"). `nil` for the blank "unknown" form.
    static func parseOffset(_ text: String) throws(MetadataFailure) -> Int? {
        let chars = Array(text.utf8)
        if chars.allSatisfy({ $0 == 0x20 || $0 == UInt8(ascii: ":") }) { return nil }
        guard chars.count == 6, chars[0] == UInt8(ascii: "+") || chars[0] == UInt8(ascii: "-"), chars[3] == 0x3A,
              [1, 2, 4, 5].allSatisfy({ (0x30...0x39).contains(chars[$0]) }) else {
            throw MetadataFailure("OffsetTimeOriginal \"\(text)\" is not ±HH:MM")
        }
        let hours = Int(chars[1] - 0x30) * 10 + Int(chars[2] - 0x30)
        let minutes = Int(chars[4] - 0x30) * 10 + Int(chars[5] - 0x30)
        guard hours <= 18, minutes < 60 else { throw MetadataFailure("OffsetTimeOriginal \"\(text)\" is out of range") }
        return (chars[0] == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    /// The wall-clock time as seconds since 1970-01-01 read as if it were UTC.
    var wallClockSeconds: Double {
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        return Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
    }

    /// The instant: exact with an offset (`.exifWithOffset`), else the wall clock read in `zone`
    /// (`.exifLocal`).
    func captureDate(in zone: TimeZone) -> CaptureDate {
        if let offsetSeconds {
            return CaptureDate(date: Date(timeIntervalSince1970: wallClockSeconds - Double(offsetSeconds)),
                               source: .exifWithOffset, utcOffsetSeconds: offsetSeconds)
        }
        return CaptureDate(date: Self.instant(wallClock: wallClockSeconds, in: zone), source: .exifLocal)
    }

    /// The instant at which clocks in `zone` showed `wallClock` (seconds as if UTC). In a
    /// daylight-saving overlap the earlier instant; in a gap, the reading with the offset from
    /// before the gap.
    static func instant(wallClock: Double, in zone: TimeZone) -> Date {
        func offset(at seconds: Double) -> Double { Double(zone.secondsFromGMT(for: Date(timeIntervalSince1970: seconds))) }
        // Offsets a day either side: every transition near the wall clock is between them.
        let before = offset(at: wallClock - 86_400), after = offset(at: wallClock + 86_400)
        let valid = [before, after].map { wallClock - $0 }.filter { offset(at: $0) == wallClock - $0 }
        return Date(timeIntervalSince1970: valid.min() ?? wallClock - before)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
