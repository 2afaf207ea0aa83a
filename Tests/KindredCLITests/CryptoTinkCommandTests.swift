import Foundation
import KindredTestSupport
import Testing

@Suite struct CryptoTinkCommandTests {
    @Test func aeadRoundTripThroughTheCommandLine() throws {
        let dir = try TemporaryDirectory()
        let keyset = try KindredProcess.run(["crypto", "keyset", "new", "aes256-gcm"])
        #expect(keyset.status == 0)
        let keysetPath = try dir.file("aead.keyset", keyset.stdout)
        let shown = try KindredProcess.run(["crypto", "keyset", "show"], stdin: keyset.stdout)
        #expect(shown.text.contains("AesGcmKey"))
        #expect(shown.text.contains("(primary)"))

        let encrypted = try KindredProcess.run(["crypto", "aead", "encrypt", "--keyset", keysetPath, "--aad", "couple-1"], stdinText: "hello")
        #expect(encrypted.status == 0)
        #expect(encrypted.stdout.count == 5 + 12 + 5 + 16)
        #expect(encrypted.stdout.first == 0x01)

        let decrypted = try KindredProcess.run(["crypto", "aead", "decrypt", "--keyset", keysetPath, "--aad", "couple-1"], stdin: encrypted.stdout)
        #expect(decrypted.status == 0)
        #expect(decrypted.text == "hello")

        let wrongAAD = try KindredProcess.run(["crypto", "aead", "decrypt", "--keyset", keysetPath, "--aad", "couple-2"], stdin: encrypted.stdout)
        #expect(wrongAAD.status != 0)
        #expect(wrongAAD.stdout.isEmpty)
        #expect(wrongAAD.stderr.split(separator: "\n").count == 1)
    }

    @Test func rawKeysetsHaveNoPrefix() throws {
        let dir = try TemporaryDirectory()
        let keyset = try KindredProcess.run(["crypto", "keyset", "new", "aes256-gcm", "--raw"])
        let path = try dir.file("raw.keyset", keyset.stdout)
        let encrypted = try KindredProcess.run(["crypto", "aead", "encrypt", "--keyset", path], stdinText: "hello")
        #expect(encrypted.stdout.count == 12 + 5 + 16)
    }

    @Test func hybridRoundTripWithPublicKeyset() throws {
        let dir = try TemporaryDirectory()
        let privateKeyset = try KindredProcess.run(["crypto", "keyset", "new", "ecies-p256"])
        let publicKeyset = try KindredProcess.run(["crypto", "keyset", "public"], stdin: privateKeyset.stdout)
        #expect(publicKeyset.status == 0)
        let privatePath = try dir.file("private.keyset", privateKeyset.stdout)
        let publicPath = try dir.file("public.keyset", publicKeyset.stdout)
        let context = "couple|question|alice|bob"
        let encrypted = try KindredProcess.run(["crypto", "hybrid", "encrypt", "--keyset", publicPath, "--context", context], stdinText: "one-time key")
        #expect(encrypted.status == 0)
        #expect(encrypted.stdout.count == 5 + 65 + 12 + 12 + 16)
        let decrypted = try KindredProcess.run(["crypto", "hybrid", "decrypt", "--keyset", privatePath, "--context", context], stdin: encrypted.stdout)
        #expect(decrypted.text == "one-time key")
        let wrongContext = try KindredProcess.run(["crypto", "hybrid", "decrypt", "--keyset", privatePath, "--context", "other"], stdin: encrypted.stdout)
        #expect(wrongContext.status != 0)
    }

    @Test func garbageKeysetFailsWithOneLine() throws {
        let dir = try TemporaryDirectory()
        let path = try dir.file("bad.keyset", [0x0a, 0xff, 0x01])
        let result = try KindredProcess.run(["crypto", "aead", "encrypt", "--keyset", path], stdinText: "x")
        #expect(result.status != 0)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stderr.contains("keyset"))
    }
}
