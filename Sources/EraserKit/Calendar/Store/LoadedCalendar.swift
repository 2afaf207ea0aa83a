import Foundation

/// One .ics file as the store holds it: its bytes, its parse, and its series read.
struct LoadedCalendar: Sendable {
    /// The calendar's name: the file's name without its extension.
    let name: String
    let url: URL
    let document: ICSDocument
    /// The series, in file order.
    let groups: [ICSSeriesGroup]
    /// Each series read, or why it cannot be (an unknown `TZID`, a bad date): that series fails,
    /// not the file.
    let series: [EventID: Result<ICSSeries, CalendarError>]
    /// Override ids → their series' id.
    let instances: [EventID: EventID]

    /// Reads and parses the file.
    /// - Throws: `CalendarError.fileSystem` when it cannot be read, `.malformed` when it is not
    ///   iCalendar.
    static func load(_ url: URL, name: String) throws(CalendarError) -> LoadedCalendar {
        try parse(try readBytes(url), url: url, name: name)
    }

    static func readBytes(_ url: URL) throws(CalendarError) -> [UInt8] {
        do {
            return Array(try Data(contentsOf: url))
        } catch {
            throw .fileSystem(path: url.path, reason: (error as NSError).localizedDescription)
        }
    }

    /// Parses `bytes` as the contents of `url`.
    static func parse(_ bytes: [UInt8], url: URL, name: String) throws(CalendarError) -> LoadedCalendar {
        let document = try ICSParser.parse(bytes, fileName: url.lastPathComponent)
        let groups = ICSSeriesGroup.groups(in: document, calendar: name)
        let reader = ICSEventReader(file: document.fileName, zones: TimeZoneResolver(document: document))
        var series: [EventID: Result<ICSSeries, CalendarError>] = [:]
        var instances: [EventID: EventID] = [:]
        for group in groups {
            for (id, _) in group.overrides where instances[id] == nil { instances[id] = group.id }
            do {
                let master = try group.master.map { (component) throws(CalendarError) in try reader.read(component) }
                var overrides: [(id: EventID, event: ICSEvent)] = []
                for (id, component) in group.overrides { overrides.append((id, try reader.read(component))) }
                series[group.id] = .success(ICSSeries(id: group.id, calendar: name, master: master, overrides: overrides))
            } catch {
                series[group.id] = .failure(error)
            }
        }
        return LoadedCalendar(name: name, url: url, document: document, groups: groups, series: series, instances: instances)
    }

    /// The group whose series id, or one of whose override ids, is `id`.
    func group(for id: EventID) -> ICSSeriesGroup? {
        let seriesID = instances[id] ?? id
        return groups.first { $0.id == seriesID }
    }

    /// The event `id` names (a series or an override), read; `nil` when there is none.
    func event(_ id: EventID, floating: any ICSZone) throws(CalendarError) -> CalendarEvent? {
        if let seriesID = instances[id], series[id] == nil {
            guard let read = try series[seriesID]?.get(), let override = read.overrides.first(where: { $0.id == id }) else { return nil }
            return read.calendarEvent(override.event, id: id, floating: floating)
        }
        guard let read = try series[id]?.get() else { return nil }
        return read.calendarEvent(read.representative, id: id, floating: floating)
    }
}
