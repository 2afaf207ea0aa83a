import Foundation
import KindredTestSupport
import Testing

/// `kindred keys list|rotate|retire` and the key-encryption key at start, run as the real binary
/// on a SQLite file (issue 21, item 4).
@Suite struct KeysCommandTests {
    let folder: TemporaryDirectory
    let databaseURL: String
    /// Two key-encryption keys (base64 of 32 bytes).
    static let kek = Data(repeating: 0x42, count: 32).base64EncodedString()
    static let otherKEK = Data(repeating: 0x17, count: 32).base64EncodedString()

    init() throws {
        folder = try TemporaryDirectory()
        databaseURL = "sqlite:" + folder.url.appendingPathComponent("kindred.sqlite").path
    }

    /// Runs `kindred ARGS --database-url …` with the test's environment minus every `KINDRED_*`
    /// variable, plus `environment`.
    func kindred(_ arguments: [String], environment: [String: String] = [:]) throws -> ChildProcess.Result {
        var env = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
        env.merge(environment) { $1 }
        return try ChildProcess.run(
            ChildProcess.kindredExecutable.path, arguments + ["--database-url", databaseURL], environment: env
        )
    }

    /// The `keys` array of a `--json` document.
    static func keys(_ result: ChildProcess.Result) throws -> [[String: Any]] {
        let document = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout)) as? [String: Any])
        return try #require(document["keys"] as? [[String: Any]])
    }

    @Test(.timeLimit(.minutes(2)))
    func rotateListAndRetireWithTheKeyEncryptionKeyFromTheEnvironment() throws {
        let env = ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek]
        let list = try kindred(["keys", "list", "--json"], environment: env)
        #expect(list.status == 0, "\(list.stderr)")
        let first = try Self.keys(list)
        #expect(first.map { $0["id"] as? String } == ["k1"])
        #expect(first.map { $0["state"] as? String } == ["active"])
        #expect(first.map { $0["sealed"] as? Bool } == [true])
        let fingerprint = try #require(first.first?["sealedBy"] as? String)
        #expect(fingerprint.count == 16)

        let rotate = try kindred(["keys", "rotate", "--json"], environment: env)
        #expect(rotate.status == 0, "\(rotate.stderr)")
        let rotated = try #require(try JSONSerialization.jsonObject(with: Data(rotate.stdout)) as? [String: Any])
        let newKey = try #require(rotated["newKey"] as? String)
        #expect(try Self.keys(rotate).map { $0["id"] as? String } == ["k1", newKey])
        #expect(try Self.keys(rotate).map { $0["state"] as? String } == ["previous", "active"])
        #expect(try Self.keys(rotate).map { $0["sealedBy"] as? String } == [fingerprint, fingerprint])

        let active = try kindred(["keys", "retire", newKey, "--json"], environment: env)
        #expect(active.status == 1)
        #expect(active.stdout.isEmpty)
        #expect(active.stderr == "Error: signing key \(newKey) is the active key; rotate first (kindred keys rotate), then retire it\n")

        let retire = try kindred(["keys", "retire", "k1", "--json"], environment: env)
        #expect(retire.status == 0, "\(retire.stderr)")
        #expect(try Self.keys(retire).map { $0["state"] as? String } == ["retired", "active"])

        let lines = try kindred(["keys", "list"], environment: env)
        #expect(lines.status == 0, "\(lines.stderr)")
        let rows = String(decoding: lines.stdout, as: UTF8.self).split(separator: "\n").map { $0.split(separator: "\t") }
        #expect(rows.map { $0.first.map(String.init) } == ["k1", newKey])
        #expect(rows.map { $0.dropFirst().prefix(2).joined(separator: " ") } == ["retired sealed:\(fingerprint)", "active sealed:\(fingerprint)"])
    }

    @Test(.timeLimit(.minutes(2)))
    func theKeyEncryptionKeyMayComeFromAFileAndAWrongOneIsRefused() throws {
        let file = try folder.write("kek", Array((Self.kek + "\n").utf8))
        let first = try kindred(["keys", "list", "--json"], environment: ["KINDRED_KEY_ENCRYPTION_KEY_FILE": file.path])
        #expect(first.status == 0, "\(first.stderr)")
        let fingerprint = try #require(try Self.keys(first).first?["sealedBy"] as? String)
        // The same key from the environment reads the same keys.
        let same = try kindred(["keys", "list", "--json"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek])
        #expect(same.status == 0, "\(same.stderr)")

        let wrong = try kindred(["keys", "rotate", "--json"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.otherKEK])
        #expect(wrong.status == 1)
        #expect(wrong.stdout.isEmpty)
        #expect(wrong.stderr.hasPrefix("Error: the signing keys are sealed under key-encryption key \(fingerprint), not the configured one ("))
        let none = try kindred(["keys", "list", "--json"])
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("Error: the signing keys are sealed under key-encryption key \(fingerprint), and no key-encryption key is set"))
        let bad = try kindred(["keys", "list", "--json"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": "c2hvcnQ="])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("it must be 32 bytes, not 5"))
    }

    @Test(.timeLimit(.minutes(2)))
    func productionModeRefusesPlaintextKeysAndServeRefusesAWrongKey() throws {
        let production = try kindred(["keys", "list", "--json"], environment: ["KINDRED_MODE": "production"])
        #expect(production.status == 1)
        // (A new database logs its migrations first; the error is the last line.)
        #expect(production.stderr.split(separator: "\n").last?.hasPrefix("Error: mode is production but no key-encryption key is set") == true)

        let sealed = try kindred(["keys", "list"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek, "KINDRED_MODE": "production"])
        #expect(sealed.status == 0, "\(sealed.stderr)")
        // `kindred serve` stops at start with the typed error, before it listens.
        let serve = try kindred(
            ["serve", "--port", "0"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.otherKEK, "KINDRED_MODE": "production"]
        )
        #expect(serve.status != 0)
        #expect(serve.stderr.contains("the signing keys are sealed under key-encryption key"))
        #expect(serve.stderr.contains("not the configured one"))
    }
}

