@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing


/// `TokenService.bearerToken(in:)`: the scheme in any case, extra spaces skipped, anything else
/// refused.
@Suite struct BearerTokenTests {
    @Test(arguments: [
        ("Bearer abc.def", "abc.def"),
        ("bearer abc", "abc"),
        ("BEARER abc", "abc"),
        ("bEaReR    abc def", "abc def"),
        ("Bearer  ", ""),
        ("Bearer é", "é"),
    ])
    func accepted(header: String, token: String) {
        #expect(TokenService.bearerToken(in: header) == token)
    }

    @Test(arguments: ["", "Bearer", "Bearer ", "Basic abc", "Bearerabc", "Bearer\tabc", " Bearer abc", "Béarer abc"])
    func refused(header: String) {
        #expect(TokenService.bearerToken(in: header) == nil)
    }
}
