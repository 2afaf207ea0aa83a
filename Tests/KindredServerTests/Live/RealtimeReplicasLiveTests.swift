@testable import AdminConsole
@testable import BillingServer
@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredStore
import KindredTestSupport
import Testing

/// Two `kindred serve` processes on one PostgreSQL: events cross replicas through LISTEN/NOTIFY.
@Suite(.serialized) struct RealtimeReplicasLiveTests {
    @Test("An event committed through one replica reaches a subscriber on the other; one token works on both")
    func crossReplica() async throws {
        guard TestDatabases.postgresURL != nil || TestDatabases.isCI else { return }
        try await TestDatabases.with(.postgresql) { database in
            guard case .postgres(let pg) = database.configuration.url else { return }
            let url = "postgres://\(pg.username)\(pg.password.map { ":\($0)" } ?? "")@\(pg.host):\(pg.port)/\(pg.database)"
            let first = try await LiveServer(databaseURL: url)
            let second = try await LiveServer(databaseURL: url)
            do {
                // Sign up on the first replica, subscribe on the second with the same token.
                let signUp = try Self.send(
                    port: first.port, "POST", "/v1/auth/signup", json: #"{"email":"ada@example.com","password":"correct horse battery"}"#
                )
                let body = try #require(signUp.split(separator: "\r\n\r\n", maxSplits: 1).last)
                let session = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
                let token = try #require(session["accessToken"] as? String)
                let userID = try #require((session["user"] as? [String: Any])?["id"] as? String)
                let channel = "user:\(userID)"
                try await RealtimeProbe.connect(port: second.port, token: token) { probe in
                    let value1 = try await probe.subscribe(channel)
                    #expect(value1 == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                    let patch = #"{"displayName":"Ada"}"#
                    let answer = try Self.send(port: first.port, "PATCH", "/v1/me", token: token, json: patch)
                    #expect(answer.hasPrefix("HTTP/1.1 200"))
                    let frame = try await probe.next()
                    #expect(frame.hasPrefix(#"{"op":"event","channel":"\#(channel)","seq":1,"type":"profile.updated","data":{"#))
                    #expect(frame.contains(#""displayName":"Ada""#))
                }
            } catch {
                _ = await first.stop()
                _ = await second.stop()
                throw error
            }
            #expect(await first.stop().status == 0)
            #expect(await second.stop().status == 0)
        }
    }
}

extension RealtimeReplicasLiveTests {
    /// One HTTP/1.1 exchange with a JSON body for the closer app.
    static func send(port: Int, _ method: String, _ path: String, token: String? = nil, json: String) throws -> String {
        let authorization = token.map { "Authorization: Bearer \($0)\r\n" } ?? ""
        return try LoopbackHTTP.exchange(
            port: port,
            head: "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kindred-App: closer\r\n\(authorization)"
                + "Content-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)"
        )
    }
}

