extension Argon2id {
    /// The cost and output parameters of one Argon2id computation (RFC 9106 §3.1).
    ///
    /// See docs/wire-formats.md, "Argon2id" → "Parameters".
    public struct Parameters: Equatable, Sendable {
        /// Memory size m in KiB (1 KiB = one 1024-byte block); at least 8·p.
        public var memoryKiB: UInt32
        /// Number of passes t over the memory; at least 1.
        public var iterations: UInt32
        /// Degree of parallelism p (number of lanes), 1...2^24 − 1.
        public var parallelism: UInt32
        /// Tag length T in bytes, 4...2^32 − 1.
        public var outputLength: Int
        /// Optional secret value K (a pepper); empty if unused.
        public var secret: [UInt8]
        /// Optional associated data X; empty if unused.
        public var associatedData: [UInt8]

        /// Creates a parameter set; call `validate()` (or `hash`, which does) to check it.
        /// - Parameters:
        ///   - memoryKiB: memory size m in KiB.
        ///   - iterations: passes t.
        ///   - parallelism: lanes p.
        ///   - outputLength: tag length T in bytes.
        ///   - secret: secret value K.
        ///   - associatedData: associated data X.
        public init(
            memoryKiB: UInt32, iterations: UInt32, parallelism: UInt32, outputLength: Int = 32,
            secret: [UInt8] = [], associatedData: [UInt8] = []
        ) {
            self.memoryKiB = memoryKiB
            self.iterations = iterations
            self.parallelism = parallelism
            self.outputLength = outputLength
            self.secret = secret
            self.associatedData = associatedData
        }

        /// Closer's couple-key KDF: m = 46080 KiB (45 MiB), t = 3, p = 1, 32-byte key; salt 16 bytes.
        public static let closer = Parameters(memoryKiB: 46080, iterations: 3, parallelism: 1, outputLength: 32)

        /// Server password hashing (OWASP's Argon2id minimum): m = 19456 KiB, t = 2, p = 1, 32 bytes.
        public static let password = Parameters(memoryKiB: 19456, iterations: 2, parallelism: 1, outputLength: 32)

        /// Checks the RFC 9106 §3.1 limits that do not depend on the password or salt.
        /// - Throws: `KindredCryptoError.invalidParameters` naming the first violated limit:
        ///   p outside 1...2^24 − 1, m < 8·p, t = 0, T outside 4...2^32 − 1, or K / X longer than 2^32 − 1 bytes.
        public func validate() throws(KindredCryptoError) {
            guard parallelism >= 1, parallelism <= Argon2id.maxParallelism else {
                throw .invalidParameters("Argon2id parallelism must be 1...16777215, got \(parallelism)")
            }
            guard UInt64(memoryKiB) >= 8 * UInt64(parallelism) else {
                throw .invalidParameters("Argon2id memory must be at least 8·p = \(8 * UInt64(parallelism)) KiB, got \(memoryKiB)")
            }
            guard iterations >= 1 else {
                throw .invalidParameters("Argon2id iterations must be at least 1")
            }
            guard outputLength >= 4, UInt64(outputLength) <= UInt64(UInt32.max) else {
                throw .invalidParameters("Argon2id output length must be 4...4294967295 bytes, got \(outputLength)")
            }
            guard UInt64(secret.count) <= UInt64(UInt32.max) else {
                throw .invalidParameters("Argon2id secret is longer than 4294967295 bytes")
            }
            guard UInt64(associatedData.count) <= UInt64(UInt32.max) else {
                throw .invalidParameters("Argon2id associated data is longer than 4294967295 bytes")
            }
        }
    }

    /// The largest degree of parallelism RFC 9106 allows, 2^24 − 1.
    static let maxParallelism: UInt32 = (1 << 24) - 1
}
