import CloserAPI
import Foundation
import KindredClient

/// A capsule as this device reads it: its title always, its content once unlocked.
public struct OpenedCapsule: Sendable, Equatable, Codable {
    /// The capsule's id.
    public var id: String
    /// Who sealed it.
    public var createdBy: String
    /// When it unlocks.
    public var unlockAt: Date
    /// Whether it is still locked.
    public var locked: Bool
    /// The title.
    public var title: String
    /// The content (nil while locked).
    public var content: String?
}

/// Memory lane on the device (docs/closer.md, "Memory lane"): seal, list, open and delete time
/// capsules. Titles and contents are sealed under the couple key; the server serves a content
/// only from its unlock time on.
extension CloserDevice {
    /// Seals a capsule that unlocks at `unlockAt`.
    public func sealCapsule(title: String, content: String, unlockAt: Date) async throws(CloserKitError) -> OpenedCapsule {
        guard !title.isEmpty, !content.isEmpty else { throw .invalidInput("a capsule needs a title and content") }
        let keyring = try keyring()
        let me = try await userId()
        return try await withCouple { couple throws(CloserKitError) in
            let body = Components.Schemas.CloserCapsuleCreate(
                title: try CapsuleText(field: "title", userId: me, text: title).seal(cipher: keyring.cipher, coupleID: couple.id),
                content: try CapsuleText(field: "content", userId: me, text: content).seal(cipher: keyring.cipher, coupleID: couple.id),
                unlockAt: unlockAt
            )
            let output = try await call { [app] in
                try await $0.createCloserCapsule(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(body))
            }
            guard case .created(let created) = output, case .json(let capsule) = created.body else { throw Self.failure(output) }
            return try Self.opened(capsule, cipher: keyring, coupleID: couple.id)
        }
    }

    /// Every capsule, soonest unlock first, titles opened (contents of unlocked ones too).
    public func capsules() async throws(CloserKitError) -> [OpenedCapsule] {
        let keyring = try keyring()
        return try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.listCloserCapsules(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
            var opened: [OpenedCapsule] = []
            for capsule in list.capsules { opened.append(try Self.opened(capsule, cipher: keyring, coupleID: couple.id)) }
            return opened
        }
    }

    /// Opens an unlocked capsule (409 `capsule_locked` before its time).
    public func openCapsule(_ capsuleId: String) async throws(CloserKitError) -> OpenedCapsule {
        let keyring = try keyring()
        return try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserCapsule(path: .init(coupleId: couple.id, capsuleId: capsuleId), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let capsule) = ok.body else { throw Self.failure(output) }
            return try Self.opened(capsule, cipher: keyring, coupleID: couple.id)
        }
    }

    /// Deletes this account's own locked capsule.
    public func deleteCapsule(_ capsuleId: String) async throws(CloserKitError) {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.deleteCloserCapsule(path: .init(coupleId: couple.id, capsuleId: capsuleId), headers: .init(xKindredApp: app))
            }
            guard case .noContent = output else { throw Self.failure(output) }
        }
    }

    /// A server capsule with its fields opened.
    static func opened(_ capsule: Components.Schemas.CloserCapsule, cipher keyring: CoupleKeyring, coupleID: String) throws(CloserKitError) -> OpenedCapsule {
        let title = try CapsuleText.open(capsule.title, field: "title", userId: capsule.createdBy, cipher: keyring.cipher, coupleID: coupleID)
        var content: String?
        if let sealed = capsule.content {
            content = try CapsuleText.open(sealed, field: "content", userId: capsule.createdBy, cipher: keyring.cipher, coupleID: coupleID)
        }
        return OpenedCapsule(id: capsule.id, createdBy: capsule.createdBy, unlockAt: capsule.unlockAt, locked: capsule.locked, title: title, content: content)
    }
}
