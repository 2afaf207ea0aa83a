import Foundation
import StreakAPI
import StreakKit

/// Friend codes, friendships and leaderboards.
extension StreakDevice {
    /// The caller's friend code.
    public typealias FriendCodeAnswer = StreakAPI.Components.Schemas.StreakSyncFriendCode
    /// A friendship (pending or accepted).
    public typealias Friendship = StreakAPI.Components.Schemas.StreakSyncFriendship
    /// Accepted friends, and requests in and out.
    public typealias Friends = StreakAPI.Components.Schemas.StreakSyncFriends
    /// A person as friends see them: their id and display name.
    public typealias Person = StreakAPI.Components.Schemas.StreakSyncPerson
    /// One game's ranking for a day among the caller and their friends.
    public typealias Leaderboard = StreakAPI.Components.Schemas.StreakSyncLeaderboard

    /// The caller's friend code (made on first ask).
    public func friendCode() async throws(StreakClientError) -> FriendCodeAnswer {
        let output = try await call { [app] in try await $0.getStreakSyncFriendCode(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let code) = ok.body else { throw Self.failure(output) }
        return code
    }

    /// Sends a friend request to the owner of `code` (accepted at once when they already asked).
    /// - Throws: `.invalidInput` for text that is no friend code; the server's `friend_code_not_found`,
    ///   `own_friend_code`, `already_friends`, `friend_request_exists`, ….
    public func addFriend(code text: String) async throws(StreakClientError) -> Friendship {
        let compact = text.filter { $0 != " " && $0 != "-" }
        guard let code = FriendCode(rawValue: compact) else {
            throw .invalidInput("\"\(text)\" is not a friend code (six of \(String(FriendCode.alphabet.sorted())))")
        }
        let output = try await call { [app] in
            try await $0.createStreakSyncFriendRequest(headers: .init(xKindredApp: app), body: .json(.init(code: code.rawValue)))
        }
        guard case .created(let created) = output, case .json(let friendship) = created.body else { throw Self.failure(output) }
        return friendship
    }

    /// Accepted friends, and pending requests in and out.
    public func friends() async throws(StreakClientError) -> Friends {
        let output = try await call { [app] in try await $0.listStreakSyncFriends(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let friends) = ok.body else { throw Self.failure(output) }
        return friends
    }

    /// Accepts an incoming request (only its recipient may).
    public func accept(friendship id: String) async throws(StreakClientError) -> Friendship {
        let output = try await call { [app] in
            try await $0.acceptStreakSyncFriendship(path: .init(friendshipId: id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let friendship) = ok.body else { throw Self.failure(output) }
        return friendship
    }

    /// Removes a friendship or a request, from either side.
    public func remove(friendship id: String) async throws(StreakClientError) {
        let output = try await call { [app] in
            try await $0.removeStreakSyncFriendship(path: .init(friendshipId: id), headers: .init(xKindredApp: app))
        }
        guard case .noContent = output else { throw Self.failure(output) }
    }

    /// `game`'s leaderboard on `day` among the caller and their accepted friends.
    /// - Throws: `.invalidInput` for a game the catalog does not know.
    public func leaderboard(game: GameID, day: LocalDay) async throws(StreakClientError) -> Leaderboard {
        guard store.catalog.game(game) != nil else { throw .invalidInput("no game has the id \(game.rawValue)") }
        let output = try await call { [app] in
            try await $0.getStreakSyncLeaderboard(
                path: .init(gameId: game.rawValue, date: day.description), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let board) = ok.body else { throw Self.failure(output) }
        return board
    }
}
