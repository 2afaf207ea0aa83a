@testable import KindredServerCore
import Crypto
import Foundation
import KindredCrypto
import KindredTestSupport
import Testing

/// `KeyEncryptionKey`: what it accepts, and that a sealed signing key opens only under the same
/// key with the same id.
@Suite struct KeyEncryptionKeyTests {
    static let bytes = (0..<32).map { UInt8($0) }

    @Test func standardAndURLSafeBase64WithOrWithoutPaddingGiveTheSameKey() throws {
        let standard = Data(Self.bytes).base64EncodedString()
        let urlSafe = Base64.encode(Self.bytes, alphabet: .urlSafeNoPadding)
        let a = try KeyEncryptionKey(base64: standard)
        let b = try KeyEncryptionKey(base64: urlSafe + "\n")
        let c = try KeyEncryptionKey(bytes: Self.bytes)
        #expect(a.fingerprint == b.fingerprint)
        #expect(a.fingerprint == c.fingerprint)
        #expect(a.fingerprint.count == 16)
        #expect(try KeyEncryptionKey(bytes: Array(repeating: 1, count: 32)).fingerprint != a.fingerprint)
    }

    @Test func aKeyThatIsNot32BytesOfBase64IsATypedError() {
        #expect(throws: SigningKeyError.invalidKeyEncryptionKey("it must be 32 bytes, not 16 (make one with: openssl rand -base64 32)")) {
            try KeyEncryptionKey(base64: Data(repeating: 7, count: 16).base64EncodedString())
        }
        #expect(throws: SigningKeyError.invalidKeyEncryptionKey("it is not base64 (make one with: openssl rand -base64 32)")) {
            try KeyEncryptionKey(base64: "not base64 at all!")
        }
        #expect(throws: SigningKeyError.invalidKeyEncryptionKey("the file /nonexistent/kek cannot be read")) {
            try KeyEncryptionKey(contentsOfFile: "/nonexistent/kek")
        }
    }

    @Test func aKeyFileHoldsTheBase64Text() throws {
        let folder = try TemporaryDirectory()
        let file = try folder.write("kek", Array((Data(Self.bytes).base64EncodedString() + "\n").utf8))
        #expect(try KeyEncryptionKey(contentsOfFile: file.path).fingerprint == KeyEncryptionKey(bytes: Self.bytes).fingerprint)
    }

    @Test func aSealedSecretOpensOnlyUnderTheSameKeyAndID() throws {
        let kek = try KeyEncryptionKey(bytes: Self.bytes)
        let secret = SecureRandom.bytes(32)
        let sealed = try kek.seal(secret, id: "k1", algorithm: "HS256")
        #expect(try kek.open(sealed, id: "k1", algorithm: "HS256") == secret)
        // The stored text is neither the secret nor contains it.
        let stored = try Base64.decode(sealed, alphabet: .urlSafeNoPadding)
        #expect(stored.count == 12 + 32 + 16)
        #expect(!stored.indices.contains { stored[$0...].starts(with: secret) })
        // Copied onto another id, or opened under another key, it does not open.
        #expect(throws: SigningKeyError.cannotOpen(keyID: "k2")) { try kek.open(sealed, id: "k2", algorithm: "HS256") }
        let other = try KeyEncryptionKey(bytes: Array(repeating: 9, count: 32))
        #expect(throws: SigningKeyError.cannotOpen(keyID: "k1")) { try other.open(sealed, id: "k1", algorithm: "HS256") }
        // Two seals of one secret differ (a fresh nonce each time).
        #expect(try kek.seal(secret, id: "k1", algorithm: "HS256") != sealed)
    }
}
