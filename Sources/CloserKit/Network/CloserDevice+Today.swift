import Foundation
import CloserAPI
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
    /// The caller's couple: the one this device remembers (`cache`), or the server's.
    /// - Throws: `.noCouple` when the account is in none.
    public func couple() async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        if let cached = cache.couple { return cached }
        return try await freshCouple()
    }

    /// The caller's couple as the server holds it now (remembered afterwards).
    /// - Throws: `.noCouple` when the account is in none.
    public func freshCouple() async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        let output = try await call { [app] in try await $0.getMyCloserCouple(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let ok):
            guard case .json(let couple) = ok.body else { throw .invalidServerData("no couple") }
            cache.couple = couple
            return couple
        default:
            let failure = Self.failure(output)
            if case .client(let error) = failure, error.serverCode == "not_paired" {
                cache.invalidate()
                throw .noCouple
            }
            throw failure
        }
    }

    /// Reads the couple and both members' device keys from the server into the cache (as an
    /// app does when it opens, or on a realtime change of the couple).
    public func refreshCache() async throws(CloserKitError) {
        cache.invalidate()
        let couple = try await freshCouple()
        for userId in couple.userIds { _ = try await devices(of: userId) }
    }

    /// Runs `body` with the couple. When the couple came from the cache and the server answers
    /// 404 or 409 (the couple is gone or changed), forgets the cache and runs `body` once more
    /// with the server's couple.
    func withCouple<T>(_ body: (Components.Schemas.CloserCouple) async throws(CloserKitError) -> T) async throws(CloserKitError) -> T {
        guard let cached = cache.couple else { return try await body(try await freshCouple()) }
        do throws(CloserKitError) {
            return try await body(cached)
        } catch {
            guard case .client(.server(let status, _, _)) = error, status == 404 || status == 409 else { throw error }
            cache.invalidate()
            return try await body(try await freshCouple())
        }
    }

    /// The couple's current daily question, asking the server to assign one on demand when none is.
    /// - Parameter deviceId: also return the keyboxes addressed to this device (`releaseKeys`).
    public func currentQuestion(
        of couple: Components.Schemas.CloserCouple, deviceId: String? = nil
    ) async throws(CloserKitError) -> Components.Schemas.CloserDailyQuestion {
        let output = try await call { [app] in
            try await $0.getCloserToday(path: .init(coupleId: couple.id), query: .init(deviceId: deviceId), headers: .init(xKindredApp: app))
        }
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
        let deviceId = try deviceKey().deviceId
        return try await withCouple { couple throws(CloserKitError) in
            try await status(of: try await currentQuestion(of: couple, deviceId: deviceId), couple: couple).day
        }
    }

    /// Seals and uploads an answer to today's question. The sealed answer and its one-time key
    /// are stored before the upload; a row left by a crash is uploaded again instead.
    /// - Returns: the date answered.
    /// - Throws: `.alreadyAnswered`, `.notPaired`, client errors (`answers_closed`, …).
    @discardableResult
    public func answer(_ text: String) async throws(CloserKitError) -> CloserDay {
        guard !text.isEmpty else { throw .invalidInput("the answer is empty") }
        return try await withCouple { couple throws(CloserKitError) in try await answer(text, couple: couple) }
    }

    private func answer(_ text: String, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> CloserDay {
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

    /// Uploads a pending row's sealed answer or thread message (schemaVersion 3) and marks it uploaded.
    func upload(_ row: PendingAnswerKey, userId: String) async throws(CloserKitError) {
        if let threadId = row.threadId {
            let body = Components.Schemas.CloserThreadMessageCreate(
                schemaVersion: ._3, encryptedPayload: row.payload, commitmentHash: row.commitment, commitmentSeal: row.commitmentSeal)
            let output = try await call { [app] in
                try await $0.createCloserThreadMessage(path: .init(coupleId: row.coupleId, threadId: threadId, userId: userId),
                                                       headers: .init(xKindredApp: app), body: .json(body))
            }
            guard case .created = output else { throw Self.failure(output) }
            try pending.advance(coupleId: row.coupleId, dateKey: row.dateKey, to: .uploaded, now: now())
            return
        }
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
