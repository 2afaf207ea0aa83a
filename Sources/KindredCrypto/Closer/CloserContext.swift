/// The identifiers a sealed answer is bound to: its couple, its question and its author.
/// Spec: `docs/wire-formats.md`, "Context identifiers".
public struct SealedAnswerContext: Equatable, Sendable {
    /// The longest identifier accepted, in UTF-8 bytes.
    public static let maximumIdentifierLength = 256

    /// `couples/{coupleId}`.
    public let coupleId: String
    /// The daily question's or thread's question id.
    public let questionId: String
    /// The author of the answer (`answers/{userId}`).
    public let userId: String

    /// Creates a context.
    /// - Parameters:
    ///   - coupleId: the couple document id.
    ///   - questionId: the question id.
    ///   - userId: the author's uid.
    /// - Throws: `KindredCryptoError.invalidParameters` for an empty identifier, one containing
    ///   `|` (the separator of the associated data) or one longer than 256 UTF-8 bytes.
    public init(coupleId: String, questionId: String, userId: String) throws(KindredCryptoError) {
        try Self.check(coupleId, "coupleId")
        try Self.check(questionId, "questionId")
        try Self.check(userId, "userId")
        self.coupleId = coupleId
        self.questionId = questionId
        self.userId = userId
    }

    /// `coupleId|questionId|userId` as UTF-8: the associated data of `sealed:v1:` and of the
    /// commitment seal.
    public var associatedData: [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(coupleId.utf8.count + questionId.utf8.count + userId.utf8.count + 2)
        out += coupleId.utf8
        out.append(UInt8(ascii: "|"))
        out += questionId.utf8
        out.append(UInt8(ascii: "|"))
        out += userId.utf8
        return out
    }

    static func check(_ id: String, _ name: String) throws(KindredCryptoError) {
        guard !id.isEmpty else { throw .invalidParameters("\(name) is empty") }
        guard !id.utf8.contains(UInt8(ascii: "|")) else { throw .invalidParameters("\(name) contains '|'") }
        guard id.utf8.count <= maximumIdentifierLength else {
            throw .invalidParameters("\(name) is longer than \(maximumIdentifierLength) bytes")
        }
    }
}

/// The identifiers a keybox is bound to: the sealed answer's couple and question, its author
/// (the sender) and the partner it is released to. Spec: `docs/wire-formats.md`, "keybox:v1".
public struct KeyboxContext: Equatable, Sendable {
    /// `couples/{coupleId}`.
    public let coupleId: String
    /// The question id.
    public let questionId: String
    /// The author of the answer, who writes the keybox.
    public let senderUserId: String
    /// The partner who may read the keybox.
    public let recipientUserId: String

    /// Creates a context.
    /// - Parameters:
    ///   - coupleId: the couple document id.
    ///   - questionId: the question id.
    ///   - senderUserId: the answer's author.
    ///   - recipientUserId: the partner.
    /// - Throws: `KindredCryptoError.invalidParameters` under the same rules as `SealedAnswerContext`.
    public init(coupleId: String, questionId: String, senderUserId: String, recipientUserId: String) throws(KindredCryptoError) {
        try SealedAnswerContext.check(coupleId, "coupleId")
        try SealedAnswerContext.check(questionId, "questionId")
        try SealedAnswerContext.check(senderUserId, "senderUserId")
        try SealedAnswerContext.check(recipientUserId, "recipientUserId")
        self.coupleId = coupleId
        self.questionId = questionId
        self.senderUserId = senderUserId
        self.recipientUserId = recipientUserId
    }

    /// `coupleId|questionId|senderUserId|recipientUserId` as UTF-8: the ECIES context info.
    public var contextInfo: [UInt8] { Array("\(coupleId)|\(questionId)|\(senderUserId)|\(recipientUserId)".utf8) }

    /// The context of the sealed answer this keybox opens (its author is the sender).
    public var sealedAnswerContext: SealedAnswerContext {
        // The identifiers were checked by this type's initializer under the same rules.
        SealedAnswerContext(unchecked: coupleId, questionId, senderUserId)
    }
}

extension SealedAnswerContext {
    init(unchecked coupleId: String, _ questionId: String, _ userId: String) {
        self.coupleId = coupleId
        self.questionId = questionId
        self.userId = userId
    }
}
