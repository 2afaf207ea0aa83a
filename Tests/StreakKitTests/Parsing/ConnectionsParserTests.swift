@testable import StreakKit
import Testing

@Suite struct ConnectionsParserTests {
    let catalog = Fixtures.catalog

    @Test func solvedGroupsAndMistakesInOrder() throws {
        let share = try catalog.parse("Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪")
        guard case .connections(let details) = share.details else { Issue.record("not Connections"); return }
        #expect(details.solved == [.yellow, .green, .blue, .purple])
        #expect(details.mistakes == 1 && details.rows.count == 5)
        #expect(share.score == 5 && share.completed)
    }

    @Test func fourMistakesEndItUnsolved() throws {
        let share = try catalog.parse("Connections\nPuzzle #1001\n🟨🟩🟨🟨\n🟨🟨🟨🟨\n🟦🟪🟦🟦\n🟩🟪🟦🟪\n🟦🟪🟦🟦")
        guard case .connections(let details) = share.details else { Issue.record("not Connections"); return }
        #expect(details.mistakes == 4 && details.solved == [.yellow] && !share.completed)
    }

    @Test(arguments: [
        "Connections\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",  // no puzzle line
        "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦",  // ends before the game does
        "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟨🟨🟨🟨\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟩🟩🟩🟩",  // yellow solved twice
        "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟨🟩🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",  // yellow reused after solved
        "Connections\nPuzzle #512\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪\n🟪🟦🟦🟦",  // a row after the end
        "Connections\nPuzzle #512\n🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",  // three squares
        "Connections\nPuzzle #512\n🟥🟨🟨🟨\n🟨🟨🟨🟨\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪",  // a red square
    ])
    func impossibleGridsAreRefused(_ text: String) {
        #expect(throws: StreakKitError.self) { try catalog.parse(text) }
    }

    @Test func chatAboutConnectionsIsNotAShare() {
        #expect(throws: StreakKitError.unrecognized) { try catalog.parse("Connections are important in life") }
        #expect(throws: StreakKitError.self) { try catalog.parse("Connections\nwere hard today") }
    }
}
