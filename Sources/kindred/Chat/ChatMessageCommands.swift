import ArgumentParser
import Foundation
import KindredCrypto
import SoulMateKit

/// The JSON of a stored message (the secret's text only once opened, as the app shows it).
func messageJSON(_ message: LocalMessage) -> [String: Any] {
    var object: [String: Any] = [
        "id": message.id, "senderId": message.senderID, "recipientId": message.recipientID, "sentAt": iso(message.sentAt),
        "direction": message.direction.rawValue, "state": message.uploadState.rawValue, "isSecret": message.isSecret,
        "hidden": message.isHidden,
    ]
    switch message.content {
    case .payload(let payload):
        object["type"] = payload.type.rawValue
        object["value"] = message.isHidden ? NSNull() : payload.value
    case .undecryptable:
        object["type"] = "undecryptable"
    }
    if let failure = message.failure { object["failure"] = orNull(failure.reason) }
    return object
}

/// One line for a stored message.
func messageLine(_ message: LocalMessage, strings: SoulMateStrings) -> String {
    let who = message.direction == .outgoing ? strings[.messageYou] : "❤"
    let text: String
    switch message.content {
    case .undecryptable: text = strings[.messageUndecryptable]
    case .payload(let payload):
        switch payload.type {
        case .heartbeat: text = message.direction == .outgoing ? strings[.messageHeartbeatOutgoing] : strings(.messageHeartbeatIncoming, "❤")
        case .gif: text = "\(strings[.messageGIF]) \(payload.value)"
        case .secret: text = message.isHidden ? "\(strings[.messageSecretHidden]) · \(strings[.messageSecretTapToOpen])" : "🤫 \(payload.value)"
        default: text = payload.value
        }
    }
    let state = switch message.uploadState {
    case .pendingUpload: " (\(strings[.messagePending]))"
    case .failed where message.direction == .outgoing: " (\(strings[.messageFailed]))"
    default: ""
    }
    return "\(message.sentAt.formatted(.iso8601)) \(who): \(text)\(state)  [\(message.id)]"
}

/// Sends one piece of content and prints the outcome.
func send(_ content: ChatContent, options: ChatOptions) async throws {
    let (device, _) = try options.device()
    try await options.run {
        let (message, report) = try await device.send(content)
        let state = message.uploadState == .uploaded ? options.strings[.messageSent]
            : message.uploadState == .failed ? options.strings[.messageFailed] : options.strings[.messagePending]
        var object = messageJSON(message)
        object["outbox"] = ["sent": report.sent, "stillPending": report.stillPending, "failed": report.failed]
        options.output("\(state) [\(message.id)]", json: object)
    }
}

/// `kindred chat send TEXT [--secret]`.
struct ChatSendCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "send", abstract: "Write a message (stored here first, then sealed and sent).")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The text.") var text: String
    @Flag(help: "A secret message: hidden until your partner opens it.") var secret = false

    func run() async throws { try await send(secret ? .secret(text) : .text(text), options: options) }
}

/// `kindred chat emoji E`.
struct ChatEmojiCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "emoji", abstract: "Send emoji.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "One or more emoji.") var emoji: String

    func run() async throws { try await send(.emoji(emoji), options: options) }
}

/// `kindred chat gif ID URL`.
struct ChatGIFCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "gif", abstract: "Send a GIF by its provider id and https URL.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The GIF's id at its provider.") var id: String
    @Argument(help: "The GIF's https URL.") var url: String

    func run() async throws {
        let link: GIFLink
        do { link = try GIFLink(url: url, id: id) } catch { throw CommandFailure(options.strings.message(for: error)) }
        try await send(.gif(link), options: options)
    }
}

/// `kindred chat heart`.
struct ChatHeartCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "heart", abstract: "Send a heartbeat 💓.")

    @OptionGroup var options: ChatOptions

    func run() async throws { try await send(.heartbeat, options: options) }
}

/// `kindred chat sync`.
struct ChatSyncCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sync",
        abstract: "Retry the outbox, fetch waiting messages, decrypt and store them here, and acknowledge them (the server then deletes them).")

    @OptionGroup var options: ChatOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let report = try await device.sync()
            var line = "↑ \(report.sent.count)  ↓ \(report.received.count)  ✓ \(report.acknowledged)"
            if !report.failed.isEmpty { line += "  ✗ \(report.failed.count)" }
            if !report.undecryptable.isEmpty { line += "\n" + options.strings[.messageUndecryptable] + " (\(report.undecryptable.count))" }
            if report.unpaired { line = options.strings[.unpairAccepted] }
            options.output(line, json: [
                "sent": report.sent, "failed": report.failed, "stillPending": report.stillPending, "received": report.received,
                "undecryptable": report.undecryptable, "acknowledged": report.acknowledged, "unpaired": report.unpaired,
            ])
        }
    }
}

/// `kindred chat history [--limit N]`.
struct ChatHistoryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "history", abstract: "The newest messages on this phone, oldest of them first.")

    @OptionGroup var options: ChatOptions
    @Option(help: "How many (1 to 1000).") var limit = 50

    func validate() throws {
        guard (1...1000).contains(limit) else { throw ValidationError("--limit must be 1 to 1000") }
    }

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let messages = try await device.history(limit: limit).reversed()
            let text = messages.isEmpty ? options.strings[.chatEmpty] : messages.map { messageLine($0, strings: options.strings) }.joined(separator: "\n")
            options.output(text, json: ["messages": messages.map(messageJSON)])
        }
    }
}

/// `kindred chat open ID`: reveals a secret message.
struct ChatOpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "open", abstract: "Open a secret message.")

    @OptionGroup var options: ChatOptions
    @Argument(help: "The message's id.") var id: String

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            _ = try device.store.markOpened(id: id)
            guard let message = try device.store.message(id: id) else { throw SoulMateKitError.messageNotFound(id: id) }
            options.output(messageLine(message, strings: options.strings), json: messageJSON(message))
        }
    }
}

/// `kindred chat location LAT LON`.
struct ChatLocationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location", abstract: "Share a coarse location (rounded to about 1 km, sealed for your partner only).")

    @OptionGroup var options: ChatOptions
    @Argument(help: "Latitude in degrees.") var latitude: Double
    @Argument(help: "Longitude in degrees.") var longitude: Double

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let location = try await device.shareLocation(latitude: latitude, longitude: longitude)
            options.output("\(location.latitude), \(location.longitude)", json: ["latitude": location.latitude, "longitude": location.longitude])
        }
    }
}

/// `kindred chat status`.
struct ChatStatusCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "status", abstract: "Together since, the day count and the distance between you.")

    @OptionGroup var options: ChatOptions

    func run() async throws {
        let (device, _) = try options.device()
        try await options.run {
            let status = try await device.status()
            let lines = [
                options.strings.togetherSince(status.togetherSince, timeZone: .current),
                options.strings.daysTogether(status.dayCount),
                options.strings.distance(meters: status.distanceMeters),
            ]
            options.output(lines.joined(separator: "\n"), json: [
                "togetherSince": iso(status.togetherSince), "dayCount": status.dayCount,
                "distanceMeters": orNull(status.distanceMeters), "partnerLocationAt": iso(status.partnerLocationAt),
            ])
        }
    }
}
