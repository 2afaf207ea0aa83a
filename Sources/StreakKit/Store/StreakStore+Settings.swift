import Foundation
import GRDB

/// Settings (one JSON value per name) and the sync's own state.
extension StreakStore {
    /// The settings' names in the `settings` table.
    enum SettingName: String, CaseIterable {
        case reminder
        case smartReminder = "smart-reminder"
        case timeZone = "time-zone"
        case favouriteGames = "favourite-games"
    }

    /// The stored settings (defaults for what was never set).
    public func settings() throws(StreakStoreError) -> StreakSettings {
        let values = try read("reading settings") { db in
            try Dictionary(
                Row.fetchAll(db, sql: "SELECT name, value FROM settings").map { ($0["name"] as String, $0["value"] as String) }
            ) { first, _ in first }
        }
        func decode<T: Decodable>(_ type: T.Type, _ name: SettingName) throws(StreakStoreError) -> T? {
            guard let text = values[name.rawValue] else { return nil }
            guard let value = try? JSONDecoder().decode(T.self, from: Data(text.utf8)) else {
                throw .corruptRow(table: "settings", id: name.rawValue, reason: "not a valid value")
            }
            return value
        }
        var settings = StreakSettings()
        if let reminder = try decode(ReminderSettings.self, .reminder) { settings.reminder = reminder }
        if let state = try decode(SmartReminderState.self, .smartReminder) { settings.smartReminder = state }
        settings.timeZoneIdentifier = try decode(String.self, .timeZone)
        if let games = try decode([GameID].self, .favouriteGames) { settings.favouriteGames = games }
        return settings
    }

    /// Stores `settings` after checking them.
    /// - Throws: `.invalidSetting` for an unknown time zone, an unknown or repeated favourite game.
    public func setSettings(_ settings: StreakSettings) throws(StreakStoreError) {
        if let zone = settings.timeZoneIdentifier, TimeZone(identifier: zone) == nil {
            throw .invalidSetting("the time zone \(zone) is not known to this system")
        }
        var seen: Set<GameID> = []
        for game in settings.favouriteGames {
            guard catalog.game(game) != nil else { throw .invalidSetting("no game has the id \(game.rawValue)") }
            guard seen.insert(game).inserted else { throw .invalidSetting("\(game.rawValue) is a favourite twice") }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        func json(_ value: some Encodable) -> String? {
            (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) }
        }
        let values: [(SettingName, String?)] = [
            (.reminder, json(settings.reminder)), (.smartReminder, json(settings.smartReminder)),
            (.timeZone, settings.timeZoneIdentifier.flatMap(json)), (.favouriteGames, json(settings.favouriteGames)),
        ]
        try write("writing settings") { db in
            for (name, value) in values {
                if let value {
                    try db.execute(
                        sql: "INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                        arguments: [name.rawValue, value])
                } else {
                    try db.execute(sql: "DELETE FROM settings WHERE name = ?", arguments: [name.rawValue])
                }
            }
        }
    }

    /// A value the sync keeps between runs (a pull cursor), or nil.
    public func syncState(_ name: String) throws(StreakStoreError) -> String? {
        try read("reading sync state") { db in try String.fetchOne(db, sql: "SELECT value FROM sync_state WHERE name = ?", arguments: [name]) }
    }

    /// Keeps (or, with nil, forgets) a value of the sync.
    public func setSyncState(_ name: String, _ value: String?) throws(StreakStoreError) {
        try write("writing sync state") { db in
            if let value {
                try db.execute(
                    sql: "INSERT INTO sync_state (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                    arguments: [name, value])
            } else {
                try db.execute(sql: "DELETE FROM sync_state WHERE name = ?", arguments: [name])
            }
        }
    }
}
