import KindredCrypto

/// Decides the reveal's next state and the one step this device should take, from what the
/// server returned and what the device keeps (no I/O: `CloserDevice.reveal` runs the steps).
public enum RevealMachine {
    /// What the server says about one date, and who is asking.
    public struct Inputs: Sendable {
        /// Couple, question and the two users.
        public let coupleId: String, questionId: String, userId: String, partnerId: String
        /// This device's row for the date, if it sealed the answer.
        public let pending: PendingAnswerKey?
        /// This account's answer on the server.
        public let mine: SealedDocument?
        /// Whether the partner's answer exists (visible at once).
        public let partnerAnswered: Bool
        /// The partner's answer (visible once both answered).
        public let partner: SealedDocument?
        /// Whether this account has released its key (`answerKeyReleased`).
        public let released: Bool
        /// The partner's keybox addressed to this device, once released.
        public let keyboxForMe: String?

        /// Inputs from their parts.
        public init(coupleId: String, questionId: String, userId: String, partnerId: String, pending: PendingAnswerKey?,
                    mine: SealedDocument?, partnerAnswered: Bool, partner: SealedDocument?, released: Bool, keyboxForMe: String?) {
            self.coupleId = coupleId
            self.questionId = questionId
            self.userId = userId
            self.partnerId = partnerId
            self.pending = pending
            self.mine = mine
            self.partnerAnswered = partnerAnswered
            self.partner = partner
            self.released = released
            self.keyboxForMe = keyboxForMe
        }
    }

    /// The step the device should take next.
    public enum Action: Equatable, Sendable {
        /// Nothing to do now (a final state, or waiting for the partner).
        case none
        /// Upload the sealed answer kept in the pending row (again: a crash came before the server had it).
        case uploadAnswer
        /// Wrap the one-time key to every device of the partner and of this account, and upload.
        case releaseKey
    }

    /// The state and the next step; opens both answers as soon as the partner's keybox has
    /// arrived — before this device releases its own key, when the partner released first
    /// (`revealed` with `.releaseKey`: release, then show).
    /// - Parameters:
    ///   - inputs: the server's view and the local row.
    ///   - oneTimeKey: the key of this account's answer: the local row's (`PendingKeyStore.oneTimeKey(of:)`),
    ///     or the one another of this account's devices released to this one.
    ///   - device: this device's key pair (opens the partner's keybox).
    ///   - keyring: the couple's keys (checks commitment seals).
    public static func evaluate(_ inputs: Inputs, oneTimeKey: [UInt8]?, device: DeviceKey, keyring: CoupleKeyring) -> (RevealState, Action) {
        guard let mine = inputs.mine else {
            return (.unanswered, inputs.pending?.stage == .sealed ? .uploadAnswer : .none)
        }
        if let pending = inputs.pending {
            let sealed = SealedDocument(payload: pending.payload, commitment: pending.commitment, commitmentSeal: pending.commitmentSeal)
            guard sealed == mine else { return (.tampered("the server's copy of your answer is not what this device sealed"), .none) }
        }
        guard inputs.partnerAnswered else { return (.waitingForPartner, .none) }
        guard let oneTimeKey else {
            if !inputs.released || inputs.keyboxForMe != nil {
                return (.failed("this device does not hold the key of your answer (it was sealed on another device)"), .none)
            }
            return (.releasingKeys, .none)
        }
        // The partner released first: open (and check) before releasing, so a tampered answer
        // is reported without this device's key ever leaving it.
        if let keybox = inputs.keyboxForMe {
            guard let partner = inputs.partner else { return (.failed("the server did not return the partner's answer"), .none) }
            let state = open(inputs, mine: mine, partner: partner, keybox: keybox, oneTimeKey: oneTimeKey, device: device, keyring: keyring)
            if case .revealed = state, !inputs.released { return (state, .releaseKey) }
            return (state, .none)
        }
        return inputs.released ? (.releasingKeys, .none) : (.partnerAnswered, .releaseKey)
    }

    static func open(_ inputs: Inputs, mine: SealedDocument, partner: SealedDocument, keybox: String, oneTimeKey: [UInt8],
                     device: DeviceKey, keyring: CoupleKeyring) -> RevealState {
        let mineText: String
        do {
            let context = try SealedAnswerContext(coupleId: inputs.coupleId, questionId: inputs.questionId, userId: inputs.userId)
            mineText = try SealedAnswer.open(payload: mine.payload, commitment: mine.commitment, commitmentSeal: mine.commitmentSeal,
                                             oneTimeKey: oneTimeKey, context: context, cipher: keyring.cipher)
        } catch {
            return .tampered("your own answer does not open or match its commitment (\(error))")
        }
        let partnerKey: [UInt8]
        let keyboxContext: KeyboxContext
        do {
            keyboxContext = try KeyboxContext(coupleId: inputs.coupleId, questionId: inputs.questionId,
                                              senderUserId: inputs.partnerId, recipientUserId: inputs.userId)
            partnerKey = try Keybox.unwrap(keybox, recipient: device.decrypter, context: keyboxContext)
        } catch {
            return .tampered("the partner's released key does not open for this device (\(error))")
        }
        do {
            let partnerText = try SealedAnswer.open(payload: partner.payload, commitment: partner.commitment,
                                                    commitmentSeal: partner.commitmentSeal, oneTimeKey: partnerKey,
                                                    context: keyboxContext.sealedAnswerContext, cipher: keyring.cipher)
            return .revealed(mine: mineText, partner: partnerText)
        } catch .commitmentMismatch {
            return .tampered("the partner's answer does not match its commitment or commitment seal")
        } catch .authenticationFailed {
            return .tampered("the partner's answer does not open with the released key")
        } catch {
            return .failed("the partner's answer cannot be read (\(error))")
        }
    }
}
