import Foundation

/// Where an item stands in the Cooling Off bin (the seed's `cooling_off.status`).
public enum CoolingOffStatus: String, Sendable, Codable, CaseIterable {
    /// Waiting: destroyed once `deleteAfter` has passed.
    case pending
    /// Destroyed by the Cooling Off check.
    case deleted
    /// The user changed their mind: the item stays in the Vault.
    case restored
}

/// One Cooling Off entry.
public struct CoolingOffEntry: Sendable, Equatable, Identifiable {
    public var id: String
    /// The item, until it is destroyed.
    public var itemID: VaultItemID?
    /// When the item may be destroyed (7 days after it entered the bin).
    public var deleteAfter: Date
    /// When the day-6 reminder is due.
    public var remindAt: Date
    /// Whether the day-6 reminder has been delivered.
    public var reminded: Bool
    public var status: CoolingOffStatus
    /// When the entry was made.
    public var createdAt: Date?
    /// When it was destroyed or restored.
    public var resolvedAt: Date?
}

/// What one run of the Cooling Off check did.
public struct CoolingOffReport: Sendable, Equatable {
    /// The items destroyed by this run (files, thumbnail and row), in id order.
    public var destroyed: [VaultItemID]
    /// Entries newly marked as reminded (their reminder has been delivered).
    public var reminded: Int
    /// Entries still waiting.
    public var pending: Int
    /// The earliest `deleteAfter` among the waiting entries: when the check should run next.
    public var nextDeadline: Date?

    /// A report with the given figures.
    public init(destroyed: [VaultItemID] = [], reminded: Int = 0, pending: Int = 0, nextDeadline: Date? = nil) {
        self.destroyed = destroyed
        self.reminded = reminded
        self.pending = pending
        self.nextDeadline = nextDeadline
    }
}

/// The Cooling Off bin's calendar: an item is destroyed 7 days after it enters the bin and the
/// reminder comes on day 6, both at the same wall-clock time in the user's time zone (so across
/// a daylight-saving change "7 days" is 167 or 169 hours, as a person counts days).
public struct CoolingOffSchedule: Sendable, Equatable {
    /// Days an item waits.
    public static let days = 7
    /// The day of the reminder.
    public static let reminderDay = 6
    /// The reminder's title.
    public static let reminderTitle = "Ex-Eraser"
    /// The reminder's text (seed, section 4.3).
    public static let reminderBody = "Tomorrow, these items will be gone forever. Want to take one last look?"

    /// The calendar days are counted in (its time zone is the user's).
    public var calendar: Calendar

    /// A schedule counting days in `timeZone` (the device's by default).
    public init(timeZone: TimeZone = .current) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        self.calendar = calendar
    }

    /// When an item entering the bin at `start` may be destroyed.
    public func deleteAfter(start: Date) -> Date { add(days: Self.days, to: start) }

    /// When the reminder for an item entering the bin at `start` is due.
    public func remindAt(start: Date) -> Date { add(days: Self.reminderDay, to: start) }

    /// The reminder time of an entry due at `deleteAfter` (one calendar day earlier).
    func remindAt(deleteAfter: Date) -> Date { add(days: Self.reminderDay - Self.days, to: deleteAfter) }

    private func add(days: Int, to date: Date) -> Date {
        calendar.date(byAdding: .day, value: days, to: date) ?? date.addingTimeInterval(Double(days) * 86_400)
    }
}
