import Foundation
import KindredClient
import KindredCrypto
import SoulMateAPI

/// The pair as this phone remembers it between launches.
public struct PairState: Codable, Equatable, Sendable {
    /// The pair's id on the server.
    public var pairID: String
    /// The partner's account id.
    public var partnerID: String
    /// The partner's first name, for the chat header.
    public var partnerName: String?
    /// Since when the two are paired.
    public var since: Date
    /// The local chat id (`ChatID.make(me, partner)`).
    public var chatID: String
}

/// Pair codes, pair requests, the pair and unpairing.
extension SoulMateDevice {
    public typealias PairRequest = SoulMateAPI.Components.Schemas.SoulMatePairRequest
    public typealias Person = SoulMateAPI.Components.Schemas.SoulMatePerson
    public typealias PairRequestBoxes = SoulMateAPI.Components.Schemas.SoulMatePairRequestBoxes
    public typealias UnpairRequest = SoulMateAPI.Components.Schemas.SoulMateUnpairRequest

    /// This account's pair code; with `rotate`, a new one.
    public func pairCode(rotate: Bool = false) async throws(SoulMateKitError) -> String {
        if rotate {
            let output = try await call { [app] in try await $0.rotateSoulMatePairCode(headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let code) = ok.body else { throw Self.failure(output) }
            return code.code
        }
        let output = try await call { [app] in try await $0.getSoulMatePairCode(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let code) = ok.body else { throw Self.failure(output) }
        return code.code
    }

    /// Asks the owner of `code` to pair (accepted at once when they asked first).
    public func requestPair(code: String) async throws(SoulMateKitError) -> PairRequest {
        let output = try await call { [app] in
            try await $0.createSoulMatePairRequest(headers: .init(xKindredApp: app), body: .json(.init(code: code)))
        }
        guard case .created(let created) = output, case .json(let request) = created.body else { throw Self.failure(output) }
        if request.status == .accepted { _ = try await refreshPair() }
        return request
    }

    /// The incoming and outgoing pending requests.
    public func pairRequests() async throws(SoulMateKitError) -> PairRequestBoxes {
        let output = try await call { [app] in try await $0.listSoulMatePairRequests(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let boxes) = ok.body else { throw Self.failure(output) }
        return boxes
    }

    /// Accepts an incoming request: the pair starts.
    public func acceptPairRequest(_ id: String) async throws(SoulMateKitError) -> PairState {
        let output = try await call { [app] in
            try await $0.acceptSoulMatePairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
        }
        guard case .ok = output else { throw Self.failure(output) }
        guard let pair = try await refreshPair() else { throw .notPaired }
        return pair
    }

    /// Rejects an incoming request.
    public func rejectPairRequest(_ id: String) async throws(SoulMateKitError) -> PairRequest {
        let output = try await call { [app] in
            try await $0.rejectSoulMatePairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let request) = ok.body else { throw Self.failure(output) }
        return request
    }

    /// Withdraws an outgoing request.
    public func cancelPairRequest(_ id: String) async throws(SoulMateKitError) -> PairRequest {
        let output = try await call { [app] in
            try await $0.cancelSoulMatePairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
        }
        guard case .ok(let ok) = output, case .json(let request) = ok.body else { throw Self.failure(output) }
        return request
    }

    /// The pair as the server has it (nil when not paired), remembered on this phone. When the
    /// server says the pair this phone remembers has ended, the conversation is wiped here.
    /// - Returns: the pair, or nil.
    @discardableResult
    public func refreshPair() async throws(SoulMateKitError) -> PairState? {
        let output = try await call { [app] in try await $0.getSoulMatePair(headers: .init(xKindredApp: app)) }
        switch output {
        case .ok(let ok):
            guard case .json(let pair) = ok.body else { throw .invalidServerData("no pair") }
            let me = try await userID()
            let state = PairState(
                pairID: pair.id, partnerID: pair.partner.id, partnerName: pair.partner.firstName, since: pair.since,
                chatID: try ChatID.make(me, pair.partner.id)
            )
            if let old = try rememberedPair(), old.pairID != state.pairID { try wipe(old) }
            try writeJSON(state, .soulmatePair)
            return state
        default:
            let failure = Self.failure(output)
            guard failure.serverCode == "not_paired" else { throw failure }
            if let old = try rememberedPair() { try wipe(old) }
            return nil
        }
    }

    /// The full pair document (partner key, pending unpair request).
    public func pairDetails() async throws(SoulMateKitError) -> SoulMateAPI.Components.Schemas.SoulMatePair {
        let output = try await call { [app] in try await $0.getSoulMatePair(headers: .init(xKindredApp: app)) }
        guard case .ok(let ok) = output, case .json(let pair) = ok.body else {
            let failure = Self.failure(output)
            throw failure.serverCode == "not_paired" ? .notPaired : failure
        }
        return pair
    }

    /// The pair this phone remembers.
    public func rememberedPair() throws(SoulMateKitError) -> PairState? {
        try readJSON(PairState.self, .soulmatePair)
    }

    /// Deletes a former pair's conversation and keys from this phone.
    /// - Returns: the number of messages deleted.
    @discardableResult
    func wipe(_ pair: PairState) throws(SoulMateKitError) -> Int {
        let deleted = try store.deleteChat(chatID: pair.chatID)
        try remove(.sharedKey(pair.partnerID))
        try remove(.sharedKeyVersions(pair.partnerID))
        try remove(.soulmatePair)
        return deleted
    }

    /// Asks the partner to unpair.
    public func requestUnpair() async throws(SoulMateKitError) -> UnpairRequest {
        let output = try await call { [app] in try await $0.createSoulMateUnpairRequest(headers: .init(xKindredApp: app)) }
        guard case .created(let created) = output, case .json(let request) = created.body else { throw Self.failure(output) }
        return request
    }

    /// What to do with an unpair request.
    public enum UnpairAnswer: String, Sendable, CaseIterable {
        case accept, reject, cancel, leave
    }

    /// Answers an unpair request; when the pair ends (accept, leave) the conversation is wiped here.
    public func answerUnpair(_ id: String, _ answer: UnpairAnswer) async throws(SoulMateKitError) -> UnpairRequest {
        let path = SoulMateAPI.Operations.AcceptSoulMateUnpairRequest.Input.Path(requestId: id)
        let output: UnpairRequest
        switch answer {
        case .accept:
            let answer = try await call { [app] in try await $0.acceptSoulMateUnpairRequest(path: path, headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = answer, case .json(let request) = ok.body else { throw Self.failure(answer) }
            output = request
        case .reject:
            let answer = try await call { [app] in
                try await $0.rejectSoulMateUnpairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = answer, case .json(let request) = ok.body else { throw Self.failure(answer) }
            output = request
        case .cancel:
            let answer = try await call { [app] in
                try await $0.cancelSoulMateUnpairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = answer, case .json(let request) = ok.body else { throw Self.failure(answer) }
            output = request
        case .leave:
            let answer = try await call { [app] in
                try await $0.leaveSoulMateUnpairRequest(path: .init(requestId: id), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = answer, case .json(let request) = ok.body else { throw Self.failure(answer) }
            output = request
        }
        if answer == .accept || answer == .leave { try await refreshPair() }
        return output
    }
}
