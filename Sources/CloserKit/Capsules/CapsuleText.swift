import Foundation
import KindredCrypto

/// What a capsule's `enc:v1:` title or content holds (docs/closer.md, "Memory lane"): which of
/// the two it is and who sealed it (checked on opening, so a title cannot pass for content or
/// another member's capsule) and the text.
public struct CapsuleText: Codable, Sendable, Equatable {
    /// 1.
    public var v: Int
    /// `title` or `content`.
    public var field: String
    /// The member who sealed the capsule.
    public var userId: String
    /// The text.
    public var text: String

    /// Creates one field's content.
    public init(field: String, userId: String, text: String) {
        v = 1
        self.field = field
        self.userId = userId
        self.text = text
    }

    /// The `enc:v1:` ciphertext under the couple key (AAD the couple id).
    /// - Throws: `CloserKitError.crypto` when the cipher fails.
    public func seal(cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> String {
        try CloserSealedJSON.seal(self, cipher: cipher, coupleID: coupleID)
    }

    /// Opens `ciphertext` as `field` of a capsule sealed by `userId`.
    /// - Throws: `CloserKitError.crypto` or `.tampered`.
    public static func open(_ ciphertext: String, field: String, userId: String, cipher: CloserFieldCipher, coupleID: String) throws(CloserKitError) -> String {
        let content: CapsuleText = try CloserSealedJSON.open(ciphertext, cipher: cipher, coupleID: coupleID, what: "a capsule \(field)")
        guard content.v == 1, content.field == field, content.userId == userId else {
            throw .tampered("the capsule's \(field) belongs to another field or member")
        }
        return content.text
    }
}
