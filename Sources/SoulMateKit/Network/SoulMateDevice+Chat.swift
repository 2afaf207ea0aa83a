import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI

/// Which keys a cached pair key was derived from.
struct SharedKeyVersions: Codable, Equatable, Sendable {
    var partnerKeyVersion: Int
    var partnerPublicKey: String
    var myPublicKey: String
}

/// What one `sync` did.
public struct SyncReport: Sendable, Equatable, Codable {
    /// Outgoing messages the server took.
    public var sent: [String] = []
    /// Outgoing messages that failed for good, with the reason.
    public var failed: [String: String] = [:]
    /// Outgoing messages still waiting (the server was unreachable): retried next time.
    public var stillPending: [String] = []
    /// Incoming messages stored on this phone.
    public var received: [String] = []
    /// Incoming envelopes that did not open, kept with the reason (not acknowledged).
    public var undecryptable: [String: String] = [:]
    /// Envelopes the server deleted after this phone stored them.
    public var acknowledged = 0
    /// Whether the pair ended and the conversation was wiped on this phone.
    public var unpaired = false

    public init() {}
}

/// The local-first chat: write locally first, then seal and upload; fetch, decrypt, store,
/// acknowledge.
extension SoulMateDevice {
    /// The pair key for the current partner, from the `crypto.shared.<partnerUID>` cache, or
    /// derived again when the partner's key changed (or `partnerKeyVersion` asks for a newer one).
    public func chatKey(for pair: PairState, partnerKeyVersion wanted: Int? = nil) async throws(SoulMateKitError) -> SoulMateChatKey {
        let identity = try identity()
        let item = try SecureStoreItem.sharedKey(pair.partnerID)
        if let versions = try readJSON(SharedKeyVersions.self, .sharedKeyVersions(pair.partnerID)),
           versions.myPublicKey == identity.publicKeyBase64, wanted == nil || wanted == versions.partnerKeyVersion,
           let bytes = try secure({ () throws(SecureStoreError) in try secureStore.read(item) })
        {
            do { return try SoulMateChatKey(keyBytes: bytes) } catch { throw .crypto(error) }
        }
        let output = try await call { [app] in try await $0.getSoulMatePartnerKey(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let key) = ok.body else {
            let failure = Self.failure(output)
            throw failure.serverCode == "not_paired" ? .notPaired : failure
        }
        guard key.userId == pair.partnerID else { throw .notPaired }
        if let wanted, wanted != key.keyVersion {
            throw .invalidInput("the partner's key version \(wanted) is not the published one (\(key.keyVersion))")
        }
        let chatKey: SoulMateChatKey
        do { chatKey = try SoulMateChatKey(identity: identity, partnerPublicKeyBase64: key.publicKey) } catch { throw .crypto(error) }
        try secure { () throws(SecureStoreError) in try secureStore.write(item, chatKey.keyBytes) }
        try writeJSON(
            SharedKeyVersions(partnerKeyVersion: key.keyVersion, partnerPublicKey: key.publicKey, myPublicKey: identity.publicKeyBase64),
            .sharedKeyVersions(pair.partnerID)
        )
        return chatKey
    }

    /// The pair this phone knows, or the server's.
    func currentPair() async throws(SoulMateKitError) -> PairState {
        if let pair = try rememberedPair() { return pair }
        guard let pair = try await refreshPair() else { throw .notPaired }
        return pair
    }

    /// Writes the message locally (`pendingUpload`) first, then tries to upload it with the rest
    /// of the outbox. The message is kept whatever the network does.
    /// - Returns: the stored message (its state after the upload attempt) and the outbox report.
    public func send(_ content: ChatContent) async throws(SoulMateKitError) -> (message: LocalMessage, report: SyncReport) {
        let payload = try content.payload()
        let pair = try await currentPair()
        let me = try await userID()
        let message = try store.insertOutgoing(payload, chatID: pair.chatID, senderID: me, recipientID: pair.partnerID, sentAt: now())
        var report = SyncReport()
        try await flushOutbox(pair: pair, into: &report)
        return (try store.message(id: message.id) ?? message, report)
    }

    /// Uploads every pending outgoing message, oldest first.
    func flushOutbox(pair: PairState, into report: inout SyncReport) async throws(SoulMateKitError) {
        let pending = try store.pendingUploads(limit: 500)
        guard !pending.isEmpty else { return }
        let key = try await chatKey(for: pair)
        var version = try await myKeyVersion()
        for message in pending {
            guard case .payload(let payload) = message.content else { continue }
            if message.recipientID != pair.partnerID {
                try store.markFailed(id: message.id, reason: "the pair this message was written for has ended", retryable: false, now: now())
                report.failed[message.id] = "not_partner"
                continue
            }
            let ciphertext: String
            do { ciphertext = try key.seal(payload) } catch { throw .crypto(error) }
            var attempt = 0
            while true {
                attempt += 1
                let body = SoulMateAPI.Components.Schemas.SoulMateEnvelopeCreate(
                    id: message.id, recipientId: message.recipientID, sentAt: message.sentAt, keyVersion: version, ciphertext: ciphertext
                )
                do throws(SoulMateKitError) {
                    let output = try await call { [app] in try await $0.sendSoulMateEnvelope(headers: .init(xKindredApp: app), body: .json(body)) }
                    switch output {
                    case .created, .ok:
                        _ = try store.markUploaded(ids: [message.id])
                        report.sent.append(message.id)
                    default:
                        throw Self.failure(output)
                    }
                    break
                } catch let error where error.serverCode == "key_version_mismatch" && attempt == 1 {
                    version = try await publishIdentity()
                    continue
                } catch let error where Self.isPermanent(error) {
                    try store.markFailed(id: message.id, reason: error.description, retryable: false, now: now())
                    report.failed[message.id] = error.serverCode ?? error.description
                    break
                } catch {
                    let attempts = try store.recordAttempt(id: message.id, reason: error.description, now: now())
                    if attempts >= LocalMessageStore.defaultMaxAttempts {
                        try store.markFailed(id: message.id, reason: error.description, retryable: false, now: now())
                        report.failed[message.id] = error.description
                    } else {
                        report.stillPending.append(message.id)
                    }
                    break
                }
            }
        }
    }

    /// A refusal that no retry can change (the server looked at the envelope and said no).
    static func isPermanent(_ error: SoulMateKitError) -> Bool {
        guard case .client(.server(let status, let code, _)) = error else { return false }
        return (400..<500).contains(status) && status != 429 && code != "session_revoked" && code != "token_expired"
    }

    /// The whole exchange with the server: the outbox, then every waiting envelope — opened,
    /// stored and acknowledged in batches. An envelope that does not open is kept as failed with
    /// its reason and is not acknowledged. When the pair has ended, the conversation is wiped.
    public func sync() async throws(SoulMateKitError) -> SyncReport {
        var report = SyncReport()
        // The lock's heartbeat, and its check: a phone whose lock moved elsewhere stops here.
        do {
            try await acquireLock()
        } catch let error where error.serverCode == "session_locked" {
            if case .client(.server(_, _, let message)) = error { throw .sessionLocked(message) }
            throw error
        }
        let remembered = try rememberedPair()
        guard let pair = try await refreshPair() else {
            report.unpaired = remembered != nil
            return report
        }
        try await flushOutbox(pair: pair, into: &report)
        let me = try await userID()
        var cursor: String?
        var toAcknowledge: [String] = []
        repeat {
            let after = cursor
            let output = try await call { [app] in
                try await $0.listSoulMateEnvelopes(query: .init(cursor: after, limit: 200), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
            var batch: [LocalMessage] = []
            for envelope in page.envelopes {
                guard envelope.recipientId == me else { continue }
                let chatID = try ChatID.make(me, envelope.senderId)
                do throws(SoulMateKitError) {
                    guard envelope.senderId == pair.partnerID else { throw .invalidInput("the sender is not the partner") }
                    let key = try await chatKey(for: pair, partnerKeyVersion: envelope.keyVersion)
                    let payload: ChatPayload
                    do { payload = try key.open(envelope.ciphertext) } catch { throw .crypto(error) }
                    batch.append(
                        LocalMessage(
                            id: envelope.id, chatID: chatID, senderID: envelope.senderId, recipientID: me, sentAt: envelope.sentAt,
                            payload: payload, direction: .incoming, uploadState: .uploaded, createdAt: now()
                        )
                    )
                } catch {
                    try store.insertUndecryptable(
                        id: envelope.id, chatID: chatID, senderID: envelope.senderId, recipientID: me, sentAt: envelope.sentAt,
                        envelope: envelope.ciphertext, reason: error.description, now: now()
                    )
                    report.undecryptable[envelope.id] = error.description
                }
            }
            // One transaction for the page; ids already stored count as stored.
            _ = try store.insert(batch)
            report.received += batch.map(\.id)
            toAcknowledge += batch.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        var start = 0
        while start < toAcknowledge.count {
            let ids = Array(toAcknowledge[start..<min(start + 500, toAcknowledge.count)])
            let output = try await call { [app] in
                try await $0.acknowledgeSoulMateEnvelopes(headers: .init(xKindredApp: app), body: .json(.init(ids: ids)))
            }
            guard case .ok(let ok) = output, case .json(let result) = ok.body else { throw Self.failure(output) }
            report.acknowledged += result.deleted
            start += 500
        }
        return report
    }

    /// Tries the kept undecryptable envelopes again (after the partner's key changed): those that
    /// open are stored and acknowledged.
    /// - Returns: the ids that opened.
    public func retryUndecryptable() async throws(SoulMateKitError) -> [String] {
        let pair = try await currentPair()
        var opened: [String] = []
        for kept in try store.undecryptable(chatID: pair.chatID) {
            guard let key = try? await chatKey(for: pair), let payload = try? key.open(kept.envelope) else { continue }
            try store.replaceUndecryptable(id: kept.id, with: payload)
            opened.append(kept.id)
        }
        if !opened.isEmpty {
            let ids = opened
            let output = try await call { [app] in
                try await $0.acknowledgeSoulMateEnvelopes(headers: .init(xKindredApp: app), body: .json(.init(ids: ids)))
            }
            guard case .ok = output else { throw Self.failure(output) }
        }
        return opened
    }

    /// The newest messages of the current chat, newest first.
    public func history(limit: Int = 50) async throws(SoulMateKitError) -> [LocalMessage] {
        guard let pair = try rememberedPair() else { throw .notPaired }
        return try store.newest(chatID: pair.chatID, limit: limit)
    }
}
