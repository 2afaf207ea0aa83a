import CloserAPI
import KindredClient

/// A swipe on a date idea (the server keeps each partner's swipes private).
public enum DateSwipe: String, Sendable, CaseIterable {
    /// Both loving an idea makes a match.
    case love
    /// Perhaps.
    case maybe
    /// Not for us.
    case skip
}

/// Dates on the device: the idea catalog, this account's deck and swipes, the couple's matches
/// and this account's category weights (docs/closer.md, "Dates and the bucket list"). Every call
/// goes through the couple this device knows, refreshed once when the server no longer has it.
extension CloserDevice {
    /// Every date idea, or those of `category`.
    public func dateIdeas(category: String? = nil) async throws(CloserKitError) -> Components.Schemas.CloserDateIdeaList {
        let output = try await call { [app] in try await $0.listCloserDateIdeas(query: .init(category: category), headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
        return list
    }

    /// The ideas this account has not swiped yet, in the order of its weights.
    public func dateDeck(limit: Int? = nil) async throws(CloserKitError) -> Components.Schemas.CloserDateDeck {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserDateDeck(path: .init(coupleId: couple.id), query: .init(limit: limit), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let deck) = ok.body else { throw Self.failure(output) }
            return deck
        }
    }

    /// Swipes an idea; the answer carries the couple's match when both partners love it.
    public func swipe(_ ideaId: String, _ swipe: DateSwipe) async throws(CloserKitError) -> Components.Schemas.CloserDateSwipe {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.swipeCloserDateIdea(
                    path: .init(coupleId: couple.id, ideaId: ideaId), headers: .init(xKindredApp: app), body: .json(.init(action: swipe.rawValue))
                )
            }
            guard case .ok(let ok) = output, case .json(let result) = ok.body else { throw Self.failure(output) }
            return result
        }
    }

    /// The couple's matches, newest first (every page).
    public func dateMatches() async throws(CloserKitError) -> [Components.Schemas.CloserDateMatch] {
        try await withCouple { couple throws(CloserKitError) in
            var matches: [Components.Schemas.CloserDateMatch] = []
            var cursor: String?
            repeat {
                let next = cursor
                let output = try await call { [app] in
                    try await $0.listCloserDateMatches(
                        path: .init(coupleId: couple.id), query: .init(limit: 100, cursor: next), headers: .init(xKindredApp: app)
                    )
                }
                guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
                matches += page.matches
                cursor = page.nextCursor
            } while cursor != nil
            return matches
        }
    }

    /// This account's category weights.
    public func datePreferences() async throws(CloserKitError) -> [String: Int] {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserDatePreferences(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let preferences) = ok.body else { throw Self.failure(output) }
            return Dictionary(preferences.preferences.map { ($0.category, $0.weight) }, uniquingKeysWith: { _, last in last })
        }
    }

    /// Replaces this account's category weights (-3…3; categories left out weigh 0).
    public func setDatePreferences(_ weights: [String: Int]) async throws(CloserKitError) -> [String: Int] {
        try await withCouple { couple throws(CloserKitError) in
            let body = Components.Schemas.CloserDatePreferences(
                preferences: weights.sorted { $0.key < $1.key }.map { .init(category: $0.key, weight: $0.value) }
            )
            let output = try await call { [app] in
                try await $0.putCloserDatePreferences(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(body))
            }
            guard case .ok(let ok) = output, case .json(let preferences) = ok.body else { throw Self.failure(output) }
            return Dictionary(preferences.preferences.map { ($0.category, $0.weight) }, uniquingKeysWith: { _, last in last })
        }
    }
}
