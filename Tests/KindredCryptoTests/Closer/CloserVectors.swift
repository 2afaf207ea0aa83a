/// The known-answer vectors of `Vectors/closer.json` (computed with `Interop/closer_reference.py`).
struct CloserVectors: Decodable {
    struct Sealed: Decodable {
        let coupleId, questionId, userId, answer: String
        let nonce, oneTimeKey, iv: String
        let canonicalJSON, payload, commitment: String
    }
    let sealed: Sealed

    static func load() throws -> CloserVectors { try Vectors.load("closer") }
}
