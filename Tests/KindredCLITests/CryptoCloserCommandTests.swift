import Foundation
import KindredTestSupport
import Testing

/// Closer's device flows driven only through `kindred crypto`, as two simulated phones would.
@Suite struct CryptoCloserCommandTests {
    /// Cheap Argon2id parameters: the real ones are covered by the library tests.
    static let cheap = ["-m", "64", "-t", "1", "-p", "1"]

    @Test func sealedAnswerRevealBetweenTwoDevices() throws {
        let dir = try TemporaryDirectory()
        let couple = try dir.file("couple.keyset", KindredProcess.run(["crypto", "keyset", "new", "aes256-gcm"]).stdout)
        let bobPrivate = try KindredProcess.run(["crypto", "keyset", "new", "ecies-p256"]).stdout
        let bobPrivatePath = try dir.file("bob.keyset", bobPrivate)
        let bobPub = try KindredProcess.run(["crypto", "keyset", "public", "--pub"], stdin: bobPrivate)
        #expect(bobPub.status == 0)
        let pub = bobPub.text.trimmingCharacters(in: .newlines)
        #expect(pub.hasPrefix("pub:v1:"))

        let context = ["--couple-keyset", couple, "--couple", "couple-1", "--question", "q-2026-11-22", "--user", "alice"]
        let sealed = try KindredProcess.run(["crypto", "seal"] + context + ["--keybox-for", pub, "--recipient", "bob"],
                                            stdinText: "Our trip to Kyoto\n")
        #expect(sealed.status == 0, "\(sealed.stderr)")
        let fields = try #require(JSONSerialization.jsonObject(with: Data(sealed.stdout)) as? [String: String])
        for (key, prefix) in [("payload", "sealed:v1:"), ("commitment", "sha256:"), ("commitmentSeal", "enc:v1:"), ("keybox", "keybox:v1:")] {
            let value = try #require(fields[key])
            #expect(value.hasPrefix(prefix))
            let inspected = try KindredProcess.run(["crypto", "inspect", value])
            #expect(inspected.status == 0, "\(key): \(inspected.text)")
        }

        // Bob opens through the keybox with his private keyset: nothing but the JSON crosses over.
        var withoutKey = fields
        withoutKey["oneTimeKey"] = nil
        let relayed = try JSONSerialization.data(withJSONObject: withoutKey)
        let opened = try KindredProcess.run(["crypto", "open"] + context + ["--private-keyset", bobPrivatePath, "--recipient", "bob"],
                                            stdin: Array(relayed))
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.text == "Our trip to Kyoto\n" || opened.text == "Our trip to Kyoto")

        // A server that swaps in another answer's payload is caught.
        let other = try KindredProcess.run(["crypto", "seal"] + context, stdinText: "something else")
        let otherFields = try #require(JSONSerialization.jsonObject(with: Data(other.stdout)) as? [String: String])
        var swapped = withoutKey
        swapped["payload"] = otherFields["payload"]
        let refused = try KindredProcess.run(["crypto", "open"] + context + ["--private-keyset", bobPrivatePath, "--recipient", "bob"],
                                             stdin: Array(try JSONSerialization.data(withJSONObject: swapped)))
        #expect(refused.status != 0)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.split(separator: "\n").count == 1)
    }

    @Test func inspectExplainsInvalidStrings() throws {
        let short = try KindredProcess.run(["crypto", "inspect", "sealed:v1:abcdefghijkl"])
        #expect(short.status == 1)
        #expect(short.text.contains("sealed:v1:"))
        #expect(short.text.contains("80"))
        let hash = try KindredProcess.run(["crypto", "inspect", "sha256:" + String(repeating: "A", count: 43)])
        #expect(hash.status == 0)
    }

    @Test func recoveryPhraseWrapsAndUnwrapsTheCoupleKeyset() throws {
        let dir = try TemporaryDirectory()
        let keyset = try KindredProcess.run(["crypto", "keyset", "new", "aes256-gcm"]).stdout
        let keysetPath = try dir.file("couple.keyset", keyset)
        let phrase = try KindredProcess.run(["crypto", "phrase", "new"])
        #expect(phrase.status == 0)
        #expect(phrase.text.split(whereSeparator: \.isWhitespace).count == 10)

        let wrapped = try KindredProcess.run(["crypto", "phrase", "wrap", "--keyset", keysetPath] + Self.cheap, stdin: phrase.stdout)
        #expect(wrapped.status == 0, "\(wrapped.stderr)")
        let wrappedPath = try dir.file("wrapped.json", wrapped.stdout)
        let fields = try #require(JSONSerialization.jsonObject(with: Data(wrapped.stdout)) as? [String: Any])
        #expect(Set(fields.keys) == ["wrappedCoupleKey", "kdfSalt", "kdfParams"])

        // Case and spacing are forgiven.
        let typed = "  " + phrase.text.uppercased().split(whereSeparator: \.isWhitespace).joined(separator: "   ") + "\n"
        let unwrapped = try KindredProcess.run(["crypto", "phrase", "unwrap", wrappedPath], stdinText: typed)
        #expect(unwrapped.status == 0, "\(unwrapped.stderr)")
        #expect(unwrapped.stdout == keyset)

        let another = try KindredProcess.run(["crypto", "phrase", "new"])
        let wrong = try KindredProcess.run(["crypto", "phrase", "unwrap", wrappedPath], stdin: another.stdout)
        #expect(wrong.status != 0)
        #expect(wrong.stdout.isEmpty)
        #expect(wrong.stderr.contains("recovery phrase"))
    }

    @Test func inviteSecretOpensThePhraseAndVerifierMatches() throws {
        let dir = try TemporaryDirectory()
        let phrase = try KindredProcess.run(["crypto", "phrase", "new"])
        let created = try KindredProcess.run(["crypto", "invite", "create", "--code", "ABC123"] + Self.cheap, stdin: phrase.stdout)
        #expect(created.status == 0, "\(created.stderr)")
        let invite = try #require(JSONSerialization.jsonObject(with: Data(created.stdout)) as? [String: Any])
        let share = try #require(invite["share"] as? String)
        let storedVerifier = try #require(invite["verifier"] as? String)
        #expect(share.hasPrefix("ABC123-"))
        let path = try dir.file("invite.json", created.stdout)

        let verifier = try KindredProcess.run(["crypto", "invite", "verifier", share, path])
        #expect(verifier.status == 0, "\(verifier.stderr)")
        #expect(verifier.text.trimmingCharacters(in: .newlines) == storedVerifier)

        let opened = try KindredProcess.run(["crypto", "invite", "open", share, path])
        #expect(opened.status == 0, "\(opened.stderr)")
        #expect(opened.text.trimmingCharacters(in: .newlines) == phrase.text.trimmingCharacters(in: .newlines))

        // The code alone, with a guessed secret, is refused.
        let guessed = try KindredProcess.run(["crypto", "invite", "open", "ABC123-00000-00000-0000", path])
        #expect(guessed.status != 0)
    }
}
