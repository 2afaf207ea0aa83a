@testable import CloserServer
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import HummingbirdTesting
import KindredCrypto
import Testing

/// Well-shaped Closer wire strings (the server checks shapes only, so random bytes will do)
/// and an HTTP client that pairs two accounts.
enum CloserFixtures {
    static func base64url(_ count: Int) -> String {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    static func base64(_ count: Int) -> String {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) }).base64EncodedString()
    }

    static let kdfParams = #"{"alg":"argon2id","len":32,"m":64,"p":1,"t":1,"v":19}"#

    /// A complete invite upload with `verifier`.
    static func material(verifier: String) -> String {
        """
        {"wrappedCoupleKey":"\(base64(120))","kdfSalt":"\(base64(16))","kdfParams":\(json(kdfParams)),\
        "encryptedPhrase":"invite:v1:\(base64url(100))","verifier":"\(verifier)",\
        "inviteKdfSalt":"\(base64(16))","inviteKdfParams":\(json(kdfParams))}
        """
    }

    static func verifier() -> String { "verifier:v1:" + base64url(32) }

    static func sealedAnswer() -> String {
        #"{"schemaVersion":3,"encryptedPayload":"sealed:v1:\#(base64url(200))","commitmentHash":"sha256:\#(base64url(32))","commitmentSeal":"enc:v1:\#(base64(60))","answerKeyReleased":false,"isRevealed":false}"#
    }

    static func sealedMessage() -> String {
        #"{"schemaVersion":3,"encryptedPayload":"sealed:v1:\#(base64url(200))","commitmentHash":"sha256:\#(base64url(32))","commitmentSeal":"enc:v1:\#(base64(60))"}"#
    }

    static func keybox() -> String { "keybox:v1:" + base64url(130) }

    /// A real `pub:v1:` key (the server checks that it parses).
    static func publicKey() throws -> String {
        try CloserPublicKey.encode(try Keyset.generateECIESP256().publicKeyset())
    }

    static func json(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}

/// Two paired accounts.
struct CloserPair: Sendable {
    var inviter: SessionBody
    var acceptor: SessionBody
    var coupleID: String
}

extension TestClientProtocol {
    /// Signs up two accounts and pairs them through an invite.
    func closerPair(_ prefix: String = UUID().uuidString.prefix(8).lowercased()) async throws -> CloserPair {
        let inviter = try await signUp("\(prefix)-a@example.com")
        let acceptor = try await signUp("\(prefix)-b@example.com")
        let code = try await closerInvite(inviter.accessToken, verifier: "verifier:v1:" + String(repeating: "A", count: 43))
        let accept = try await call(
            .post, "/v1/closer/invites/\(code)/accept", token: acceptor.accessToken,
            json: #"{"verifier":"verifier:v1:\#(String(repeating: "A", count: 43))"}"#
        )
        #expect(accept.status == .created, "\(String(buffer: accept.body))")
        let body = try JSONSerialization.jsonObject(with: Data(buffer: accept.body)) as? [String: Any]
        let couple = body?["couple"] as? [String: Any]
        return CloserPair(inviter: inviter, acceptor: acceptor, coupleID: couple?["id"] as? String ?? "")
    }

    /// Creates an invite with key material for `token` and returns its code.
    func closerInvite(_ token: String, verifier: String) async throws -> String {
        let created = try await call(.post, "/v1/closer/invites", token: token)
        #expect(created.status == .created, "\(String(buffer: created.body))")
        let code = (try JSONSerialization.jsonObject(with: Data(buffer: created.body)) as? [String: Any])?["code"] as? String ?? ""
        let put = try await call(.put, "/v1/closer/invites/\(code)", token: token, json: CloserFixtures.material(verifier: verifier))
        #expect(put.status == .ok, "\(String(buffer: put.body))")
        return code
    }

    /// The JSON object of a response.
    func object(_ response: TestResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any]) ?? [:]
    }
}
