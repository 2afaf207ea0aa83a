@testable import KindredServer
@testable import KindredServerCore
@testable import SoulMateServer
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredCrypto
import KindredStore
import KindredTestSupport
import SQLKit
import Testing

/// A SoulMate account in a test: its session, its e-mail and its identity key pair (real X25519).
struct SoulMateMember: Sendable {
    var session: SessionBody
    var email: String
    var identity: SoulMateIdentity

    var id: String { session.user.id }
    var token: String { session.accessToken }
    /// The public key this member publishes.
    var publicKey: String { identity.publicKeyBase64 }
}

/// Two paired members: `a` asked with `b`'s code, `b` accepted.
struct SoulMateCouple: Sendable {
    var a: SoulMateMember
    var b: SoulMateMember
    var pairID: String
    var requestID: String
}

/// Bodies, sealing and database reads shared by the SoulMate suites.
enum SoulMateFixtures {
    static let password = "correct horse"

    /// A JSON string literal of `text`.
    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }

    /// A fresh message id (1–64 of `A-Z a-z 0-9 - _`).
    static func messageID() -> String { "m-" + UUID().uuidString.lowercased() }

    /// The body of `PUT /v1/soulmate/session-lock`.
    static func lock(_ installation: String, device: String = "Ada's iPhone") -> String {
        #"{"installationId":"\#(installation)","platform":"ios","deviceName":"\#(device)","appVersion":"1.0.0"}"#
    }

    /// The body of `POST /v1/soulmate/session-lock/takeover`.
    static func takeover(_ installation: String, password: String = SoulMateFixtures.password, device: String = "New Phone") -> String {
        #"{"installationId":"\#(installation)","platform":"ios","deviceName":"\#(device)","appVersion":"1.0.0","password":\#(json(password))}"#
    }

    /// The body of `POST /v1/soulmate/messages`.
    static func envelope(id: String, to recipient: String, keyVersion: Int = 1, ciphertext: String, sentAt: Date = Date()) -> String {
        let sent = ISO8601DateFormatter().string(from: sentAt)
        return #"{"id":"\#(id)","recipientId":"\#(recipient)","sentAt":"\#(sent)","keyVersion":\#(keyVersion),"ciphertext":"\#(ciphertext)"}"#
    }

    /// The pair key `from` derives for `to` (both derive the same one).
    static func chatKey(_ from: SoulMateMember, _ to: SoulMateMember) throws -> SoulMateChatKey {
        try SoulMateChatKey(identity: from.identity, partnerPublicKeyBase64: to.publicKey)
    }

    /// `text` sealed by `from` for `to`, as the phone seals it.
    static func seal(_ text: String, from: SoulMateMember, to: SoulMateMember, type: ChatPayload.Kind = .text) throws -> String {
        try chatKey(from, to).seal(ChatPayload(type: type, value: text))
    }

    /// Random standard Base64 of `count` bytes (a well-shaped ciphertext the server cannot tell from a real one).
    static func base64(_ count: Int) -> String {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    }

    // MARK: - Database reads

    /// A realtime event on a user's channel.
    struct Event: Sendable {
        var type: String
        var data: [String: String]
    }

    /// The events on `user:<userID>` of `type` (every type when nil), in order.
    static func events(_ type: String? = nil, for userID: String, on database: Database) async throws -> [Event] {
        var query = database.sql.select().columns("type", "data").from("kindred_realtime_events")
            .where("channel", .equal, "user:\(userID)")
        if let type { query = query.where("type", .equal, type) }
        return try await query.orderBy("seq").all().map { row in
            let data = try row.decode(column: "data", as: String.self)
            return Event(
                type: try row.decode(column: "type", as: String.self),
                data: (try? JSONDecoder().decode([String: String].self, from: Data(data.utf8))) ?? [:]
            )
        }
    }

    /// A queued push.
    struct Push: Sendable {
        var id: String
        var type: String
        var body: String
        var rawData: String
        var data: [String: String]
    }

    /// The pushes queued for `userID` (of `type` when given), oldest first.
    static func pushes(for userID: String, type: String? = nil, on database: Database) async throws -> [Push] {
        var query = database.sql.select().columns("id", "type", "body", "data").from("kindred_notifications")
            .where("user_id", .equal, userID)
        if let type { query = query.where("type", .equal, type) }
        return try await query.orderBy("created_at").orderBy("id").all().map { row in
            let raw = try row.decode(column: "data", as: String.self)
            return Push(
                id: try row.decode(column: "id", as: String.self), type: try row.decode(column: "type", as: String.self),
                body: try row.decode(column: "body", as: String.self), rawData: raw,
                data: (try? JSONDecoder().decode([String: String].self, from: Data(raw.utf8))) ?? [:]
            )
        }
    }

    /// The pushes whose data names `event` (`soulmate.unpaired`, …) for `userID`.
    static func pushes(_ event: String, for userID: String, on database: Database) async throws -> [Push] {
        try await pushes(for: userID, on: database).filter { $0.data["event"] == event }
    }

    /// Every string in a JSON document (keys and values), and in any JSON document a string holds.
    static func strings(inJSON data: Data) -> [String] {
        guard let value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return [] }
        var found: [String] = []
        func walk(_ value: Any) {
            switch value {
            case let object as [String: Any]:
                for (key, item) in object {
                    found.append(key)
                    walk(item)
                }
            case let array as [Any]:
                array.forEach(walk)
            case let text as String:
                found.append(text)
                if text.hasPrefix("{") || text.hasPrefix("[") { found += strings(inJSON: Data(text.utf8)) }
            default:
                break
            }
        }
        walk(value)
        return found
    }

    /// The ids of the envelopes stored on the server.
    static func envelopeIDs(on database: Database) async throws -> Set<String> {
        Set(try await database.sql.select().column("id").from("soulmate_envelopes").all().map { try $0.decode(column: "id", as: String.self) })
    }

    /// The number of rows of `table` whose `column` is `value`.
    static func count(_ table: String, where column: String, is value: String, on database: Database) async throws -> Int {
        try await database.sql.select().column(SQLFunction("COUNT", args: SQLLiteral.all), as: "n").from(table)
            .where(SQLIdentifier(column), .equal, SQLBind(value)).first()?.decode(column: "n", as: Int.self) ?? -1
    }
}

