import ArgumentParser
import KindredCrypto

/// A key template `kindred crypto keyset new` can generate: its command-line name and a
/// function that makes a fresh keyset. To add a template, add one entry to `all`.
struct KeysetTemplate: ExpressibleByArgument, Sendable {
    /// The name on the command line, for example `aes256-gcm`.
    let name: String
    /// What the keyset is for, shown in `--help`.
    let summary: String
    /// Makes a fresh keyset with one primary key of the given output prefix type.
    let generate: @Sendable (Keyset.OutputPrefixType) -> Keyset

    /// Every template, in the order `--help` lists them.
    static let all: [KeysetTemplate] = [
        KeysetTemplate(name: "aes256-gcm", summary: "Tink AES256_GCM (AEAD)",
                       generate: { Keyset.generateAES256GCM(outputPrefixType: $0) }),
        KeysetTemplate(name: "ecies-p256", summary: "Tink ECIES_P256_HKDF_HMAC_SHA256_AES128_GCM (hybrid, private keyset)",
                       generate: { Keyset.generateECIESP256(outputPrefixType: $0) }),
        KeysetTemplate(name: "aes256-gcm-hkdf-1mb", summary: "Tink AES256_GCM_HKDF_1MB (streaming AEAD, always RAW)",
                       generate: { _ in Keyset.generateAES256GCMHKDF1MB() }),
    ]

    init(name: String, summary: String, generate: @escaping @Sendable (Keyset.OutputPrefixType) -> Keyset) {
        self.name = name
        self.summary = summary
        self.generate = generate
    }

    init?(argument: String) {
        guard let template = Self.all.first(where: { $0.name == argument }) else { return nil }
        self = template
    }

    static var allValueStrings: [String] { all.map(\.name) }

    /// One line per template for `--help`.
    static var helpText: String { all.map { "\($0.name): \($0.summary)" }.joined(separator: "; ") }
}
