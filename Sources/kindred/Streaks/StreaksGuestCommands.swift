import ArgumentParser
import Foundation
import StreakKit

/// `kindred streaks guest start|stop|status` (`on`/`off` too): a friend plays on this device.
struct StreaksGuestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "guest",
        abstract: "Guest mode: a friend plays here; the host's data is set aside and restored exactly, nothing is synced.",
        discussion: """
            `start` sets the host's results, streaks, achievements, settings and upload queue aside; the \
            guest starts with the host's settings and nothing else. While a guest plays nothing is queued, \
            and `sync`, `board`, `code`, `friend`, `friends`, `accept`, `remove`, `signup` and `login` are \
            refused with the code guest_mode. `stop` drops the guest's results and puts the host's data back.
            """,
        subcommands: [StreaksGuestStartCommand.self, StreaksGuestStopCommand.self, StreaksGuestStatusCommand.self])
}

/// `kindred streaks guest start` (or `on`).
struct StreaksGuestStartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "start", abstract: "Set the host's data aside and let a guest play.", aliases: ["on"])

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        try await options.run {
            let session = try store.startGuestMode()
            options.output(
                "guest mode on: \(session.hostResults) of your results and \(session.hostPendingUploads) waiting uploads set aside",
                json: StreaksGuestStatusCommand.object(session))
        }
    }
}

/// `kindred streaks guest stop` (or `off`).
struct StreaksGuestStopCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "stop", abstract: "Drop the guest's results and restore the host's data.", aliases: ["off"])

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        try await options.run {
            let end = try store.endGuestMode()
            options.output(
                "guest mode off: \(end.discardedResults) guest results dropped, \(end.restoredResults) of your results back",
                json: [
                    "guest": false, "startedAt": StoredDate.text(end.startedAt), "discardedResults": end.discardedResults,
                    "restoredResults": end.restoredResults, "restoredPendingUploads": end.restoredPendingUploads,
                ])
        }
    }
}

/// `kindred streaks guest status`.
struct StreaksGuestStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Whether a guest is playing.")

    @OptionGroup var options: StreaksOptions

    func run() async throws {
        let store = try options.store()
        try await options.run {
            guard let session = try store.guestSession() else {
                options.output("no guest is playing", json: ["guest": false])
                return
            }
            options.output(
                "a guest is playing since \(StoredDate.text(session.startedAt)): \(session.guestResults) results so far",
                json: Self.object(session))
        }
    }

    /// The JSON of a guest session.
    static func object(_ session: GuestSession) -> [String: Any] {
        [
            "guest": true, "startedAt": StoredDate.text(session.startedAt), "hostResults": session.hostResults,
            "hostPendingUploads": session.hostPendingUploads, "guestResults": session.guestResults,
        ]
    }
}
