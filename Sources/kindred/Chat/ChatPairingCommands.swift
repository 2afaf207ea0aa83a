import ArgumentParser
import Foundation
import SoulMateKit

/// The JSON of a pair request.
func requestJSON(_ request: SoulMateDevice.PairRequest) -> [String: Any] {
    [
        "id": request.id, "status": request.status.rawValue,
        "from": ["id": request.from.id, "firstName": orNull(request.from.firstName), "lastName": orNull(request.from.lastName)],
        "to": ["id": request.to.id, "firstName": orNull(request.to.firstName), "lastName": orNull(request.to.lastName)],
        "createdAt": iso(request.createdAt),
    ]
}

/// The JSON of an unpair request.
func unpairJSON(_ request: SoulMateDevice.UnpairRequest) -> [String: Any] {
    [
        "id": request.id, "status": request.status.rawValue, "requesterId": request.requesterId,
        "createdAt": iso(request.createdAt), "canLeaveAt": iso(request.canLeaveAt),
    ]
}

/// A person's name for a line of output.
func displayName(_ person: SoulMateDevice.Person) -> String {
    [person.firstName, person.lastName].compactMap { $0 }.joined(separator: " ")
}

/// `kindred chat code [--rotate]`.
struct ChatCodeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "code", abstract: "Show this account's 6-digit pair code, or a new one.")

    @OptionGroup var options: ChatOptions
    @Flag(help: "Replace the code with a new one (the old one stops working).") var rotate = false

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let code = try await device.pairCode(rotate: rotate)
            options.output(options.strings(.pairCodeYours, code), json: ["code": code])
        }
    }
}

/// `kindred chat request CODE`.
struct ChatRequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "request", abstract: "Send a pair request to the owner of a 6-digit code.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "Your partner's pair code.") var code: String

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let request = try await device.requestPair(code: code)
            let line = request.status == .accepted
                ? options.strings(.pairRequestAccepted, displayName(request.to))
                : options.strings(.pairRequestSent, displayName(request.to))
            options.output(line, json: requestJSON(request))
        }
    }
}

/// `kindred chat requests`: incoming and outgoing.
struct ChatRequestsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "requests", abstract: "List incoming and outgoing pair requests and the pending count.")

    @OptionGroup var options: ChatOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let boxes = try await device.pairRequests()
            var lines = ["\(options.strings[.pairRequestIncoming]) (\(boxes.pendingCount))"]
            lines += boxes.incoming.map { "  \($0.id)  \(displayName($0.from))" }
            lines.append(options.strings[.pairRequestOutgoing])
            lines += boxes.outgoing.map { "  \($0.id)  \(displayName($0.to))" }
            options.output(lines.joined(separator: "\n"), json: [
                "incoming": boxes.incoming.map(requestJSON), "outgoing": boxes.outgoing.map(requestJSON),
                "pendingCount": boxes.pendingCount,
            ])
        }
    }
}

/// Whether `id` is the pending unpair request of the pair (else it names a pair request).
func isUnpairRequest(_ id: String, on device: SoulMateDevice) async -> Bool {
    guard let pair = try? await device.pairDetails() else { return false }
    return pair.unpairRequest?.id == id
}

/// Answers the request `id`: the pair's pending unpair request with `unpair`, else a pair request
/// with `pair`, each printing its outcome.
func answer(
    _ id: String, options: ChatOptions, unpair action: SoulMateDevice.UnpairAnswer,
    unpairLine: SoulMateString, paired: Bool?,
    pair: @escaping (SoulMateDevice) async throws -> (line: String, json: [String: Any])
) async throws {
    let (device, _) = try options.device()
    try await options.run {
        if await isUnpairRequest(id, on: device) {
            let request = try await device.answerUnpair(id, action)
            var object: [String: Any] = ["unpairRequest": unpairJSON(request)]
            if let paired { object["paired"] = paired }
            options.output(options.strings[unpairLine], json: object)
        } else {
            let outcome = try await pair(device)
            options.output(outcome.line, json: outcome.json)
        }
    }
}

/// `kindred chat accept ID`: a pair request, or the partner's unpair request.
struct ChatAcceptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accept", abstract: "Accept a pair request (you are paired) or your partner's unpair request (the conversation is deleted).")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The request's id (from `requests`, or the pair's pending unpair request).") var id: String

    func run() async throws {
        try await answer(id, options: options, unpair: .accept, unpairLine: .unpairAccepted, paired: false) { [id, options] device in
            let pair = try await device.acceptPairRequest(id)
            return (options.strings(.pairRequestAccepted, pair.partnerName ?? pair.partnerID),
                    ["paired": true, "pairId": pair.pairID, "partnerId": pair.partnerID, "since": iso(pair.since)])
        }
    }
}

/// `kindred chat reject ID`.
struct ChatRejectCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reject", abstract: "Decline a pair request or your partner's unpair request.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The request's id.") var id: String

    func run() async throws {
        try await answer(id, options: options, unpair: .reject, unpairLine: .unpairYouDeclined, paired: true) { [id, options] device in
            let request = try await device.rejectPairRequest(id)
            return (options.strings(.pairRequestRejected, displayName(request.to)), requestJSON(request))
        }
    }
}

/// `kindred chat cancel ID`.
struct ChatCancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Withdraw your pair request or your unpair request.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The request's id.") var id: String

    func run() async throws {
        try await answer(id, options: options, unpair: .cancel, unpairLine: .unpairCancelled, paired: nil) { [id, options] device in
            let request = try await device.cancelPairRequest(id)
            return (options.strings[.pairRequestCancelled], requestJSON(request))
        }
    }
}

/// `kindred chat unpair [--leave]`.
struct ChatUnpairCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unpair",
        abstract: "Ask your partner to end the pairing; with --leave, end it alone once your request has waited 7 days unanswered.")

    @OptionGroup var options: ChatOptions
    @Flag(help: "Leave alone (your unpair request must have waited 7 days).") var leave = false

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            if leave {
                guard let pending = try await device.pairDetails().unpairRequest else {
                    throw SoulMateKitError.invalidInput("there is no unpair request to leave with; run `kindred chat unpair` first")
                }
                let request = try await device.answerUnpair(pending.id, .leave)
                options.output(options.strings[.unpairAccepted], json: ["unpairRequest": unpairJSON(request), "paired": false])
                return
            }
            let request = try await device.requestUnpair()
            let when = options.strings.longDate(request.canLeaveAt, timeZone: .current)
            options.output(options.strings[.unpairSent] + " " + options.strings(.unpairCanLeaveAt, when), json: unpairJSON(request))
        }
    }
}
