@testable import KindredServerCore
import KindredServerTestSupport
import KindredTestSupport
import Testing

/// `realtime.socketsPerUser`: a user's sockets beyond the cap are refused with the frame
/// `too_many_sockets` and closed; closing one makes room; other users are not affected.
@Suite struct RealtimeSocketQuotaTests {
    @Test("The quota reserves up to the limit per user and gives back on release")
    func quota() {
        let quota = RealtimeSocketQuota(limit: 2)
        let first = quota.reserve("ada")
        #expect(first != nil)
        #expect(quota.reserve("ada") != nil)
        #expect(quota.reserve("ada") == nil)
        #expect(quota.reserve("bob") != nil)
        if let first { quota.release(first) }
        #expect(quota.count("ada") == 1)
        #expect(quota.reserve("ada") != nil)
    }

    @Test("A user's third socket with socketsPerUser 2 gets too_many_sockets and is closed", arguments: Backend.all)
    func thirdSocketIsRefused(backend: Backend) async throws {
        var settings = RealtimeTestApplication.testSettings
        settings.socketsPerUser = 2
        try await RealtimeTestApplication.run(on: backend, settings: settings) { app, client in
            let ada = try await client.signUp("ada@example.com")
            let bob = try await client.signUp("bob@example.com")
            let channel = "user:\(ada.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { first in
                let subscribedFirst = try await first.subscribe(channel)
                #expect(subscribedFirst == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { second in
                    let subscribedSecond = try await second.subscribe(channel)
                    #expect(subscribedSecond == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                    try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { third in
                        let frames = try await third.closed()
                        #expect(frames == [
                            #"{"op":"error","code":"too_many_sockets","message":"an account may have at most 2 realtime connections open; close one and retry"}"#,
                        ])
                    }
                    #expect(app.hub.socketQuota.count(ada.user.id) == 2)
                    // Another user is not affected.
                    try await RealtimeProbe.connect(port: app.port, token: bob.accessToken) { other in
                        let bobs = "user:\(bob.user.id)"
                        let subscribedOther = try await other.subscribe(bobs)
                        #expect(subscribedOther == #"{"op":"subscribed","channel":"\#(bobs)","seq":0}"#)
                    }
                }
                // The second closed: room for one again.
                try await waitUntil { app.hub.socketQuota.count(ada.user.id) == 1 }
                try await RealtimeProbe.connect(port: app.port, token: ada.accessToken) { again in
                    let subscribedAgain = try await again.subscribe(channel)
                    #expect(subscribedAgain == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                }
            }
        }
    }

    /// Polls `condition` for up to 5 s.
    func waitUntil(_ condition: @escaping @Sendable () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition(), ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        #expect(condition())
    }
}
