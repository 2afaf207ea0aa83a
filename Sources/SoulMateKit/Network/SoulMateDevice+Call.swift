import Foundation
import KindredClient
import OpenAPIRuntime
import SoulMateAPI

extension SoulMateDevice {
    /// Runs one generated-client operation as this session; failures become `.client`.
    func call<Output: Sendable>(_ operation: @Sendable (SoulMateAPI.Client) async throws -> Output) async throws(SoulMateKitError) -> Output {
        do {
            return try await session.authorizedCall(with: session.soulmateClient, operation)
        } catch {
            throw .client(error)
        }
    }

    /// The `X-Kindred-App` header value.
    var app: SoulMateAPI.Components.Schemas.AppID { .soulmate }

    /// The server error carried by an answer that is not the expected success (every documented
    /// 4xx and the `default` answer are the shared `Error` response).
    static func failure(_ output: some Sendable) -> SoulMateKitError {
        guard let child = Mirror(reflecting: output).children.first else { return .invalidServerData("an empty answer") }
        if let answer = child.value as? SoulMateAPI.Components.Responses._Error, let label = child.label, let status = statuses[label] {
            return .client(error(status: status, answer: answer))
        }
        let tuple = Mirror(reflecting: child.value).children.map(\.value)
        if tuple.count == 2, let status = tuple[0] as? Int, let answer = tuple[1] as? SoulMateAPI.Components.Responses._Error {
            return .client(error(status: status, answer: answer))
        }
        return .invalidServerData("an unexpected answer (\(child.label ?? "?"))")
    }

    private static func error(status: Int, answer: SoulMateAPI.Components.Responses._Error) -> KindredClientError {
        switch answer.body {
        case .json(let envelope): .server(status: status, code: envelope.error.code, message: envelope.error.message)
        }
    }

    private static let statuses: [String: Int] = [
        "badRequest": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "conflict": 409,
        "gone": 410, "contentTooLarge": 413, "unprocessableContent": 422, "tooManyRequests": 429,
    ]
}

extension SoulMateKitError {
    /// The server's error code, when the server refused.
    public var serverCode: String? {
        if case .client(let error) = self { return error.serverCode }
        return nil
    }
}

extension KindredSession {
    /// SoulMate's generated client (its own contract, `SoulMateAPI`), signed in as this session.
    public nonisolated var soulmateClient: SoulMateAPI.Client {
        SoulMateAPI.Client(
            serverURL: serverURL, configuration: clientConfiguration, transport: clientTransport, middlewares: [middleware]
        )
    }
}
