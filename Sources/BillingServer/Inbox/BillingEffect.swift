import KindredServerCore

/// What one provider event does, once its users are resolved: entries to append, provider
/// links to remember, and the users whose state to recompute.
struct BillingEffect: Sendable {
    /// The user the event is recorded against (nil for events about nobody, e.g. `TEST`).
    var userID: String?
    /// Entries to append (each subject to the no-op rule).
    var appends: [PlanEntry] = []
    /// Provider ids to link to users.
    var links: [(provider: BillingProvider, externalID: String, userID: String)] = []
    /// Transfers to remember (RevenueCat `TRANSFER`), per source.
    var transfers: [BillingTransfer] = []
    /// Users whose state must be recomputed (with their apps).
    var touched: [String: AppID] = [:]
    /// Users whose rows the interpretation already locked in this transaction
    /// (`BillingLedger.lock`): the commit does not lock them again.
    var locked: Set<String> = []
    /// What happened, recorded with the event (`applied`, `ignored: …`).
    var outcome: String

    /// An event that is stored but changes nothing.
    static func ignored(_ why: String, userID: String? = nil) -> BillingEffect {
        BillingEffect(userID: userID, outcome: "ignored: \(why)")
    }
}

/// Why an event cannot be applied yet: the inbox retries it with backoff and, after the last
/// attempt, dead-letters it for an operator.
enum BillingApplyError: Error, Equatable, CustomStringConvertible {
    /// No Kindred user matches any of the event's ids (yet).
    case unmatchedUser(provider: BillingProvider, ids: [String])
    /// The stored item is not an envelope this version understands.
    case unreadableItem(String)

    var description: String {
        switch self {
        case .unmatchedUser(let provider, let ids):
            "no user matches the \(provider.rawValue) ids \(ids.prefix(5).joined(separator: ", "))"
        case .unreadableItem(let why): "unreadable inbox item: \(why)"
        }
    }
}
