@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import CloserAPI
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Closer's direct writes (`PUT`/`PATCH …/answers/{userId}`, `POST …/release-keys`,
/// `CloserHandler+Direct.swift`) answer exactly as the generated server does. A write changes
/// what the next request sees, so each router plays the same script from scratch on a couple of
/// its own (same database, same pinned clock, the same request bodies): every answer must have
/// the same status, headers and body bytes once the ids the server made up for each side (the
/// accounts, the couple, and the question the couple's id picks) are swapped for the other's.
@Suite struct CloserDirectWritesTests {
    /// The request bodies both sides send (the fixtures are random).
    struct Material: Sendable {
        var sealedA = CloserFixtures.sealedAnswer()
        var sealedB = CloserFixtures.sealedAnswer()
        var keyboxes = (0..<4).map { _ in CloserFixtures.keybox() }
        var publicKey: String
    }

    /// One side's accounts, couple and day.
    struct Side: Sendable {
        var pair: CloserPair
        var outsider: SessionBody
        var otherApp: SessionBody
        var revoked: SessionBody
        var date: String
        var questionID: String
        /// Ids this side's server generated, in the order both sides list them.
        var ids: [String] {
            [pair.coupleID, pair.inviter.user.id, pair.acceptor.user.id, outsider.user.id, otherApp.user.id, revoked.user.id]
        }
    }

    /// One answer of the script.
    struct Exchange: Sendable {
        var name: String
        var response: TestResponse
        var expected: HTTPResponse.Status?
        var comparesRequestID: Bool
    }

