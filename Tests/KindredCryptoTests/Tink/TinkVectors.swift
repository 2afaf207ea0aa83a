@testable import KindredCrypto

/// `Vectors/tink-aead.json`: AES-GCM known answers made by `Interop/make_tink_vectors.py`.
struct TinkAEADVectors: Decodable {
    struct Case: Decodable {
        let name: String
        let key: String
        let keyID: UInt32
        let outputPrefixType: String
        let iv: String
        let plaintext: String
        let associatedData: String
        let ciphertext: String
        let keyset: String
    }
    let cases: [Case]

    static func load() throws -> TinkAEADVectors { try Vectors.load("tink-aead") }
}

/// `Vectors/tink-hybrid.json`: ECIES known answers made by `Interop/make_tink_vectors.py`.
struct TinkHybridVectors: Decodable {
    struct Case: Decodable {
        let name: String
        let recipientScalar: String
        let recipientX: String
        let recipientY: String
        let ephemeralScalar: String
        let keyID: UInt32
        let outputPrefixType: String
        let hkdfSalt: String
        let demKeySize: Int
        let iv: String
        let plaintext: String
        let contextInfo: String
        let demKey: String
        let ciphertext: String
        let privateKeyset: String
        let privateKeyset32: String
        let publicKeyset: String
    }
    let templateTypeURL: String
    let templateValue: String
    let paramsSerialized: String
    let cases: [Case]

    static func load() throws -> TinkHybridVectors { try Vectors.load("tink-hybrid") }
}

extension Keyset.OutputPrefixType {
    /// The enum name used in the vector files ("TINK", "RAW", …).
    init(vectorName: String) {
        switch vectorName {
        case "TINK": self = .tink
        case "LEGACY": self = .legacy
        case "RAW": self = .raw
        case "CRUNCHY": self = .crunchy
        default: self = .unknown
        }
    }
}
