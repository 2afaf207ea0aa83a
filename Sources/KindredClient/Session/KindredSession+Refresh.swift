import KindredAPI
import Foundation
import OpenAPIRuntime

extension KindredSession {
    /// The refresh-token answers after which the session is over.
    static let sessionEndingCodes: Set<String> = ["invalid_refresh_token", "refresh_token_reused"]

    /// An access token to send now: the stored one, or a refreshed one when the stored one
    /// expires within `refreshMargin`.
    /// - Throws: `notSignedIn`, `sessionExpired`, or the refresh's transport or server error.
    func accessTokenForRequest() async throws(KindredClientError) -> String {
        let current = try await requireSession()
        if current.accessTokenExpiresAt.timeIntervalSince(now()) > Self.refreshMargin {
            return current.accessToken
        }
        return try await refreshed(replacing: current.accessToken).accessToken
    }

    /// An access token to retry with after the server refused `rejected` with a 401.
    func accessToken(replacing rejected: String) async throws(KindredClientError) -> String {
        try await refreshed(replacing: rejected).accessToken
    }

    /// The session after a refresh that replaces the access token `stale`.
    ///
    /// Single flight: a refresh under way is joined, and when the stored token is no longer
    /// `stale` (another request refreshed meanwhile) the stored session is returned as it is,
    /// so any number of concurrent requests cost one refresh.
    func refreshed(replacing stale: String) async throws(KindredClientError) -> StoredSession {
        if let refreshTask { return try await Self.value(of: refreshTask) }
        let current = try await requireSession()
        guard current.accessToken == stale else { return current }
        let task = Task { try await self.exchange(current) }
        refreshTask = task
        return try await Self.value(of: task)
    }

    /// Exchanges the refresh token of `current` for a new pair and stores it. Runs only as the
    /// shared `refreshTask`, which it clears when done.
    private func exchange(_ current: StoredSession) async throws(KindredClientError) -> StoredSession {
        defer { refreshTask = nil }
        let output: Operations.RefreshSession.Output
        do {
            output = try await anonymousClient.refreshSession(
                headers: .init(xKindredApp: app), body: .json(.init(refreshToken: current.refreshToken))
            )
        } catch {
            throw KindredClientError(error)
        }
        switch output {
        case .ok(let answer):
            guard case .json(let issued) = answer.body else { throw .invalidResponse("refresh without a session") }
            try await adopt(issued)
            return try await requireSession()
        case .default(let status, let answer):
            let error = KindredClientError(status: status, answer: answer)
            if status == 401, let code = error.serverCode, Self.sessionEndingCodes.contains(code) {
                try await forget()
                throw .sessionExpired
            }
            throw error
        }
    }

    /// The value of a refresh task, with its error as a `KindredClientError`.
    private static func value(of task: Task<StoredSession, any Error>) async throws(KindredClientError) -> StoredSession {
        do {
            return try await task.value
        } catch {
            throw KindredClientError(error)
        }
    }
}
