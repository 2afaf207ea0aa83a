/// A component of an iCalendar file (`VCALENDAR`, `VEVENT`, `VTIMEZONE`, `STANDARD`, …) with
/// where it is in the file's bytes.
public struct ICSComponent: Sendable {
    /// The name, upper-cased (`VEVENT`).
    public var name: String
    /// Its own properties, in file order (not its children's).
    public var properties: [ICSProperty]
    /// The components inside it, in file order.
    public var children: [ICSComponent]
    /// Its exact bytes: from the first byte of `BEGIN:` to the end of the line break after
    /// `END:` (what removing it cuts out).
    public var byteRange: Range<Int>
    /// Where its `END:` line starts (before it is where a child can be added).
    public var endLineStart: Int
    /// The 1-based line of its `BEGIN:`.
    public var line: Int

    /// The first property called `name` (upper case), if any.
    public func property(_ name: String) -> ICSProperty? { properties.first { $0.name == name } }

    /// Every property called `name` (upper case).
    public func properties(_ name: String) -> [ICSProperty] { properties.filter { $0.name == name } }

    /// The children called `name` (upper case).
    public func children(_ name: String) -> [ICSComponent] { children.filter { $0.name == name } }
}

/// A parsed iCalendar file: its bytes and its `VCALENDAR`s.
public struct ICSDocument: Sendable {
    /// The name used in errors (the file's name).
    public var fileName: String
    /// The file's bytes, as read.
    public var bytes: [UInt8]
    /// The `VCALENDAR` components, in file order (usually one).
    public var calendars: [ICSComponent]

    /// Every `VEVENT` of every `VCALENDAR`, in file order.
    public var events: [ICSComponent] { calendars.flatMap { $0.children("VEVENT") } }

    /// Every `VTIMEZONE` of every `VCALENDAR`, in file order.
    public var timeZones: [ICSComponent] { calendars.flatMap { $0.children("VTIMEZONE") } }
}
