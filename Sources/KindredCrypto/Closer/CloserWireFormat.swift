/// Closer's wire-format validators: the Firestore rules' regular expressions, implemented by
/// hand (no regex engine) plus Kindred's maximum lengths, so the server can check every field a
/// client writes exactly as the rules do. Spec: `docs/wire-formats.md`, "Validators".
///
/// | format | rule (anchored, whole string) | Kindred's maximum |
/// |---|---|---|
/// | `ciphertext` | `^enc:v1:[A-Za-z0-9+/]+={0,2}$` | 65,536 characters |
/// | `sealedPayload` | `^sealed:v1:[A-Za-z0-9_-]{80,}$` | 65,536 characters |
/// | `keybox` | `^keybox:v1:[A-Za-z0-9_-]{120,}$` | 512 characters |
/// | `commitmentHash` | `^sha256:[A-Za-z0-9_-]{43}$` | 50 (fixed) |
/// | `publicKey` | `^pub:v1:[A-Za-z0-9_-]{128,}$` | 1,024 characters |
/// | `inviteCode` | `^[A-Za-z0-9]{6}$` | 6 (fixed) |
/// | `invitePhrase` | `^invite:v1:[A-Za-z0-9_-]{100,}$` (Kindred's own) | 512 characters |
/// | `inviteVerifier` | `^verifier:v1:[A-Za-z0-9_-]{43}$` (Kindred's own) | 55 (fixed) |
public enum CloserWireFormat {
    /// The formats the validators know.
    public enum Format: String, CaseIterable, Sendable {
        /// `enc:v1:` field ciphertext.
        case ciphertext = "enc:v1"
        /// `sealed:v1:` sealed answer payload.
        case sealedPayload = "sealed:v1"
        /// `keybox:v1:` one-time key wrapped to a partner.
        case keybox = "keybox:v1"
        /// `sha256:` commitment hash.
        case commitmentHash = "sha256"
        /// `pub:v1:` published ECIES public keyset.
        case publicKey = "pub:v1"
        /// A six-character invite lookup code.
        case inviteCode = "invite code"
        /// `invite:v1:` recovery phrase encrypted under the invite secret.
        case invitePhrase = "invite:v1"
        /// `verifier:v1:` the accept verifier derived from the invite secret.
        case inviteVerifier = "verifier:v1"

        /// The literal prefix of the format (empty for invite codes).
        public var prefix: String {
            switch self {
            case .ciphertext: "enc:v1:"
            case .sealedPayload: "sealed:v1:"
            case .keybox: "keybox:v1:"
            case .commitmentHash: "sha256:"
            case .publicKey: "pub:v1:"
            case .inviteCode: ""
            case .invitePhrase: "invite:v1:"
            case .inviteVerifier: "verifier:v1:"
            }
        }

        /// The fewest body characters the rule accepts.
        public var minimumBodyLength: Int {
            switch self {
            case .ciphertext: 1
            case .sealedPayload: 80
            case .keybox: 120
            case .commitmentHash: 43
            case .publicKey: 128
            case .inviteCode: 6
            case .invitePhrase: 100
            case .inviteVerifier: 43
            }
        }

        /// Kindred's maximum length of the whole string, prefix included.
        public var maximumLength: Int {
            switch self {
            case .ciphertext: 65_536
            case .sealedPayload: 65_536
            case .keybox: 512
            case .commitmentHash: 50
            case .publicKey: 1_024
            case .inviteCode: 6
            case .invitePhrase: 512
            case .inviteVerifier: 55
            }
        }

        /// Whether the body has exactly `minimumBodyLength` characters (rather than at least).
        public var hasFixedBodyLength: Bool {
            self == .commitmentHash || self == .inviteCode || self == .inviteVerifier
        }
    }

    /// `isCiphertext`: `^enc:v1:[A-Za-z0-9+/]+={0,2}$`, at most 65,536 characters.
    public static func isCiphertext(_ s: String) -> Bool { problem(s, as: .ciphertext) == nil }
    /// `isSealedPayload`: `^sealed:v1:[A-Za-z0-9_-]{80,}$`, at most 65,536 characters.
    public static func isSealedPayload(_ s: String) -> Bool { problem(s, as: .sealedPayload) == nil }
    /// `isKeybox`: `^keybox:v1:[A-Za-z0-9_-]{120,}$`, at most 512 characters.
    public static func isKeybox(_ s: String) -> Bool { problem(s, as: .keybox) == nil }
    /// `isCommitmentHash`: `^sha256:[A-Za-z0-9_-]{43}$`.
    public static func isCommitmentHash(_ s: String) -> Bool { problem(s, as: .commitmentHash) == nil }
    /// `isPublicKey`: `^pub:v1:[A-Za-z0-9_-]{128,}$`, at most 1,024 characters.
    public static func isPublicKey(_ s: String) -> Bool { problem(s, as: .publicKey) == nil }
    /// `isValidInviteCode`: `^[A-Za-z0-9]{6}$`.
    public static func isInviteCode(_ s: String) -> Bool { problem(s, as: .inviteCode) == nil }
    /// `^invite:v1:[A-Za-z0-9_-]{100,}$`, at most 512 characters.
    public static func isInvitePhrase(_ s: String) -> Bool { problem(s, as: .invitePhrase) == nil }
    /// `^verifier:v1:[A-Za-z0-9_-]{43}$`.
    public static func isInviteVerifier(_ s: String) -> Bool { problem(s, as: .inviteVerifier) == nil }

