extension Argon2id {
    /// The largest costs Kindred accepts from the wire (a PHC string, a wrapped key); anything
    /// beyond them is refused before any memory is allocated.
    ///
    /// See docs/wire-formats.md, "Argon2id" → "Bounds".
    public struct Bounds: Equatable, Sendable {
        /// Largest memory m, in KiB (default 262144 = 256 MiB).
        public var maxMemoryKiB: UInt32
        /// Largest number of passes t (default 10).
        public var maxIterations: UInt32
        /// Largest parallelism p (default 8).
        public var maxParallelism: UInt32
        /// Largest salt, in bytes (default 64).
        public var maxSaltLength: Int
        /// Largest tag, in bytes (default 64).
        public var maxOutputLength: Int

        /// Creates bounds; every argument defaults to the value of `.default`.
        /// - Parameters:
        ///   - maxMemoryKiB: largest m in KiB.
        ///   - maxIterations: largest t.
        ///   - maxParallelism: largest p.
        ///   - maxSaltLength: largest salt in bytes.
        ///   - maxOutputLength: largest tag in bytes.
        public init(
            maxMemoryKiB: UInt32 = 262_144, maxIterations: UInt32 = 10, maxParallelism: UInt32 = 8,
            maxSaltLength: Int = 64, maxOutputLength: Int = 64
        ) {
            self.maxMemoryKiB = maxMemoryKiB
            self.maxIterations = maxIterations
            self.maxParallelism = maxParallelism
            self.maxSaltLength = maxSaltLength
            self.maxOutputLength = maxOutputLength
        }

        /// m ≤ 256 MiB, t ≤ 10, p ≤ 8, salt and tag ≤ 64 bytes: room for Closer's and OWASP's
        /// settings with margin, while bounding one verification to a fraction of a second of work per pass.
        public static let `default` = Bounds()

        /// Refuses parameters beyond these bounds (the RFC limits are checked by `Parameters.validate()`).
        /// - Parameter parameters: the parameters read from the wire.
        /// - Throws: `KindredCryptoError.parametersOutOfBounds` naming the first cost above its bound.
        public func check(_ parameters: Parameters) throws(KindredCryptoError) {
            guard parameters.memoryKiB <= maxMemoryKiB else {
                throw .parametersOutOfBounds("Argon2id m=\(parameters.memoryKiB) KiB exceeds \(maxMemoryKiB) KiB")
            }
            guard parameters.iterations <= maxIterations else {
                throw .parametersOutOfBounds("Argon2id t=\(parameters.iterations) exceeds \(maxIterations)")
            }
            guard parameters.parallelism <= maxParallelism else {
                throw .parametersOutOfBounds("Argon2id p=\(parameters.parallelism) exceeds \(maxParallelism)")
            }
            guard parameters.outputLength <= maxOutputLength else {
                throw .parametersOutOfBounds("Argon2id tag of \(parameters.outputLength) bytes exceeds \(maxOutputLength)")
            }
        }
    }
}
