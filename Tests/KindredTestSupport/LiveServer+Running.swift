extension LiveServer {
    /// Runs `body` against a new server and stops the server afterwards, also when `body` throws.
    /// The server's folder (and a SQLite database in it) is gone on return: a test that reads
    /// the database afterwards keeps its own `LiveServer` alive instead.
    /// - Returns: the server as it stopped (exit status and log) and the database URL it used.
    public static func running(
        environment: [String: String] = [:], _ body: (LiveServer) async throws -> Void
    ) async throws -> (stopped: Stopped, databaseURL: String) {
        let server = try await LiveServer(environment: environment)
        do {
            try await body(server)
        } catch {
            _ = await server.stop()
            throw error
        }
        return (await server.stop(), server.databaseURL)
    }
}