    /// Checks a string against one format's rule and maximum length.
    /// - Parameters:
    ///   - s: the candidate wire string.
    ///   - format: the format it must have.
    /// - Returns: `nil` when valid, otherwise a one-line reason (for example
    ///   "body has 12 characters, at least 80 required").
    public static func problem(_ s: String, as format: Format) -> String? {
        var s = s
        return s.withUTF8 { problem(utf8: $0, as: format) }
    }

    /// `problem(_:as:)` over the string's UTF-8 bytes.
    static func problem(utf8 bytes: UnsafeBufferPointer<UInt8>, as format: Format) -> String? {
        let prefix = format.prefix.utf8
        guard bytes.count >= prefix.count, bytes.starts(with: prefix) else {
            return "does not start with \(format.prefix)"
        }
        guard bytes.count <= format.maximumLength else {
            return "\(bytes.count) characters, at most \(format.maximumLength) allowed"
        }
        let body = UnsafeBufferPointer(rebasing: bytes[prefix.count...])
        if format == .ciphertext {
            return ciphertextBodyProblem(body)
        }
        let urlSafe = format != .inviteCode
        let allowed: UInt8 = urlSafe ? 3 : 1
        if let bad = characterClasses.withUnsafeBufferPointer({ t in body.firstIndex { t[Int($0)] & allowed == 0 } }) {
            let what = format == .inviteCode ? "A-Z, a-z, 0-9" : "A-Z, a-z, 0-9, - and _"
            let position = bad + 1
            return urlSafe ? "character \(position) of the body is not one of \(what)" : "character \(position) is not one of \(what)"
        }
        if format.hasFixedBodyLength {
            if body.count != format.minimumBodyLength {
                return "body has \(body.count) characters, exactly \(format.minimumBodyLength) required"
            }
        } else if body.count < format.minimumBodyLength {
            return "body has \(body.count) characters, at least \(format.minimumBodyLength) required"
        }
        return nil
    }

    /// The format a string claims by its prefix (a six-character string without one is taken
    /// as an invite code).
    /// - Parameter s: the candidate wire string.
    /// - Returns: the format, or `nil` when no prefix matches.
    public static func claimedFormat(of s: String) -> Format? {
        for format in Format.allCases where format != .inviteCode && s.hasPrefix(format.prefix) {
            return format
        }
        return s.utf8.count == 6 ? .inviteCode : nil
    }

    private static func ciphertextBodyProblem(_ body: UnsafeBufferPointer<UInt8>) -> String? {
        var end = body.count
        var padding = 0
        while end > 0, body[end - 1] == UInt8(ascii: "=") { end -= 1; padding += 1 }
        if padding > 2 { return "more than two '=' padding characters" }
        if end == 0 { return "body has no Base64 characters" }
        let bad = characterClasses.withUnsafeBufferPointer { t in
            UnsafeBufferPointer(rebasing: body[0..<end]).firstIndex { t[Int($0)] & 5 == 0 }
        }
        if let bad {
            let position = bad + 1
            return body[bad] == UInt8(ascii: "=") ? "'=' at body character \(position) is not at the end"
                : "character \(position) of the body is not one of A-Z, a-z, 0-9, + and /"
        }
        return nil
    }

    /// Character classes for the validators, one table lookup per byte: bit 0 = A-Z a-z 0-9,
    /// bit 1 = `-` `_` (URL-safe Base64), bit 2 = `+` `/` (standard Base64).
    private static let characterClasses: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 256)
        for c in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(c)] = 1 }
        for c in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(c)] = 1 }
        for c in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(c)] = 1 }
        table[Int(UInt8(ascii: "-"))] = 2
        table[Int(UInt8(ascii: "_"))] = 2
        table[Int(UInt8(ascii: "+"))] = 4
        table[Int(UInt8(ascii: "/"))] = 4
        return table
    }()

    @inline(__always)
    private static func isAlphanumeric(_ c: UInt8) -> Bool {
        characterClasses.withUnsafeBufferPointer { $0[Int(c)] & 1 != 0 }
    }

    @inline(__always)
    private static func isURLSafe(_ c: UInt8) -> Bool {
        characterClasses.withUnsafeBufferPointer { $0[Int(c)] & 3 != 0 }
    }

    @inline(__always)
    private static func isStandardBase64(_ c: UInt8) -> Bool {
        characterClasses.withUnsafeBufferPointer { $0[Int(c)] & 5 != 0 }
    }
}
