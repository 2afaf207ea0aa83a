#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import KindredTestSupport
import Testing

/// `kindred account signup|login|whoami|logout` against a live `kindred serve`, with two
/// profiles standing for two phones.
@Suite struct AccountCommandTests {
    let folder: TemporaryDirectory
    let phoneA: String
    let phoneB: String

    init() throws {
        folder = try TemporaryDirectory()
        phoneA = folder.url.appendingPathComponent("phone-a").path
        phoneB = folder.url.appendingPathComponent("phone-b").path
    }

    @Test(.timeLimit(.minutes(2)))
    func anonymousSignupIsRememberedByTheProfile() async throws {
        let server = try await LiveServer()
        let signup = try account(["signup", "--anonymous", "--app", "soulmate", "--profile", phoneA, "--server", server.url.absoluteString])
        #expect(signup.status == 0, "\(signup.stderr)")
        let id = try #require(signup.text.wholeMatch(of: /signed up ([0-9a-f-]{36}) \(soulmate, anonymous\)\n/)?.output.1)

        // No --app and no --server: both come from the profile.
        let whoami = try account(["whoami", "--json", "--profile", phoneA])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        let user = try #require(try JSONSerialization.jsonObject(with: Data(whoami.stdout)) as? [String: Any])
        #expect(user["id"] as? String == String(id))
        #expect(user["app"] as? String == "soulmate")
        #expect(user["isAnonymous"] as? Bool == true)
        #expect(user["providers"] as? [String] == [])

        #expect(try mode(of: "\(phoneA)/session.json") == 0o600)
        #expect(try mode(of: "\(phoneA)/profile.json") == 0o600)
        #expect(try mode(of: phoneA) == 0o700)
        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func emailSignupThenLoginFromASecondPhoneThenLogout() async throws {
        let server = try await LiveServer()
        let common = ["--app", "closer", "--server", server.url.absoluteString]

        let signup = try account(["signup", "--email", "ada@example.com", "--display-name", "Ada", "--profile", phoneA] + common,
                                 password: "correct horse battery")
        #expect(signup.status == 0, "\(signup.stderr)")
        let id = try #require(signup.text.wholeMatch(of: /signed up ([0-9a-f-]{36}) \(closer, password\)\n/)?.output.1)

        let login = try account(["login", "--email", "Ada@Example.com", "--password-stdin", "--profile", phoneB] + common,
                                stdin: "correct horse battery\nnot read\n")
        #expect(login.status == 0, "\(login.stderr)")
        #expect(login.text == "logged in \(id) (closer)\n")

        let whoami = try account(["whoami", "--profile", phoneB])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        let lines = whoami.text.split(separator: "\n").map(String.init)
        #expect(lines.prefix(6) == [
            "id: \(id)", "app: closer", "anonymous: no", "providers: password", "email: ada@example.com", "displayName: Ada",
        ])

        let logout = try account(["logout", "--profile", phoneB])
        #expect(logout.status == 0, "\(logout.stderr)")
        #expect(logout.text == "logged out\n")
        #expect(!FileManager.default.fileExists(atPath: "\(phoneB)/session.json"))

        let afterLogout = try account(["whoami", "--profile", phoneB])
        #expect(afterLogout.status == 1)
        #expect(afterLogout.stderr == "Error: not signed in\n")

        // Phone A's session is its own and still works.
        let stillA = try account(["whoami", "--json", "--profile", phoneA])
        #expect(stillA.status == 0, "\(stillA.stderr)")
        #expect(await server.stop().status == 0)
    }

    @Test(.timeLimit(.minutes(2)))
    func aWrongPasswordAndATakenAddressFailWithTheServersCode() async throws {
        let server = try await LiveServer()
        let common = ["--app", "closer", "--server", server.url.absoluteString]
        let signup = try account(["signup", "--email", "bob@example.com", "--profile", phoneA] + common, password: "correct horse battery")
        #expect(signup.status == 0, "\(signup.stderr)")

        let wrong = try account(["login", "--email", "bob@example.com", "--profile", phoneB] + common, password: "incorrect horse")
        #expect(wrong.status == 1)
        #expect(wrong.stderr.hasPrefix("Error: invalid_credentials (HTTP 401): "))
        #expect(wrong.stderr.split(separator: "\n").count == 1)
        #expect(!FileManager.default.fileExists(atPath: "\(phoneB)/session.json"))

        let taken = try account(["signup", "--email", "bob@example.com", "--profile", phoneB] + common, password: "another password")
        #expect(taken.status == 1)
        #expect(taken.stderr.hasPrefix("Error: email_taken (HTTP 409): "))
        #expect(taken.stderr.split(separator: "\n").count == 1)
        #expect(await server.stop().status == 0)
    }

    @Test func withoutAPasswordNothingIsSent() throws {
        // Port 9 (discard) is never contacted: the password is missing first.
        let result = try account(["login", "--email", "bob@example.com", "--app", "closer", "--profile", phoneA,
                                  "--server", "http://127.0.0.1:9"])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no password: set KINDRED_PASSWORD or pass --password-stdin\n")
    }

    @Test func aProfileWithoutAnAppAsksForOne() throws {
        let result = try account(["whoami", "--profile", phoneA])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: no app: pass --app (closer, soulmate, streaksync, exeraser, pulse)\n")
    }

    @Test func anUnknownAppIsRefused() throws {
        let result = try account(["whoami", "--app", "myspace", "--profile", phoneA])
        #expect(result.status == 1)
        #expect(result.stderr == "Error: --app: unknown app \"myspace\" (closer, soulmate, streaksync, exeraser, pulse)\n")
    }

    /// Runs `kindred account ARGS` without the test process's `KINDRED_*` settings.
    private func account(_ arguments: [String], password: String? = nil, stdin: String = "") throws -> ChildProcess.Result {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("KINDRED_") }
        environment["KINDRED_PASSWORD"] = password
        return try ChildProcess.run(ChildProcess.kindredExecutable.path, ["account"] + arguments,
                                    input: Array(stdin.utf8), environment: environment)
    }

    /// The permission bits of `path`.
    private func mode(of path: String) throws -> mode_t {
        var status = stat()
        guard stat(path, &status) == 0 else { throw POSIXError(.ENOENT) }
        return status.st_mode & 0o777
    }
}
