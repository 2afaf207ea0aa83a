import Testing

@testable import EraserKit

@Suite struct EraserKitErrorTests {
    @Test func theCodeNamesTheAreaAndTheReason() {
        let error = EraserKitError.vault(.locked)
        #expect(error.code == "vault.locked")
        #expect(error.description == "vault.locked: The Vault is locked: unlock it with its passphrase first.")
        #expect(EraserKitError.library(.notFound(AssetID(rawValue: "a1"))).code == "library.not_found")
    }
}
