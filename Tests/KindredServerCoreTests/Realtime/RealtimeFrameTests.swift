@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing

/// The wire formats: client frames, server frames, NOTIFY payloads, channel names.
@Suite struct RealtimeFrameTests {
    @Test func parsesClientFrames() throws {
        #expect(try RealtimeFrame.parse(#"{"op":"subscribe","channel":"user:a","after":7}"#) == .subscribe(channel: "user:a", after: 7))
        #expect(try RealtimeFrame.parse(#"{"op":"subscribe","channel":"user:a"}"#) == .subscribe(channel: "user:a", after: nil))
        #expect(try RealtimeFrame.parse(#"{"op":"unsubscribe","channel":"user:a"}"#) == .unsubscribe(channel: "user:a"))
        #expect(try RealtimeFrame.parse(#"{"op":"pong"}"#) == .pong)
        #expect(throws: KindredError.badRequest("subscribe needs a \"channel\"")) { try RealtimeFrame.parse(#"{"op":"subscribe"}"#) }
        #expect(throws: KindredError.badRequest("\"after\" is a sequence number, 0 or more")) {
            try RealtimeFrame.parse(#"{"op":"subscribe","channel":"user:a","after":-1}"#)
        }
        #expect(throws: KindredError.badRequest("unknown op \"hello\"; use subscribe, unsubscribe or pong")) {
            try RealtimeFrame.parse(#"{"op":"hello"}"#)
        }
    }

    @Test func encodesServerFrames() {
        let event = RealtimeEvent(channel: "user:a", seq: 3, type: "t\"x", data: #"{"k":[1,2]}"#, createdAt: 0)
        #expect(event.frame == #"{"op":"event","channel":"user:a","seq":3,"type":"t\"x","data":{"k":[1,2]}}"#)
        #expect(RealtimeFrame.gap("c:1", from: 2, to: 9) == #"{"op":"gap","channel":"c:1","from":2,"to":9}"#)
        #expect(RealtimeFrame.quote("a\\b\n\u{1}é") == #""a\\b\n\u0001é""#)
    }

    @Test func noticePayloadsRoundTrip() {
        for notice in [RealtimeNotice.event(channel: "user:a b", seq: 12), .revalidateChannel("team:x"), .revalidateUser("u1")] {
            #expect(RealtimeNotice(payload: notice.payload) == notice)
        }
        #expect(RealtimeNotice(payload: "e x user:a") == nil)
        #expect(RealtimeNotice(payload: "z") == nil)
    }

    @Test func validatesChannelNames() throws {
        let channel = try RealtimeChannel("couple:9A2e-x_1.b")
        #expect(channel.kind == "couple")
        #expect(channel.id == "9A2e-x_1.b")
        #expect(throws: KindredError.invalidChannel("a channel is named <kind>:<id>")) { try RealtimeChannel("user") }
        #expect(throws: KindredError.invalidChannel("a channel kind is 1–32 characters of a-z, 0-9, _ and -, starting with a letter")) {
            try RealtimeChannel("User:a")
        }
        #expect(throws: KindredError.invalidChannel("a channel id is 1–128 characters of A-Z, a-z, 0-9, '.', '_' and '-'")) {
            try RealtimeChannel("user:a:b")
        }
    }
}
