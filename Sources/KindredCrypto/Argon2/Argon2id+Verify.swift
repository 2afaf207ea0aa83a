extension Argon2id {
    /// Hashes a password into a PHC string (for storing server password hashes).
    /// - Parameters:
    ///   - password: the password bytes.
    ///   - parameters: m, t, p and the tag length (default `.password`); must not carry a secret or
    ///     associated data, which the PHC string cannot record.
    ///   - salt: the salt, or `nil` for 16 fresh random bytes.
    /// - Returns: `$argon2id$v=19$m=…,t=…,p=…$<salt>$<tag>` (see docs/wire-formats.md, "Argon2id" → "PHC string").
    /// - Throws: `KindredCryptoError.invalidParameters` for parameters or salt outside RFC 9106, or a
    ///   secret or associated data.
    public static func phcHash(
        password: [UInt8], parameters: Parameters = .password, salt: [UInt8]? = nil
    ) throws(KindredCryptoError) -> String {
        guard parameters.secret.isEmpty, parameters.associatedData.isEmpty else {
            throw .invalidParameters("a PHC string cannot record an Argon2id secret or associated data")
        }
        let salt = salt ?? randomSalt()
        let tag = try hash(password: password, salt: salt, parameters: parameters)
        return PHC(parameters: parameters, salt: salt, hash: tag).string
    }

    /// Checks a password against a PHC string, refusing costs beyond `bounds` before allocating.
    /// - Parameters:
    ///   - password: the candidate password bytes.
    ///   - phc: the stored PHC string.
    ///   - bounds: the largest m, t, p, salt and tag accepted (default `.default`).
    /// - Returns: `true` if the password's tag equals the stored one (compared in constant time).
    /// - Throws: the errors of `PHC.init(parsing:bounds:)` for a malformed or out-of-bounds string.
    public static func verify(password: [UInt8], phc: String, bounds: Bounds = .default) throws(KindredCryptoError) -> Bool {
        let parsed = try PHC(parsing: phc, bounds: bounds)
        let tag = try hash(password: password, salt: parsed.salt, parameters: parsed.parameters)
        return ConstantTime.equals(tag, parsed.hash)
    }

    /// 16 bytes from the system's cryptographically secure generator.
    static func randomSalt() -> [UInt8] {
        return SecureRandom.bytes(16)
    }
}
