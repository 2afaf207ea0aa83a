import CloserAPI
import CloserKit
import Foundation
import KindredClient
import KindredCrypto
import Synchronization

/// One couple's answer-and-reveal cycle with every device-side result computed before the clock:
/// both sealed answers (payload, commitment, commitment seal, one-time key) and each partner's
/// keyboxes to the other's devices. The timed phase only sends them.
struct PreparedCycle: Sendable {
    let coupleID: String
    let date: String
    let questionID: String
    let alice: Side
    let bob: Side

    /// One partner's part: identity, device, generated client and what they send.
    struct Side: Sendable {
        let userID: String
        let deviceID: String
        let text: String
        let sealed: SealedAnswer.Sealed
        /// `keybox:v1:` of `sealed.oneTimeKey` to every device of the partner.
        let keys: [Components.Schemas.CloserReleaseKeyUpload]
        let session: KindredSession
        let client: CloserAPI.Client
    }
}

/// Server-capacity cycles for `scripts/bench-closer`: sealing, commitment seals and keyboxes
/// before the clock (`prepare`), the ten requests of CloserKit's cycle timed (`play`), and each
/// device opening and checking the partner's answer from the server's copy after it (`check`).
enum PreparedCycles {
    /// HTTP requests sent in the timed phase (all devices).
    static let requests = Atomic<Int>(0)

    /// Seals both answers to the couple's current question and wraps each one-time key to the
    /// partner's published devices, as `CloserDevice.answer` and `release` would.
    static func prepare(_ alice: CloserDevice, _ bob: CloserDevice, index: Int) async throws -> PreparedCycle {
        let couple = try await alice.couple()
        let day = try await alice.today()
        let aliceSide = try await side(alice, partner: bob, coupleID: couple.id, questionID: day.questionId,
                                       text: "alice's answer to the question of the day, couple \(index)")
        let bobSide = try await side(bob, partner: alice, coupleID: couple.id, questionID: day.questionId,
                                     text: "bob's answer to the question of the day, couple \(index)")
        return PreparedCycle(coupleID: couple.id, date: day.date, questionID: day.questionId, alice: aliceSide, bob: bobSide)
    }

    private static func side(_ device: CloserDevice, partner: CloserDevice, coupleID: String, questionID: String,
                             text: String) async throws -> PreparedCycle.Side {
        let userID = try await device.userId()
        let partnerID = try await partner.userId()
        let sealed = try SealedAnswer.seal(answer: text, context: SealedAnswerContext(coupleId: coupleID, questionId: questionID, userId: userID),
                                           cipher: try device.keyring().cipher)
        let client = device.session.closerClient
        let listed = try await device.session.authorizedCall(with: client) {
            try await $0.listCloserDeviceKeys(path: .init(userId: partnerID), headers: .init(xKindredApp: .closer))
        }
        guard case .ok(let ok) = listed, case .json(let list) = ok.body, !list.devices.isEmpty else {
            throw CloserKitError.invalidServerData("no device keys for \(partnerID)")
        }
        let keys = try list.devices.map { recipient in
            let context = try KeyboxContext(coupleId: coupleID, questionId: questionID, senderUserId: userID, recipientUserId: recipient.userId)
            return Components.Schemas.CloserReleaseKeyUpload(
                recipientDeviceId: recipient.deviceId, recipientUserId: recipient.userId,
                encryptedAnswerKey: try Keybox.wrap(oneTimeKey: sealed.oneTimeKey, recipientPublicKeyset: CloserPublicKey.decode(recipient.publicKey),
                                                    context: context))
        }
        return PreparedCycle.Side(userID: userID, deviceID: try device.deviceKey().deviceId, text: text, sealed: sealed, keys: keys,
                                  session: device.session, client: client)
    }

    /// The timed part, CloserKit's request sequence with the prepared strings: A reads today and
    /// answers, B reads today and answers, A reads the date with its keyboxes and releases, B reads
    /// (A's keybox is there) and releases recording `isRevealed`, A reads (B's keybox) and records
    /// `isRevealed` — ten requests, five of them writes.
    static func play(_ cycle: PreparedCycle) async throws {
        let path = Operations.GetCloserToday.Input.Path(coupleId: cycle.coupleID)
        for side in [cycle.alice, cycle.bob] {
            try await today(side, path: path, deviceID: nil, cycle: cycle)
            let body = Components.Schemas.CloserAnswerCreate(schemaVersion: ._3, encryptedPayload: side.sealed.payload,
                                                             commitmentHash: side.sealed.commitment, commitmentSeal: side.sealed.commitmentSeal)
            let output = try await call(side) {
                try await $0.createCloserAnswer(path: .init(coupleId: cycle.coupleID, date: cycle.date, userId: side.userID),
                                                headers: .init(xKindredApp: .closer), body: .json(body))
            }
            guard case .created = output else { throw unexpected("answer", output, cycle) }
        }
        for (side, revealed) in [(cycle.alice, false), (cycle.bob, true)] {
            try await today(side, path: path, deviceID: side.deviceID, cycle: cycle)
            let body = Components.Schemas.CloserReleaseKeysUpload(keys: side.keys, senderDeviceId: side.deviceID, isRevealed: revealed ? true : nil)
            let output = try await call(side) {
                try await $0.createCloserAnswerReleaseKeys(path: .init(coupleId: cycle.coupleID, date: cycle.date, userId: side.userID),
                                                           headers: .init(xKindredApp: .closer), body: .json(body))
            }
            guard case .created = output else { throw unexpected("release", output, cycle) }
        }
        try await today(cycle.alice, path: path, deviceID: cycle.alice.deviceID, cycle: cycle)
        let output = try await call(cycle.alice) {
            try await $0.updateCloserAnswerReveal(path: .init(coupleId: cycle.coupleID, date: cycle.date, userId: cycle.alice.userID),
                                                  headers: .init(xKindredApp: .closer), body: .json(.init(isRevealed: true)))
        }
        guard case .ok = output else { throw unexpected("reveal", output, cycle) }
    }

