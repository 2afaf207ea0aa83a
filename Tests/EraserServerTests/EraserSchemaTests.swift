import KindredServerCore
import Testing

@testable import EraserServer

@Suite struct EraserSchemaTests {
    @Test func theDomainKeepsNoUserData() {
        #expect(EraserDomain().userData.isEmpty)
        #expect(EraserDomain().name == "exeraser")
    }
}
