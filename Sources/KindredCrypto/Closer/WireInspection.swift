/// What `inspect` learns about a string: which Kindred format it claims to be, whether it is
/// valid, and why not. Used by `kindred crypto inspect`; it never decrypts and never echoes a
/// secret. Spec: `docs/wire-formats.md`, "Inspecting strings".
public struct WireInspection: Equatable, Sendable {
    /// The format name, for example `sealed:v1`, `argon2id PHC`, `invite code`, or `unknown`.
    public let format: String
    /// Whether the string is valid in that format.
    public let isValid: Bool
    /// What was found (when valid) or the first problem (when not).
    public let detail: String

    /// One line: `"<format>: valid — <detail>"` or `"<format>: invalid — <detail>"`.
    public var summary: String { "\(format): \(isValid ? "valid" : "invalid") — \(detail)" }

    /// Inspects a string.
    /// - Parameter text: a wire string: `enc:v1:`, `sealed:v1:`, `keybox:v1:`, `pub:v1:`, `sha256:`,
    ///   `invite:v1:`, `verifier:v1:`, a PHC `$argon2id$` string, a six-character invite code, an
    ///   invite share string, a `kdfParams` JSON object, or a binary Tink keyset as Base64.
    /// - Returns: the inspection.
    public static func inspect(_ text: String) -> WireInspection {
        if text.hasPrefix("$argon2id$") { return phc(text) }
        if let format = CloserWireFormat.claimedFormat(of: text), format != .inviteCode { return closer(text, format) }
        if text.utf8.count == InviteCode.length { return inviteCode(text) }
        if text.hasPrefix("{") { return kdfParams(text) }
        if text.utf8.contains(UInt8(ascii: "-")), case .success(let symbols) = Crockford.canonicalize(text),
           symbols.count == InviteCode.length + InviteSecret.symbolCount + 1 {
            do {
                let share = try InviteShare(parsing: text)
                return WireInspection(format: "invite share", isValid: true, detail: "code \(share.code); the secret's check symbol matches")
            } catch {
                return WireInspection(format: "invite share", isValid: false, detail: reason(error))
            }
        }
        if let keyset = keysetBase64(text) { return keyset }
        if text.split(whereSeparator: { $0.isWhitespace }).count > 1 {
            do {
                _ = try RecoveryPhrase(parsing: text)
                return WireInspection(format: "recovery phrase", isValid: true, detail: "10 words from the list (80 bits)")
            } catch {
                return WireInspection(format: "recovery phrase", isValid: false, detail: reason(error))
            }
        }
        return WireInspection(format: "unknown", isValid: false, detail: "not a Kindred wire format this tool knows")
    }

    private static func closer(_ text: String, _ format: CloserWireFormat.Format) -> WireInspection {
        let name = format.rawValue
        if let problem = CloserWireFormat.problem(text, as: format) {
            return WireInspection(format: name, isValid: false, detail: problem)
        }
        let body: [UInt8]
        do {
            body = try CloserWireFormat.decodeBody(text, as: format)
        } catch {
            return WireInspection(format: name, isValid: false, detail: reason(error))
        }
        let gcm = CloserAESGCM.ivLength + CloserAESGCM.tagLength
        switch format {
        case .ciphertext, .keybox:
            let prefix = tinkPrefix(body)
            let minimum = prefix.count + (format == .keybox ? 65 + gcm : gcm)
            guard body.count >= minimum else {
                return WireInspection(format: name, isValid: false, detail: "\(body.count) bytes is shorter than a Tink ciphertext (\(minimum))")
            }
            return WireInspection(format: name, isValid: true, detail: "\(body.count) bytes; \(prefix.description)")
        case .sealedPayload, .invitePhrase:
            guard body.count >= gcm else { return WireInspection(format: name, isValid: false, detail: "\(body.count) bytes is shorter than IV + tag (28)") }
            return WireInspection(format: name, isValid: true, detail: "\(body.count) bytes: IV 12, ciphertext \(body.count - gcm), tag 16")
        case .commitmentHash, .inviteVerifier:
            return WireInspection(format: name, isValid: true, detail: "32-byte \(format == .commitmentHash ? "SHA-256 digest" : "HMAC-SHA256") \(Hex.encode(body))")
        case .publicKey:
            do {
                let keyset = try CloserPublicKey.decode(text)
                return WireInspection(format: name, isValid: true, detail: describe(keyset))
            } catch {
                return WireInspection(format: name, isValid: false, detail: reason(error))
            }
        case .inviteCode:
            return inviteCode(text)
        }
    }

