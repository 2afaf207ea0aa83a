@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// The server's `ping` every interval; two unanswered end the connection.
@Suite struct RealtimeHeartbeatTests {
    static var fast: RealtimeSettings {
        var settings = RealtimeSettings()
        settings.heartbeatInterval = .milliseconds(400)
        return settings
    }

    @Test("A silent peer gets two pings, then heartbeat_missed, then the socket closes")
    func silentPeerDropped() async throws {
        try await RealtimeTestApplication.run(on: .sqlite, settings: Self.fast) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let channel = "user:\(ada.user.id)"
            let subscribed = #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken, answerPings: false) { probe in
                try await probe.send(#"{"op":"subscribe","channel":"\#(channel)"}"#)
                // The first ping may come before `subscribed` on a slow machine (400 ms interval),
                // so the heartbeat frames are checked apart from it.
                let frames = try await probe.closed(timeout: .seconds(15))
                #expect(frames.filter { $0 == subscribed }.count == 1)
                #expect(frames.filter { $0 != subscribed } == [
                    #"{"op":"ping"}"#, #"{"op":"ping"}"#,
                    #"{"op":"error","code":"heartbeat_missed","message":"two pings went unanswered; reconnect and resume"}"#,
                ])
            }
            #expect(await app.hub.subscriptionCount == 0)
        }
    }

    @Test("A peer that answers pong stays connected")
    func answeringPeerStays() async throws {
        try await RealtimeTestApplication.run(on: .sqlite, settings: Self.fast) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let channel = "user:\(ada.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken, answerPings: true) { probe in
                try await probe.subscribe(channel)
                try await Task.sleep(for: .milliseconds(2000))
                try await RealtimeDeliveryTests.publish(app.hub, channel, count: 1)
                let value1 = try await probe.next()
                #expect(value1 == RealtimeDeliveryTests.tick(channel, seq: 1, n: 0))
            }
        }
    }
}
