import ArgumentParser
import CloserKit
import Foundation
import KindredClient

/// The options of the `closer dates` and `closer bucket` device commands: the phone and `--json`.
struct CloserPlayOptions: ParsableArguments {
    @OptionGroup var device: CloserOptions

    @Flag(help: "Print one JSON document on standard output (errors: {\"error\":{code,message}} and one line on standard error).")
    var json = false

    /// Runs `body` on this profile's device; CloserKit's errors become one line (with the
    /// server's code), and with --json also an error document on standard output.
    func run(_ body: (CloserDevice) async throws -> Void) async throws {
        let (device, _) = try self.device.device()
        do {
            try await body(device)
        } catch let error as CloserKitError {
            let code: String = switch error {
            case .client(let client): client.serverCode ?? "client"
            case .noCouple: "not_paired"
            case .invalidInput: "invalid_input"
            case .invalidServerData: "invalid_server_data"
            default: "device"
            }
            if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": code, "message": error.description]])) }
            throw CommandFailure("\(error.description) [\(code)]")
        } catch let error as CommandFailure {
            if json { StandardIO.writeLine(ChatOptions.encode(["error": ["code": "invalid_input", "message": error.description]])) }
            throw error
        }
    }

    /// Prints `value` as one compact JSON document (with --json) or `lines` (otherwise).
    func output(_ value: some Encodable, lines: @autoclosure () -> [String]) throws {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            encoder.dateEncodingStrategy = .iso8601
            StandardIO.writeLine(String(decoding: try encoder.encode(value), as: UTF8.self))
        } else {
            for line in lines() { StandardIO.writeLine(line) }
        }
    }
}

extension DateSwipe: ExpressibleByArgument {}
