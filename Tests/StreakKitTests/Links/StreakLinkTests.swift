import Foundation
@testable import StreakKit
import Testing

@Suite struct StreakLinkTests {
    @Test func everyKindRoundTrips() throws {
        let code = try #require(FriendCode(rawValue: "ABC234"))
        let links: [(StreakLink, String)] = [
            (.game(.wordle), "streaksync://game/wordle"),
            (.game(.miniCrossword), "streaksync://game/\(GameID.miniCrossword.rawValue)"),
            (.result(GameResultID(rawValue: "pips:123-hard:2026-03-02")), "streaksync://result/pips:123-hard:2026-03-02"),
            (.achievement("streak_7"), "streaksync://achievement/streak_7"),
            (.friend(code), "streaksync://friend?code=ABC234"),
        ]
        for (link, url) in links {
            #expect(link.url == url)
            #expect(try StreakLink.parse(url) == link)
        }
        for game in Game.all {
            #expect(try StreakLink.parse(StreakLink.game(game.id).url) == .game(game.id))
        }
    }

    @Test func friendCodesAreCaseInsensitiveAndUpperCased() throws {
        let link = try StreakLink.parse("streaksync://friend?code=abc234")
        #expect(link == .friend(FriendCode(rawValue: "ABC234")!))
        #expect(link.url == "streaksync://friend?code=ABC234")
        #expect(try StreakLink.parse("streaksync://friend/?code=XyZ789").url == "streaksync://friend?code=XYZ789")
        #expect(try StreakLink.parse("StreakSync://game/wordle") == .game(.wordle))
    }

    @Test(arguments: [
        ("https://game/wordle", StreakLinkError.wrongScheme),
        ("streaksync:game/wordle", .wrongScheme),
        ("", .wrongScheme),
        ("streaksync://games/wordle", .unknownHost("games")),
        ("streaksync://code/x", .unknownHost("code")),
        ("streaksync://", .unknownHost("")),
        ("streaksync://game", .missingPathComponent(host: "game")),
        ("streaksync://game/", .missingPathComponent(host: "game")),
        ("streaksync://result", .missingPathComponent(host: "result")),
        ("streaksync://achievement/", .missingPathComponent(host: "achievement")),
        ("streaksync://game/wordle/", .extraPathComponents(host: "game")),
        ("streaksync://result/a/b", .extraPathComponents(host: "result")),
        ("streaksync://friend/x?code=ABC234", .extraPathComponents(host: "friend")),
        ("streaksync://game/chess", .unknownGame("chess")),
        ("streaksync://game/Wordle", .unknownGame("Wordle")),
        ("streaksync://achievement/a%20b", .invalidIdentifier("a%20b")),
        ("streaksync://result/a b", .invalidIdentifier("a b")),
        ("streaksync://game/wordle?x=1", .unexpectedQuery("?x=1")),
        ("streaksync://game/wordle#top", .unexpectedQuery("#top")),
        ("streaksync://friend?code=ABC234&ref=1", .unexpectedQuery("ref")),
        ("streaksync://friend?code=ABC234&code=ABC235", .unexpectedQuery("code")),
        ("streaksync://friend", .missingCode),
        ("streaksync://friend?", .missingCode),
        ("streaksync://friend?code=ABC23", .invalidCode("ABC23")),
        ("streaksync://friend?code=ABC2345", .invalidCode("ABC2345")),
        ("streaksync://friend?code=ABC0O1", .invalidCode("ABC0O1")),
        ("streaksync://friend?code=ABCI23", .invalidCode("ABCI23")),
        ("streaksync://friend?code", .invalidCode("")),
    ])
    func malformedLinksThrow(_ text: String, _ expected: StreakLinkError) {
        #expect(throws: expected) { try StreakLink.parse(text) }
    }

    @Test func linksOverTheLimitAreRejectedUnparsed() throws {
        let id = String(repeating: "a", count: 2048 - "streaksync://achievement/".count)
        #expect(try StreakLink.parse("streaksync://achievement/\(id)") == .achievement(id))
        #expect(throws: StreakLinkError.tooLong(bytes: 2049, limit: 2048)) {
            try StreakLink.parse("streaksync://achievement/\(id)a")
        }
    }

    @Test func errorsHaveStableCodes() {
        #expect(StreakLinkError.invalidCode("x").code == "invalid_code")
        #expect(StreakLinkError.unknownGame("chess").description == "no game has the id chess")
    }
}
