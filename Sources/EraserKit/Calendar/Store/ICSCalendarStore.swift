import Foundation

/// `CalendarStore` over RFC 5545 files: a folder of `.ics` files (each a calendar named after its
/// file, without the extension; hidden files and subfolders are left alone) or one `.ics` file.
///
/// Events are the file's VEVENTs grouped into series (`ICSSeriesGroup` says how ids are made);
/// occurrences come from `SeriesExpansion`. Floating times and all-day dates are read in
/// `floatingTimeZone`. A file that is not valid iCalendar fails every call that needs it with
/// `CalendarError.malformed` (its line); an event whose values cannot be read (an unknown `TZID`)
/// fails the calls that need that event, and the lists that include it.
///
/// Files are read again on every call (a parse is kept while the bytes are the same), so
/// edits made by other programs are seen at once. `remove` and `restore` rewrite a file
/// atomically (a temporary file in the same folder, then `rename`).
public final class ICSCalendarStore: CalendarStore, @unchecked Sendable {
    // @unchecked Sendable: the only mutable state, `cache`, is read and written under `lock`;
    // every other stored property is a constant of a Sendable type. `writeLock` makes each
    // remove and restore (read, change, rename) one step for this store.

    /// The folder or file the store reads.
    public let location: URL
    /// The zone of floating times and all-day dates.
    public let floatingTimeZone: TimeZone
    /// The guard against runaway recurrence rules.
    public let limits: RecurrenceLimits
    let isFolder: Bool
    private let lock = NSLock()
    let writeLock = NSLock()
    private var cache: [URL: LoadedCalendar] = [:]

    /// A store over `location`, a folder of `.ics` files or one `.ics` file.
    /// - Throws: `CalendarError.fileSystem` when `location` does not exist.
    public init(location: URL, floatingTimeZone: TimeZone = .current, limits: RecurrenceLimits = RecurrenceLimits()) throws(EraserKitError) {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: location.path, isDirectory: &isDirectory) else {
            throw .calendar(.fileSystem(path: location.path, reason: "no such file or folder"))
        }
        self.location = location
        self.floatingTimeZone = floatingTimeZone
        self.limits = limits
        isFolder = isDirectory.boolValue
    }

    var floatingZone: any ICSZone { SystemZone(timeZone: floatingTimeZone) }

    public func occurrences(in range: DateInterval) throws(EraserKitError) -> [EventOccurrence] {
        let window = Self.seconds(range.start)..<max(Self.seconds(range.start), Self.seconds(range.end))
        var result: [EventOccurrence] = []
        for calendar in try calendars() {
            for group in calendar.groups {
                guard let series = try Self.lift({ () throws(CalendarError) in try calendar.series[group.id]?.get() }) else { continue }
                let found = try Self.lift { () throws(CalendarError) in
                    try SeriesExpansion.occurrences(of: series, in: window, floating: floatingZone, limits: limits,
                                                    file: calendar.document.fileName)
                }
                result += found.map {
                    EventOccurrence(eventID: group.id, start: Date(timeIntervalSince1970: TimeInterval($0.start)),
                                    end: Date(timeIntervalSince1970: TimeInterval($0.end)), instanceID: $0.instanceID)
                }
            }
        }
        return result.sorted { ($0.start, $0.eventID, $0.instanceID?.rawValue ?? "") < ($1.start, $1.eventID, $1.instanceID?.rawValue ?? "") }
    }

    public func eventCount() throws(EraserKitError) -> Int {
        try calendars().reduce(0) { $0 + $1.groups.count }
    }

    public func events(offset: Int, limit: Int) throws(EraserKitError) -> [CalendarEvent] {
        let loaded = try calendars()
        let all = loaded.flatMap { calendar in calendar.groups.map { (calendar, $0.id) } }.sorted { $0.1 < $1.1 }
        guard offset >= 0, limit > 0, offset < all.count else { return [] }
        var result: [CalendarEvent] = []
        for (calendar, id) in all[offset..<min(all.count, offset + limit)] {
            if let event = try Self.lift({ () throws(CalendarError) in try calendar.event(id, floating: floatingZone) }) {
                result.append(event)
            }
        }
        return result
    }

    public func event(_ id: EventID) throws(EraserKitError) -> CalendarEvent? {
        guard let calendar = try calendar(named: Self.calendarName(of: id)) else { return nil }
        return try Self.lift { () throws(CalendarError) in try calendar.event(id, floating: floatingZone) }
    }

    // MARK: - Files

    /// Every calendar, read (from the cache while a file's bytes are unchanged).
    func calendars() throws(EraserKitError) -> [LoadedCalendar] {
        let files = try calendarFiles()
        lock.lock()
        let present = Set(files.map(\.url))
        cache = cache.filter { present.contains($0.key) }
        lock.unlock()
        var result: [LoadedCalendar] = []
        for (name, url) in files { result.append(try loaded(url, name: name)) }
        return result
    }

    /// The calendar called `name`, read, or `nil`.
    func calendar(named name: String) throws(EraserKitError) -> LoadedCalendar? {
        guard let url = try calendarFiles().first(where: { $0.name == name })?.url else { return nil }
        return try loaded(url, name: name)
    }

    /// The store's .ics files and their calendar names, by file name. Two files with the same
    /// name but for the extension's case (`a.ics`, `a.ICS`) are named by their whole file names.
    func calendarFiles() throws(EraserKitError) -> [(name: String, url: URL)] {
        guard isFolder else { return [(location.deletingPathExtension().lastPathComponent, location)] }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: location.path)
        } catch {
            throw .calendar(.fileSystem(path: location.path, reason: (error as NSError).localizedDescription))
        }
        let files: [URL] = names.filter { !$0.hasPrefix(".") && $0.lowercased().hasSuffix(".ics") }.sorted().compactMap { file in
            let url = location.appendingPathComponent(file)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
            return url
        }
        let stems = Dictionary(grouping: files) { $0.deletingPathExtension().lastPathComponent }
        return files.map { url in
            let stem = url.deletingPathExtension().lastPathComponent
            return (stems[stem]!.count == 1 ? stem : url.lastPathComponent, url)
        }
    }

    private func loaded(_ url: URL, name: String) throws(EraserKitError) -> LoadedCalendar {
        let bytes = try Self.lift { () throws(CalendarError) in try LoadedCalendar.readBytes(url) }
        lock.lock()
        defer { lock.unlock() }
        if let cached = cache[url], cached.document.bytes == bytes, cached.name == name { return cached }
        let calendar = try Self.lift { () throws(CalendarError) in try LoadedCalendar.parse(bytes, url: url, name: name) }
        cache[url] = calendar
        return calendar
    }

    /// Forgets the parse of `url` (after the store rewrote it).
    func forget(_ url: URL) {
        lock.lock()
        cache[url] = nil
        lock.unlock()
    }

    // MARK: - Helpers

    /// The calendar part of an id (`work/abc@example.com` → `work`).
    static func calendarName(of id: EventID) -> String {
        String(id.rawValue.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    }

    /// Whole seconds since 1970, within years 1 to 9999.
    static func seconds(_ date: Date) -> Int64 {
        Int64(min(max(date.timeIntervalSince1970, -62_135_596_800), 253_402_300_799).rounded(.down))
    }

    /// Runs `body`, its calendar error wrapped as `EraserKitError.calendar`.
    static func lift<T>(_ body: () throws(CalendarError) -> T) throws(EraserKitError) -> T {
        do { return try body() } catch { throw .calendar(error) }
    }
}
