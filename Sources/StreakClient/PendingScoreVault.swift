import Foundation
import KindredClient
import StreakKit

/// The scores waiting to be published, kept in the device's `SecureStore` (item
/// `streaksync.pending-scores`: the keychain on iOS, the encrypted `secure-store.bin` on Linux), so
/// a score is neither lost when the app stops nor readable in a plain file.
///
/// The item holds one JSON array of `PendingScore`s in the order they were first kept, at most one
/// per game and day. A score leaves it only once the server has accepted it (or refused it for
/// good); a failed try keeps it, and the next launch or reconnect publishes it again.
public struct PendingScoreVault: Sendable {
    /// The secure store item holding the pending scores.
    public static let item = SecureStoreItem("streaksync.pending-scores")

    /// What a publication attempt made of one score.
    public enum Outcome: Sendable, Equatable {
        /// The server stored it.
        case published
        /// The server refused it for good (it would never be accepted): it is dropped.
        case refused
    }

    /// The device's secure store.
    public let secureStore: any SecureStore

    /// A vault in `secureStore`.
    public init(secureStore: any SecureStore) {
        self.secureStore = secureStore
    }

    /// The kept scores, oldest first.
    /// - Throws: `.secureStore` when the store cannot be read or the item is not a list of scores.
    public func scores() throws(StreakClientError) -> [PendingScore] {
        let bytes: [UInt8]?
        do { bytes = try secureStore.read(Self.item) } catch { throw .secureStore(error) }
        guard let bytes else { return [] }
        do {
            return try JSONDecoder().decode([PendingScore].self, from: Data(bytes))
        } catch {
            throw .secureStore(SecureStoreError("\(Self.item) is not a list of pending scores (\(error))"))
        }
    }

    /// Keeps `scores`: each replaces the kept score of the same game and day in its place, or is
    /// added at the end.
    /// - Throws: `.secureStore` when the store cannot be read or written.
    public func keep(_ scores: [PendingScore]) throws(StreakClientError) {
        guard !scores.isEmpty else { return }
        var kept = try self.scores()
        for score in scores {
            if let index = kept.firstIndex(where: { $0.id == score.id }) {
                kept[index] = score
            } else {
                kept.append(score)
            }
        }
        try save(kept)
    }

    /// Forgets the scores with these ids (`PendingScore.id`); the item is removed once empty.
    /// - Throws: `.secureStore` when the store cannot be read or written.
    public func remove(ids: Set<String>) throws(StreakClientError) {
        guard !ids.isEmpty else { return }
        let kept = try scores()
        let rest = kept.filter { !ids.contains($0.id) }
        if rest.count != kept.count { try save(rest) }
    }

    /// Forgets every kept score (sign-out: they were staged for the account that leaves).
    /// - Throws: `.secureStore` when the store cannot be written.
    public func removeAll() throws(StreakClientError) {
        try save([])
    }

    /// Publishes every kept score, oldest first, with `publish`; each one it publishes or that is
    /// refused for good is removed at once. The first failure stops the pass: that score and the
    /// ones after it stay kept, and the failure is thrown.
    /// - Returns: the published and the refused scores, in order.
    /// - Throws: what `publish` threw; `.secureStore` when the store fails.
    @discardableResult
    public func publishAll(
        _ publish: (PendingScore) async throws(StreakClientError) -> Outcome
    ) async throws(StreakClientError) -> (published: [PendingScore], refused: [PendingScore]) {
        var published: [PendingScore] = [], refused: [PendingScore] = []
        for score in try scores() {
            switch try await publish(score) {
            case .published: published.append(score)
            case .refused: refused.append(score)
            }
            try remove(ids: [score.id])
        }
        return (published, refused)
    }

    private func save(_ scores: [PendingScore]) throws(StreakClientError) {
        do throws(SecureStoreError) {
            if scores.isEmpty {
                try secureStore.remove(Self.item)
            } else {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys]
                let data: Data
                do { data = try encoder.encode(scores) } catch {
                    throw SecureStoreError("cannot encode the pending scores (\(error))")
                }
                try secureStore.write(Self.item, Array(data))
            }
        } catch {
            throw .secureStore(error)
        }
    }
}
