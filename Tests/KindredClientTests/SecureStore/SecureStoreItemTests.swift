import KindredClient
import Testing

/// `SecureStoreItem`: which names are valid, and the error a dynamic name gets.
@Suite struct SecureStoreItemTests {
    @Test(arguments: ["closer.couple", "crypto.shared.7f3c2a9e-01", "soulmate.local-store-key", "A_z-0.9", String(repeating: "a", count: 128)])
    func validNamesAreKeptAsTheyAre(name: String) throws {
        #expect(SecureStoreItem(rawValue: name)?.rawValue == name)
        #expect(try SecureStoreItem(validating: name).rawValue == name)
    }

    @Test func aLiteralNameIsTheSameItemAsAValidatedOne() throws {
        #expect(SecureStoreItem("soulmate.identity") == (try SecureStoreItem(validating: "soulmate.identity")))
        #expect(SecureStoreItem("soulmate.identity").description == "soulmate.identity")
    }

    @Test func anEmptyNameIsRefused() {
        #expect(SecureStoreItem(rawValue: "") == nil)
        #expect(throws: SecureStoreError("invalid item name \"\": it is empty")) { try SecureStoreItem(validating: "") }
    }

    @Test func aNameLongerThan128BytesIsRefused() {
        let name = String(repeating: "a", count: 129)
        #expect(SecureStoreItem(rawValue: name) == nil)
        #expect(throws: SecureStoreError("invalid item name \"\(name)\": it is longer than 128 bytes")) {
            try SecureStoreItem(validating: name)
        }
    }

    @Test(arguments: ["crypto shared", "crypto/shared", "closer.couple\n", "soulmate:identity", "ünïcode", "tab\there"])
    func otherCharactersAreRefused(name: String) {
        #expect(SecureStoreItem(rawValue: name) == nil)
        #expect(throws: SecureStoreError("invalid item name \"\(name)\": only A-Z a-z 0-9 . _ - are allowed")) {
            try SecureStoreItem(validating: name)
        }
    }

    @Test func theErrorReadsAsASecureStoreFailure() {
        #expect(SecureStoreError("the key file is missing").description == "secure store: the key file is missing")
    }
}
