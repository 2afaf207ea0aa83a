import Foundation

/// An exported conversation: the text file a messaging app writes with "Export Chat" (WhatsApp's
/// `_chat.txt` on iOS, `WhatsApp Chat with ….txt` on Android, and similar `.txt` exports).
public struct ChatExport: Sendable, Equatable {
    /// The export's text file.
    public var file: URL
    /// The senders, as the export writes them (a name, or a phone number for an unsaved contact),
    /// in order of their first message.
    public var participants: [String]
    /// How many messages the file holds (continuation lines belong to the message before).
    public var messageCount: Int

    /// Reads an export's senders and messages. A line starts a message when it has the shape
    /// `[date, time] Sender: text` (iOS) or `date, time - Sender: text` (Android); other lines
    /// continue the message before. Lines without a sender (system notices) start no message.
    /// - Throws: `VaultError.fileSystem` when the file cannot be read, `.invalidInput` when it is
    ///   not UTF-8 text.
    public static func read(_ file: URL) throws(EraserKitError) -> ChatExport {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw .vault(.fileSystem(path: file.path, reason: (error as NSError).localizedDescription))
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .vault(.invalidInput("\(file.lastPathComponent) is not UTF-8 text, so not a chat export"))
        }
        var participants: [String] = []
        var count = 0
        for line in text.split(whereSeparator: \.isNewline) {
            guard let sender = sender(of: Substring(line)) else { continue }
            count += 1
            if !participants.contains(sender) { participants.append(sender) }
        }
        return ChatExport(file: file, participants: participants, messageCount: count)
    }

    /// The sender of a message line, or `nil` for a continuation line or a system notice.
    static func sender(of line: Substring) -> String? {
        let trimmed = line.drop { $0 == "\u{200E}" || $0 == "\u{FEFF}" || $0 == " " }
        let rest: Substring
        if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]") {
            guard isStamp(trimmed[trimmed.index(after: trimmed.startIndex)..<close]) else { return nil }
            rest = trimmed[trimmed.index(after: close)...]
        } else if let dash = trimmed.range(of: " - ") {
            guard isStamp(trimmed[..<dash.lowerBound]) else { return nil }
            rest = trimmed[dash.upperBound...]
        } else {
            return nil
        }
        let body = rest.drop { $0 == " " || $0 == "\u{200E}" }
        guard let colon = body.range(of: ": ") else { return nil }
        let sender = body[..<colon.lowerBound].trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\u{200E}\u{202A}\u{202C}")))
        return sender.isEmpty || sender.count > 80 ? nil : sender
    }

    /// Whether `text` looks like an export's time stamp: a date with `/`, `.` or `-`, a comma, a time with `:`.
    static func isStamp(_ text: Substring) -> Bool {
        let parts = text.split(separator: ",", maxSplits: 1)
        guard parts.count == 2 else { return false }
        let date = parts[0].trimmingCharacters(in: .whitespaces)
        let time = parts[1].trimmingCharacters(in: .whitespaces)
        return date.count >= 6 && date.allSatisfy { $0.isNumber || "/.-".contains($0) } && date.contains(where: \.isNumber)
            && time.contains(":") && time.first?.isNumber == true
    }
}
