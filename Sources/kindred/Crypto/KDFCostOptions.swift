import ArgumentParser
import KindredCrypto

/// The Argon2id cost options of the commands that derive a key from a phrase or invite secret
/// (`phrase wrap`, `invite create`); Closer's parameters by default.
struct KDFCostOptions: ParsableArguments {
    @Option(name: [.customShort("m"), .customLong("m")], help: "Argon2id memory in KiB.")
    var memoryKiB: Int = CloserKDFParameters.closer.memoryKiB

    @Option(name: .customShort("t"), help: "Argon2id iterations.")
    var iterations: Int = CloserKDFParameters.closer.iterations

    @Option(name: .customShort("p"), help: "Argon2id parallelism.")
    var parallelism: Int = CloserKDFParameters.closer.parallelism

    /// The parameters, checked against Kindred's bounds.
    /// - Throws: `KindredCryptoError.parametersOutOfBounds` or `.invalidParameters`.
    func parameters() throws(KindredCryptoError) -> CloserKDFParameters {
        try CloserKDFParameters(memoryKiB: memoryKiB, iterations: iterations, parallelism: parallelism)
    }
}
