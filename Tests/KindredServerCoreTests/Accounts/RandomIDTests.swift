@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Foundation
import Testing


/// Account ids are distinct version-4 UUIDs in lower case; session ids distinct version-7
/// UUIDs whose text sorts in time order.
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

    @Test func timeOrderedIdsAreVersion7UUIDsSortedByTime() throws {
        let start: Int64 = 1_795_000_000_000
        let ids = (0..<2000).map { RandomID.makeTimeOrdered(milliseconds: start + Int64($0 / 4)) }
        #expect(Set(ids).count == ids.count)
        for (index, id) in ids.enumerated() {
            let uuid = try #require(UUID(uuidString: id))
            #expect(uuid.uuidString.lowercased() == id)
            #expect(uuid.uuid.6 >> 4 == 7)
            #expect(uuid.uuid.8 >> 6 == 0b10)
            let bytes = withUnsafeBytes(of: uuid.uuid) { Array($0) }
            let milliseconds = bytes[0..<6].reduce(Int64(0)) { $0 << 8 | Int64($1) }
            #expect(milliseconds == start + Int64(index / 4))
        }
        // Ids of later milliseconds sort after earlier ones.
        for index in stride(from: 4, to: ids.count, by: 4) {
            #expect(ids[index - 1] < ids[index])
        }
        #expect(RandomID.makeTimeOrdered(milliseconds: 0).hasPrefix("00000000-0000-7"))
    }
}
