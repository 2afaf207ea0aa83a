import Foundation
import KindredClient
import Synchronization

/// The Linux local notifier: a durable schedule in the profile folder (`notifications.json`,
/// mode 0600, replaced atomically on every change). Nothing shows a notification by itself: the
/// CLI's `tick` calls `fire(now:)`, which returns what is due and marks it delivered.
///
/// The file holds `{"pending": [...], "delivered": [...]}`, each a `LocalNotification` with its
/// date in seconds since 1970, and each delivered one also `firedAt`. The newest
/// `deliveredLimit` delivered notifications are kept. One process at a time per profile.
public final class FileLocalNotifier: LocalNotifier {
    /// The schedule's file name in the profile folder.
    public static let fileName = "notifications.json"
    /// How many delivered notifications the file keeps.
    public static let deliveredLimit = 100

    private let profile: ProfileDirectory
    // Mutex: serializes read-modify-write of the file between tasks of this process.
    private let lock = Mutex(())

    /// A delivered notification.
    public struct Delivered: Sendable, Codable, Equatable {
        public var notification: LocalNotification
        public var firedAt: Date
    }

    private struct Schedule: Codable {
        var pending: [LocalNotification] = []
        var delivered: [Delivered] = []
    }

    /// The notifier keeping its schedule in `profileDirectory`.
    public init(profileDirectory: URL) {
        profile = ProfileDirectory(url: profileDirectory)
    }

    public func schedule(id: String, at date: Date, title: String, body: String) throws(EraserKitError) {
        try update { schedule in
            schedule.pending.removeAll { $0.id == id }
            schedule.pending.append(LocalNotification(id: id, date: date, title: title, body: body))
        }
    }

    public func cancel(id: String) throws(EraserKitError) {
        try update { $0.pending.removeAll { $0.id == id } }
    }

    public func pending() throws(EraserKitError) -> [LocalNotification] {
        try lock.withLock { _ throws(EraserKitError) in try load().pending.inScheduleOrder() }
    }

    /// The pending notifications due at `now` (date ≤ now), without changing anything.
    public func due(now: Date) throws(EraserKitError) -> [LocalNotification] {
        try pending().filter { $0.date <= now }
    }

    /// Delivers the notifications due at `now`: returns them and moves them to `delivered`.
    /// Calling it again at the same time returns nothing.
    public func fire(now: Date) throws(EraserKitError) -> [LocalNotification] {
        try update { schedule in
            let due = schedule.pending.filter { $0.date <= now }.inScheduleOrder()
            schedule.pending.removeAll { $0.date <= now }
            schedule.delivered += due.map { Delivered(notification: $0, firedAt: now) }
            return due
        }
    }

    /// The delivered notifications, oldest first.
    public func delivered() throws(EraserKitError) -> [Delivered] {
        try lock.withLock { _ throws(EraserKitError) in try load().delivered }
    }

    private func update<T>(_ change: (inout Schedule) -> T) throws(EraserKitError) -> T {
        try lock.withLock { _ throws(EraserKitError) -> T in
            var schedule = try load()
            let result = change(&schedule)
            schedule.delivered = Array(schedule.delivered.suffix(Self.deliveredLimit))
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let data: Data
            do { data = try encoder.encode(schedule) } catch { throw .vault(.notifier("cannot encode the schedule: \(error)")) }
            do {
                try profile.write(Self.fileName, data)
            } catch {
                throw .vault(.notifier("\(error)"))
            }
            return result
        }
    }

    private func load() throws(EraserKitError) -> Schedule {
        let data: Data?
        do { data = try profile.read(Self.fileName) } catch { throw .vault(.notifier("\(error)")) }
        guard let data else { return Schedule() }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        do {
            return try decoder.decode(Schedule.self, from: data)
        } catch {
            throw .vault(.notifier("\(profile.url.appendingPathComponent(Self.fileName).path) does not parse: \(error)"))
        }
    }
}
