@testable import CloserKit
import Foundation
import KindredCrypto
import Testing

/// Check-in answers and capsule fields sealed under the couple key: they open as their own, and a
/// ciphertext moved to another check-in, member, field or couple is refused.
@Suite struct OverTimeSealingTests {
    let cipher: CloserFieldCipher

    init() throws {
        cipher = try CloserFieldCipher(coupleKeyset: .generateAES256GCM())
    }

    @Test func anAnswerOpensOnlyAsItsOwnCheckInAndMember() throws {
        let sealed = try OutcomeAnswers(key: "day_30", userId: "alice", text: "closer than ever").seal(cipher: cipher, coupleID: "couple-1")
        #expect(sealed.hasPrefix("enc:v1:") && !sealed.contains("closer than ever"))
        #expect(try OutcomeAnswers.open(sealed, key: "day_30", userId: "alice", cipher: cipher, coupleID: "couple-1").text == "closer than ever")
        for (key, user) in [("day_60", "alice"), ("day_30", "bob")] {
            #expect(throws: CloserKitError.self) { try OutcomeAnswers.open(sealed, key: key, userId: user, cipher: cipher, coupleID: "couple-1") }
            do {
                _ = try OutcomeAnswers.open(sealed, key: key, userId: user, cipher: cipher, coupleID: "couple-1")
            } catch {
                guard case .tampered = error else { Issue.record("expected tampered, got \(error)"); continue }
            }
        }
        // The couple id is the AAD: another couple's id does not open it.
        do {
            _ = try OutcomeAnswers.open(sealed, key: "day_30", userId: "alice", cipher: cipher, coupleID: "couple-2")
            Issue.record("opened under another couple id")
        } catch {
            guard case .crypto = error else { Issue.record("expected a crypto error, got \(error)"); return }
        }
    }

    @Test func aCapsuleTitleCannotPassForItsContent() throws {
        let title = try CapsuleText(field: "title", userId: "alice", text: "Summer").seal(cipher: cipher, coupleID: "c")
        #expect(try CapsuleText.open(title, field: "title", userId: "alice", cipher: cipher, coupleID: "c") == "Summer")
        do {
            _ = try CapsuleText.open(title, field: "content", userId: "alice", cipher: cipher, coupleID: "c")
            Issue.record("a title opened as content")
        } catch {
            guard case .tampered = error else { Issue.record("expected tampered, got \(error)"); return }
        }
        // A plain enc:v1: string (not a capsule document) is refused as tampered.
        let plain = try cipher.encrypt("just text", coupleId: "c")
        do {
            _ = try CapsuleText.open(plain, field: "title", userId: "alice", cipher: cipher, coupleID: "c")
            Issue.record("a plain ciphertext opened as a capsule field")
        } catch {
            guard case .tampered = error else { Issue.record("expected tampered, got \(error)"); return }
        }
    }
}
