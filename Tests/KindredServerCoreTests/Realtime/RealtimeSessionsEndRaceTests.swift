@testable import KindredServerCore
import Foundation
import Testing

/// The local end of a revocation (after its commit) and its NOTIFY echo on the same replica can
/// run at the same moment: every connection still gets exactly one `session_revoked` frame
/// (a PostgreSQL CI run once saw two on one socket).
@Suite struct RealtimeSessionsEndRaceTests {
    @Test func concurrentEndsOfOneAccountCloseEachConnectionOnce() async throws {
        for round in 0..<100 {
            let sessions = RealtimeSessions()
            var streams: [AsyncStream<String>] = []
            // Kept alive: the registry keys connections by their registration's identity.
            var registrations: [RealtimeSessions.Registration] = []
            for index in 0..<20 {
                let (stream, continuation) = AsyncStream.makeStream(of: String.self)
                let identity = RealtimeIdentity(userID: "u-\(round)", sessionID: "s-\(index % 3)", app: .closer)
                registrations.append(sessions.add(identity, outbox: RealtimeOutbox(continuation)))
                streams.append(stream)
            }
            let closed = await withTaskGroup(of: Int.self) { group in
                for ender in 0..<8 {
                    group.addTask { sessions.end(ender.isMultiple(of: 2) ? .user("u-\(round)") : .session("s-\(ender % 3)")) }
                }
                return await group.reduce(0, +)
            }
            #expect(closed == 20, "round \(round): \(closed) closings for 20 connections")
            #expect(sessions.count == 0 && registrations.count == 20)
            for stream in streams {
                var frames: [String] = []
                for await frame in stream { frames.append(frame) }
                #expect(frames == [RealtimeFrame.error(.sessionRevoked)], "round \(round)")
            }
        }
    }
}
