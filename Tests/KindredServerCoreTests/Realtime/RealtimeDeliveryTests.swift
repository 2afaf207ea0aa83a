@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import KindredTestSupport
import Testing

/// Publishing, ordering, resume and gaps over a real WebSocket, on SQLite and PostgreSQL.
@Suite struct RealtimeDeliveryTests {
    /// Publishes `count` events on `channel`, each in its own transaction.
    static func publish(_ hub: RealtimeHub, _ channel: String, count: Int, type: String = "test.tick") async throws {
        let channel = try RealtimeChannel(channel)
        for index in 0..<count {
            try await hub.publisher.transaction { transaction in
                try await hub.publisher.publish(channel: channel, type: type, data: ["n": index], on: transaction)
            }
        }
    }

    /// The exact event frame of `RealtimeDeliveryTests.publish`'s `index`-th event.
    static func tick(_ channel: String, seq: Int64, n: Int) -> String {
        #"{"op":"event","channel":"\#(channel)","seq":\#(seq),"type":"test.tick","data":{"n":\#(n)}}"#
    }

    @Test("PATCH /v1/me reaches the user's own channel as profile.updated, after commit", arguments: Backend.all)
    func profileUpdate(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let session = try await client.signUp("ada@example.com")
            let channel = "user:\(session.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                let value1 = try await probe.subscribe(channel)
                #expect(value1 == #"{"op":"subscribed","channel":"\#(channel)","seq":0}"#)
                let response = try await client.call(.patch, "/v1/me", token: session.accessToken, json: #"{"displayName":"Ada"}"#)
                #expect(response.status == .ok)
                let frame = try await probe.next()
                #expect(frame.hasPrefix(#"{"op":"event","channel":"\#(channel)","seq":1,"type":"profile.updated","data":{"#))
                let object = try JSONSerialization.jsonObject(with: Data(frame.utf8)) as? [String: Any]
                let data = object?["data"] as? [String: Any]
                #expect(data?["displayName"] as? String == "Ada")
                #expect(data?["id"] as? String == session.user.id)
            }
        }
    }

    @Test("A refused profile change publishes nothing (the event is rolled back with it)", arguments: Backend.all)
    func rolledBack(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let session = try await client.signUp("bea@example.com")
            let channel = try RealtimeChannel("user:\(session.user.id)")
            await #expect(throws: TestRollback.self) {
                try await app.hub.publisher.transaction { transaction in
                    try await app.hub.publisher.publish(channel: channel, type: "x", data: ["a": 1], on: transaction)
                    throw TestRollback()
                }
            }
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                // The rolled-back number is handed out again: no hole in the sequence.
                let value2 = try await probe.subscribe(channel.name)
                #expect(value2 == #"{"op":"subscribed","channel":"\#(channel.name)","seq":0}"#)
                try await Self.publish(app.hub, channel.name, count: 1)
                let value3 = try await probe.next()
                #expect(value3 == Self.tick(channel.name, seq: 1, n: 0))
            }
        }
    }

    @Test("Concurrent publishers: every subscriber gets 1…N once each, in order", arguments: Backend.all)
    func ordering(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let session = try await client.signUp("cy@example.com")
            let channel = "user:\(session.user.id)"
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                try await probe.subscribe(channel)
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for _ in 0..<4 { group.addTask { try await Self.publish(app.hub, channel, count: 25) } }
                    try await group.waitForAll()
                }
                var seqs: [Int64] = []
                for _ in 0..<100 {
                    let object = try JSONSerialization.jsonObject(with: Data(try await probe.next().utf8)) as? [String: Any]
                    seqs.append((object?["seq"] as? NSNumber)?.int64Value ?? -1)
                }
                #expect(seqs == Array(1...100))
                try await probe.expectSilence(for: .milliseconds(100))
            }
        }
    }

    @Test("Resume: subscribe after N replays N+1… then continues live", arguments: Backend.all)
    func resume(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let session = try await client.signUp("dee@example.com")
            let channel = "user:\(session.user.id)"
            try await Self.publish(app.hub, channel, count: 5)
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                let value4 = try await probe.subscribe(channel, after: 2)
                #expect(value4 == #"{"op":"subscribed","channel":"\#(channel)","seq":5}"#)
                for seq in 3...5 { #expect(try await probe.next() == Self.tick(channel, seq: Int64(seq), n: seq - 1)) }
                try await Self.publish(app.hub, channel, count: 1)
                let value5 = try await probe.next()
                #expect(value5 == Self.tick(channel, seq: 6, n: 0))
                try await probe.expectSilence(for: .milliseconds(100))
            }
        }
    }

    @Test("Resume while publishers run: no duplicates, no reordering, nothing missed", arguments: Backend.all)
    func resumeRace(backend: Backend) async throws {
        try await RealtimeTestApplication.run(on: backend) { app, client in
            let session = try await client.signUp("eve@example.com")
            let channel = "user:\(session.user.id)"
            try await Self.publish(app.hub, channel, count: 20)
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                let publishing = Task { try await Self.publish(app.hub, channel, count: 60) }
                try await Task.sleep(for: .milliseconds(20))
                let subscribed = try await probe.subscribe(channel, after: 10)
                #expect(subscribed.hasPrefix(#"{"op":"subscribed","channel":"\#(channel)","seq":"#))
                try await publishing.value
                var seqs: [Int64] = []
                for _ in 0..<70 {
                    let object = try JSONSerialization.jsonObject(with: Data(try await probe.next().utf8)) as? [String: Any]
                    seqs.append((object?["seq"] as? NSNumber)?.int64Value ?? -1)
                }
                #expect(seqs == Array(11...80))
                try await probe.expectSilence(for: .milliseconds(100))
            }
        }
    }

    @Test("Events beyond retention are reported as a gap, then the retained ones follow", arguments: Backend.all)
    func gap(backend: Backend) async throws {
        var settings = RealtimeSettings()
        settings.retentionCount = 3
        try await RealtimeTestApplication.run(on: backend, settings: settings) { app, client in
            let session = try await client.signUp("fay@example.com")
            let channel = "user:\(session.user.id)"
            try await Self.publish(app.hub, channel, count: 10)
            let value6 = try await app.hub.pruneExpired()
            #expect(value6 == 7)
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                let value7 = try await probe.subscribe(channel, after: 2)
                #expect(value7 == #"{"op":"subscribed","channel":"\#(channel)","seq":10}"#)
                let value8 = try await probe.next()
                #expect(value8 == #"{"op":"gap","channel":"\#(channel)","from":3,"to":7}"#)
                for seq in 8...10 { #expect(try await probe.next() == Self.tick(channel, seq: Int64(seq), n: seq - 1)) }
                // Caught up within retention: no gap.
                try await probe.send(#"{"op":"unsubscribe","channel":"\#(channel)"}"#)
                let value9 = try await probe.next()
                #expect(value9 == #"{"op":"unsubscribed","channel":"\#(channel)","reason":"requested"}"#)
                let value10 = try await probe.subscribe(channel, after: 8)
                #expect(value10 == #"{"op":"subscribed","channel":"\#(channel)","seq":10}"#)
                for seq in 9...10 { #expect(try await probe.next() == Self.tick(channel, seq: Int64(seq), n: seq - 1)) }
            }
        }
    }

    @Test("Age-based retention prunes old events; numbering continues", arguments: Backend.all)
    func retentionByAge(backend: Backend) async throws {
        var settings = RealtimeSettings()
        settings.retentionAge = .seconds(60)
        try await RealtimeTestApplication.run(on: backend, settings: settings) { app, client in
            let session = try await client.signUp("gus@example.com")
            let channel = "user:\(session.user.id)"
            try await Self.publish(app.hub, channel, count: 4)
            app.clock.advance(by: .seconds(61))
            try await Self.publish(app.hub, channel, count: 1)
            let value11 = try await app.hub.pruneExpired()
            #expect(value11 == 4)
            try await RealtimeProbe.connect(port: app.port, token: session.accessToken) { probe in
                let value12 = try await probe.subscribe(channel, after: 0)
                #expect(value12 == #"{"op":"subscribed","channel":"\#(channel)","seq":5}"#)
                let value13 = try await probe.next()
                #expect(value13 == #"{"op":"gap","channel":"\#(channel)","from":1,"to":4}"#)
                let value14 = try await probe.next()
                #expect(value14 == Self.tick(channel, seq: 5, n: 0))
            }
        }
    }
}

/// Thrown to roll a transaction back.
struct TestRollback: Error {}
