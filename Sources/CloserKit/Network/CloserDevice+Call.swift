import CloserAPI
import KindredClient
import OpenAPIRuntime

extension CloserDevice {
    /// Runs one generated-client operation as this session; transport, session and server
    /// failures become `CloserKitError.client`.
    func call<Output: Sendable>(_ operation: @Sendable (CloserAPI.Client) async throws -> Output) async throws(CloserKitError) -> Output {
        cache.countRequest()
        do {
            return try await session.authorizedCall(with: client, operation)
        } catch {
            throw .client(error)
        }
    }

    /// Closer's generated client, signed in as this device's session.
    var client: CloserAPI.Client { session.closerClient }

    /// The server error carried by an answer that is not the expected success.
    ///
    /// Every documented 4xx and the `default` answer of a Closer operation is the shared
    /// `Error` response (`{"error":{"code","message"}}`); the generated enums name the status by
    /// the case (`badRequest`, `notFound`, …) or carry it (`default(statusCode:_:)`).
    static func failure(_ output: some Sendable) -> CloserKitError {
        guard let child = Mirror(reflecting: output).children.first else {
            return .invalidServerData("an empty answer")
        }
        if let answer = child.value as? CloserAPI.Components.Responses._Error, let label = child.label, let status = statuses[label] {
            return .client(error(status: status, answer: answer))
        }
        if let tuple = Mirror(reflecting: child.value).children.map(\.value) as [Any]?, tuple.count == 2,
           let status = tuple[0] as? Int, let answer = tuple[1] as? CloserAPI.Components.Responses._Error {
            return .client(error(status: status, answer: answer))
        }
        return .invalidServerData("an unexpected answer (\(child.label ?? "?"))")
    }

    /// The client error of a server's error envelope in Closer's contract.
    private static func error(status: Int, answer: CloserAPI.Components.Responses._Error) -> KindredClientError {
        switch answer.body {
        case .json(let envelope): .server(status: status, code: envelope.error.code, message: envelope.error.message)
        }
    }

    /// HTTP statuses of the generated error cases the Closer operations use.
    private static let statuses: [String: Int] = [
        "badRequest": 400, "unauthorized": 401, "forbidden": 403, "notFound": 404, "conflict": 409,
        "gone": 410, "contentTooLarge": 413, "unprocessableContent": 422, "tooManyRequests": 429,
    ]
}

extension KindredSession {
    /// Closer's generated client (its own contract, `CloserAPI`), signed in as this session: for
    /// `authorizedCall(with: session.closerClient) { try await $0.getMyCloserCouple(…) }`.
    public nonisolated var closerClient: CloserAPI.Client {
        CloserAPI.Client(
            serverURL: serverURL, configuration: clientConfiguration, transport: clientTransport, middlewares: [middleware]
        )
    }
}
