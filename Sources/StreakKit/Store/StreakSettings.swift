import Foundation

/// The player's settings on this device.
public struct StreakSettings: Hashable, Sendable, Codable {
    /// The daily reminder: smart (from the player's habits) or at their own time.
    public var reminder: ReminderSettings
    /// What the smart reminder last computed.
    public var smartReminder: SmartReminderState
    /// The zone results are recorded in (an IANA identifier), or nil to follow the system's.
    public var timeZoneIdentifier: String?
    /// The games shown first, in the player's order (no duplicates).
    public var favouriteGames: [GameID]

    /// The defaults: a smart reminder falling back to 19:00, the system's zone, no favourites.
    public init(
        reminder: ReminderSettings = ReminderSettings(smart: true, userTime: ReminderTime(hour: 19)),
        smartReminder: SmartReminderState = SmartReminderState(), timeZoneIdentifier: String? = nil, favouriteGames: [GameID] = []
    ) {
        self.reminder = reminder
        self.smartReminder = smartReminder
        self.timeZoneIdentifier = timeZoneIdentifier
        self.favouriteGames = favouriteGames
    }

    /// The zone to record results in: the chosen one, else `system`.
    /// - Throws: `StreakStoreError.invalidSetting` when the stored identifier is not a known zone.
    public func timeZone(system: TimeZone = .current) throws(StreakStoreError) -> TimeZone {
        guard let timeZoneIdentifier else { return system }
        guard let zone = TimeZone(identifier: timeZoneIdentifier) else {
            throw .invalidSetting("the time zone \(timeZoneIdentifier) is not known to this system")
        }
        return zone
    }
}
