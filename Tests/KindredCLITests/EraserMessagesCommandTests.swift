import Foundation
import KindredTestSupport
import Testing

/// `kindred eraser messages find|vault` and the dashboard before any scan.
@Suite struct EraserMessagesCommandTests {
    @Test func findKeepAndCountAChatWithTheEx() throws {
        let folder = try TemporaryDirectory()
        let chats = folder.url.appendingPathComponent("chats")
        try FileManager.default.createDirectory(at: chats, withIntermediateDirectories: true)
        let withEx = chats.appendingPathComponent("sam.txt")
        let text = "[12/06/2023, 18:03:12] Sam Taylor: are we still on?\n[12/06/2023, 18:04:01] Me: yes\n"
        try Data(text.utf8).write(to: withEx)
        try Data("[01/03/2023, 10:00:00] Alex Kim: hi\n".utf8).write(to: chats.appendingPathComponent("alex.txt"))
        let cli = EraserCLI(profile: folder.url.appendingPathComponent("profile"))
        try cli.setUp()

        let found = try cli.object(["messages", "find", chats.path, "--contact", "Sam Taylor"])
        let list = try #require(found["chats"] as? [[String: Any]])
        #expect(list.count == 1)
        #expect(list.first?["file"] as? String == withEx.path)
        #expect(list.first?["participant"] as? String == "Sam Taylor")
        #expect(list.first?["match"] as? String == "full_name")
        #expect(list.first?["messages"] as? Int == 2)
        #expect((found["steps"] as? [String])?.count == 4)

        let missing = try cli.run(["messages", "find", chats.path, "--json"])
        #expect(missing.status == 64)
        #expect(missing.stderr == "error: give the ex with --contact (a name or a phone number) (usage)\n")

        let kept = try cli.object(["messages", "vault", withEx.path])
        #expect(kept["type"] as? String == "message")
        #expect(kept["originalPath"] as? String == withEx.path)
        let board = try cli.object(["dashboard"])
        #expect(board["scan"] == nil)
        #expect(board["vaulted"] as? [String: Int] == ["message": 1])
        #expect(board["scans"] as? Int == 0)
    }
}
