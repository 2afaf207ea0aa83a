import ArgumentParser
import CloserKit
import Foundation
import KindredClient
import KindredCrypto

/// The options every device-side `closer` command takes: the profile (one simulated phone) and the server.
struct CloserOptions: ParsableArguments {
    @Option(help: "The profile folder of this device (default: $KINDRED_PROFILE or ./profiles/default).")
    var profile: String?

    @Option(help: "The server's base URL (default: the profile's, else \(AccountOptions.defaultServer)).")
    var server: String?

    /// The profile folder.
    var profileURL: URL {
        URL(fileURLWithPath: profile ?? ProcessInfo.processInfo.environment["KINDRED_PROFILE"] ?? "profiles/default")
    }

    /// The server from the flag, else the profile, else the default; the app is always `closer`.
    func resolve() throws -> AccountProfile {
        let remembered = try AccountProfile.load(from: profileURL)
        let text = server ?? remembered?.serverURL.absoluteString ?? AccountOptions.defaultServer
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            throw CommandFailure("--server: \"\(text)\" is not an http(s) URL")
        }
        return AccountProfile(app: .closer, serverURL: url)
    }

    /// The device: session, secure store and pending keys of the profile.
    func device() throws -> (CloserDevice, AccountProfile) {
        let resolved = try resolve()
        let session = KindredSession(serverURL: resolved.serverURL, app: .closer, store: FileTokenStore(profileDirectory: profileURL))
        let environment = ProcessInfo.processInfo.environment
        do {
            let device = try CloserDevice.profile(at: profileURL, session: session, environment: environment,
                                                  kdfParameters: try Self.kdfParameters(environment))
            return (device, resolved)
        } catch let error as CloserKitError {
            throw CommandFailure(error.description)
        }
    }

    /// Argon2id parameters for wraps and invites: Closer's, unless `KINDRED_CLOSER_KDF_MEMORY_KIB`
    /// and `KINDRED_CLOSER_KDF_ITERATIONS` lower them (tests and benchmarks on debug builds; the
    /// acceptor always uses the parameters stored with the invite).
    static func kdfParameters(_ environment: [String: String]) throws -> CloserKDFParameters {
        let memory = environment["KINDRED_CLOSER_KDF_MEMORY_KIB"], iterations = environment["KINDRED_CLOSER_KDF_ITERATIONS"]
        guard memory != nil || iterations != nil else { return .closer }
        guard let m = Int(memory ?? "46080"), let t = Int(iterations ?? "3") else {
            throw CommandFailure("KINDRED_CLOSER_KDF_MEMORY_KIB and KINDRED_CLOSER_KDF_ITERATIONS must be whole numbers")
        }
        do {
            return try CloserKDFParameters(memoryKiB: m, iterations: t, parallelism: 1)
        } catch {
            throw CommandFailure(error)
        }
    }
}

extension CloserKitError {
    /// The command-line failure for this error: one line, non-zero exit.
    var commandFailure: CommandFailure { CommandFailure(description) }
}

/// Runs a closer command's body, turning CloserKit's errors into one clear line.
func closerRun(_ body: () async throws -> Void) async throws {
    do {
        try await body()
    } catch let error as CloserKitError {
        throw error.commandFailure
    }
}
