@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import CloserAPI
import KindredServerTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import KindredStore
import KindredTestSupport
import Testing

/// Closer's direct `GET …/today` (`CloserHandler+Direct.swift`) answers exactly as the generated
/// server does: the same requests sent to a router with direct routes and to one without, on the
/// same database, get the same status, headers and body bytes, at each stage of a day.
@Suite struct CloserDirectRoutesTests {
    /// One request of the comparison.
    struct Probe: CustomStringConvertible {
        var name: String
        var path: String
        var headers: HTTPFields
        /// False when the request carries no id the server echoes (each router makes up its own).
        var comparesRequestID = true
        var description: String { name }
    }

    /// The accounts and couple the probes use.
    struct Cast {
        var pair: CloserPair
        var outsider: SessionBody
        var otherApp: SessionBody
        var revoked: SessionBody
    }

    @Test(arguments: Backend.all)
    func directAndGeneratedTodayAreTheSameBytes(backend: Backend) async throws {
        try await TestDatabases.with(backend) { database in
            let clock = TestClock(start: Date(timeIntervalSince1970: 1_790_000_000.25))
            let direct = try await TestApplication(clock: clock, database: database, directRoutes: true)
            let generated = try await TestApplication(clock: clock, database: database, directRoutes: false)
            try await direct.app.test(.router) { directClient in
                try await generated.app.test(.router) { client in
                    let pair = try await client.closerPair("direct")
                    let revoked = try await client.signUp("direct-revoked@example.com")
                    #expect(try await client.call(.post, "/v1/auth/logout", token: revoked.accessToken).status == .noContent)
                    let cast = Cast(
                        pair: pair, outsider: try await client.signUp("direct-outsider@example.com"),
                        otherApp: try await client.anonymous(app: "streaksync"), revoked: revoked
                    )
                    let a = pair.inviter.accessToken, b = pair.acceptor.accessToken
                    let aID = pair.inviter.user.id, bID = pair.acceptor.user.id
                    func compare(_ stage: String) async throws {
                        for probe in Self.probes(cast) {
                            let fromDirect = try await directClient.execute(uri: probe.path, method: .get, headers: probe.headers, body: nil)
                            let fromGenerated = try await client.execute(uri: probe.path, method: .get, headers: probe.headers, body: nil)
                            let label = "\(backend) \(stage): \(probe)"
                            #expect(fromDirect.status == fromGenerated.status, "\(label)")
                            #expect(fromDirect.text == fromGenerated.text, "\(label)")
                            #expect(Array(fromDirect.body.readableBytesView) == Array(fromGenerated.body.readableBytesView), "\(label)")
                            #expect(
                                Self.comparable(fromDirect.headers, requestID: probe.comparesRequestID)
                                    == Self.comparable(fromGenerated.headers, requestID: probe.comparesRequestID),
                                "\(label)"
                            )
                        }
                    }

                    try await compare("no question assigned")
                    let assigned = try await client.call(.post, "/v1/closer/couples/\(pair.coupleID)/today", token: a)
                    #expect(assigned.status == .created, "\(assigned.text)")
                    let date = client.object(assigned)["date"] as? String ?? ""
                    for (token, device) in [(a, "a-phone"), (b, "b-phone"), (b, "b-tablet")] {
                        let put = try await client.call(
                            .put, "/v1/closer/devices/\(device)", token: token,
                            json: #"{"publicKey":"\#(try CloserFixtures.publicKey())","platform":"linux"}"#
                        )
                        #expect(put.status == .created, "\(put.text)")
                    }
                    try await compare("no answers")

                    let answers = "/v1/closer/couples/\(pair.coupleID)/days/\(date)/answers"
                    let first = try await client.call(.put, "\(answers)/\(aID)", token: a, json: CloserFixtures.sealedAnswer())
                    #expect(first.status == .created, "\(first.text)")
                    clock.advance(by: .seconds(61.5))
                    try await compare("one answer")

                    let second = try await client.call(.put, "\(answers)/\(bID)", token: b, json: CloserFixtures.sealedAnswer())
                    #expect(second.status == .created, "\(second.text)")
                    for (author, token, devices) in [(aID, a, ["b-phone", "b-tablet"]), (bID, b, ["a-phone"])] {
                        let keys = devices.map { #"{"recipientDeviceId":"\#($0)","encryptedAnswerKey":"\#(CloserFixtures.keybox())"}"# }
                        let release = try await client.call(
                            .post, "\(answers)/\(author)/release-keys", token: token, json: #"{"keys":[\#(keys.joined(separator: ","))]}"#
                        )
                        #expect(release.status == .created, "\(release.text)")
                    }
                    let reveal = try await client.call(.patch, "\(answers)/\(bID)", token: b, json: #"{"isRevealed":true}"#)
                    #expect(reveal.status == .ok, "\(reveal.text)")
                    // The stage that matters most: both answers, keyboxes for the asking device.
                    let full = try await directClient.call(.get, "/v1/closer/couples/\(pair.coupleID)/today?deviceId=b-tablet", token: b)
                    #expect((client.object(full)["answers"] as? [Any])?.count == 2)
                    #expect((client.object(full)["releaseKeys"] as? [Any])?.count == 1)
                    try await compare("two answers, release keys")
                }
            }
        }
    }

    static func probes(_ cast: Cast) -> [Probe] {
        let app = HTTPField.Name("X-Kindred-App")!
        let requestID = HTTPField.Name("X-Request-ID")!
        func headers(_ token: SessionBody?, app appName: String? = "closer", _ extra: [(HTTPField.Name, String)] = [], id: String? = "probe-1") -> HTTPFields {
            var headers = HTTPFields()
            if let appName { headers.append(HTTPField(name: app, value: appName)) }
            if let token { headers.append(HTTPField(name: .authorization, value: "Bearer \(token.accessToken)")) }
            for (name, value) in extra { headers.append(HTTPField(name: name, value: value)) }
            if let id { headers.append(HTTPField(name: requestID, value: id)) }
            return headers
        }
        let couple = cast.pair.coupleID
        let today = "/v1/closer/couples/\(couple)/today"
        let a = cast.pair.inviter, b = cast.pair.acceptor
        var probes: [Probe] = []
        for (who, session) in [("A", a), ("B", b)] {
            probes += [
                Probe(name: "\(who), no device", path: today, headers: headers(session)),
                Probe(name: "\(who), own device", path: "\(today)?deviceId=\(who == "A" ? "a-phone" : "b-tablet")", headers: headers(session)),
                Probe(name: "\(who), the other device", path: "\(today)?deviceId=b-phone", headers: headers(session)),
                Probe(name: "\(who), unknown device", path: "\(today)?deviceId=no.such_device-9", headers: headers(session)),
            ]
        }
        probes += [
            // Queries the direct handler hands to the generated code, and malformed ones.
            Probe(name: "device percent-encoded", path: "\(today)?deviceId=b%2Dtablet", headers: headers(b)),
            Probe(name: "device repeated", path: "\(today)?deviceId=b-tablet&deviceId=b-phone", headers: headers(b)),
            Probe(name: "device repeated, same", path: "\(today)?deviceId=b-tablet&deviceId=b-tablet", headers: headers(b)),
            Probe(name: "device empty", path: "\(today)?deviceId=", headers: headers(b)),
            Probe(name: "device with a space", path: "\(today)?deviceId=b%20tablet", headers: headers(b)),
            Probe(name: "device with a plus", path: "\(today)?deviceId=b+tablet", headers: headers(b)),
            Probe(name: "device too long", path: "\(today)?deviceId=\(String(repeating: "d", count: 65))", headers: headers(b)),
            Probe(name: "device with a slash", path: "\(today)?deviceId=b/tablet", headers: headers(b)),
            Probe(name: "empty query", path: "\(today)?", headers: headers(b)),
            Probe(name: "another parameter", path: "\(today)?limit=3", headers: headers(b)),
            Probe(name: "another parameter and a device", path: "\(today)?deviceId=b-tablet&x=1", headers: headers(b)),
            Probe(name: "device name in other case", path: "\(today)?DeviceId=b-tablet", headers: headers(b)),
            // Couples.
            Probe(name: "unknown couple", path: "/v1/closer/couples/00000000-0000-4000-8000-000000000000/today", headers: headers(a)),
            Probe(name: "not a member", path: today, headers: headers(cast.outsider)),
            Probe(name: "not a member, with device", path: "\(today)?deviceId=b-tablet", headers: headers(cast.outsider)),
            Probe(name: "couple id upper case", path: "/v1/closer/couples/\(couple.uppercased())/today", headers: headers(a)),
            Probe(
                name: "couple id percent-encoded", path: "/v1/closer/couples/%\(String(format: "%02X", Int(couple.utf8.first!)))\(couple.dropFirst())/today",
                headers: headers(a)
            ),
            Probe(name: "couple id not a UUID", path: "/v1/closer/couples/nope/today", headers: headers(a)),
            // Tokens and apps.
            Probe(name: "no token", path: today, headers: headers(nil)),
            Probe(name: "forged token", path: today, headers: headers(nil, [(.authorization, "Bearer x.y.z")])),
            Probe(name: "not a bearer token", path: today, headers: headers(nil, [(.authorization, "Basic YTpi")])),
            Probe(name: "revoked session", path: today, headers: headers(cast.revoked)),
            Probe(name: "another app's account", path: today, headers: headers(cast.otherApp, app: "streaksync")),
            Probe(name: "another app's token for closer", path: today, headers: headers(cast.otherApp)),
            Probe(name: "closer token, another app", path: today, headers: headers(a, app: "soulmate")),
            Probe(name: "unknown app", path: today, headers: headers(a, app: "nope")),
            Probe(name: "no app", path: today, headers: headers(a, app: nil)),
            // Accept and request ids.
            Probe(name: "Accept JSON", path: "\(today)?deviceId=b-tablet", headers: headers(b, [(.accept, "application/json")])),
            Probe(name: "Accept */*", path: today, headers: headers(b, [(.accept, "*/*")])),
            Probe(name: "Accept text/html", path: "\(today)?deviceId=b-tablet", headers: headers(b, [(.accept, "text/html")])),
            Probe(name: "Accept list", path: today, headers: headers(b, [(.accept, "text/plain, application/json;q=0.9")])),
            Probe(name: "Accept twice", path: today, headers: headers(b, [(.accept, "application/json"), (.accept, "application/json")])),
            Probe(name: "no request id", path: "\(today)?deviceId=b-tablet", headers: headers(b, id: nil), comparesRequestID: false),
            Probe(name: "request id the URI decoder reads", path: today, headers: headers(b, id: "a%zz,b")),
        ]
        return probes
    }

    /// The headers as a sorted list, `X-Request-ID` left out unless compared.
    static func comparable(_ headers: HTTPFields, requestID: Bool) -> [String] {
        headers.filter { requestID || $0.name.canonicalName != "x-request-id" }
            .map { "\($0.name.canonicalName): \($0.value)" }.sorted()
    }

    // MARK: - Which requests the direct handler reads

    @Test("only an absent query or one plain deviceId is read directly; the rest goes to the generated code")
    func directHandlerReadsOnlyPlainQueries() {
        #expect(CloserHandler.deviceQuery(nil) == .init(deviceID: nil))
        #expect(CloserHandler.deviceQuery("deviceId=b-tablet") == .init(deviceID: "b-tablet"))
        #expect(CloserHandler.deviceQuery("deviceId=A.z_0-9") == .init(deviceID: "A.z_0-9"))
        for query in [
            "", "deviceId=", "deviceId=b%2Dtablet", "deviceId=a+b", "deviceId=a&deviceId=b", "deviceId=a&x=1", "x=1",
            "DeviceId=a", "deviceid=a", "deviceId=\(String(repeating: "d", count: 65))", "deviceId=é",
        ] {
            #expect(CloserHandler.deviceQuery(query) == nil, "\(query)")
        }
        #expect(CloserHandler.isPlainCoupleID("0a1b2c3d-0000-4000-8000-00000000000f"))
        for id in ["", "%30a1b2c3d-0000-4000-8000-00000000000f", "0A1B2C3D-0000-4000-8000-00000000000F", String(repeating: "a", count: 37)] {
            #expect(!CloserHandler.isPlainCoupleID(id), "\(id)")
        }
    }

}
