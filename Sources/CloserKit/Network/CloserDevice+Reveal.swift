import Foundation
import CloserAPI
import KindredClient
import KindredCrypto

extension CloserDevice {
    /// One date evaluated by the reveal machine, with what is needed to take its next step.
    struct Evaluation {
        let day: CloserDay
        let action: RevealMachine.Action
        let row: PendingAnswerKey?
        let userId: String
        let partnerId: String
        let mine: Components.Schemas.CloserAnswer?
    }

    /// Runs the reveal for today's question (or `date`): uploads an answer a crash left behind,
    /// releases this device's one-time key to every device of the partner and to this account's
    /// other devices, and opens both answers once the partner's key has arrived — checking
    /// every commitment and commitment seal.
    /// - Returns: the date with its state (`revealed`, or where it waits, `tampered`, `failed`).
    ///
    /// Round trips: one read of the date (with the keyboxes for this device) and one write — the
    /// release (recording `isRevealed` with it when the partner's answer already opened), or the
    /// `isRevealed` update when this device released earlier. Device lists come from the cache.
    public func reveal(date: String? = nil) async throws(CloserKitError) -> CloserDay {
        try await withCouple { couple throws(CloserKitError) in try await reveal(couple: couple, date: date) }
    }

    private func reveal(couple: Components.Schemas.CloserCouple, date: String?) async throws(CloserKitError) -> CloserDay {
        let deviceId = try deviceKey().deviceId
        for _ in 0..<4 {
            let day = try await dailyQuestion(of: couple, date: date, deviceId: deviceId)
            let evaluation = try await status(of: day, couple: couple)
            switch evaluation.action {
            case .uploadAnswer:
                guard let row = evaluation.row else { return evaluation.day }
                try await upload(row, userId: evaluation.userId)
            case .releaseKey:
                guard let row = evaluation.row else { return evaluation.day }
                let opened = if case .revealed = evaluation.day.state { true } else { false }
                try await release(row, userId: evaluation.userId, partnerId: evaluation.partnerId, isRevealed: opened)
                if opened { return evaluation.day }
                // The partner's key had not arrived when the date was read: it is this device's turn to wait.
                return CloserDay(date: day.date, questionId: day.questionId, questionText: day.question?.text, state: .releasingKeys)
            case .none:
                if case .revealed = evaluation.day.state, evaluation.mine?.isRevealed != true {
                    try await markRevealed(couple: couple, date: day.date, userId: evaluation.userId)
                }
                return evaluation.day
            }
        }
        return try await status(of: try await dailyQuestion(of: couple, date: date, deviceId: deviceId), couple: couple).day
    }

    /// Past dates, newest first, each opened as far as the keys allow.
    /// - Parameter limit: at most this many dates (one page).
    public func history(limit: Int = 30) async throws(CloserKitError) -> [CloserDay] {
        try await withCouple { couple throws(CloserKitError) in try await history(couple: couple, limit: limit) }
    }

