import CloserKit
import KindredClient
import KindredCrypto
import Testing

@Suite struct DeviceKeyTests {
    @Test func theKeyIsMadeOnceAndPublishedAsPubV1() throws {
        let store = InMemorySecureStore()
        #expect(try DeviceKey.load(from: store) == nil)
        let made = try DeviceKey.loadOrCreate(in: store)
        let again = try DeviceKey.loadOrCreate(in: store)
        #expect(again.deviceId == made.deviceId)
        #expect(again.publicKey == made.publicKey)
        #expect(made.deviceId.count == 32)
        #expect(made.deviceId.allSatisfy { "0123456789abcdef".contains($0) })
        #expect(CloserWireFormat.isPublicKey(made.publicKey))
        #expect(try CloserPublicKey.decode(made.publicKey).keys.count == 1)
    }

    @Test func twoDevicesHaveDifferentKeys() throws {
        let one = try DeviceKey.loadOrCreate(in: InMemorySecureStore())
        let two = try DeviceKey.loadOrCreate(in: InMemorySecureStore())
        #expect(one.deviceId != two.deviceId)
        #expect(one.publicKey != two.publicKey)
    }

    @Test func aDamagedEntryIsATypedError() throws {
        let store = InMemorySecureStore()
        try store.write(.deviceKey, Array("short\n".utf8))
        #expect(throws: CloserKitError.secureStore("the device key entry is malformed")) { try DeviceKey.load(from: store) }
    }
}
