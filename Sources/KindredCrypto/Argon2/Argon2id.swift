/// Argon2id (RFC 9106, version 0x13): the memory-hard password hash and KDF behind Closer's
/// couple-key wrapping and the server's password hashes.
///
/// See docs/wire-formats.md, "Argon2id".
public enum Argon2id {
    /// The Argon2 version this implementation computes, 0x13 (19).
    public static let version: UInt32 = 0x13

    /// The shortest salt RFC 9106 allows, in bytes (16 is recommended).
    public static let minimumSaltLength = 8

    /// Computes the Argon2id tag of a password.
    /// - Parameters:
    ///   - password: the password P, 0...2^32 − 1 bytes.
    ///   - salt: the salt S, 8...2^32 − 1 bytes (16 random bytes recommended).
    ///   - parameters: m, t, p, the tag length and the optional secret and associated data.
    /// - Returns: the tag, `parameters.outputLength` bytes.
    /// - Throws: `KindredCryptoError.invalidParameters` for parameters, salt or password outside the
    ///   RFC 9106 limits, or if the memory cannot be allocated.
    public static func hash(password: [UInt8], salt: [UInt8], parameters: Parameters) throws(KindredCryptoError) -> [UInt8] {
        try parameters.validate()
        guard salt.count >= minimumSaltLength, UInt64(salt.count) <= UInt64(UInt32.max) else {
            throw .invalidParameters("Argon2id salt must be 8...4294967295 bytes, got \(salt.count)")
        }
        guard UInt64(password.count) <= UInt64(UInt32.max) else {
            throw .invalidParameters("Argon2id password is longer than 4294967295 bytes")
        }
        let h0 = initialHash(password: password, salt: salt, parameters: parameters)
        let memory = try Argon2Memory(
            memoryKiB: parameters.memoryKiB, lanes: parameters.parallelism, passes: parameters.iterations
        )
        defer { memory.release() }
        for lane in 0..<memory.lanes {
            let laneBytes = le32(UInt32(lane))
            memory.setBlock(lane: lane, index: 0, bytes: Argon2VariableHash.hash([h0, le32(0), laneBytes], length: 1024))
            memory.setBlock(lane: lane, index: 1, bytes: Argon2VariableHash.hash([h0, le32(1), laneBytes], length: 1024))
        }
        memory.fill()
        return Argon2VariableHash.hash([memory.finalBlock()], length: parameters.outputLength)
    }

    /// H0 (RFC 9106 §3.2 step 1): BLAKE2b-512 over the parameters and the length-prefixed inputs.
    static func initialHash(password: [UInt8], salt: [UInt8], parameters: Parameters) -> [UInt8] {
        var state = BLAKE2b(checkedOutputLength: 64)
        state.update(le32: parameters.parallelism)
        state.update(le32: UInt32(parameters.outputLength))
        state.update(le32: parameters.memoryKiB)
        state.update(le32: parameters.iterations)
        state.update(le32: version)
        state.update(le32: UInt32(Argon2Memory.typeID))
        for field in [password, salt, parameters.secret, parameters.associatedData] {
            state.update(le32: UInt32(field.count))
            state.update(field)
        }
        return state.finalize()
    }

    private static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value), UInt8(truncatingIfNeeded: value >> 8),
         UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 24)]
    }
}