/// Changing the key-encryption key in place (issue 21): `kindred keys reseal` with the new key in
/// `KINDRED_KEY_ENCRYPTION_KEY` and the old one in `KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY`.
extension KeysCommandTests {
    @Test(.timeLimit(.minutes(2)))
    func resealMovesEveryLiveKeyToTheNewKeyEncryptionKey() throws {
        let old = ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek]
        let list = try kindred(["keys", "list", "--json"], environment: old)
        #expect(list.status == 0, "\(list.stderr)")
        let oldFingerprint = try #require(try Self.keys(list).first?["sealedBy"] as? String)
        let rotate = try kindred(["keys", "rotate", "--json"], environment: old)
        #expect(rotate.status == 0, "\(rotate.stderr)")

        // Step 1: both keys set (what every replica runs with during the change) reads the keys.
        let both = ["KINDRED_KEY_ENCRYPTION_KEY": Self.otherKEK, "KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY": Self.kek]
        let during = try kindred(["keys", "list", "--json"], environment: both)
        #expect(during.status == 0, "\(during.stderr)")
        #expect(try Self.keys(during).map { $0["sealedBy"] as? String } == [oldFingerprint, oldFingerprint])

        // Step 2: reseal; every live key is sealed under the new key, and again is a no-op.
        let reseal = try kindred(["keys", "reseal", "--json"], environment: both)
        #expect(reseal.status == 0, "\(reseal.stderr)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(reseal.stdout)) as? [String: Any])
        #expect((document["resealed"] as? [String])?.count == 2)
        let newFingerprints = try Self.keys(reseal).compactMap { $0["sealedBy"] as? String }
        #expect(newFingerprints.count == 2 && Set(newFingerprints).count == 1 && newFingerprints[0] != oldFingerprint)
        let again = try kindred(["keys", "reseal"], environment: both)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(String(decoding: again.stdout, as: UTF8.self).hasPrefix("re-sealed 0 key(s)\n"))

        // Step 3: the previous key can go; the old key alone no longer opens them.
        let after = try kindred(["keys", "list", "--json"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.otherKEK])
        #expect(after.status == 0, "\(after.stderr)")
        let stale = try kindred(["keys", "list", "--json"], environment: old)
        #expect(stale.status == 1)
        #expect(stale.stderr.contains("not the configured one"))
    }

    @Test(.timeLimit(.minutes(2)))
    func resealRefusesAMissingOrUnchangedKeyAndABadPreviousKey() throws {
        let noCurrent = try kindred(["keys", "reseal"], environment: ["KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY": Self.kek])
        #expect(noCurrent.status != 0)
        #expect(noCurrent.stderr.contains("previousKeyEncryptionKey is set without keyEncryptionKey"))
        let same = try kindred(["keys", "reseal"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek, "KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY": Self.kek])
        #expect(same.status != 0)
        #expect(same.stderr.contains("the previous key-encryption key (KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY) is the configured one"))
        let bad = try kindred(["keys", "reseal"], environment: ["KINDRED_KEY_ENCRYPTION_KEY": Self.kek, "KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY": "c2hvcnQ="])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("the previous key-encryption key (KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY or KINDRED_PREVIOUS_KEY_ENCRYPTION_KEY_FILE) is invalid: it must be 32 bytes, not 5"))
        let plaintext = try kindred(["keys", "reseal"])
        #expect(plaintext.status == 1)
        #expect(plaintext.stderr.split(separator: "\n").last?.hasPrefix("Error: re-sealing needs the new key-encryption key") == true)
    }
}
