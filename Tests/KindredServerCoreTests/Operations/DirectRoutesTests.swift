@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import KindredAPI
import KindredStore
import OpenAPIRuntime
import KindredTestSupport
import Testing


/// The operations served by direct handlers (`DirectRoutes`) answer exactly as the generated
/// server does: the same requests sent to a router with direct routes and to one without, on
/// the same database, get the same status, headers and body bytes.
@Suite struct DirectRoutesTests {
    /// One request of the comparison; `comparesRequestID` is false when the request's own id is
    /// not one the server echoes (each router then makes up its own).
    struct Probe: CustomStringConvertible {
        var name: String
        var path: String
        var headers: HTTPFields
        var comparesRequestID = true
        var description: String { name }
    }

    @Test(arguments: Backend.all)
    func directAndGeneratedAnswersAreTheSameBytes(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_000_000.25))
            let direct = try await TestApplication(clock: clock, database: database, directRoutes: true)
            let generated = try await TestApplication(clock: clock, database: database, directRoutes: false)
            try await direct.app.test(.router) { directClient in
                try await generated.app.test(.router) { generatedClient in
                    let anonymous = try await generatedClient.anonymous()
                    let member = try await generatedClient.signUp("ayse@example.com")
                    let profile = try await generatedClient.call(
                        .patch, "/v1/me", token: member.accessToken,
                        json: #"{"displayName":"Ayşe \"Ay\" Yılmaz \\ 😀","firstName":"Ayşe","lastName":"Yılmaz/Kaya","photoURL":"https://cdn.example.com/a/b.jpg?x=1&y=\"2\"","timeZone":"Europe/Istanbul","locale":"tr-TR"}"#
                    )
                    #expect(profile.status == .ok, "\(profile.text)")
                    let revoked = try await generatedClient.anonymous()
                    let logout = try await generatedClient.call(
                        .post, "/v1/auth/logout", token: revoked.accessToken
                    )
                    #expect(logout.status == .noContent, "\(logout.text)")

                    for probe in Self.probes(anonymous: anonymous, member: member, revoked: revoked) {
                        let fromDirect = try await directClient.execute(uri: probe.path, method: .get, headers: probe.headers, body: nil)
                        let fromGenerated = try await generatedClient.execute(uri: probe.path, method: .get, headers: probe.headers, body: nil)
                        #expect(fromDirect.status == fromGenerated.status, "\(probe)")
                        #expect(fromDirect.text == fromGenerated.text, "\(probe)")
                        #expect(Array(fromDirect.body.readableBytesView) == Array(fromGenerated.body.readableBytesView), "\(probe)")
                        #expect(
                            Self.comparable(fromDirect.headers, requestID: probe.comparesRequestID)
                                == Self.comparable(fromGenerated.headers, requestID: probe.comparesRequestID),
                            "\(probe)"
                        )
                    }

                    // A sign-up makes a new account each time, so the two answers cannot be the
                    // same bytes: each path's status and headers must match the other's, and each
                    // body must be exactly what JSONEncoder writes for the session it holds.
                    let id: HTTPFields = [HTTPField.Name("X-Request-ID")!: "probe-signup"]
                    let viaDirect = try await directClient.call(.post, "/v1/auth/anonymous", headers: id)
                    let viaGenerated = try await generatedClient.call(.post, "/v1/auth/anonymous", headers: id)
                    #expect(viaDirect.status == .created, "\(viaDirect.text)")
                    #expect(viaGenerated.status == .created, "\(viaGenerated.text)")
                    #expect(Self.comparable(viaDirect.headers, requestID: true) == Self.comparable(viaGenerated.headers, requestID: true))
                    for response in [viaDirect, viaGenerated] {
                        let bytes = Array(response.body.readableBytesView)
                        let session = try Self.serverDecoder.decode(Components.Schemas.Session.self, from: Data(bytes))
                        #expect(bytes == Array(try Self.serverEncoder.encode(session)), "\(response.text)")
                        #expect(session.isNewUser && session.user.isAnonymous && session.user.app == .closer)
                    }
                }
            }
        }
    }

    static func probes(anonymous: SessionBody, member: SessionBody, revoked: SessionBody) -> [Probe] {
        let app = HTTPField.Name("X-Kindred-App")!
        let requestID = HTTPField.Name("X-Request-ID")!
        func headers(_ fields: [(HTTPField.Name, String)], id: String? = "probe-1") -> HTTPFields {
            var headers = HTTPFields()
            for (name, value) in fields { headers.append(HTTPField(name: name, value: value)) }
            if let id { headers.append(HTTPField(name: requestID, value: id)) }
            return headers
        }
        let bearer = { (session: SessionBody) in "Bearer \(session.accessToken)" }
        return [
            Probe(name: "health", path: "/health", headers: headers([])),
            Probe(name: "health, Accept JSON", path: "/health", headers: headers([(.accept, "application/json")])),
            Probe(name: "health, Accept */*", path: "/health", headers: headers([(.accept, "*/*")])),
            Probe(name: "health, Accept text/html", path: "/health", headers: headers([(.accept, "text/html")])),
            Probe(name: "me, anonymous", path: "/v1/me", headers: headers([(app, "closer"), (.authorization, bearer(anonymous))])),
            Probe(
                name: "me, profile and password", path: "/v1/me",
                headers: headers([(app, "closer"), (.authorization, bearer(member)), (.accept, "application/json")])
            ),
            Probe(
                name: "me, no request id", path: "/v1/me",
                headers: headers([(app, "closer"), (.authorization, bearer(member))], id: nil), comparesRequestID: false
            ),
            Probe(
                name: "me, request id the URI decoder reads", path: "/v1/me",
                headers: headers([(app, "closer"), (.authorization, bearer(member))], id: "a%zz,b"), comparesRequestID: true
            ),
            Probe(
                name: "me, Accept text/html", path: "/v1/me",
                headers: headers([(app, "closer"), (.authorization, bearer(member)), (.accept, "text/html")])
            ),
            Probe(
                name: "me, Accept list", path: "/v1/me",
                headers: headers([(app, "closer"), (.authorization, bearer(member)), (.accept, "text/plain, application/json;q=0.9")])
            ),
            Probe(name: "me, no token", path: "/v1/me", headers: headers([(app, "closer")])),
            Probe(name: "me, not a bearer token", path: "/v1/me", headers: headers([(app, "closer"), (.authorization, "Basic YTpi")])),
            Probe(name: "me, forged token", path: "/v1/me", headers: headers([(app, "closer"), (.authorization, "Bearer x.y.z")])),
            Probe(name: "me, revoked session", path: "/v1/me", headers: headers([(app, "closer"), (.authorization, bearer(revoked))])),
            Probe(name: "me, another app", path: "/v1/me", headers: headers([(app, "soulmate"), (.authorization, bearer(member))])),
            Probe(name: "me, unknown app", path: "/v1/me", headers: headers([(app, "nope"), (.authorization, bearer(member))])),
            Probe(name: "me, no app", path: "/v1/me", headers: headers([(.authorization, bearer(member))])),
        ]
    }

    /// The headers as a sorted list, `X-Request-ID` left out unless compared.
    static func comparable(_ headers: HTTPFields, requestID: Bool) -> [String] {
        headers.filter { requestID || $0.name.canonicalName != "x-request-id" }
            .map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }

    // MARK: - Which requests take the direct path

    @Test("an ordinary request takes the direct handler; an unusual one, or one it hands back, the generated code")
    func transportChoosesTheDirectHandlerOnlyForOrdinaryRequests() async throws {
        let router = Router(context: KindredRequestContext.self)
        var direct = DirectRoutes()
        direct.add(.get, "/probe") { request, _ in
            request.headers[.init("X-Hand-Back")!] == nil ? DirectRoutes.json(Array(#"{"via":"direct"}"#.utf8)) : nil
        }
        let transport = KindredTransport(router: router, direct: direct)
        try transport.register(
            { _, _, _ in (HTTPResponse(status: .ok), HTTPBody(#"{"via":"generated"}"#)) }, method: .get, path: "/probe"
        )
        try transport.register(
            { _, _, _ in (HTTPResponse(status: .ok), HTTPBody(#"{"via":"generated"}"#)) }, method: .get, path: "/other"
        )
        let cases: [(String, [(String, String)], String)] = [
            ("/probe", [], "direct"),
            ("/probe", [("Accept", "application/json")], "direct"),
            ("/probe", [("Accept", "*/*")], "direct"),
            ("/probe", [("X-Request-ID", "Ab-9._~")], "direct"),
            ("/probe", [("Accept", "application/json"), ("Accept", "text/html")], "generated"),
            ("/probe", [("Accept", "application/*")], "generated"),
            ("/probe", [("Accept", "text/html")], "generated"),
            ("/probe", [("X-Request-ID", "has space")], "generated"),
            ("/probe", [("X-Request-ID", "a%20b")], "generated"),
            ("/probe", [("X-Request-ID", "a"), ("X-Request-ID", "b")], "generated"),
            ("/probe", [("X-Hand-Back", "1")], "generated"),
            ("/other", [], "generated"),
        ]
        try await Application(router: router).test(.router) { client in
            for (path, fields, expected) in cases {
                var headers = HTTPFields()
                for (name, value) in fields { headers.append(HTTPField(name: .init(name)!, value: value)) }
                let response = try await client.execute(uri: path, method: .get, headers: headers, body: nil)
                #expect(response.text == #"{"via":"\#(expected)"}"#, "\(path) \(fields)")
            }
        }
        #expect(direct.operations == ["GET /probe"])
    }

    // MARK: - The account's JSON

    /// `JSONEncoder` as the OpenAPI runtime configures it for the server.
    static var serverEncoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dates = InternetDateTranscoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try dates.encode(date))
        }
        return encoder
    }

    /// `JSONDecoder` as the OpenAPI runtime configures it (dates read by `InternetDateTranscoder`).
    static var serverDecoder: JSONDecoder {
        let decoder = JSONDecoder()
        let dates = InternetDateTranscoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            try dates.decode(try decoder.singleValueContainer().decode(String.self))
        }
        return decoder
    }

    /// An account with random text in every field (control characters, quotes, astral text).
    static func randomUser(_ random: inout SeededRandom) -> Components.Schemas.User {
        func text() -> String { random.text(maxLength: 24) }
        func maybe() -> String? { random.next() % 3 == 0 ? nil : text() }
        return Components.Schemas.User(
            id: text(), app: Components.Schemas.AppID.allCases[Int(random.next() % 5)],
            isAnonymous: random.next() % 2 == 0,
            providers: (0..<Int(random.next() % 4)).map { _ in
                Components.Schemas.User.ProvidersPayloadPayload.allCases[Int(random.next() % 3)]
            },
            email: maybe(), displayName: maybe(), firstName: maybe(), lastName: maybe(), photoURL: maybe(),
            timeZone: maybe(), locale: maybe(),
            createdAt: Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000) + Double(random.next() % 1000) / 1000),
            hasPremium: random.next() % 3 == 0 ? nil : random.next() % 2 == 0
        )
    }

    @Test("a session's JSON is JSONEncoder's, byte for byte, for random tokens and accounts")
    func sessionJSONMatchesJSONEncoder() throws {
        let encoder = Self.serverEncoder
        var random = SeededRandom(seed: 0x73657373)
        for round in 0..<1_000 {
            let session = Components.Schemas.Session(
                accessToken: random.text(maxLength: 40), refreshToken: random.text(maxLength: 43), tokenType: .bearer,
                expiresIn: Int(random.next() % 100_000), isNewUser: random.next() % 2 == 0, user: Self.randomUser(&random)
            )
            let written = try session.jsonBytes()
            let expected = Array(try encoder.encode(session))
            #expect(written == expected, "round \(round): \(String(decoding: written, as: UTF8.self))")
            if written != expected { break }
        }
    }

    @Test("an account's JSON is JSONEncoder's, byte for byte, for random text in every field")
    func userJSONMatchesJSONEncoder() throws {
        let encoder = Self.serverEncoder
        var random = SeededRandom(seed: 0x6b696e64)  // deterministic: a failing round replays
        for round in 0..<2_000 {
            let user = Self.randomUser(&random)
            let expected = Array(try encoder.encode(user))
            let written = try user.jsonBytes()
            #expect(written == expected, "round \(round): \(String(decoding: written, as: UTF8.self)) vs \(String(decoding: expected, as: UTF8.self))")
            if written != expected { break }
        }
    }

    @Test("the direct account writer writes every property of User: a property added to the contract fails here")
    func userWriterCoversEveryProperty() throws {
        let user = Components.Schemas.User(
            id: "u1", app: .closer, isAnonymous: false, providers: [.password, .apple], email: "a@example.com",
            displayName: "Ada", firstName: "Ada", lastName: "Lovelace", photoURL: "https://example.com/a.png",
            timeZone: "Europe/Istanbul", locale: "tr-TR", createdAt: Date(timeIntervalSince1970: 1_700_000_000.5),
            hasPremium: true
        )
        // A property this test leaves empty would be absent from both answers and pass unseen:
        // every property must be set above (a new optional in the contract defaults to nil here).
        let empty = Mirror(reflecting: user).children.filter { child in
            let value = Mirror(reflecting: child.value)
            return value.displayStyle == .optional && value.children.isEmpty
        }.map { $0.label ?? "?" }
        #expect(empty.isEmpty, "User properties this test does not fill (fill them, and write them in jsonBytes()): \(empty)")
        let written = try user.jsonBytes()
        let expected = Array(try Self.serverEncoder.encode(user))
        let writtenKeys = try #require(try JSONSerialization.jsonObject(with: Data(written)) as? [String: Any]).keys.sorted()
        let expectedKeys = try #require(try JSONSerialization.jsonObject(with: Data(expected)) as? [String: Any]).keys.sorted()
        #expect(writtenKeys == expectedKeys)
        #expect(written == expected)
    }

    @Test("every ASCII character, U+2028/2029 and astral text are escaped as JSONEncoder escapes them")
    func escapingMatchesJSONEncoderForEveryASCIICharacter() throws {
        var all = ""
        for value in 0..<0x80 { all.unicodeScalars.append(Unicode.Scalar(UInt8(value))) }
        all += "\u{2028}\u{2029}é😀/\u{7F}"
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var written: [UInt8] = []
        JSONObjectWriter.appendQuoted(all, to: &written)
        #expect(written == Array(try encoder.encode(all)))
    }
}
