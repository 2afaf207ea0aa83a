@testable import SoulMateKit
import Testing

@Suite struct ChatIDTests {
    @Test func bothPartnersComputeTheSameSortedID() throws {
        #expect(try ChatID.make("u2", "u1") == "u1_u2")
        #expect(try ChatID.make("u1", "u2") == "u1_u2")
        #expect(try ChatID.make(Fixtures.bob, Fixtures.alice) == "\(Fixtures.alice)_\(Fixtures.bob)")
        // Byte-wise order: upper case sorts before lower case.
        #expect(try ChatID.make("b", "B") == "B_b")
        let members = try #require(ChatID.members(of: "u1_u2"))
        #expect(members.0 == "u1" && members.1 == "u2")
        #expect(ChatID.members(of: "u2_u1") == nil)
        #expect(ChatID.members(of: "u1") == nil)
    }

    @Test(arguments: [("", "u2"), ("u1", "u1"), ("u_1", "u2"), ("u1", String(repeating: "a", count: 65)), ("ü", "u2")])
    func badUserIDsAreRefused(pair: (String, String)) {
        #expect(throws: SoulMateKitError.self) { try ChatID.make(pair.0, pair.1) }
    }
}
