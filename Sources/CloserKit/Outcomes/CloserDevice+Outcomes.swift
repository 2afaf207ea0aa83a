import CloserAPI
import Foundation
import KindredClient

/// One check-in as this device reads it: its schedule and each member's opened answers.
public struct OpenedCheckIn: Sendable, Equatable, Codable {
    /// `day_0`, `day_30`, `day_60` or `day_90`.
    public var key: String
    /// The local date in the couple's zone.
    public var date: String
    /// Whether it can be answered now.
    public var answerable: Bool
    /// Member id → answers, for the members who answered.
    public var answers: [String: String]
}

/// The 30/60/90-day check-ins on the device (docs/closer.md, "Check-ins"): answers are sealed
/// under the couple key with the check-in and the member inside, and opened the same way.
extension CloserDevice {
    /// The couple's four check-ins as the server lists them (ciphertexts).
    public func outcomes() async throws(CloserKitError) -> Components.Schemas.CloserOutcomeList {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.listCloserOutcomes(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
            return list
        }
    }

    /// The check-ins with every answer opened.
    /// - Throws: `.tampered` / `.crypto` for an answer that does not open as its own.
    public func openedOutcomes() async throws(CloserKitError) -> [OpenedCheckIn] {
        let keyring = try keyring()
        let list = try await outcomes()
        var opened: [OpenedCheckIn] = []
        for checkIn in list.checkIns {
            var answers: [String: String] = [:]
            for entry in checkIn.entries {
                answers[entry.userId] = try OutcomeAnswers.open(
                    entry.answers, key: checkIn.key, userId: entry.userId, cipher: keyring.cipher, coupleID: list.coupleId
                ).text
            }
            opened.append(OpenedCheckIn(key: checkIn.key, date: checkIn.date, answerable: checkIn.answerable, answers: answers))
        }
        return opened
    }

    /// Seals `text` and writes it as this account's answers to `key` (once).
    public func answerOutcome(_ key: String, text: String) async throws(CloserKitError) -> Components.Schemas.CloserOutcomeCheckIn {
        guard !text.isEmpty else { throw .invalidInput("the answers are empty") }
        let keyring = try keyring()
        let me = try await userId()
        return try await withCouple { couple throws(CloserKitError) in
            let sealed = try OutcomeAnswers(key: key, userId: me, text: text).seal(cipher: keyring.cipher, coupleID: couple.id)
            let output = try await call { [app] in
                try await $0.submitCloserOutcome(
                    path: .init(coupleId: couple.id, dayKey: key), headers: .init(xKindredApp: app), body: .json(.init(answers: sealed))
                )
            }
            guard case .created(let created) = output, case .json(let checkIn) = created.body else { throw Self.failure(output) }
            return checkIn
        }
    }
}
