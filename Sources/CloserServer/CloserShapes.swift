import KindredServerCore
import KindredCrypto

/// Shape checks of what clients upload: the Firestore rules' regexes and Kindred's bounds
/// (KindredCrypto's `CloserWireFormat`, docs/wire-formats.md). The server never decrypts.
enum CloserShapes {
    /// Nil when `value` has `format`, otherwise "`field` …the problem".
    static func problem(_ value: String, _ format: CloserWireFormat.Format, field: String) -> String? {
        CloserWireFormat.problem(value, as: format).map { "\(field): \($0)" }
    }

    /// Nil when the three fields of a phrase-wrapped couple key have their shapes.
    static func wrapProblem(wrappedCoupleKey: String, kdfSalt: String, kdfParams: String, prefix: String = "") -> String? {
        if let problem = base64Problem(wrappedCoupleKey, minimumBytes: 28, maximumLength: WrappedCoupleKey.maximumWrappedLength) {
            return "\(prefix)wrappedCoupleKey: \(problem)"
        }
        if let problem = saltProblem(kdfSalt) { return "\(prefix)kdfSalt: \(problem)" }
        if let problem = paramsProblem(kdfParams) { return "\(prefix)kdfParams: \(problem)" }
        return nil
    }

    /// Nil when `salt` is 16 bytes in standard Base64 (24 characters).
    static func saltProblem(_ salt: String) -> String? {
        guard salt.utf8.count == 24 else { return "must be 24 characters (16 bytes in Base64)" }
        return base64Problem(salt, minimumBytes: 16, maximumLength: 24)
    }

    /// Nil when `params` is a `kdfParams` JSON object within Closer's bounds.
    static func paramsProblem(_ params: String) -> String? {
        guard params.utf8.count <= 128 else { return "longer than 128 characters" }
        do {
            _ = try CloserKDFParameters(encoded: params)
            return nil
        } catch {
            return "not valid Argon2id parameters (\(error))"
        }
    }

    /// Nil when `text` is strict standard Base64 of at least `minimumBytes` bytes.
    static func base64Problem(_ text: String, minimumBytes: Int, maximumLength: Int) -> String? {
        guard text.utf8.count <= maximumLength else { return "longer than \(maximumLength) characters" }
        guard let bytes = try? Base64.decode(text, alphabet: .standard) else { return "not standard Base64 with padding" }
        guard bytes.count >= minimumBytes else { return "shorter than \(minimumBytes) bytes" }
        return nil
    }

    /// Nil when `id` is a device id (`^[A-Za-z0-9._-]{1,64}$`).
    static func isDeviceID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }
    }
}