    private static func inviteCode(_ text: String) -> WireInspection {
        if let problem = CloserWireFormat.problem(text, as: .inviteCode) {
            return WireInspection(format: "invite code", isValid: false, detail: problem)
        }
        let canonical = (try? InviteCode.canonicalize(text)) == text
        return WireInspection(format: "invite code", isValid: true,
                              detail: canonical ? "matches the rule; canonical Crockford form" : "matches the rule (not a code Kindred generates: not canonical Crockford)")
    }

    private static func phc(_ text: String) -> WireInspection {
        do {
            let phc = try Argon2id.PHC(parsing: text)
            let p = phc.parameters
            return WireInspection(format: "argon2id PHC", isValid: true,
                                  detail: "m=\(p.memoryKiB) KiB, t=\(p.iterations), p=\(p.parallelism), salt \(phc.salt.count) bytes, tag \(phc.hash.count) bytes")
        } catch {
            return WireInspection(format: "argon2id PHC", isValid: false, detail: reason(error))
        }
    }

    private static func kdfParams(_ text: String) -> WireInspection {
        do {
            let p = try CloserKDFParameters(encoded: text)
            let canonical = p.encoded == text ? "canonical" : "valid but not in canonical form"
            return WireInspection(format: "kdfParams", isValid: true, detail: "argon2id m=\(p.memoryKiB) KiB, t=\(p.iterations), p=\(p.parallelism), len 32 (\(canonical))")
        } catch {
            return WireInspection(format: "kdfParams", isValid: false, detail: reason(error))
        }
    }

    private static func keysetBase64(_ text: String) -> WireInspection? {
        let bytes = (try? Base64.decode(text, alphabet: .standard)) ?? (try? Base64.decode(text, alphabet: .urlSafeNoPadding))
        guard let bytes, !bytes.isEmpty, let keyset = try? Keyset(serialized: bytes), !keyset.keys.isEmpty else { return nil }
        do {
            _ = try keyset.primaryKey()
            return WireInspection(format: "Tink keyset (Base64)", isValid: true, detail: describe(keyset))
        } catch {
            return WireInspection(format: "Tink keyset (Base64)", isValid: false, detail: reason(error))
        }
    }

    private static func describe(_ keyset: Keyset) -> String {
        let keys = keyset.keys.map { key in
            let type = key.keyData.typeURL.split(separator: ".").last.map(String.init) ?? key.keyData.typeURL
            return "\(type) id \(key.keyID) \(key.outputPrefixType) \(key.status)"
        }
        return "\(keyset.keys.count) key(s), primary \(keyset.primaryKeyID): " + keys.joined(separator: "; ")
    }

    private static func tinkPrefix(_ body: [UInt8]) -> (count: Int, description: String) {
        // A RAW ciphertext has no prefix, so its first byte may imitate one: this is a reading, not a proof.
        guard body.count >= 5, body[0] == 0x01 || body[0] == 0x00 else { return (0, "no Tink output prefix (RAW key)") }
        let id = body[1...4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return (5, "first byte 0x0\(body[0]): \(body[0] == 0x01 ? "TINK" : "LEGACY/CRUNCHY") prefix, key id \(id)")
    }

    private static func reason(_ error: KindredCryptoError) -> String {
        switch error {
        case .malformed(_, let reason): return reason
        case .truncated: return "truncated"
        case .wrongPrefix(_, let expected): return "expected prefix \(expected)"
        case .tooLong(_, let limit): return "longer than the limit of \(limit)"
        case .invalidPhrase(let reason), .parametersOutOfBounds(let reason), .invalidParameters(let reason): return reason
        default: return error.description
        }
    }
}
