import NIOConcurrencyHelpers

/// How many realtime WebSockets each user has open on this replica, capped at
/// `RealtimeSettings.socketsPerUser`: one account cannot hold the server's file descriptors
/// with sockets of its own. Counted and reserved under one lock, so simultaneous upgrades of
/// one user cannot pass the cap together.
final class RealtimeSocketQuota: Sendable {
    /// One admitted socket; give it back with `release(_:)` when the socket closes.
    struct Reservation: Sendable {
        /// The user it counts against.
        let userID: String
    }

    private let limit: Int
    private let open = NIOLockedValueBox<[String: Int]>([:])

    /// Creates a quota of `limit` sockets per user.
    init(limit: Int) {
        self.limit = limit
    }

    /// Reserves a socket for `userID`.
    /// - Returns: the reservation, or nil when the user has `limit` sockets open already.
    func reserve(_ userID: String) -> Reservation? {
        open.withLockedValue { open in
            let current = open[userID, default: 0]
            guard current < limit else { return nil }
            open[userID] = current + 1
            return Reservation(userID: userID)
        }
    }

    /// Gives back a socket that closed.
    func release(_ reservation: Reservation) {
        open.withLockedValue { open in
            let remaining = open[reservation.userID, default: 1] - 1
            open[reservation.userID] = remaining > 0 ? remaining : nil
        }
    }

    /// The sockets `userID` has open.
    func count(_ userID: String) -> Int {
        open.withLockedValue { $0[userID, default: 0] }
    }
}
