import Foundation
import KindredAPI
import KindredClient
import KindredCrypto

/// One date as this device sees it: the question and where the reveal stands.
public struct CloserDay: Sendable, Equatable {
    /// The date key (`YYYY-MM-DD`).
    public let date: String
    /// The question's id.
    public let questionId: String
    /// The question's text, when the server sent it.
    public let questionText: String?
    /// The reveal state (`revealed` carries both answers).
    public let state: RevealState
}

extension CloserDevice {
    /// The caller's couple. - Throws: `.noCouple` when the account is in none.
    public func couple() async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        let output = try await call { [app] in try await $0.getMyCloserCouple(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let ok):
            guard case .json(let couple) = ok.body else { throw .invalidServerData("no couple") }
            return couple
        default:
            let failure = Self.failure(output)
            if case .client(let error) = failure, error.serverCode == "not_paired" { throw .noCouple }
            throw failure
        }
    }

    /// The couple's current daily question, asking the server to assign one on demand when none is.
    public func currentQuestion(of couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Components.Schemas.CloserDailyQuestion {
        let output = try await call { [app] in try await $0.getCloserToday(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
        if case .ok(let ok) = output, case .json(let day) = ok.body { return day }
        let failure = Self.failure(output)
        guard case .client(let error) = failure, error.serverCode == "no_question_assigned" else { throw failure }
        let assigned = try await call { [app] in try await $0.assignCloserToday(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
        switch assigned {
        case .ok(let ok): if case .json(let day) = ok.body { return day }
        case .created(let created): if case .json(let day) = created.body { return day }
        default: break
        }
        let refused = Self.failure(assigned)
        if case .client(let error) = refused, error.serverCode == "no_questions" { throw .noQuestion }
        throw refused
    }

    /// Today's question and its state (no step is taken; `reveal()` takes them).
    public func today() async throws(CloserKitError) -> CloserDay {
        let couple = try await couple()
        let day = try await currentQuestion(of: couple)
        return try await status(of: day, couple: couple).day
    }

    /// Seals and uploads an answer to today's question. The sealed answer and its one-time key
    /// are stored before the upload; a row left by a crash is uploaded again instead.
    /// - Returns: the date answered.
    /// - Throws: `.alreadyAnswered`, `.notPaired`, client errors (`answers_closed`, …).
    @discardableResult
    public func answer(_ text: String) async throws(CloserKitError) -> CloserDay {
        guard !text.isEmpty else { throw .invalidInput("the answer is empty") }
        let couple = try await couple()
        let keyring = try keyring()
        let userId = try await userId()
        let day = try await currentQuestion(of: couple)
        if day.answers.contains(where: { $0.userId == userId }) { throw .alreadyAnswered }
        let row: PendingAnswerKey
        if let existing = try pending.find(coupleId: couple.id, dateKey: day.date) {
            row = existing  // sealed before a crash: send the same strings again
        } else {
            let sealed: SealedAnswer.Sealed
            do {
                let context = try SealedAnswerContext(coupleId: couple.id, questionId: day.questionId, userId: userId)
                sealed = try SealedAnswer.seal(answer: text, context: context, cipher: keyring.cipher)
            } catch {
                throw .crypto(error)
            }
            row = try pending.insert(coupleId: couple.id, dateKey: day.date, questionId: day.questionId, sealed: sealed, now: now())
        }
        try await upload(row, userId: userId)
        // What `status` would now say, without asking again: the partner's key is not released before ours.
        let partnerAnswered = day.answers.contains { $0.userId != userId }
        return CloserDay(date: day.date, questionId: day.questionId, questionText: day.question?.text,
                         state: partnerAnswered ? .partnerAnswered : .waitingForPartner)
    }

    /// Uploads a pending row's sealed answer (schemaVersion 3) and marks it uploaded.
    func upload(_ row: PendingAnswerKey, userId: String) async throws(CloserKitError) {
        let body = Components.Schemas.CloserAnswerCreate(
            schemaVersion: ._3, encryptedPayload: row.payload, commitmentHash: row.commitment, commitmentSeal: row.commitmentSeal)
        let output = try await call { [app] in
            try await $0.createCloserAnswer(path: .init(coupleId: row.coupleId, date: row.dateKey, userId: userId),
                                            headers: .init(xKindredApp: app), body: .json(body))
        }
        guard case .created = output else { throw Self.failure(output) }
        try pending.advance(coupleId: row.coupleId, dateKey: row.dateKey, to: .uploaded, now: now())
    }
}
