@testable import AdminConsole
@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Testing


/// The console's form parsing and its constant-time token comparison.
@Suite struct AdminFormTests {
    @Test func decodesPlusPercentAndKeepsTheFirstOfARepeatedName() {
        let form = AdminForm(encoded: "email=a%40b.com&password=+x+y%2B&csrf=1&csrf=2&empty=&flag&bad=%zz")
        #expect(form["email"] == "a@b.com")
        #expect(form.raw("password") == " x y+")
        #expect(form["password"] == "x y+")
        #expect(form["csrf"] == "1")
        #expect(form["empty"] == nil && form.raw("empty") == "")
        #expect(form.raw("flag") == "")
        #expect(form.raw("bad") == "%zz")
        #expect(form["missing"] == nil)
    }

    @Test func tokensCompareEqualOnlyWhenIdenticalAndNonEmpty() {
        #expect(ConstantTime.equals("abc", "abc"))
        #expect(!ConstantTime.equals("abc", "abd"))
        #expect(!ConstantTime.equals("abc", "abcd"))
        #expect(!ConstantTime.equals("", ""))
    }

    @Test func sessionTokensAreStoredAsTheirSHA256() {
        #expect(AdminSessions.hash("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let token = AdminSessions.newToken()
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit) && token != AdminSessions.newToken())
    }
}
