import Foundation
import KindredCrypto

/// What a check-in's `enc:v1:` ciphertext holds (docs/closer.md, "Check-ins"): the check-in and
/// member it belongs to (checked on opening, so the server cannot move a ciphertext to another
/// check-in or member) and the member's answers as free text.
public struct OutcomeAnswers: Codable, Sendable, Equatable {
    /// 1.
    public var v: Int
    /// `day_0`, `day_30`, `day_60` or `day_90`.
    public var key: String
    /// The member who answered.
    public var userId: String
    /// The answers.
    public var text: String

    /// Creates the content of one answer.
    public init(key: String, userId: String, text: String) {
        v = 1
        self.key = key
        self.userId = userId
        self.text = text
    }

    /// The `enc:v1:` ciphertext of this content under the couple key (AAD the couple id).
    /// - Throws: `CloserKitError.crypto` when the cipher fails.
    public func seal(cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> String {
        try CloserSealedJSON.seal(self, cipher: cipher, coupleID: coupleID)
    }

    /// Opens `ciphertext` and checks it belongs to `key` and `userId`.
    /// - Throws: `CloserKitError.crypto` for a ciphertext the couple key does not open,
    ///   `.tampered` for one that belongs elsewhere.
    public static func open(_ ciphertext: String, key: String, userId: String, cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> OutcomeAnswers {
        let content: OutcomeAnswers = try CloserSealedJSON.open(ciphertext, cipher: cipher, coupleID: coupleID, what: "a check-in answer")
        guard content.v == 1, content.key == key, content.userId == userId else {
            throw .tampered("the check-in answer belongs to another check-in or member")
        }
        return content
    }
}

/// Small JSON documents sealed as `enc:v1:` under the couple key (AAD the couple id).
enum CloserSealedJSON {
    /// Encodes `value` (sorted keys) and encrypts it.
    static func seal(_ value: some Encodable, cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> String {
        let json: String
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            json = String(decoding: try encoder.encode(value), as: UTF8.self)
        } catch {
            throw .invalidInput("the content could not be encoded: \(error)")
        }
        do {
            return try cipher.encrypt(json, coupleId: coupleID)
        } catch {
            throw .crypto(error)
        }
    }

    /// Decrypts and decodes a `T`.
    static func open<T: Decodable>(_ ciphertext: String, cipher: CloserFieldCipher, coupleID: String, what: String) throws(CloserKitError) -> T {
        let plaintext: [UInt8]
        do {
            plaintext = try cipher.decrypt(ciphertext, coupleId: coupleID)
        } catch {
            throw .crypto(error)
        }
        guard let value = try? JSONDecoder().decode(T.self, from: Data(plaintext)) else { throw .tampered("the ciphertext is not \(what)") }
        return value
    }
}
