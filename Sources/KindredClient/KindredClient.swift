import KindredAPI
import OpenAPIRuntime

/// The device side of the core contract. Apps' kits import their own contract module (`CloserAPI`,
/// …) and `KindredAPI` explicitly: this module no longer re-exports the API.
extension KindredSession {
    /// The middleware that signs a generated client's requests as this session: `X-Kindred-App`,
    /// `Authorization: Bearer …`, refresh before expiry and once after a 401. App kits whose
    /// contracts are modules of their own build their client with it:
    /// `CloserAPI.Client(serverURL: session.serverURL, configuration: session.clientConfiguration,
    /// transport: session.clientTransport, middlewares: [session.middleware])`.
    public nonisolated var middleware: any ClientMiddleware { SessionMiddleware(session: self) }
    /// The HTTP transport the session's clients share.
    public nonisolated var clientTransport: any ClientTransport { transport }
    /// The generated clients' configuration (lenient dates, as the core client's).
    public nonisolated var clientConfiguration: Configuration { .kindredClient }

    /// Runs one call of any generated client signed with `middleware`, classifying what it throws.
    /// - Throws: `KindredClientError`.
    public func authorizedCall<GeneratedClient: Sendable, Output: Sendable>(
        with client: GeneratedClient, _ operation: @Sendable (GeneratedClient) async throws -> Output
    ) async throws(KindredClientError) -> Output {
        do {
            return try await operation(client)
        } catch {
            throw KindredClientError(error)
        }
    }
}
