import Foundation

/// An operator's time zone: every date the console shows is rendered in it, with the zone's
/// abbreviation (`2030-01-01 01:00 GMT+1`); the `<time datetime>` attribute stays in UTC.
/// Stored with the operator (`kindred_admin_operators.time_zone`); NULL for an operator who has
/// not chosen, who sees the console's default (`admin.timeZone`, UTC unless set).
struct AdminTimeZone: Sendable, Equatable {
    /// UTC, the default.
    static let utc = AdminTimeZone(name: "UTC", zone: .gmt)

    /// The zone of the request being rendered (the signed-in operator's, bound by
    /// `AdminPageMiddleware`); UTC without a session.
    @TaskLocal static var current: AdminTimeZone = .utc

    /// Every name an operator may choose: `UTC`, then the IANA names this system knows, sorted:
    /// Foundation's list joined with the zone table of the system's tz database
    /// (`zone1970.tab`), because on Linux Foundation's list lacks current names such as
    /// Asia/Kolkata; each name must open as a zone.
    static let choices: [String] = {
        var names = Set(TimeZone.knownTimeZoneIdentifiers)
        if let table = try? String(contentsOfFile: "/usr/share/zoneinfo/zone1970.tab", encoding: .utf8) {
            for line in table.split(separator: "\n") where !line.hasPrefix("#") {
                let fields = line.split(separator: "\t")
                if fields.count >= 3 { names.insert(String(fields[2])) }
            }
        }
        let valid = names.filter { $0 != "UTC" && $0.contains("/") && TimeZone(identifier: $0)?.identifier == $0 }
        return ["UTC"] + valid.sorted()
    }()

    /// The name as the operator chose it (`UTC`, `Europe/Paris`).
    let name: String
    /// The zone.
    let zone: TimeZone

    private init(name: String, zone: TimeZone) {
        self.name = name
        self.zone = zone
    }

    /// The zone called `name`: `UTC` or an IANA name this system knows (`Europe/Paris`); nil
    /// for anything else (offsets such as `GMT+1`, abbreviations, unknown names).
    init?(name: String) {
        if name == "UTC" {
            self = .utc
            return
        }
        // Not `knownTimeZoneIdentifiers`: on Linux it omits current names such as Asia/Kolkata.
        guard name.utf8.count <= 64, name.contains("/"), let zone = TimeZone(identifier: name), zone.identifier == name else {
            return nil
        }
        self.init(name: name, zone: zone)
    }

    /// The zone stored with an operator: NULL (not chosen), or a name no longer known, is
    /// `fallback`, the console's default.
    static func stored(_ name: String?, default fallback: AdminTimeZone = .utc) -> AdminTimeZone {
        name.flatMap(AdminTimeZone.init(name:)) ?? fallback
    }

    /// `date` as the console shows it: `yyyy-MM-dd HH:mm` in this zone and the zone's
    /// abbreviation at that date (`UTC`, `GMT+1`, `GMT-5`).
    func text(_ date: Date) -> String {
        let local = String(date.formatted(Date.ISO8601FormatStyle(timeZone: zone)).prefix(16)).replacingOccurrences(of: "T", with: " ")
        return local + " " + abbreviation(at: date)
    }

    /// The zone's abbreviation at `date`; `UTC` for UTC.
    func abbreviation(at date: Date) -> String {
        self == .utc ? "UTC" : zone.abbreviation(for: date) ?? name
    }
}
