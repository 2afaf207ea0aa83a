import KindredServerCore
import CloserAPI
import KindredCrypto

/// The seed's answer rules: a write matches exactly one shape.
enum AnswerShape {
    /// Checks an answer against the shapes its couple's encryption version allows.
    /// - Throws: `invalid_answer` naming the problem.
    static func check(_ body: Components.Schemas.CloserAnswerCreate, encryptionVersion: Int) throws {
        let content: [(String, String?)] = [
            ("text", body.text), ("encryptedText", body.encryptedText), ("encryptedPayload", body.encryptedPayload),
            ("commitmentHash", body.commitmentHash), ("commitmentSeal", body.commitmentSeal),
        ]
        func only(_ allowed: Set<String>) throws {
            if let extra = content.first(where: { $0.1 != nil && !allowed.contains($0.0) }) {
                throw KindredError.invalidAnswer("\(extra.0) is not part of a schemaVersion \(body.schemaVersion.rawValue) answer")
            }
            if let missing = content.first(where: { $0.1 == nil && allowed.contains($0.0) }) {
                throw KindredError.invalidAnswer("\(missing.0) is required in a schemaVersion \(body.schemaVersion.rawValue) answer")
            }
        }
        switch body.schemaVersion {
        case ._3:
            try only(["encryptedPayload", "commitmentHash", "commitmentSeal"])
            if body.answerKeyReleased == true || body.isRevealed == true {
                throw KindredError.invalidAnswer("a sealed answer is created with answerKeyReleased and isRevealed false")
            }
            if let problem = sealed(payload: body.encryptedPayload, hash: body.commitmentHash, seal: body.commitmentSeal) {
                throw KindredError.invalidAnswer(problem)
            }
        case ._2:
            try only(["encryptedText"])
            try revealFlagsAbsent(body)
            if let problem = CloserShapes.problem(body.encryptedText ?? "", .ciphertext, field: "encryptedText") {
                throw KindredError.invalidAnswer(problem)
            }
        case ._1:
            try only(["text"])
            try revealFlagsAbsent(body)
            guard encryptionVersion == 0 else {
                throw KindredError.invalidAnswer("this couple is end-to-end encrypted: plaintext answers are refused")
            }
            guard let text = body.text, (1...4000).contains(text.count) else { throw KindredError.invalidAnswer("text must be 1–4000 characters") }
        }
    }

    /// Nil when the three sealed fields have their shapes.
    static func sealed(payload: String?, hash: String?, seal: String?) -> String? {
        CloserShapes.problem(payload ?? "", .sealedPayload, field: "encryptedPayload")
            ?? CloserShapes.problem(hash ?? "", .commitmentHash, field: "commitmentHash")
            ?? CloserShapes.problem(seal ?? "", .ciphertext, field: "commitmentSeal")
    }

    private static func revealFlagsAbsent(_ body: Components.Schemas.CloserAnswerCreate) throws {
        if body.answerKeyReleased != nil || body.isRevealed != nil {
            throw KindredError.invalidAnswer("answerKeyReleased and isRevealed belong to sealed (schemaVersion 3) answers")
        }
    }
}
