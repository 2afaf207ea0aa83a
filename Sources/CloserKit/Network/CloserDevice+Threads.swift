import Foundation
import CloserAPI
import KindredClient
import KindredCrypto

/// A thread on a question as this device sees it: one sealed message per member, opened with
/// the same release-key flow as the daily answers.
public struct CloserThreadView: Sendable, Equatable {
    /// The thread's id.
    public let threadId: String
    /// The catalog question the thread is about.
    public let questionId: String
    /// The question's text, when the server sent it.
    public let questionText: String?
    /// Where the exchange stands (`revealed` carries both messages: yours and the partner's).
    public let state: RevealState

    /// The identifier a thread message is sealed under, in the `questionId` slot of the sealed
    /// payload, commitment seal and keybox contexts: `thread:<threadId>:<questionId>`.
    ///
    /// Binding the thread (not only its question) means the server cannot pass a daily answer,
    /// or a message of another thread on the same question, off as this thread's message: it
    /// would fail the payload's context check (`commitmentMismatch`).
    public static func context(threadId: String, questionId: String) -> String {
        "thread:\(threadId):\(questionId)"
    }
}

extension CloserDevice {
    /// Seals a message with a fresh one-time key and posts it to the couple's thread on
    /// `questionId` (starting the thread when there is none). Like an answer, the sealed
    /// message and its key are stored on the device before the upload.
    /// - Returns: the thread, `waitingForPartner` or `partnerAnswered`.
    /// - Throws: `.alreadyPosted`, `.notPaired`, `.noCouple`, `.invalidInput` (empty text),
    ///   client errors (`question_not_found`, …).
    @discardableResult
    public func postThreadMessage(questionId: String, text: String) async throws(CloserKitError) -> CloserThreadView {
        guard !text.isEmpty else { throw .invalidInput("the message is empty") }
        return try await withCouple { couple throws(CloserKitError) in try await postThreadMessage(questionId: questionId, text: text, couple: couple) }
    }

    private func postThreadMessage(
        questionId: String, text: String, couple: Components.Schemas.CloserCouple
    ) async throws(CloserKitError) -> CloserThreadView {
        let keyring = try keyring()
        let userId = try await userId()
        let thread: Components.Schemas.CloserThread
        if let found = try await findThread(on: questionId, couple: couple) {
            thread = found
        } else {
            thread = try await createThread(on: questionId, couple: couple)
        }
        if thread.messages.contains(where: { $0.userId == userId }) { throw .alreadyPosted }
        let key = PendingAnswerKey.threadKey(thread.id)
        let row: PendingAnswerKey
        if let existing = try pending.find(coupleId: couple.id, dateKey: key) {
            row = existing  // sealed before a crash: send the same strings again
        } else {
            let context = CloserThreadView.context(threadId: thread.id, questionId: questionId)
            let sealed: SealedAnswer.Sealed
            do {
                sealed = try SealedAnswer.seal(answer: text, context: SealedAnswerContext(coupleId: couple.id, questionId: context, userId: userId),
                                               cipher: keyring.cipher)
            } catch {
                throw .crypto(error)
            }
            row = try pending.insert(coupleId: couple.id, dateKey: key, questionId: context, sealed: sealed, now: now())
        }
        try await upload(row, userId: userId)
        let partnerPosted = thread.messages.contains { $0.userId != userId }
        return CloserThreadView(threadId: thread.id, questionId: questionId, questionText: thread.question?.text,
                                state: partnerPosted ? .partnerAnswered : .waitingForPartner)
    }

    /// Opens the couple's thread on `questionId`: uploads a message a crash left behind,
    /// releases this device's one-time key to the partner's devices and this account's other
    /// devices once both have posted, and opens both messages when the partner's key has
    /// arrived — checking commitments, commitment seals and that each message names this
    /// thread and its author.
    /// - Returns: the thread with its state (`revealed` with both texts, or where it waits).
    /// - Throws: `.tampered` when a message or keybox does not match what its author sealed;
    ///   `.noThread` when the couple has no thread on the question.
    public func openThread(questionId: String) async throws(CloserKitError) -> CloserThreadView {
        try await withCouple { couple throws(CloserKitError) in try await openThread(questionId: questionId, couple: couple) }
    }