    /// After the clock: each device reads the date with its keyboxes, unwraps the partner's key,
    /// opens and checks the partner's answer, and finds both answers released and revealed.
    static func check(_ cycle: PreparedCycle, alice: CloserDevice, bob: CloserDevice) async throws {
        for (me, partner, device) in [(cycle.alice, cycle.bob, alice), (cycle.bob, cycle.alice, bob)] {
            let output = try await me.session.authorizedCall(with: me.client) {
                try await $0.getCloserToday(path: .init(coupleId: cycle.coupleID), query: .init(deviceId: me.deviceID),
                                            headers: .init(xKindredApp: .closer))
            }
            guard case .ok(let ok) = output, case .json(let day) = ok.body, day.date == cycle.date else { throw unexpected("check", output, cycle) }
            guard day.answers.count == 2, day.answers.allSatisfy({ $0.isRevealed == true && $0.answerKeyReleased == true }),
                  let answer = day.answers.first(where: { $0.userId == partner.userID }),
                  let payload = answer.encryptedPayload, let commitment = answer.commitmentHash, let seal = answer.commitmentSeal,
                  let keybox = day.releaseKeys?.first(where: { $0.senderUserId == partner.userID })?.encryptedAnswerKey
            else { throw CloserKitError.invalidServerData("couple \(cycle.coupleID): the date is not revealed with both keys") }
            let context = try KeyboxContext(coupleId: cycle.coupleID, questionId: cycle.questionID, senderUserId: partner.userID, recipientUserId: me.userID)
            let key = try Keybox.unwrap(keybox, recipient: try device.deviceKey().decrypter, context: context)
            let text = try SealedAnswer.open(payload: payload, commitment: commitment, commitmentSeal: seal, oneTimeKey: key,
                                             context: context.sealedAnswerContext, cipher: try device.keyring().cipher)
            guard text == partner.text else { throw CloserKitError.tampered("couple \(cycle.coupleID): opened \(text)") }
        }
    }

    private static func today(_ side: PreparedCycle.Side, path: Operations.GetCloserToday.Input.Path, deviceID: String?,
                              cycle: PreparedCycle) async throws {
        let output = try await call(side) {
            try await $0.getCloserToday(path: path, query: .init(deviceId: deviceID), headers: .init(xKindredApp: .closer))
        }
        guard case .ok(let ok) = output, case .json(let day) = ok.body, day.date == cycle.date else { throw unexpected("today", output, cycle) }
    }

    private static func call<Output: Sendable>(
        _ side: PreparedCycle.Side, _ operation: @Sendable (CloserAPI.Client) async throws -> Output
    ) async throws -> Output {
        requests.add(1, ordering: .relaxed)
        return try await side.session.authorizedCall(with: side.client, operation)
    }

    private static func unexpected(_ step: String, _ output: some Sendable, _ cycle: PreparedCycle) -> CloserKitError {
        .invalidServerData("couple \(cycle.coupleID), \(step): unexpected answer \(String(describing: output).prefix(300))")
    }
}

/// The prepared cycles, filled concurrently during setup and read during the timed phase.
final class CycleBox: Sendable {
    private let cycles: Mutex<[PreparedCycle?]>

    /// Room for `count` cycles.
    init(count: Int) { cycles = Mutex(Array(repeating: nil, count: count)) }

    /// Stores couple `index`'s cycle.
    func set(_ index: Int, _ cycle: PreparedCycle) { cycles.withLock { $0[index] = cycle } }

    /// Couple `index`'s cycle. - Throws: when setup did not prepare it.
    func get(_ index: Int) throws -> PreparedCycle {
        guard let cycle = cycles.withLock({ $0[index] }) else { throw CloserKitError.invalidInput("couple \(index) has no prepared cycle") }
        return cycle
    }
}
