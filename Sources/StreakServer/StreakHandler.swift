import Foundation
import KindredServerCore
import KindredStore
import StreakAPI

/// StreakSync's contract operations: each authenticates, checks the app, unwraps the body and
/// calls the controller.
final class StreakHandler: APIProtocol, Sendable {
    let streaks: StreakController
    let authenticator: Authenticator

    init(streaks: StreakController, authenticator: Authenticator) {
        self.streaks = streaks
        self.authenticator = authenticator
    }

    /// The caller, a StreakSync account (anonymous ones included).
    func caller() async throws -> AuthenticatedUser {
        let user = try await authenticator.user()
        try StreakController.requireStreakSync(user)
        return user
    }

    func getStreakSyncProfile(_ input: Operations.GetStreakSyncProfile.Input) async throws -> Operations.GetStreakSyncProfile.Output {
        .ok(.init(body: .json(try await streaks.profile(try await caller()))))
    }

    func putStreakSyncProfile(_ input: Operations.PutStreakSyncProfile.Input) async throws -> Operations.PutStreakSyncProfile.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await streaks.setProfile(try await caller(), displayName: body.displayName))))
    }

    func listStreakSyncGames(_ input: Operations.ListStreakSyncGames.Input) async throws -> Operations.ListStreakSyncGames.Output {
        _ = try await caller()
        return .ok(.init(body: .json(streaks.games())))
    }

    func upsertStreakSyncResults(_ input: Operations.UpsertStreakSyncResults.Input) async throws -> Operations.UpsertStreakSyncResults.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await streaks.upsertResults(try await caller(), body.results))))
    }

    func listStreakSyncResultChanges(_ input: Operations.ListStreakSyncResultChanges.Input) async throws
        -> Operations.ListStreakSyncResultChanges.Output
    {
        let user = try await caller()
        return .ok(.init(body: .json(try await streaks.resultChanges(user, cursor: input.query.cursor, limit: input.query.limit))))
    }

    func upsertStreakSyncAchievements(_ input: Operations.UpsertStreakSyncAchievements.Input) async throws
        -> Operations.UpsertStreakSyncAchievements.Output
    {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await streaks.upsertAchievements(try await caller(), body.achievements))))
    }

    func listStreakSyncAchievementChanges(_ input: Operations.ListStreakSyncAchievementChanges.Input) async throws
        -> Operations.ListStreakSyncAchievementChanges.Output
    {
        let user = try await caller()
        return .ok(.init(body: .json(try await streaks.achievementChanges(user, cursor: input.query.cursor, limit: input.query.limit))))
    }

    func getStreakSyncFriendCode(_ input: Operations.GetStreakSyncFriendCode.Input) async throws -> Operations.GetStreakSyncFriendCode.Output {
        .ok(.init(body: .json(try await streaks.friendCode(try await caller()))))
    }

    func createStreakSyncFriendRequest(_ input: Operations.CreateStreakSyncFriendRequest.Input) async throws
        -> Operations.CreateStreakSyncFriendRequest.Output
    {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let user = try await caller()
        return .created(.init(body: .json(try await streaks.createFriendRequest(user, code: body.code, scope: try RequestScope.require()))))
    }

    func listStreakSyncFriends(_ input: Operations.ListStreakSyncFriends.Input) async throws -> Operations.ListStreakSyncFriends.Output {
        .ok(.init(body: .json(try await streaks.friends(try await caller()))))
    }

    func acceptStreakSyncFriendship(_ input: Operations.AcceptStreakSyncFriendship.Input) async throws
        -> Operations.AcceptStreakSyncFriendship.Output
    {
        .ok(.init(body: .json(try await streaks.acceptFriendship(try await caller(), id: input.path.friendshipId))))
    }

    func removeStreakSyncFriendship(_ input: Operations.RemoveStreakSyncFriendship.Input) async throws
        -> Operations.RemoveStreakSyncFriendship.Output
    {
        try await streaks.removeFriendship(try await caller(), id: input.path.friendshipId)
        return .noContent(.init())
    }

    func publishStreakSyncScore(_ input: Operations.PublishStreakSyncScore.Input) async throws -> Operations.PublishStreakSyncScore.Output {
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let user = try await caller()
        return .ok(.init(body: .json(try await streaks.publishScore(user, game: input.path.gameId, date: input.path.date, body))))
    }

    func getStreakSyncLeaderboard(_ input: Operations.GetStreakSyncLeaderboard.Input) async throws -> Operations.GetStreakSyncLeaderboard.Output {
        let user = try await caller()
        return .ok(.init(body: .json(try await streaks.leaderboard(user, game: input.path.gameId, date: input.path.date))))
    }
}