    @Test(arguments: Backend.all)
    func directAndGeneratedWritesAreTheSameBytes(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_100_000.125))
            let direct = try await TestApplication(clock: clock, database: database, directRoutes: true)
            let generated = try await TestApplication(clock: clock, database: database, directRoutes: false)
            let material = Material(publicKey: try CloserFixtures.publicKey())
            let (directSide, fromDirect) = try await direct.app.test(.router) { client in
                let side = try await Self.setUp(client, "dw-direct", material)
                return (side, try await Self.script(client, side, material))
            }
            let (generatedSide, fromGenerated) = try await generated.app.test(.router) { client in
                let side = try await Self.setUp(client, "dw-generated", material)
                return (side, try await Self.script(client, side, material))
            }
            #expect(fromDirect.count == fromGenerated.count)
            for (d, g) in zip(fromDirect, fromGenerated) {
                let label = "\(backend): \(d.name)"
                if let expected = d.expected { #expect(d.response.status == expected, "\(label): \(d.response.text)") }
                #expect(d.response.status == g.response.status, "\(label)")
                let generatedBody = Self.normalized(Array(g.response.body.readableBytesView), from: generatedSide, to: directSide)
                let directBody = Array(d.response.body.readableBytesView)
                #expect(
                    directBody == generatedBody,
                    "\(label): \(String(decoding: directBody, as: UTF8.self)) vs \(String(decoding: generatedBody, as: UTF8.self))"
                )
                #expect(
                    Self.comparable(d.response.headers, requestID: d.comparesRequestID)
                        == Self.comparable(g.response.headers, requestID: d.comparesRequestID),
                    "\(label)"
                )
                // Content-Length is left out above (a question id's length differs between sides).
                for response in [d.response, g.response] {
                    #expect(response.headers[.contentLength] == String(response.body.readableBytes), "\(label)")
                }
            }
        }
    }

    /// A pair, an outsider, another app's account, a revoked session, today's question and three
    /// devices, set up through `client`'s router.
    static func setUp(_ client: some TestClientProtocol, _ prefix: String, _ material: Material) async throws -> Side {
        let pair = try await client.closerPair(prefix)
        let revoked = try await client.signUp("\(prefix)-revoked@example.com")
        #expect(try await client.call(.post, "/v1/auth/logout", token: revoked.accessToken).status == .noContent)
        let outsider = try await client.signUp("\(prefix)-outsider@example.com")
        let otherApp = try await client.anonymous(app: "streaksync")
        let assigned = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: pair.inviter.accessToken)
        #expect(assigned.status == .created, "\(assigned.text)")
        let day = client.object(assigned)
        for (token, device) in [(pair.inviter, "a-phone"), (pair.acceptor, "b-phone"), (pair.acceptor, "b-tablet")] {
            let put = try await client.call(
                .put, "/v1/closer/devices/\(device)", token: token.accessToken,
                json: #"{"publicKey":"\#(material.publicKey)","platform":"linux"}"#
            )
            #expect(put.status == .created, "\(put.text)")
        }
        return Side(
            pair: pair, outsider: outsider, otherApp: otherApp, revoked: revoked,
            date: day["date"] as? String ?? "", questionID: day["questionId"] as? String ?? ""
        )
    }

    /// The script: refusals, the first answer, the partner's, release keys, reveals.
    static func script(_ client: some TestClientProtocol, _ side: Side, _ m: Material) async throws -> [Exchange] {
        let appName = HTTPField.Name("X-Kindred-App")!
        let requestID = HTTPField.Name("X-Request-ID")!
        let a = side.pair.inviter, b = side.pair.acceptor
        let couple = side.pair.coupleID
        let answers = "/v1/closer/couples/\(couple)/days/\(side.date)/answers"
        let unknownCouple = "/v1/closer/couples/00000000-0000-4000-8000-000000000000/days/\(side.date)/answers"
        var exchanges: [Exchange] = []

        /// Sends one request; `type` nil sends no Content-Type, `body` nil no body.
        func send(
            _ name: String, _ method: HTTPRequest.Method, _ path: String, _ token: SessionBody?, _ body: String?,
            type: String? = "application/json", app: String? = "closer", extra: [(HTTPField.Name, String)] = [],
            id: String? = "write-probe", authorization: String? = nil, expect: HTTPResponse.Status? = nil
        ) async throws {
            var headers = HTTPFields()
            if let app { headers.append(HTTPField(name: appName, value: app)) }
            if let token { headers.append(HTTPField(name: .authorization, value: "Bearer \(token.accessToken)")) }
            if let authorization { headers.append(HTTPField(name: .authorization, value: authorization)) }
            if let type, body != nil { headers.append(HTTPField(name: .contentType, value: type)) }
            for (field, value) in extra { headers.append(HTTPField(name: field, value: value)) }
            if let id { headers.append(HTTPField(name: requestID, value: id)) }
            let response = try await client.execute(uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            exchanges.append(Exchange(name: name, response: response, expected: expect, comparesRequestID: id != nil))
        }

        func keys(_ devices: [String], senderDevice: String? = nil, revealed: Bool? = nil) -> String {
            let items = devices.enumerated().map { #"{"recipientDeviceId":"\#($1)","encryptedAnswerKey":"\#(m.keyboxes[$0])"}"# }
            var members = [#""keys":[\#(items.joined(separator: ","))]"#]
            if let senderDevice { members.append(#""senderDeviceId":"\#(senderDevice)""#) }
            if let revealed { members.append(#""isRevealed":\#(revealed)"#) }
            return "{\(members.joined(separator: ","))}"
        }
        let encodedUser = "%\(String(format: "%02X", Int(a.user.id.utf8.first!)))\(a.user.id.dropFirst())"
        let encodedDate = "%\(String(format: "%02X", Int(side.date.utf8.first!)))\(side.date.dropFirst())"

        // Refusals common to the three writes, before any answer exists (none changes anything).
        let writes: [(String, HTTPRequest.Method, String, String)] = [
            ("PUT", .put, "\(answers)/\(a.user.id)", m.sealedA),
            ("POST keys", .post, "\(answers)/\(a.user.id)/release-keys", keys(["b-phone"])),
            ("PATCH", .patch, "\(answers)/\(a.user.id)", #"{"isRevealed":true}"#),
        ]
        for (op, method, path, body) in writes {
            try await send("\(op): no token", method, path, nil, body, expect: .unauthorized)
            try await send("\(op): forged token", method, path, nil, body, authorization: "Bearer x.y.z", expect: .unauthorized)
            try await send("\(op): revoked session", method, path, side.revoked, body)
            try await send("\(op): another app's token", method, path, side.otherApp, body)
            try await send("\(op): another app", method, path, a, body, app: "soulmate")
            try await send("\(op): no app", method, path, a, body, app: nil)
            try await send("\(op): not a member", method, path, side.outsider, body)
            try await send("\(op): the partner's path", method, path, b, body, expect: .forbidden)
            try await send("\(op): the partner's path, user id percent-encoded", method, path.replacingOccurrences(of: a.user.id, with: encodedUser), b, body)
            try await send("\(op): unknown couple", method, path.replacingOccurrences(of: answers, with: unknownCouple), a, body)
            try await send("\(op): another day", method, path.replacingOccurrences(of: side.date, with: "2001-02-03"), a, body)
            try await send("\(op): date not a date", method, path.replacingOccurrences(of: side.date, with: "2001-2-3"), a, body)
            try await send("\(op): malformed body", method, path, a, "{\"keys\":", expect: .badRequest)
            try await send("\(op): empty body", method, path, a, "")
            try await send("\(op): no body", method, path, a, nil)
            try await send("\(op): unknown member", method, path, a, String(body.dropLast()) + #","extra":1}"#)
            try await send("\(op): JSON array", method, path, a, "[\(body)]")
            try await send("\(op): text/plain", method, path, a, body, type: "text/plain")
            try await send("\(op): another JSON type", method, path, a, body, type: "application/problem+json")
            try await send("\(op): Accept text/html", method, path, b, body, extra: [(.accept, "text/html")])
            try await send("\(op): request id the URI decoder reads", method, path, b, body, id: "a%zz,b")
        }
        try await send("PATCH before answering", .patch, "\(answers)/\(a.user.id)", a, #"{"isRevealed":true}"#)
        try await send("POST keys before answering", .post, "\(answers)/\(a.user.id)/release-keys", a, keys(["b-phone"]))
        try await send("PUT plaintext at encryption version 1", .put, "\(answers)/\(a.user.id)", a, #"{"schemaVersion":1,"text":"hi"}"#)

        // The first answer, then repeats of it through both paths.
        try await send(
            "PUT A", .put, "\(answers)/\(a.user.id)", a, m.sealedA, type: "application/json; charset=utf-8",
            extra: [(.accept, "application/json")], expect: .created
        )
        try await send("PUT A again", .put, "\(answers)/\(a.user.id)", a, m.sealedA, expect: .conflict)
        try await send("PUT A again, date percent-encoded", .put, "\(answers.replacingOccurrences(of: side.date, with: encodedDate))/\(a.user.id)", a, m.sealedA)
        try await send("PUT A again, no Content-Type", .put, "\(answers)/\(a.user.id)", a, m.sealedA, type: nil, expect: .conflict)
        try await send("PUT A again, Content-Type twice", .put, "\(answers)/\(a.user.id)", a, m.sealedA, extra: [(.contentType, "application/json")])
        try await send("PUT A again, Accept text/html", .put, "\(answers)/\(a.user.id)", a, m.sealedA, extra: [(.accept, "text/html")])
        // Reveals: false (no change), false → true, then the irreversible refusal.
        let aAnswer = "\(answers)/\(a.user.id)", bAnswer = "\(answers)/\(b.user.id)"
        try await send("PATCH A, false", .patch, aAnswer, a, #"{"isRevealed":false}"#, expect: .ok)
        try await send("PATCH A, false → true", .patch, aAnswer, a, #"{"isRevealed":true}"#, expect: .ok)
        try await send("PATCH A, true → false", .patch, aAnswer, a, #"{"isRevealed":false}"#, expect: .conflict)
        try await send("POST keys A before the partner answered", .post, "\(answers)/\(a.user.id)/release-keys", a, keys(["b-phone"]))
        // The partner's answer, after the first.
        try await send("PUT B", .put, "\(answers)/\(b.user.id)", b, m.sealedB, extra: [(.accept, "*/*")], id: nil, expect: .created)


        // Release keys.
        let aKeys = "\(answers)/\(a.user.id)/release-keys", bKeys = "\(answers)/\(b.user.id)/release-keys"
        try await send("POST keys A, an invalid keybox", .post, aKeys, a, #"{"keys":[{"recipientDeviceId":"b-phone","encryptedAnswerKey":"keybox:v1:!"}]}"#)
        try await send("POST keys A, no keys", .post, aKeys, a, #"{"keys":[]}"#)
        try await send("POST keys A, an unknown device", .post, aKeys, a, keys(["no-such-device"]))
        try await send("POST keys A, its own device", .post, aKeys, a, keys(["a-phone"]))
        try await send("POST keys A", .post, aKeys, a, keys(["b-phone"], senderDevice: "a-phone"), expect: .created)
        try await send("POST keys A again, both devices", .post, aKeys, a, keys(["b-phone", "b-tablet"]), expect: .created)
        try await send("POST keys A, isRevealed false", .post, aKeys, a, keys(["b-tablet"], revealed: false))
        try await send("POST keys B, revealed", .post, bKeys, b, keys(["a-phone"], senderDevice: "b-tablet", revealed: true), expect: .created)
        try await send("POST keys B, no Content-Type", .post, bKeys, b, keys(["a-phone"]), type: nil)

        // More reveals, with both answers.
        try await send("PATCH A, empty update", .patch, aAnswer, a, "{}")
        try await send("PATCH A, a string", .patch, aAnswer, a, #"{"isRevealed":"yes"}"#)
        try await send("PATCH A, true again", .patch, aAnswer, a, #"{"isRevealed":true,"answerKeyReleased":true}"#, expect: .ok)
        try await send("PATCH A, back to false", .patch, aAnswer, a, #"{"isRevealed":false}"#, expect: .conflict)
        try await send("PATCH B, back to false, no Content-Type", .patch, bAnswer, b, #"{"isRevealed":false}"#, type: nil)
        try await send("PATCH B, key released false", .patch, bAnswer, b, #"{"answerKeyReleased":false}"#)
        return exchanges
    }

    @Test("only plain path parameters are read directly; the rest goes to the generated code")
    func directWritesReadOnlyPlainPaths() {
        let id = "0a1b2c3d-0000-4000-8000-00000000000f"
        func parameters(_ couple: String, _ date: String, _ user: String) -> Hummingbird.Parameters {
            var parameters = Hummingbird.Parameters()
            parameters["coupleId"] = Substring(couple)
            parameters["date"] = Substring(date)
            parameters["userId"] = Substring(user)
            return parameters
        }
        #expect(CloserHandler.answerPathParameters(parameters(id, "2026-11-27", id)) == .init(coupleID: id, date: "2026-11-27", userID: id))
        for (couple, date, user) in [
            ("%30" + id.dropFirst(), "2026-11-27", id), (id, "%32026-11-27", id), (id, "2026-11-27", id.uppercased()),
            (id, "2026-11-27", "%30" + id.dropFirst()), (id, "2026-11-2x", id), (id, "2026-11-277", id), (id, "", id),
        ] {
            #expect(CloserHandler.answerPathParameters(parameters(couple, date, user)) == nil, "\(couple) \(date) \(user)")
        }
    }

    /// `bytes` with the generated side's ids and question replaced by the direct side's.
    static func normalized(_ bytes: [UInt8], from generated: Side, to direct: Side) -> [UInt8] {
        var text = String(decoding: bytes, as: UTF8.self)
        for (from, to) in zip(generated.ids, direct.ids) { text = text.replacingOccurrences(of: from, with: to) }
        text = text.replacingOccurrences(of: #""questionId":"\#(generated.questionID)""#, with: #""questionId":"\#(direct.questionID)""#)
        return Array(text.utf8)
    }

    /// The headers as a sorted list, without `Content-Length`, and `X-Request-ID` unless compared.
    static func comparable(_ headers: HTTPFields, requestID: Bool) -> [String] {
        headers.filter { (requestID || $0.name.canonicalName != "x-request-id") && $0.name != .contentLength }
            .map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }
}
