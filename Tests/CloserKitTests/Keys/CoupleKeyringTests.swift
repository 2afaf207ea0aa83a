import CloserKit
import KindredClient
import KindredCrypto
import Testing

@Suite struct CoupleKeyringTests {
    @Test func theKeyringSurvivesTheStore() throws {
        let store = InMemorySecureStore()
        #expect(try CoupleKeyring.load(from: store) == nil)
        let keyring = try CoupleKeyring.generate()
        try keyring.save(in: store)
        let loaded = try #require(try CoupleKeyring.load(from: store))
        #expect(loaded.keyset == keyring.keyset)
        #expect(loaded.phrase == keyring.phrase)
        let field = try keyring.cipher.encrypt("hello", coupleId: "c1")
        #expect(try loaded.cipher.decryptText(field, coupleId: "c1") == "hello")
    }
}
