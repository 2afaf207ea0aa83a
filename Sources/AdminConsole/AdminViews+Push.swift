import Foundation

extension AdminViews {
    /// One app and transport on the push page.
    struct PushRow {
        var app, transport, delivered, deliveredToday, failed, failedToday, pruned, prunedToday: String
    }

    /// `push.mustache`.
    struct Push {
        var title = "Push"
        var session: Session
        var notice: String?
        var nav = Nav(push: true)
        var backlog: [Stat]
        var oldestAge: String
        var transports: [StatGroup]
        var rows: [PushRow]
        var givenUp: [Stat]
    }
}
