import Foundation
import KindredClient
import OpenAPIRuntime
import StreakAPI
import StreakKit

extension StreakDevice {
    /// Runs one generated-client operation as this session; failures become `.client`.
    /// - Throws: `.guestMode` (before anything is sent) while a guest plays.
    func call<Output: Sendable>(_ operation: @Sendable (StreakAPI.Client) async throws -> Output) async throws(StreakClientError) -> Output {
        try refuseInGuestMode()
        do {
            return try await session.authorizedCall(with: session.streakClient, operation)
        } catch {
            throw .client(error)
        }
    }

    /// Throws `.guestMode` while a guest plays on this device.
    func refuseInGuestMode() throws(StreakClientError) {
        if try local({ () throws(StreakStoreError) in try store.isGuestModeActive() }) { throw .guestMode }
    }

    /// The `X-Kindred-App` header value.
    var app: StreakAPI.Components.Schemas.AppID { .streaksync }

    /// The server error carried by an answer that is not the expected success (every documented
    /// 4xx and the `default` answer are the shared `Error` response).
    static func failure(_ output: some Sendable) -> StreakClientError {
        guard let child = Mirror(reflecting: output).children.first else { return .invalidServerData("an empty answer") }
        if let answer = child.value as? StreakAPI.Components.Responses._Error, let label = child.label, let status = statuses[label] {
            return .client(error(status: status, answer: answer))
        }
        let tuple = Mirror(reflecting: child.value).children.map(\.value)
        if tuple.count == 2, let status = tuple[0] as? Int, let answer = tuple[1] as? StreakAPI.Components.Responses._Error {
            return .client(error(status: status, answer: answer))
        }
        return .invalidServerData("an unexpected answer (\(child.label ?? "?"))")
    }

    private static func error(status: Int, answer: StreakAPI.Components.Responses._Error) -> KindredClientError {
        switch answer.body {
        case .json(let envelope): .server(status: status, code: envelope.error.code, message: envelope.error.message)
        }
    }

    private static let statuses: [String: Int] = [
        "badRequest": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "conflict": 409,
        "gone": 410, "contentTooLarge": 413, "unprocessableContent": 422, "tooManyRequests": 429,
    ]
}

extension KindredSession {
    /// StreakSync's generated client (its own contract, `StreakAPI`), signed in as this session.
    public nonisolated var streakClient: StreakAPI.Client {
        StreakAPI.Client(
            serverURL: serverURL, configuration: clientConfiguration, transport: clientTransport, middlewares: [middleware]
        )
    }
}
