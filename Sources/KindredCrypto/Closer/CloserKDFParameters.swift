/// The Argon2id parameters of Closer's couple-key wrap and invite transport, and their wire
/// form `kdfParams`: the canonical JSON `{"alg":"argon2id","len":32,"m":M,"p":P,"t":T,"v":19}`.
///
/// Parameters read from the wire are bounded — 8·p ≤ m ≤ 262,144 KiB, 1 ≤ t ≤ 10, 1 ≤ p ≤ 8,
/// len = 32, version 19 — and refused with `.parametersOutOfBounds` before Argon2 allocates
/// anything. Spec: `docs/wire-formats.md`, "kdfParams".
public struct CloserKDFParameters: Equatable, Sendable {
    /// Memory in KiB (`m`).
    public let memoryKiB: Int
    /// Passes over memory (`t`).
    public let iterations: Int
    /// Lanes (`p`).
    public let parallelism: Int

    /// Output length in bytes (`len`), always 32.
    public static let outputLength = 32
    /// Argon2 version 1.3 (`v`).
    public static let version = 19
    /// The largest `m` accepted (256 MiB).
    public static let maximumMemoryKiB = 262_144
    /// The largest `t` accepted.
    public static let maximumIterations = 10
    /// The largest `p` accepted.
    public static let maximumParallelism = 8
    /// The longest `kdfParams` string accepted; longer input is refused before it is parsed.
    public static let maximumEncodedLength = 128

    /// Closer's production parameters: m = 46,080 KiB (45 MiB), t = 3, p = 1.
    public static let closer = CloserKDFParameters(unchecked: 46_080, 3, 1)

    /// Creates parameters, checking Kindred's bounds.
    /// - Parameters:
    ///   - memoryKiB: `m`, 8·p…262,144.
    ///   - iterations: `t`, 1…10.
    ///   - parallelism: `p`, 1…8.
    /// - Throws: `KindredCryptoError.parametersOutOfBounds`.
    public init(memoryKiB: Int, iterations: Int, parallelism: Int) throws(KindredCryptoError) {
        guard (1...Self.maximumParallelism).contains(parallelism) else {
            throw .parametersOutOfBounds("p = \(parallelism) is outside 1...\(Self.maximumParallelism)")
        }
        guard (1...Self.maximumIterations).contains(iterations) else {
            throw .parametersOutOfBounds("t = \(iterations) is outside 1...\(Self.maximumIterations)")
        }
        guard (8 * parallelism...Self.maximumMemoryKiB).contains(memoryKiB) else {
            throw .parametersOutOfBounds("m = \(memoryKiB) KiB is outside \(8 * parallelism)...\(Self.maximumMemoryKiB)")
        }
        self.init(unchecked: memoryKiB, iterations, parallelism)
    }

    private init(unchecked memoryKiB: Int, _ iterations: Int, _ parallelism: Int) {
        self.memoryKiB = memoryKiB
        self.iterations = iterations
        self.parallelism = parallelism
    }

    /// The `kdfParams` wire string (canonical JSON, keys sorted).
    public var encoded: String {
        "{\"alg\":\"argon2id\",\"len\":\(Self.outputLength),\"m\":\(memoryKiB),\"p\":\(parallelism),\"t\":\(iterations),\"v\":\(Self.version)}"
    }

    /// Parses and bounds-checks a `kdfParams` wire string.
    /// - Parameter encoded: the JSON text; any member order and JSON whitespace is accepted.
    /// - Throws: `.tooLong` beyond 128 bytes, `.malformed` for JSON that is not an object of
    ///   exactly `alg`, `len`, `m`, `p`, `t`, `v` with the right types, `.parametersOutOfBounds`
    ///   for `alg` ≠ `argon2id`, `v` ≠ 19, `len` ≠ 32 or m/t/p outside the bounds.
    public init(encoded: String) throws(KindredCryptoError) {
        let format = "kdfParams"
        guard encoded.utf8.count <= Self.maximumEncodedLength else { throw .tooLong(format: format, limit: Self.maximumEncodedLength) }
        guard case .object(let members) = try CanonicalJSON.parse(Array(encoded.utf8), format: format) else {
            throw .malformed(format: format, reason: "not a JSON object")
        }
        guard Set(members.keys) == ["alg", "len", "m", "p", "t", "v"] else {
            throw .malformed(format: format, reason: "members must be exactly alg, len, m, p, t, v")
        }
        guard case .string(let alg) = members["alg"] else { throw .malformed(format: format, reason: "alg is not a string") }
        func integer(_ name: String) throws(KindredCryptoError) -> Int {
            guard case .integer(let n) = members[name] else { throw .malformed(format: format, reason: "\(name) is not an integer") }
            return Int(n)
        }
        let len = try integer("len"), m = try integer("m"), p = try integer("p"), t = try integer("t"), v = try integer("v")
        guard alg == "argon2id" else { throw .parametersOutOfBounds("alg \(alg) is not argon2id") }
        guard v == Self.version else { throw .parametersOutOfBounds("v = \(v), only 19 is accepted") }
        guard len == Self.outputLength else { throw .parametersOutOfBounds("len = \(len), only 32 is accepted") }
        try self.init(memoryKiB: m, iterations: t, parallelism: p)
    }

    /// Runs Argon2id with these parameters (32-byte output, no secret, no associated data).
    /// - Parameters:
    ///   - password: the password bytes.
    ///   - salt: the salt (16 bytes in every Closer format).
    /// - Returns: 32 bytes.
    /// - Throws: `KindredCryptoError` from Argon2id.
    func derive(password: [UInt8], salt: [UInt8]) throws(KindredCryptoError) -> [UInt8] {
        let parameters = Argon2id.Parameters(
            memoryKiB: UInt32(memoryKiB), iterations: UInt32(iterations), parallelism: UInt32(parallelism),
            outputLength: Self.outputLength, secret: [], associatedData: [])
        return try Argon2id.hash(password: password, salt: salt, parameters: parameters)
    }
}
