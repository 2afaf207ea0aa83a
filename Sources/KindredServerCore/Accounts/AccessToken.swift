import Crypto
import Foundation
import KindredCrypto
import Synchronization

/// The claims of a Kindred access token: who, which session, which app, and when.
struct AccessTokenClaims: Codable, Equatable, Sendable {
    /// Always `kindred`.
    var iss: String
    /// The user id.
    var sub: String
    /// The session id (the refresh-token family).
    var sid: String
    /// The app the session belongs to.
    var app: String
    /// Issued at, Unix seconds.
    var iat: Int64
    /// Expires at, Unix seconds.
    var exp: Int64
}

/// Signs and verifies access tokens: compact JWS (RFC 7515) with HS256 under a key kept in
/// `kindred_signing_keys`, so every replica, and the same server after a restart, accepts them.
///
/// The header is `{"alg":"HS256","kid":…,"typ":"JWT"}`; only HS256 and only known key ids are
/// accepted, and the MAC is compared in constant time before the payload is parsed.
struct AccessTokenCodec: Sendable {
    /// Why a token was refused.
    enum Refusal: Error, Equatable {
        /// Not a well-formed token of ours (wrong shape, algorithm, key id or MAC).
        case invalid(String)
        /// Well-formed and authentic, but past `exp`.
        case expired
    }

    /// The signing keys by id; `currentKeyID` signs.
    let keys: [String: SymmetricKey]
    /// The key new tokens are signed with.
    let currentKeyID: String
    /// The encoded header `sign` writes for each key id, recognised without parsing JSON.
    private let knownHeaders: [(encoded: [UInt8], kid: String)]
    /// Tokens this codec has verified, with their claims (see `VerifiedTokens`).
    private let verified = VerifiedTokens()
    /// The current key's encoded header with its `.`, and an HMAC already keyed with the key:
    /// a token is signed by copying that state (keying hashes the key's two pads, and the header
    /// had been re-encoded for every token).
    private let signingPrefix: String
    private let keyedMAC: HMAC<SHA256>

    /// A codec over `keys`, signing with `currentKeyID`.
    init(keys: [String: SymmetricKey], currentKeyID: String) {
        self.keys = keys
        self.currentKeyID = currentKeyID
        knownHeaders = keys.keys.map { kid in
            (Array(Base64.encode(Array(Self.header(kid: kid).utf8), alphabet: .urlSafeNoPadding).utf8), kid)
        }
        signingPrefix = Base64.encode(Array(Self.header(kid: currentKeyID).utf8), alphabet: .urlSafeNoPadding) + "."
        // The current key is always in `keys` (the store loads it before making a codec).
        keyedMAC = HMAC<SHA256>(key: keys[currentKeyID] ?? SymmetricKey(data: [UInt8]()))
    }

    /// The header of tokens signed with `kid`.
    static func header(kid: String) -> String {
        #"{"alg":"HS256","kid":"\#(kid)","typ":"JWT"}"#
    }

    /// Decodes the claims of a verified token; shared, as decoding does not change it.
    private static let claimsDecoder = JSONDecoder()
    /// Encodes the claims of a new token, keys sorted; shared, as encoding does not change it.
    private static let claimsEncoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    /// The refusal of a token whose key id names no key of this codec.
    static let unknownKeyReason = "the access token's key is unknown"

    /// Longest token accepted, in bytes (ours are about 300).
    static let maxLength = 2048

    /// Signs `claims` with the current key.
    func sign(_ claims: AccessTokenClaims) -> String {
        let payload = claims.json(fallback: Self.claimsEncoder)
        let signingInput = signingPrefix + Base64.encode(payload, alphabet: .urlSafeNoPadding)
        var mac = keyedMAC
        mac.update(data: Array(signingInput.utf8))
        return signingInput + "." + Base64.encode(Array(mac.finalize()), alphabet: .urlSafeNoPadding)
    }

