import Foundation
@testable import KindredServer
import KindredServerCore
import Testing

/// `server.idleTimeoutSeconds`, `server.requestHeadTimeoutSeconds`,
/// `server.requestBodyTimeoutSeconds`, `server.responseWriteTimeoutSeconds`, `server.maxConnections` and `realtime.socketsPerUser`:
/// defaults, values from the environment, and a typed settings error out of range.
@Suite struct ServerSettingsConnectionsTests {
    @Test func defaultsAndEnvironment() async throws {
        let defaults = try await ServerSettings.resolve(flags: .init(), environment: [:]).server
        #expect(defaults.connections == ConnectionSettings())
        #expect(defaults.connections.idleTimeout == .seconds(60))
        #expect(defaults.connections.requestHeadTimeout == .seconds(10))
        #expect(defaults.connections.requestBodyTimeout == .seconds(60))
        #expect(defaults.connections.writeStallTimeout == .seconds(30))
        #expect(defaults.connections.maxConnections == 4096)
        #expect(defaults.realtime.socketsPerUser == 10)
        let set = try await ServerSettings.resolve(flags: .init(), environment: [
            "KINDRED_SERVER_IDLE_TIMEOUT_SECONDS": "5", "KINDRED_SERVER_REQUEST_HEAD_TIMEOUT_SECONDS": "2",
            "KINDRED_SERVER_REQUEST_BODY_TIMEOUT_SECONDS": "7", "KINDRED_SERVER_MAX_CONNECTIONS": "100",
            "KINDRED_SERVER_RESPONSE_WRITE_TIMEOUT_SECONDS": "9", "KINDRED_REALTIME_SOCKETS_PER_USER": "3",
        ]).server
        #expect(set.connections.idleTimeout == .seconds(5))
        #expect(set.connections.requestHeadTimeout == .seconds(2))
        #expect(set.connections.requestBodyTimeout == .seconds(7))
        #expect(set.connections.maxConnections == 100)
        #expect(set.connections.writeStallTimeout == .seconds(9))
        #expect(set.realtime.socketsPerUser == 3)
    }

    @Test func outOfRangeIsATypedError() async throws {
        let cases = [
            ("KINDRED_SERVER_IDLE_TIMEOUT_SECONDS", "0", "server.idleTimeoutSeconds must be 1 to 3600, not 0"),
            ("KINDRED_SERVER_REQUEST_HEAD_TIMEOUT_SECONDS", "601", "server.requestHeadTimeoutSeconds must be 1 to 600, not 601"),
            ("KINDRED_SERVER_REQUEST_BODY_TIMEOUT_SECONDS", "-1", "server.requestBodyTimeoutSeconds must be 1 to 3600, not -1"),
            ("KINDRED_SERVER_RESPONSE_WRITE_TIMEOUT_SECONDS", "0", "server.responseWriteTimeoutSeconds must be 1 to 3600, not 0"),
            ("KINDRED_SERVER_MAX_CONNECTIONS", "0", "server.maxConnections must be 1 to 1000000, not 0"),
            ("KINDRED_REALTIME_SOCKETS_PER_USER", "0", "realtime.socketsPerUser must be at least 1, not 0"),
        ]
        for (key, value, message) in cases {
            await #expect(throws: ServerSettings.Invalid(description: message)) {
                _ = try await ServerSettings.resolve(flags: .init(), environment: [key: value])
            }
        }
    }
}
