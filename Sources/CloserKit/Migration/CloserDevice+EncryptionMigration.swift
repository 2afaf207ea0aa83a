import CloserAPI
import Foundation
import KindredClient
import KindredCrypto

/// What one run of the encryption migration did.
public struct EncryptionMigrationReport: Sendable, Equatable, Codable {
    /// The couple.
    public let coupleId: String
    /// The couple's encryption version after the run: 1 while the partner has not completed, 2 after.
    public let encryptionVersion: Int
    /// Whether this run uploaded the wrap that started the migration (v0 → v1).
    public let startedHere: Bool
    /// The dates whose answers this run rewrote into `enc:v1:`.
    public let rewritten: [String]
    /// The dates rewritten by an earlier, interrupted run (from the kept progress).
    public let resumed: [String]
    /// Whether this account's part is complete on the server.
    public let completed: Bool
}

/// Driving the couple's encryption migration from the device (the seed's v0 → v1 → v2): start
/// it with a fresh couple key wrapped by a new recovery phrase, rewrite each of this account's
/// plaintext answers into `enc:v1:` under the couple key, then complete this account's part.
/// The progress is kept after every step (`EncryptionMigrationProgress`), so a run that stops
/// continues where it was; the server's own state (version, `migratedAt`) decides what is left.
extension CloserDevice {
    /// Runs (or continues) the migration.
    /// - Parameter afterRewrite: called after each answer is rewritten and the progress kept; a
    ///   throw stops the run there (a user's cancel; tests use it to interrupt a run).
    /// - Returns: what this run did.
    /// - Throws: `.noCouple`; `.notPaired` when the partner started the migration and this
    ///   device has no couple key yet (recover it with the phrase); `.stalePhrase` when this
    ///   device's key does not open the server's wrap; client and secure-store errors.
    public func migrateEncryption(
        afterRewrite: (String) throws -> Void = { _ in }
    ) async throws(CloserKitError) -> EncryptionMigrationReport {
        var couple = try await freshCouple()
        let me = try await userId()
        var progress = try EncryptionMigrationProgress.load(from: secureStore)
            .flatMap { $0.coupleId == couple.id ? $0 : nil } ?? EncryptionMigrationProgress(coupleId: couple.id)
        let resumed = progress.rewritten
        var startedHere = false
        if couple.encryptionVersion == ._2 {
            progress.completed = true
            try progress.save(in: secureStore)
            return EncryptionMigrationReport(
                coupleId: couple.id, encryptionVersion: 2, startedHere: false, rewritten: [], resumed: resumed, completed: true
            )
        }
        let coupleKeyring: CoupleKeyring
        if couple.encryptionVersion == ._0 {
            // The keyring is kept before the upload: after a crash the same key is uploaded again.
            if let kept = try CoupleKeyring.load(from: secureStore) {
                coupleKeyring = kept
            } else {
                coupleKeyring = try CoupleKeyring.generate()
                try coupleKeyring.save(in: secureStore)
            }
            couple = try await startMigration(couple, keyring: coupleKeyring)
            startedHere = true
            progress.started = true
            try progress.save(in: secureStore)
        } else {
            coupleKeyring = try keyring()
            _ = try await verifiedPhrase()
        }
        var rewritten: [String] = []
        for answer in try await plaintextAnswers(of: me, couple: couple) where !progress.rewritten.contains(answer.date) {
            try await rewrite(answer, couple: couple, keyring: coupleKeyring)
            progress.rewritten.append(answer.date)
            try progress.save(in: secureStore)
            rewritten.append(answer.date)
            do {
                try afterRewrite(answer.date)
            } catch {
                throw .invalidInput("the encryption migration stopped after \(answer.date): \(error)")
            }
        }
        couple = try await completeMigration(couple)
        progress.completed = true
        try progress.save(in: secureStore)
        cache.invalidate()
        return EncryptionMigrationReport(
            coupleId: couple.id, encryptionVersion: couple.encryptionVersion.rawValue, startedHere: startedHere,
            rewritten: rewritten, resumed: resumed, completed: true
        )
    }

    /// v0 → v1: uploads the wrap of `keyring` under its phrase.
    private func startMigration(
        _ couple: Components.Schemas.CloserCouple, keyring: CoupleKeyring
    ) async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        let wrapped = try keyring.wrapped(parameters: kdfParameters)
        let body = Components.Schemas.CloserRecoveryWrap(wrappedCoupleKey: wrapped.wrappedCoupleKey, kdfSalt: wrapped.kdfSalt, kdfParams: wrapped.kdfParams)
        let output = try await call { [app] in
            try await $0.startCloserEncryptionMigration(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(body))
        }
        guard case .ok(let ok) = output, case .json(let updated) = ok.body else { throw Self.failure(output) }
        return updated
    }

    /// This account's answers still in plaintext (schemaVersion 1, not yet rewritten), oldest first.
    private func plaintextAnswers(
        of me: String, couple: Components.Schemas.CloserCouple
    ) async throws(CloserKitError) -> [Components.Schemas.CloserAnswer] {
        var found: [Components.Schemas.CloserAnswer] = []
        var before: String?
        repeat {
            let cursor = before
            let output = try await call { [app] in
                try await $0.listCloserHistory(path: .init(coupleId: couple.id), query: .init(limit: 100, before: cursor), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let page) = ok.body else { throw Self.failure(output) }
            for day in page.days {
                found += day.answers.filter { $0.userId == me && $0.schemaVersion == ._1 && $0.migratedAt == nil && $0.text != nil }
            }
            before = page.nextBefore
        } while before != nil
        return found.sorted { $0.date < $1.date }
    }

    /// Rewrites one answer; one the server already took (a crash after its write) counts as done.
    private func rewrite(
        _ answer: Components.Schemas.CloserAnswer, couple: Components.Schemas.CloserCouple, keyring: CoupleKeyring
    ) async throws(CloserKitError) {
        let encrypted: String
        do {
            encrypted = try keyring.cipher.encrypt(answer.text ?? "", coupleId: couple.id)
        } catch {
            throw .crypto(error)
        }
        let output = try await call { [app] in
            try await $0.migrateCloserAnswer(
                path: .init(coupleId: couple.id, date: answer.date, userId: answer.userId), headers: .init(xKindredApp: app),
                body: .json(.init(encryptedText: encrypted))
            )
        }
        if case .ok = output { return }
        let failure = Self.failure(output)
        if case .client(let error) = failure, error.serverCode == "answer_already_migrated" { return }
        throw failure
    }

    /// Completes this account's part (v1 → v2 once both have).
    private func completeMigration(_ couple: Components.Schemas.CloserCouple) async throws(CloserKitError) -> Components.Schemas.CloserCouple {
        let output = try await call { [app] in
            try await $0.completeCloserEncryptionMigration(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let updated) = ok.body else { throw Self.failure(output) }
        return updated
    }
}
