#if canImport(UserNotifications)
// Written for iOS/macOS and NOT compiled or run on the Linux machines this project is built on
// (there is no UserNotifications there): the app's `LocalNotifier`, in place of the CLI's
// `FileLocalNotifier.fire` on `tick`.
import Foundation
import UserNotifications

/// The Apple `LocalNotifier`: each notification is handed to `UNUserNotificationCenter` with a
/// calendar trigger at its date, and also kept in a `FileLocalNotifier` schedule in the app's
/// container. The protocol is synchronous while the center answers asynchronously, so the file
/// is the answer to `pending()` and the center only shows them; at launch `resynchronize()`
/// hands the center the file's schedule again (a notification the user's settings dropped, or
/// one added while the app was killed, comes back). Notification permission is asked for by the
/// app's UI, not here: without it the center shows nothing and the schedule is still kept.
// `@unchecked`: both stored properties are immutable references to thread-safe objects.
public final class UserNotificationsLocalNotifier: LocalNotifier, @unchecked Sendable {
    private let schedule: FileLocalNotifier
    private let center: UNUserNotificationCenter

    /// A notifier keeping its schedule in `profileDirectory` (the app's container).
    public init(profileDirectory: URL, center: UNUserNotificationCenter = .current()) {
        schedule = FileLocalNotifier(profileDirectory: profileDirectory)
        self.center = center
    }

    public func schedule(id: String, at date: Date, title: String, body: String) throws(EraserKitError) {
        try schedule.schedule(id: id, at: date, title: title, body: body)
        submit(LocalNotification(id: id, date: date, title: title, body: body))
    }

    public func cancel(id: String) throws(EraserKitError) {
        try schedule.cancel(id: id)
        center.removePendingNotificationRequests(withIdentifiers: [id])
    }

    public func pending() throws(EraserKitError) -> [LocalNotification] {
        try schedule.pending()
    }

    /// Hands every pending notification to the center again (at launch), and drops from the file
    /// the ones whose date has passed (the center has shown them).
    public func resynchronize(now: Date = Date()) throws(EraserKitError) {
        _ = try schedule.fire(now: now)
        for notification in try schedule.pending() { submit(notification) }
    }

    /// Adds (or replaces: same identifier) the center's request for `notification`.
    private func submit(_ notification: LocalNotification) {
        let content = UNMutableNotificationContent()
        content.title = notification.title
        content.body = notification.body
        content.sound = .default
        let components = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: notification.date)
        let trigger = UNCalendarNotificationTrigger(dateMatching: components, repeats: false)
        center.add(UNNotificationRequest(identifier: notification.id, content: content, trigger: trigger)) { _ in
            // A refused request (no permission) leaves the file's schedule; resynchronize retries.
        }
    }
}
#endif