extension TestClientProtocol {
    /// A request of the SoulMate app.
    func soulmate(_ method: HTTPRequest.Method, _ path: String, token: String?, json: String? = nil) async throws -> TestResponse {
        try await call(method, path, app: "soulmate", token: token, json: json)
    }

    /// Signs up a SoulMate account with e-mail, password and (by default) both names.
    func soulmateMember(
        _ name: String, first: String? = "Ada", last: String? = "Lovelace", password: String = SoulMateFixtures.password
    ) async throws -> SoulMateMember {
        let email = "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        var fields = [#""email":"\#(email)""#, #""password":\#(SoulMateFixtures.json(password))"#]
        if let first { fields.append(#""firstName":\#(SoulMateFixtures.json(first))"#) }
        if let last { fields.append(#""lastName":\#(SoulMateFixtures.json(last))"#) }
        let response = try await call(.post, "/v1/auth/signup", app: "soulmate", json: "{\(fields.joined(separator: ","))}")
        #expect(response.status == .created, "\(response.text)")
        return SoulMateMember(session: try response.decode(SessionBody.self), email: email, identity: SoulMateIdentity())
    }

    /// `member` with a fresh access token (after the test clock moved past the old one's 15 minutes).
    func refreshed(_ member: SoulMateMember) async throws -> SoulMateMember {
        let response = try await refresh(member.session.refreshToken, app: "soulmate")
        #expect(response.status == .ok, "\(response.text)")
        var member = member
        member.session = try response.decode(SessionBody.self)
        return member
    }

    /// The JSON object of a response.
    func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
    }

    /// `member`'s pair code.
    func pairCode(_ member: SoulMateMember) async throws -> String {
        let response = try await soulmate(.get, "/v1/soulmate/pair-code", token: member.token)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)["code"] as? String ?? ""
    }

    /// `from` asks the owner of `to`'s code; returns the answer.
    func requestPair(from: SoulMateMember, to: SoulMateMember) async throws -> TestResponse {
        try await soulmate(.post, "/v1/soulmate/pair-requests", token: from.token, json: #"{"code":"\#(try await pairCode(to))"}"#)
    }

    /// `from` asks `to` (expecting 201 pending); returns the request's id.
    func pendingRequest(from: SoulMateMember, to: SoulMateMember) async throws -> String {
        let response = try await requestPair(from: from, to: to)
        #expect(response.status == .created, "\(response.text)")
        #expect(object(response)["status"] as? String == "pending")
        return object(response)["id"] as? String ?? ""
    }

    /// Pairs `a` and `b` (a asks, b accepts) and publishes both identity keys unless told not to.
    func soulmateCouple(_ a: SoulMateMember, _ b: SoulMateMember, publishKeys: Bool = true) async throws -> SoulMateCouple {
        let requestID = try await pendingRequest(from: a, to: b)
        let accepted = try await soulmate(.post, "/v1/soulmate/pair-requests/\(requestID)/accept", token: b.token)
        #expect(accepted.status == .ok, "\(accepted.text)")
        if publishKeys {
            try await publishKey(a)
            try await publishKey(b)
        }
        return SoulMateCouple(a: a, b: b, pairID: object(accepted)["id"] as? String ?? "", requestID: requestID)
    }

    /// Signs up two members and pairs them.
    func soulmateCouple(_ prefix: String = "pair") async throws -> SoulMateCouple {
        let a = try await soulmateMember("\(prefix)-a", first: "Ada", last: "Lovelace")
        let b = try await soulmateMember("\(prefix)-b", first: "Bea", last: "Brown")
        return try await soulmateCouple(a, b)
    }

    /// Publishes `member`'s identity key; returns its version.
    @discardableResult
    func publishKey(_ member: SoulMateMember, publicKey: String? = nil) async throws -> Int {
        let response = try await soulmate(
            .put, "/v1/soulmate/identity-key", token: member.token, json: #"{"publicKey":"\#(publicKey ?? member.publicKey)"}"#
        )
        #expect(response.status == .ok, "\(response.text)")
        return object(response)["keyVersion"] as? Int ?? -1
    }

    /// Seals `text` and sends it from `from` to `to`; returns the answer and the ciphertext.
    @discardableResult
    func sendMessage(
        _ text: String, from: SoulMateMember, to: SoulMateMember, id: String = SoulMateFixtures.messageID(), keyVersion: Int = 1
    ) async throws -> (response: TestResponse, id: String, ciphertext: String) {
        let ciphertext = try SoulMateFixtures.seal(text, from: from, to: to)
        let response = try await soulmate(
            .post, "/v1/soulmate/messages", token: from.token,
            json: SoulMateFixtures.envelope(id: id, to: to.id, keyVersion: keyVersion, ciphertext: ciphertext)
        )
        return (response, id, ciphertext)
    }

    /// The route of `member` on `installation`.
    func route(_ member: SoulMateMember?, installation: String = "phone-1") async throws -> [String: Any] {
        let response = try await soulmate(.get, "/v1/soulmate/route?installationId=\(installation)", token: member?.token)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)
    }

    /// The envelopes waiting for `member` (one page).
    func inbox(_ member: SoulMateMember, query: String = "") async throws -> [[String: Any]] {
        let response = try await soulmate(.get, "/v1/soulmate/messages\(query)", token: member.token)
        #expect(response.status == .ok, "\(response.text)")
        return object(response)["envelopes"] as? [[String: Any]] ?? []
    }
}

/// Asserts a response's status and error code in one line.
func expectRefusal(
    _ response: TestResponse, _ status: Int, _ code: String, _ what: String = "", sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(Int(response.status.code) == status, "\(what) \(response.text)", sourceLocation: sourceLocation)
    #expect(response.errorCode == code, "\(what) \(response.text)", sourceLocation: sourceLocation)
}