    private func history(couple: Components.Schemas.CloserCouple, limit: Int) async throws(CloserKitError) -> [CloserDay] {
        let output = try await call { [app] in
            try await $0.listCloserHistory(path: .init(coupleId: couple.id), query: .init(limit: limit), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
        var days: [CloserDay] = []
        for day in page.days { days.append(try await status(of: day, couple: couple).day) }
        return days
    }

    /// The current question, or the question of `date`, with the keyboxes for `deviceId`.
    func dailyQuestion(
        of couple: Components.Schemas.CloserCouple, date: String?, deviceId: String
    ) async throws(CloserKitError) -> Components.Schemas.CloserDailyQuestion {
        guard let date else { return try await currentQuestion(of: couple, deviceId: deviceId) }
        let output = try await call { [app] in
            try await $0.getCloserDay(path: .init(coupleId: couple.id, date: date), query: .init(deviceId: deviceId), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let day) = ok.body else { throw Self.failure(output) }
        return day
    }

    /// Evaluates one date: reads the local row and, once both answered and either has released,
    /// the keyboxes for this device (from the date's `releaseKeys` when the server sent them).
    func status(of day: Components.Schemas.CloserDailyQuestion, couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Evaluation {
        let userId = try await userId()
        guard let partnerId = couple.userIds.first(where: { $0 != userId }) else { throw .invalidServerData("the couple has no partner") }
        let device = try deviceKey()
        let keyring = try keyring()
        let mine = day.answers.first { $0.userId == userId }
        let partner = day.answers.first { $0.userId == partnerId }
        let row = try pending.find(coupleId: couple.id, dateKey: day.date)
        let released = mine?.answerKeyReleased == true
        var keybox: String?
        var ownKey = try row.map { (row) throws(CloserKitError) in try pending.oneTimeKey(of: row) }
        if let partner, !partner.contentWithheld, released || partner.answerKeyReleased == true {
            let boxes: [Components.Schemas.CloserReleaseKey]
            if let included = day.releaseKeys { boxes = included } else { boxes = try await keyboxes(couple: couple, date: day.date, device: device) }
            keybox = boxes.first { $0.senderUserId == partnerId }?.encryptedAnswerKey
            // Sealed on another of this account's devices: that device released the key to this one too.
            if ownKey == nil, let own = boxes.first(where: { $0.senderUserId == userId }) {
                ownKey = try? Keybox.unwrap(own.encryptedAnswerKey, recipient: device.decrypter,
                                            context: KeyboxContext(coupleId: couple.id, questionId: day.questionId, senderUserId: userId, recipientUserId: userId))
            }
        }
        let inputs = RevealMachine.Inputs(
            coupleId: couple.id, questionId: day.questionId, userId: userId, partnerId: partnerId, pending: row,
            mine: mine.flatMap(Self.document), partnerAnswered: partner != nil, partner: partner.flatMap(Self.document),
            released: released, keyboxForMe: keybox)
        var (state, action) = RevealMachine.evaluate(inputs, oneTimeKey: ownKey, device: device, keyring: keyring)
        if let mine, Self.document(mine) == nil {
            (state, action) = (.failed("your answer for \(day.date) is not a sealed answer (schemaVersion \(mine.schemaVersion.rawValue))"), .none)
        }
        return Evaluation(day: CloserDay(date: day.date, questionId: day.questionId, questionText: day.question?.text, state: state),
                          action: action, row: row, userId: userId, partnerId: partnerId, mine: mine)
    }

    /// The keyboxes addressed to this device for one date.
    func keyboxes(couple: Components.Schemas.CloserCouple, date: String, device: DeviceKey) async throws(CloserKitError) -> [Components.Schemas.CloserReleaseKey] {
        let output = try await call { [app] in
            try await $0.listCloserDayReleaseKeys(path: .init(coupleId: couple.id, date: date), query: .init(deviceId: device.deviceId),
                                                  headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
        return list.keys
    }

    /// Wraps the row's one-time key to every device of the partner and to this account's other
    /// devices (the cached device lists), uploads the keyboxes, and marks the row released. A
    /// `release_key_exists` answer (keys sent before a crash) counts as released. Devices the
    /// server names in `missingRecipients` (registered since the lists were read) get their
    /// keyboxes in a second upload; a device the server no longer knows makes the device read the
    /// lists again and retry once.
    /// - Parameter isRevealed: record `isRevealed` with the release (the partner's answer opened already).
    func release(_ row: PendingAnswerKey, userId: String, partnerId: String, isRevealed: Bool = false) async throws(CloserKitError) {
        let oneTimeKey = try pending.oneTimeKey(of: row)
        let device = try deviceKey()
        for attempt in 0..<2 {
            let cached = cache.devices(of: partnerId) != nil && cache.devices(of: userId) != nil
            let recipients = try await devices(of: partnerId) + devices(of: userId).filter { $0.deviceId != device.deviceId }
            do throws(CloserKitError) {
                guard recipients.contains(where: { $0.userId == partnerId }) else {
                    throw .invalidServerData("your partner has no device key yet; ask them to open Closer once")
                }
                let missing = try await uploadKeys(try Self.keyboxes(oneTimeKey, row: row, from: userId, to: recipients),
                                                   row: row, userId: userId, device: device, isRevealed: isRevealed)
                if !missing.isEmpty {
                    cache.invalidateDevices()
                    _ = try await uploadKeys(try Self.keyboxes(oneTimeKey, row: row, from: userId, to: missing),
                                             row: row, userId: userId, device: device, isRevealed: isRevealed)
                }
                try pending.advance(coupleId: row.coupleId, dateKey: row.dateKey, to: .released, now: now())
                return
            } catch {
                let stale: Bool
                switch error {
                case .invalidServerData: stale = true
                case .client(let client): stale = client.serverCode == "invalid_release_key"
                default: stale = false
                }
                guard cached, stale, attempt == 0 else { throw error }
                cache.invalidateDevices()
            }
        }
    }

    /// One keybox of `oneTimeKey` per recipient device.
    static func keyboxes(
        _ oneTimeKey: [UInt8], row: PendingAnswerKey, from userId: String, to recipients: [Components.Schemas.CloserDeviceKey]
    ) throws(CloserKitError) -> [Components.Schemas.CloserReleaseKeyUpload] {
        do {
            return try recipients.map { recipient in
                let context = try KeyboxContext(coupleId: row.coupleId, questionId: row.questionId, senderUserId: userId, recipientUserId: recipient.userId)
                let keybox = try Keybox.wrap(oneTimeKey: oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(recipient.publicKey), context: context)
                return .init(recipientDeviceId: recipient.deviceId, recipientUserId: recipient.userId, encryptedAnswerKey: keybox)
            }
        } catch let error as KindredCryptoError {
            throw .crypto(error)
        } catch {
            throw .invalidServerData("a device key cannot be used: \(error)")
        }
    }

    /// Uploads keyboxes for a daily answer or a thread message.
    /// - Returns: the registered devices still without a keybox (`missingRecipients`).
    func uploadKeys(
        _ keys: [Components.Schemas.CloserReleaseKeyUpload], row: PendingAnswerKey, userId: String, device: DeviceKey, isRevealed: Bool
    ) async throws(CloserKitError) -> [Components.Schemas.CloserDeviceKey] {
        let body = Components.Schemas.CloserReleaseKeysUpload(keys: keys, senderDeviceId: device.deviceId)
        let failure: CloserKitError
        if let threadId = row.threadId {
            let output = try await call { [app] in
                try await $0.createCloserThreadReleaseKeys(path: .init(coupleId: row.coupleId, threadId: threadId, userId: userId),
                                                           headers: .init(xKindredApp: app), body: .json(body))
            }
            if case .created(let created) = output, case .json(let list) = created.body { return list.missingRecipients ?? [] }
            failure = Self.failure(output)
        } else {
            var answerBody = body
            answerBody.isRevealed = isRevealed ? true : nil
            let sent = answerBody
            let output = try await call { [app] in
                try await $0.createCloserAnswerReleaseKeys(path: .init(coupleId: row.coupleId, date: row.dateKey, userId: userId),
                                                           headers: .init(xKindredApp: app), body: .json(sent))
            }
            if case .created(let created) = output, case .json(let list) = created.body { return list.missingRecipients ?? [] }
            failure = Self.failure(output)
        }
        guard case .client(let error) = failure, error.serverCode == "release_key_exists" else { throw failure }
        return []
    }

    /// A user's published device keys: the cached list, or the server's (then cached).
    func devices(of userId: String) async throws(CloserKitError) -> [Components.Schemas.CloserDeviceKey] {
        if let cached = cache.devices(of: userId) { return cached }
        let output = try await call { [app] in
            try await $0.listCloserDeviceKeys(path: .init(userId: userId), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
        cache.setDevices(list.devices, of: userId)
        return list.devices
    }

    /// Sets `isRevealed` on this account's answer.
    func markRevealed(couple: Components.Schemas.CloserCouple, date: String, userId: String) async throws(CloserKitError) {
        let output = try await call { [app] in
            try await $0.updateCloserAnswerReveal(path: .init(coupleId: couple.id, date: date, userId: userId),
                                                  headers: .init(xKindredApp: app), body: .json(.init(isRevealed: true)))
        }
        guard case .ok = output else { throw Self.failure(output) }
    }

    /// The sealed strings of an answer, when it is a complete sealed answer.
    static func document(_ answer: Components.Schemas.CloserAnswer) -> SealedDocument? {
        guard answer.schemaVersion == ._3, let payload = answer.encryptedPayload, let commitment = answer.commitmentHash,
              let seal = answer.commitmentSeal else { return nil }
        return SealedDocument(payload: payload, commitment: commitment, commitmentSeal: seal)
    }
}
