import CloserAPI
import KindredServerCore

// The daily question's JSON written directly (`JSONObjectWriter`), byte for byte as the generated
// server's `JSONEncoder` writes it (`.sortedKeys`, `.withoutEscapingSlashes`, dates by
// `InternetDateTranscoder`, nil members left out), for the direct `GET …/today`
// (`CloserHandler+Direct.swift`). Members are written in sorted key order; a property added to
// one of these schemas fails `CloserDirectRoutesTests` until it is written here too.

extension Components.Schemas.CloserDailyQuestion {
    /// The day as the generated server writes it.
    /// - Throws: the date transcoder's error (only for dates ISO 8601 cannot write).
    func jsonBytes() throws -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 512 + answers.count * 1024 + (releaseKeys?.count ?? 0) * 320)
        try write(to: &writer)
        return writer.finish()
    }

    /// Writes the day's members.
    func write(to writer: inout JSONObjectWriter) throws {
        try writer.objects("answers", answers) { answer, writer in try answer.write(to: &writer) }
        try writer.date("answersCloseAt", answersCloseAt)
        try writer.date("assignedAt", assignedAt)
        writer.string("coupleId", coupleId)
        writer.string("date", date)
        try writer.date("expiresAt", expiresAt)
        writer.object("question", question) { question, writer in question.write(to: &writer) }
        writer.string("questionId", questionId)
        try writer.objects("releaseKeys", releaseKeys) { key, writer in try key.write(to: &writer) }
    }
}

extension Components.Schemas.CloserAnswer {
    /// Writes the answer's members.
    func write(to writer: inout JSONObjectWriter) throws {
        writer.bool("answerKeyReleased", answerKeyReleased)
        writer.string("commitmentHash", commitmentHash)
        writer.string("commitmentSeal", commitmentSeal)
        writer.bool("contentWithheld", contentWithheld)
        writer.string("coupleId", coupleId)
        try writer.date("createdAt", createdAt)
        writer.string("date", date)
        writer.string("encryptedPayload", encryptedPayload)
        writer.string("encryptedText", encryptedText)
        writer.bool("isRevealed", isRevealed)
        try writer.date("migratedAt", migratedAt)
        writer.string("questionId", questionId)
        writer.integer("schemaVersion", Int64(schemaVersion.rawValue))
        writer.string("text", text)
        try writer.date("updatedAt", updatedAt)
        writer.string("userId", userId)
    }
}

extension Components.Schemas.CloserQuestion {
    /// Writes the question's members.
    func write(to writer: inout JSONObjectWriter) {
        writer.bool("active", active)
        writer.string("categoryId", categoryId)
        writer.string("id", id)
        writer.bool("isPremium", isPremium)
        writer.string("packId", packId)
        writer.string("text", text)
    }
}

extension Components.Schemas.CloserReleaseKey {
    /// Writes the keybox's members.
    func write(to writer: inout JSONObjectWriter) throws {
        try writer.date("createdAt", createdAt)
        writer.string("encryptedAnswerKey", encryptedAnswerKey)
        writer.string("recipientDeviceId", recipientDeviceId)
        writer.string("recipientUserId", recipientUserId)
        writer.string("senderUserId", senderUserId)
    }
}
