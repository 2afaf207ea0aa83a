import Foundation
import Testing

@testable import KindredServer

/// Account and session ids are distinct version-4 UUIDs in lower case.
@Suite struct RandomIDTests {
    @Test func idsAreLowerCaseVersion4UUIDs() throws {
        let ids = (0..<2000).map { _ in RandomID.make() }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            #expect(uuid.uuid.6 >> 4 == 4)
            #expect(uuid.uuid.8 >> 6 == 0b10)
        }
    }
}
