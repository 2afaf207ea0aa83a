import CloserAPI
import Foundation
import KindredCrypto

/// A whole game on one device: builds and seals this account's slot, commits, keeps the opening
/// until the partner has committed, opens, runs Desire Sync's second round, and computes the
/// result from both opened slots (docs/closer.md, "Games").
///
/// What must survive between commands (the openings, Desire Sync's secret scalar and set) is
/// kept in `directory`, one JSON file per session, readable only by the owner. Openings are
/// ciphertext under the couple key; the scalar only unblinds this session's sets.
public struct GamePlay: Sendable {
    /// The device.
    public let device: CloserDevice
    /// Where sessions' local state is kept.
    public let directory: URL

    /// Creates a player.
    public init(device: CloserDevice, directory: URL) {
        self.device = device
        self.directory = directory
    }

    /// What this device keeps about a session.
    struct LocalState: Codable {
        var openings: [String: GameOpening] = [:]
        var psiSecret: String?
        var psiItems: [String]?
    }

    /// The outcome of a session so far.
    public struct Result: Sendable, Codable, Equatable {
        /// The session.
        public var sessionId: String
        /// Its game.
        public var kind: String
        /// `committing`, `opening` or `finished`.
        public var status: String
        /// What the session waits on, when not finished.
        public var waitingFor: String?
        /// This or That and How Well.
        public var score: GameRules.Score?
        /// Desire Sync: the items both lean yes to.
        public var overlap: [String]?
        /// Desire Sync: how many items the partner leaned yes to.
        public var partnerSetSize: Int?
        /// Spin the Wheel: the winning item's index and prompt.
        public var wheelIndex: Int?
        /// The winning item's prompt (wheel), for display.
        public var wheelItem: String?
    }

    /// Seals this account's round-1 slot (the game's fields in `content`), commits, and opens
    /// at once if the partner has committed.
    /// - Parameters:
    ///   - sessionId: The session.
    ///   - choices/role/yes: The game's answer (see `GameSlotContent`); `yes` for Desire Sync.
    public func answer(_ sessionId: String, choices: [Int]? = nil, role: String? = nil, yes: [String]? = nil) async throws(CloserKitError) -> Result {
        let session = try await device.gameSession(sessionId)
        let me = try await device.userId()
        let couple = try await device.couple()
        let cipher = try device.keyring().cipher
        var state = try load(sessionId)
        var content = GameSlotContent(sessionId: sessionId, userId: me, round: 1, choices: choices, role: role)
        switch session.kind {
        case .wheel:
            content.share = Base64.encode(SecureRandom.bytes(32), alphabet: .standard)
        case .desireSync:
            let pack = try await device.gamePack(session.packId)
            let psi = try DesireSyncPSI(packID: pack.id, items: yes ?? [], packItemIDs: (pack.items ?? []).map(\.id))
            content.blinded = try psi.round1()
            state.psiSecret = Base64.encode(psi.secretRepresentation, alphabet: .standard)
            state.psiItems = psi.items
        case .thisOrThat, .howWell:
            let pack = try await device.gamePack(session.packId)
            guard let choices, choices.count == pack.itemCount else {
                throw .invalidInput("answer all \(pack.itemCount) items of \(pack.id) (got \(choices?.count ?? 0))")
            }
            if session.kind == .howWell, !["self", "guess"].contains(role ?? "") { throw .invalidInput("How Well needs --role self or --role guess") }
            for (index, item) in (pack.items ?? []).enumerated() where !(0..<(item.options?.count ?? 0)).contains(choices[index]) {
                throw .invalidInput("item \(index + 1) (\(item.id)) has \(item.options?.count ?? 0) options")
            }
        }
        let opening = try GameOpening.seal(content, cipher: cipher, coupleID: couple.id)
        state.openings["1"] = opening
        try save(sessionId, state)
        _ = try await device.commitGameSlot(sessionId, round: 1, commitment: opening.commitment)
        return try await result(sessionId)
    }