    /// Verifies a token's shape, key, MAC and expiry at `now`.
    /// - Returns: the claims.
    /// - Throws: `Refusal`.
    func verify(_ token: String, now: Date) throws(Refusal) -> AccessTokenClaims {
        guard token.utf8.count <= Self.maxLength else { throw .invalid("the access token is too long") }
        if let claims = verified.claims(of: token) {
            guard Int64(now.timeIntervalSince1970) < claims.exp else { throw .expired }
            return claims
        }
        let claims = try verifyAnew(token, now: now)
        verified.remember(token, claims: claims)
        return claims
    }

    /// `verify` without the memory of verified tokens.
    func verifyAnew(_ token: String, now: Date) throws(Refusal) -> AccessTokenClaims {
        let parts = token.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .invalid("the access token is not a JWT") }
        let kid: String
        let payloadBytes: [UInt8]
        let mac: [UInt8]
        do {
            kid = try Self.keyID(ofHeader: parts[0], known: knownHeaders)
            payloadBytes = try Base64.decode(Substring(parts[1]), alphabet: .urlSafeNoPadding)
            mac = try Base64.decode(Substring(parts[2]), alphabet: .urlSafeNoPadding)
        } catch let refusal as Refusal {
            throw refusal
        } catch {
            throw .invalid("the access token is not a JWT")
        }
        guard let key = keys[kid] else { throw .invalid(Self.unknownKeyReason) }
        let signingInput = token.utf8.prefix(parts[0].count + 1 + parts[1].count)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Array(signingInput), using: key) else {
            throw .invalid("the access token's signature is wrong")
        }
        let claims: AccessTokenClaims
        do {
            claims = try AccessTokenClaims.parsePlain(payloadBytes)
                ?? Self.claimsDecoder.decode(AccessTokenClaims.self, from: Data(payloadBytes))
        } catch {
            throw .invalid("the access token's claims are malformed")
        }
        guard claims.iss == "kindred" else { throw .invalid("the access token was not issued by Kindred") }
        guard Int64(now.timeIntervalSince1970) < claims.exp else { throw .expired }
        return claims
    }

    /// The key id of a token's encoded header: at once when it is one `sign` writes, else by
    /// parsing it, which refuses any algorithm but HS256 and a header without a key id.
    private static func keyID(
        ofHeader encoded: Substring.UTF8View, known: [(encoded: [UInt8], kid: String)]
    ) throws -> String {
        if let match = known.first(where: { $0.encoded.elementsEqual(encoded) }) { return match.kid }
        struct Header: Decodable { var alg: String; var kid: String? }
        let header = try JSONDecoder().decode(
            Header.self, from: Data(try Base64.decode(Substring(encoded), alphabet: .urlSafeNoPadding))
        )
        guard header.alg == "HS256" else { throw Refusal.invalid("the access token's algorithm is not accepted") }
        guard let kid = header.kid else { throw Refusal.invalid(unknownKeyReason) }
        return kid
    }
}

/// The tokens one codec has verified, with their claims: a token presented again (every request
/// of a session carries the same one for 15 minutes) skips the Base64, MAC and claims parsing.
///
/// Only tokens whose MAC checked out under this codec's keys are kept, so nothing unverified is
/// ever answered from here; expiry is still checked on every use. Bounded: when `capacity` is
/// reached the whole memory is dropped (a busy server refills it with the tokens in use).
final class VerifiedTokens: Sendable {
    /// The most tokens kept.
    let capacity: Int
    private let tokens = Mutex<[String: AccessTokenClaims]>([:])

    init(capacity: Int = 20_000) {
        self.capacity = capacity
    }

    /// The claims of `token` if this codec verified it before.
    func claims(of token: String) -> AccessTokenClaims? {
        tokens.withLock { $0[token] }
    }

    /// Keeps a verified token's claims.
    func remember(_ token: String, claims: AccessTokenClaims) {
        tokens.withLock { tokens in
            if tokens.count >= capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[token] = claims
        }
    }

    /// How many tokens are kept.
    var count: Int { tokens.withLock { $0.count } }
}
