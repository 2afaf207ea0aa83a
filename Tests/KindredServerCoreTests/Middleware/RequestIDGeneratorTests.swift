@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing


/// Generated request ids: UUID-shaped, version 4 layout, counting from the random start.
@Suite struct RequestIDGeneratorTests {
    @Test func idsAreUUIDsOfThePrefixAndTheCounter() {
        let ids = RequestIDGenerator(high: 0x0123_4567_89AB_CDEF, start: 0xFFFF_FFFF_FFFF_FFFE)
        #expect(ids.next() == "01234567-89ab-4def-bfff-ffffffffffff")
        #expect(ids.next() == "01234567-89ab-4def-8000-000000000000")
        #expect(ids.next() == "01234567-89ab-4def-8000-000000000001")
    }

    @Test func randomGeneratorsMakeDistinctParseableIDs() {
        let first = RequestIDGenerator()
        let second = RequestIDGenerator()
        let made = (0..<1000).map { _ in first.next() } + [second.next()]
        #expect(Set(made).count == made.count)
        for id in made {
            let uuid = UUID(uuidString: id)
            #expect(uuid?.uuidString.lowercased() == id)
            #expect(uuid.map { $0.uuid.6 >> 4 } == 4)
        }
    }
}