    /// Moves the session on as far as this device can (opens pending slots, plays Desire Sync's
    /// round 2) and computes the result once both slots of every round are open.
    public func result(_ sessionId: String) async throws(CloserKitError) -> Result {
        let me = try await device.userId()
        let couple = try await device.couple()
        let cipher = try device.keyring().cipher
        var session = try await device.gameSession(sessionId)
        var state = try load(sessionId)
        for _ in 0..<4 {
            let round = session.round
            let mine = session.slots.first { $0.userId == me && $0.round == round }
            let theirs = session.slots.first { $0.userId != me && $0.round == round }
            if mine == nil, round == 2, session.kind == .desireSync {
                let partner = try partnerContent(session, round: 1, me: me, cipher: cipher, coupleID: couple.id)
                let pack = try await device.gamePack(session.packId)
                let psi = try restorePSI(state, pack: pack)
                let content = GameSlotContent(
                    sessionId: sessionId, userId: me, round: 2,
                    doubleBlinded: try psi.round2(partner: partner.blinded ?? [], packSize: pack.itemCount)
                )
                let opening = try GameOpening.seal(content, cipher: cipher, coupleID: couple.id)
                state.openings["2"] = opening
                try save(sessionId, state)
                session = try await device.commitGameSlot(sessionId, round: 2, commitment: opening.commitment)
                continue
            }
            if let mine, !mine.opened, theirs != nil, let opening = state.openings[String(round)] {
                session = try await device.openGameSlot(sessionId, round: round, opening: opening)
                continue
            }
            break
        }
        var result = Result(sessionId: sessionId, kind: session.kind.rawValue, status: session.status.rawValue)
        guard session.status == .finished else {
            let mine = session.slots.first { $0.userId == me && $0.round == session.round }
            result.waitingFor = mine == nil ? "you" : "your partner"
            return result
        }
        let own = try ownContent(state, session: session)
        let partner = try partnerContent(session, round: 1, me: me, cipher: cipher, coupleID: couple.id)
        switch session.kind {
        case .thisOrThat:
            let pack = try await device.gamePack(session.packId)
            result.score = try GameRules.thisOrThat(itemIDs: (pack.items ?? []).map(\.id), own.choices ?? [], partner.choices ?? [])
        case .howWell:
            let pack = try await device.gamePack(session.packId)
            let roles = try GameRules.howWellRoles(own, partner)
            result.score = try GameRules.howWell(
                itemIDs: (pack.items ?? []).map(\.id), optionCounts: (pack.items ?? []).map { $0.options?.count ?? 0 },
                subject: roles.subject.choices ?? [], guesser: roles.guesser.choices ?? []
            )
        case .wheel:
            let pack = try await device.gamePack(session.packId)
            var shares: [String: [UInt8]] = [:]
            for content in [own, partner] {
                guard let text = content.share, let share = try? Base64.decode(text, alphabet: .standard) else { throw .tampered("a wheel slot has no share") }
                shares[content.userId] = share
            }
            let index = try GameRules.wheel(shares: shares, count: pack.itemCount)
            result.wheelIndex = index
            result.wheelItem = pack.items?[index].prompt
        case .desireSync:
            let pack = try await device.gamePack(session.packId)
            let psi = try restorePSI(state, pack: pack)
            let partnerRound2 = try partnerContent(session, round: 2, me: me, cipher: cipher, coupleID: couple.id)
            result.overlap = try psi.overlap(
                partnerRound1: partner.blinded ?? [], partnerRound2: partnerRound2.doubleBlinded ?? [], packSize: pack.itemCount
            )
            result.partnerSetSize = partner.blinded?.count
        }
        return result
    }

    private func partnerContent(
        _ session: Components.Schemas.CloserGameSession, round: Int, me: String, cipher: CloserFieldCipher, coupleID: String
    ) throws(CloserKitError) -> GameSlotContent {
        guard let slot = session.slots.first(where: { $0.userId != me && $0.round == round }),
            let ciphertext = slot.ciphertext, let nonce = slot.nonce, let commitment = slot.commitment
        else { throw .invalidServerData("the partner's round \(round) is not served yet") }
        return try GameOpening.open(
            ciphertext: ciphertext, nonce: nonce, commitment: commitment, sessionID: session.id, userID: slot.userId, round: round,
            cipher: cipher, coupleID: coupleID
        )
    }

    private func ownContent(_ state: LocalState, session: Components.Schemas.CloserGameSession) throws(CloserKitError) -> GameSlotContent {
        guard let opening = state.openings["1"] else { throw .invalidInput("this device did not play session \(session.id)") }
        let keyring = try device.keyring()
        let couple = session.coupleId
        do {
            return try JSONDecoder().decode(GameSlotContent.self, from: Data(try keyring.cipher.decrypt(opening.ciphertext, coupleId: couple)))
        } catch let error as KindredCryptoError {
            throw .crypto(error)
        } catch {
            throw .invalidInput("this device's saved slot is unreadable")
        }
    }

    private func restorePSI(_ state: LocalState, pack: Components.Schemas.CloserGamePack) throws(CloserKitError) -> DesireSyncPSI {
        guard let text = state.psiSecret, let secret = try? Base64.decode(text, alphabet: .standard) else {
            throw .invalidInput("this device did not play the first round of this Desire Sync")
        }
        return try DesireSyncPSI(packID: pack.id, items: state.psiItems ?? [], packItemIDs: (pack.items ?? []).map(\.id), secret: secret)
    }

    private func file(_ sessionId: String) throws(CloserKitError) -> URL {
        guard sessionId.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || $0 == 0x2D }), !sessionId.isEmpty else {
            throw .invalidInput("\(sessionId) is not a session id")
        }
        return directory.appendingPathComponent("\(sessionId).json")
    }

    private func load(_ sessionId: String) throws(CloserKitError) -> LocalState {
        let url = try file(sessionId)
        guard let data = try? Data(contentsOf: url) else { return LocalState() }
        guard let state = try? JSONDecoder().decode(LocalState.self, from: data) else { throw .pendingStore("\(url.path) is damaged") }
        return state
    }

    private func save(_ sessionId: String, _ state: LocalState) throws(CloserKitError) {
        let url = try file(sessionId)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try JSONEncoder().encode(state).write(to: url, options: .atomic)
            try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
        } catch {
            throw .pendingStore("cannot save \(url.path): \(error)")
        }
    }
}
