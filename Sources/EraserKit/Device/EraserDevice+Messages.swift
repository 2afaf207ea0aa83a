import Foundation

/// An exported conversation with the ex in it.
public struct ChatFinding: Sendable, Equatable {
    /// The export.
    public var export: ChatExport
    /// The participant who is the ex, as the export writes them.
    public var participant: String
    /// How the participant matched the contact (name, phone), with its confidence.
    public var match: ContactMatch
}

extension EraserDevice {
    /// The guided steps for hiding a conversation in Messages on iOS (seed §4, priority 2): apps
    /// cannot touch another app's conversations, so Ex-Eraser shows the steps and keeps an export.
    public static let messagesGuide = [
        "Open the conversation, tap the name at the top and choose Export Chat (WhatsApp) or share it to Files.",
        "Give the exported file to Ex-Eraser: it keeps it, encrypted, in the Vault.",
        "Back in the conversation list, swipe left on it and tap Delete (Messages keeps it 30 days in Recently Deleted).",
        "To stop new messages showing up: tap the name, then Block this Caller, or Hide Alerts.",
    ]

    /// The exported conversations (`.txt` files anywhere under `folder`) with the contact among
    /// their senders, by file path.
    /// - Throws: `ScanError.invalidConfiguration` for an empty contact, the exports' read errors.
    public func findChats(in folder: URL, contact: ScanContact, defaultCountryCode: Int? = nil) throws(EraserKitError) -> [ChatFinding] {
        guard !contact.isEmpty else { throw .scan(.invalidConfiguration("give the ex's name, phone number or e-mail")) }
        let matcher = ContactMatcher(contact, defaultCountryCode: defaultCountryCode)
        var files: [URL] = []
        let keys: [URLResourceKey] = [.isRegularFileKey]
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: keys, options: [.skipsHiddenFiles]) else {
            throw .vault(.fileSystem(path: folder.path, reason: "not a readable folder"))
        }
        for case let url as URL in walker where url.pathExtension.lowercased() == "txt" {
            if (try? url.resourceValues(forKeys: Set(keys)))?.isRegularFile == true { files.append(url) }
        }
        var findings: [ChatFinding] = []
        for file in files.sorted(by: { $0.path < $1.path }) {
            let export = try ChatExport.read(file)
            var best: (String, ContactMatch)?
            for participant in export.participants {
                let phoneLike = participant.filter(\.isNumber).count >= 5
                    && participant.allSatisfy { $0.isNumber || "+-() .\u{A0}".contains($0) }
                let person = EventPerson(name: phoneLike ? nil : participant, phone: phoneLike ? participant : nil)
                if let match = matcher.matches(in: person, field: .attendee, index: nil).max(by: { $0.confidence < $1.confidence }),
                   match.confidence > (best?.1.confidence ?? 0) {
                    best = (participant, match)
                }
            }
            if let (participant, match) = best { findings.append(ChatFinding(export: export, participant: participant, match: match)) }
        }
        return findings
    }

    /// Keeps an exported conversation in the Vault (type `message`, source `messages`): it then
    /// counts on the cleanup dashboard. The export file itself is left where it is.
    /// - Throws: the export's read errors, the Vault's errors.
    @discardableResult
    public func vaultChat(_ file: URL, now: Date = Date()) throws(EraserKitError) -> VaultItem {
        let export = try ChatExport.read(file)
        let metadata = VaultItemMetadata(originalPath: file.path, originalName: file.lastPathComponent,
                                         title: export.participants.joined(separator: ", "))
        return try vault.add(file: file, item: VaultItemInput(
            originalID: "chat:" + file.standardizedFileURL.path, type: .message, matchType: .contact, source: .messages,
            metadata: metadata), now: now)
    }
}