    private func openThread(questionId: String, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> CloserThreadView {
        guard var thread = try await findThread(on: questionId, couple: couple) else { throw .noThread }
        for _ in 0..<4 {
            let (view, action, row, userId, partnerId) = try await status(of: thread, couple: couple)
            if case .tampered(let reason) = view.state { throw .tampered(reason) }
            switch action {
            case .uploadAnswer:
                guard let row else { return view }
                try await upload(row, userId: userId)
            case .releaseKey:
                guard let row else { return view }
                try await release(row, userId: userId, partnerId: partnerId)
                if case .revealed = view.state { return view }
                return CloserThreadView(threadId: view.threadId, questionId: view.questionId, questionText: view.questionText, state: .releasingKeys)
            case .none:
                return view
            }
            thread = try await self.thread(id: thread.id, couple: couple)
        }
        let (view, _, _, _, _) = try await status(of: thread, couple: couple)
        if case .tampered(let reason) = view.state { throw .tampered(reason) }
        return view
    }

    /// Evaluates a thread with the reveal machine, reading the keyboxes for this device once both posted.
    func status(
        of thread: Components.Schemas.CloserThread, couple: Components.Schemas.CloserCouple
    ) async throws(CloserKitError) -> (CloserThreadView, RevealMachine.Action, PendingAnswerKey?, String, String) {
        let userId = try await userId()
        guard let partnerId = couple.userIds.first(where: { $0 != userId }) else { throw .invalidServerData("the couple has no partner") }
        let device = try deviceKey()
        let keyring = try keyring()
        let context = CloserThreadView.context(threadId: thread.id, questionId: thread.questionId)
        let mine = thread.messages.first { $0.userId == userId }
        let partner = thread.messages.first { $0.userId == partnerId }
        let row = try pending.find(coupleId: couple.id, dateKey: PendingAnswerKey.threadKey(thread.id))
        let released = mine?.answerKeyReleased == true
        var keybox: String?
        var ownKey = try row.map { (row) throws(CloserKitError) in try pending.oneTimeKey(of: row) }
        if let partner, !partner.contentWithheld, released || partner.answerKeyReleased {
            let boxes = try await threadKeyboxes(couple: couple, threadId: thread.id, device: device)
            keybox = boxes.first { $0.senderUserId == partnerId }?.encryptedAnswerKey
            if ownKey == nil, let own = boxes.first(where: { $0.senderUserId == userId }) {
                ownKey = try? Keybox.unwrap(own.encryptedAnswerKey, recipient: device.decrypter,
                                            context: KeyboxContext(coupleId: couple.id, questionId: context, senderUserId: userId, recipientUserId: userId))
            }
        }
        let inputs = RevealMachine.Inputs(
            coupleId: couple.id, questionId: context, userId: userId, partnerId: partnerId, pending: row,
            mine: mine.flatMap(Self.document), partnerAnswered: partner != nil, partner: partner.flatMap(Self.document),
            released: released, keyboxForMe: keybox)
        let (state, action) = RevealMachine.evaluate(inputs, oneTimeKey: ownKey, device: device, keyring: keyring)
        let view = CloserThreadView(threadId: thread.id, questionId: thread.questionId, questionText: thread.question?.text, state: state)
        return (view, action, row, userId, partnerId)
    }

    /// The couple's thread on `questionId` — the oldest when both partners started one — or `nil`.
    func findThread(on questionId: String, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Components.Schemas.CloserThread? {
        var cursor: String?
        var found: Components.Schemas.CloserThread?
        repeat {
            let after = cursor
            let output = try await call { [app] in
                try await $0.listCloserThreads(path: .init(coupleId: couple.id), query: .init(limit: 100, cursor: after), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
            // Newest first: the last match is the oldest thread.
            for thread in page.threads where thread.questionId == questionId { found = thread }
            cursor = page.nextCursor
        } while cursor != nil
        return found
    }

    /// Starts a thread on a catalog question.
    func createThread(on questionId: String, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Components.Schemas.CloserThread {
        let output = try await call { [app] in
            try await $0.createCloserThread(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(.init(questionId: questionId)))
        }
        guard case .created(let created) = output, case .json(let thread) = created.body else { throw Self.failure(output) }
        return thread
    }

    /// One thread of the couple.
    func thread(id: String, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Components.Schemas.CloserThread {
        let output = try await call { [app] in
            try await $0.getCloserThread(path: .init(coupleId: couple.id, threadId: id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let thread) = ok.body else { throw Self.failure(output) }
        return thread
    }

    /// The keyboxes of a thread addressed to this device.
    func threadKeyboxes(couple: Components.Schemas.CloserCouple, threadId: String, device: DeviceKey) async throws(CloserKitError) -> [Components.Schemas.CloserReleaseKey] {
        let output = try await call { [app] in
            try await $0.listCloserThreadReleaseKeys(path: .init(coupleId: couple.id, threadId: threadId), query: .init(deviceId: device.deviceId),
                                                     headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
        return list.keys
    }

    /// The sealed strings of a thread message, when it is complete and visible.
    static func document(_ message: Components.Schemas.CloserThreadMessage) -> SealedDocument? {
        guard let payload = message.encryptedPayload, let commitment = message.commitmentHash, let seal = message.commitmentSeal else { return nil }
        return SealedDocument(payload: payload, commitment: commitment, commitmentSeal: seal)
    }
}
