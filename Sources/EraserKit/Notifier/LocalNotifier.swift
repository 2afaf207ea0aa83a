import Foundation

/// Local notifications of the device: `UNUserNotificationCenter` on iOS, `FileLocalNotifier` on
/// Linux (the CLI's `tick` delivers what is due), `InMemoryLocalNotifier` in tests.
///
/// A notification is identified by its id: scheduling an id again replaces it, cancelling an
/// unknown id does nothing.
public protocol LocalNotifier: Sendable {
    /// Schedules (or replaces) notification `id`, to be shown at `date`.
    /// - Throws: `VaultError.notifier` when it cannot be stored.
    func schedule(id: String, at date: Date, title: String, body: String) throws(EraserKitError)

    /// Cancels notification `id` if it has not been shown yet.
    /// - Throws: `VaultError.notifier` when the schedule cannot be updated.
    func cancel(id: String) throws(EraserKitError)

    /// The notifications not shown yet, by date then id.
    /// - Throws: `VaultError.notifier` when the schedule cannot be read.
    func pending() throws(EraserKitError) -> [LocalNotification]
}

/// A notification scheduled for later.
public struct LocalNotification: Sendable, Codable, Equatable, Identifiable {
    public var id: String
    /// When it is shown.
    public var date: Date
    public var title: String
    public var body: String

    /// A notification `id` for `date`.
    public init(id: String, date: Date, title: String, body: String) {
        self.id = id
        self.date = date
        self.title = title
        self.body = body
    }
}

extension [LocalNotification] {
    /// Sorted by date, then id.
    func inScheduleOrder() -> [LocalNotification] {
        sorted { ($0.date, $0.id) < ($1.date, $1.id) }
    }
}
