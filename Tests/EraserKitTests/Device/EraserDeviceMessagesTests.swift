import Foundation
import KindredClient
import KindredTestSupport
import Testing

@testable import EraserKit

/// Messages (seed priority 2): exported conversations with the ex found by sender, kept in the
/// Vault, and counted on the dashboard.
@Suite struct EraserDeviceMessagesTests {
    static let iOSChat = """
        \u{200E}[12/06/2023, 18:03:12] Messages and calls are end-to-end encrypted.
        [12/06/2023, 18:03:12] Sam Taylor: are we still on for tonight?
        [12/06/2023, 18:04:01] Me: yes! 8pm
        see you there
        [13/06/2023, 09:15:44] Sam Taylor: 🙂
        """
    static let androidChat = """
        02/01/2024, 09:00 - +90 532 123 45 67: call me back
        02/01/2024, 09:05 - Me: ok
        """
    static let otherChat = """
        [01/03/2023, 10:00:00] Alex Kim: standup moved to 10:30
        [01/03/2023, 10:01:00] Me: thanks, Sam told me
        """

    @Test func readerFindsSendersAndMessages() throws {
        let folder = try TemporaryDirectory()
        let export = try ChatExport.read(try folder.write("_chat.txt", Array(Self.iOSChat.utf8)))
        #expect(export.participants == ["Sam Taylor", "Me"])
        #expect(export.messageCount == 3)
        let android = try ChatExport.read(try folder.write("android.txt", Array(Self.androidChat.utf8)))
        #expect(android.participants == ["+90 532 123 45 67", "Me"])
        #expect(android.messageCount == 2)
        #expect(throws: EraserKitError.vault(.invalidInput("bad.txt is not UTF-8 text, so not a chat export"))) {
            try ChatExport.read(try folder.write("bad.txt", [0xFF, 0xFE, 0x00, 0xC3]))
        }
    }

    @Test func chatsWithTheExAreFoundVaultedAndCounted() throws {
        let folder = try TemporaryDirectory()
        for (path, text) in [("WhatsApp Chat - Sam/_chat.txt", Self.iOSChat), ("android/WhatsApp Chat with S.txt", Self.androidChat),
                             ("work/_chat.txt", Self.otherChat)] {
            let url = folder.url.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let profile = try TemporaryDirectory()
        let device = try EraserDevice.setUp(profileDirectory: profile.url, secureStore: InMemorySecureStore())
        let findings = try device.findChats(in: folder.url, contact: ScanContact(name: "Sam Taylor", phones: ["05321234567"]),
                                            defaultCountryCode: 90)
        // By path: "WhatsApp Chat - Sam/…" sorts before "android/…".
        #expect(findings.map(\.participant) == ["Sam Taylor", "+90 532 123 45 67"])
        #expect(findings.map(\.export.messageCount) == [3, 2])
        #expect(findings.first { $0.participant == "Sam Taylor" }?.match.kind == .fullName)
        #expect(findings.first { $0.participant.hasPrefix("+90") }?.match.kind == .phone)
        #expect(!findings.contains { $0.export.file.path.contains("/work/") })

        let item = try device.vaultChat(try #require(findings.first { $0.participant == "Sam Taylor" }).export.file)
        #expect(item.type == .message)
        #expect(item.source == .messages)
        #expect(try device.vault.contents(item.id) == Array(Self.iOSChat.utf8))
        #expect(try device.dashboard().vaulted == [.message: 1])
        #expect(throws: EraserKitError.scan(.invalidConfiguration("give the ex's name, phone number or e-mail"))) {
            try device.findChats(in: folder.url, contact: ScanContact())
        }
    }
}
