extension Argon2id {
    /// An Argon2id hash in the PHC string format the reference `argon2` and argon2-cffi write:
    /// `$argon2id$v=19$m=<KiB>,t=<passes>,p=<lanes>$<salt>$<tag>`, salt and tag in standard
    /// Base64 without padding.
    ///
    /// Parsing is strict (one text per value): decimal numbers without sign or leading zeros,
    /// fields in this exact order, version 19 only. See docs/wire-formats.md, "Argon2id" → "PHC string".
    public struct PHC: Equatable, Sendable {
        /// The name of this format in errors.
        static let format = "argon2id PHC"
        /// The text every string starts with.
        static let prefix = "$argon2id$"

        /// m, t, p and the tag length (the tag's length); no secret or associated data.
        public var parameters: Parameters
        /// The salt.
        public var salt: [UInt8]
        /// The tag.
        public var hash: [UInt8]

        /// Creates a PHC value; `parameters.outputLength` is set to `hash.count`.
        /// - Parameters:
        ///   - parameters: m, t and p (secret and associated data are not representable and dropped).
        ///   - salt: the salt.
        ///   - hash: the tag.
        public init(parameters: Parameters, salt: [UInt8], hash: [UInt8]) {
            self.parameters = Parameters(
                memoryKiB: parameters.memoryKiB, iterations: parameters.iterations,
                parallelism: parameters.parallelism, outputLength: hash.count
            )
            self.salt = salt
            self.hash = hash
        }

        /// Parses a PHC string, refusing costs beyond `bounds` before anything is computed.
        /// - Parameters:
        ///   - string: the PHC text.
        ///   - bounds: the largest m, t, p, salt and tag accepted.
        /// - Throws: `KindredCryptoError.wrongPrefix` (not `$argon2id$`), `.truncated` (missing fields),
        ///   `.malformed` (bad number, field, version or Base64), `.parametersOutOfBounds` (beyond `bounds`),
        ///   `.invalidParameters` (outside RFC 9106, e.g. t = 0, p = 0, m < 8p, salt < 8 or tag < 4 bytes).
        public init(parsing string: String, bounds: Bounds = .default) throws(KindredCryptoError) {
            guard string.hasPrefix(Self.prefix) else {
                throw .wrongPrefix(format: Self.format, expected: Self.prefix)
            }
            let fields = string.utf8.split(separator: UInt8(ascii: "$"), omittingEmptySubsequences: false)
            // "", "argon2id", "v=19", "m=…,t=…,p=…", salt, tag
            guard fields.count >= 6 else { throw .truncated(format: Self.format) }
            guard fields.count == 6 else { throw .malformed(format: Self.format, reason: "too many fields") }
            let version = try Self.value(of: "v", in: fields[2])
            guard version == Argon2id.version else {
                throw .malformed(format: Self.format, reason: "unsupported version v=\(version)")
            }
            let costs = fields[3].split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false)
            guard costs.count == 3 else { throw .malformed(format: Self.format, reason: "expected m=…,t=…,p=…") }
            let parameters = Parameters(
                memoryKiB: try Self.value(of: "m", in: costs[0]),
                iterations: try Self.value(of: "t", in: costs[1]),
                parallelism: try Self.value(of: "p", in: costs[2]),
                outputLength: Self.decodedLength(fields[5].count)
            )
            try bounds.check(parameters)
            guard Self.decodedLength(fields[4].count) <= bounds.maxSaltLength else {
                throw .parametersOutOfBounds("Argon2id salt exceeds \(bounds.maxSaltLength) bytes")
            }
            let salt = try Self.base64(fields[4])
            let hash = try Self.base64(fields[5])
            try parameters.validate()
            guard salt.count >= Argon2id.minimumSaltLength else {
                throw .invalidParameters("Argon2id salt must be at least 8 bytes, got \(salt.count)")
            }
            self.init(parameters: parameters, salt: salt, hash: hash)
        }

        /// The PHC text, `$argon2id$v=19$m=…,t=…,p=…$<salt>$<tag>`.
        public var string: String {
            let p = parameters
            return "\(Self.prefix)v=\(Argon2id.version)$m=\(p.memoryKiB),t=\(p.iterations),p=\(p.parallelism)$"
                + Self.base64(salt) + "$" + Self.base64(hash)
        }

        /// Reads `name=<decimal>` (1...10 digits, no leading zero, at most 2^32 − 1).
        private static func value(of name: String, in field: Substring.UTF8View) throws(KindredCryptoError) -> UInt32 {
            let bytes = Array(field)
            let key = Array((name + "=").utf8)
            guard bytes.count > key.count, bytes.starts(with: key) else {
                throw .malformed(format: format, reason: "expected \(name)=<number>")
            }
            let digits = bytes[key.count...]
            guard digits.count <= 10, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  digits.count == 1 || digits.first != UInt8(ascii: "0") else {
                throw .malformed(format: format, reason: "\(name) is not a canonical decimal number")
            }
            var value: UInt64 = 0
            for d in digits { value = value * 10 + UInt64(d - UInt8(ascii: "0")) }
            guard value <= UInt64(UInt32.max) else {
                throw .malformed(format: format, reason: "\(name) is larger than 4294967295")
            }
            return UInt32(value)
        }

        /// The number of bytes an unpadded Base64 text of `count` characters holds.
        private static func decodedLength(_ count: Int) -> Int { count * 3 / 4 }

        /// Decodes standard Base64 without padding, strictly.
        private static func base64(_ field: Substring.UTF8View) throws(KindredCryptoError) -> [UInt8] {
            let text = Array(field)
            guard !text.contains(UInt8(ascii: "=")) else {
                throw .malformed(format: format, reason: "Base64 must not be padded")
            }
            guard text.count % 4 != 1 else { throw .malformed(format: format, reason: "impossible Base64 length") }
            let padding = [UInt8](repeating: UInt8(ascii: "="), count: (4 - text.count % 4) % 4)
            return try Base64.decode(String(decoding: text + padding, as: UTF8.self), alphabet: .standard, format: format)
        }

        /// Encodes standard Base64 without padding.
        private static func base64(_ bytes: [UInt8]) -> String {
            var text = Base64.encode(bytes, alphabet: .standard)
            while text.last == "=" { text.removeLast() }
            return text
        }
    }
}
