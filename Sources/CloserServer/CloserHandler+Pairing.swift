import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The Closer operations of the catalog, invites, the couple, device keys and reminders.
extension CloserHandler {
    /// The caller, who must be a Closer account.
    func closerUser() async throws -> AuthenticatedUser {
        let user = try await authenticator.user()
        try CloserController.requireCloser(user)
        return user
    }

    func getCloserCatalog(_ input: Operations.GetCloserCatalog.Input) async throws -> Operations.GetCloserCatalog.Output {
        _ = try await closerUser()
        return .ok(.init(body: .json(closer.catalogDocument())))
    }

    func listCloserPackQuestions(_ input: Operations.ListCloserPackQuestions.Input) async throws -> Operations.ListCloserPackQuestions.Output {
        _ = try await closerUser()
        let page = try closer.packQuestions(packID: input.path.packId, limit: input.query.limit, cursor: input.query.cursor)
        return .ok(.init(body: .json(page)))
    }

    func getCloserQuestion(_ input: Operations.GetCloserQuestion.Input) async throws -> Operations.GetCloserQuestion.Output {
        _ = try await closerUser()
        return .ok(.init(body: .json(try closer.question(id: input.path.questionId))))
    }

    func createCloserInvite(_ input: Operations.CreateCloserInvite.Input) async throws -> Operations.CreateCloserInvite.Output {
        .created(.init(body: .json(try await closer.createInvite(try await closerUser()))))
    }

    func getCloserInvite(_ input: Operations.GetCloserInvite.Input) async throws -> Operations.GetCloserInvite.Output {
        .ok(.init(body: .json(try await closer.invite(try await closerUser(), code: input.path.code))))
    }

    func putCloserInviteMaterial(_ input: Operations.PutCloserInviteMaterial.Input) async throws -> Operations.PutCloserInviteMaterial.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.putInviteMaterial(user, code: input.path.code, material: body))))
    }

    func cancelCloserInvite(_ input: Operations.CancelCloserInvite.Input) async throws -> Operations.CancelCloserInvite.Output {
        try await closer.cancelInvite(try await closerUser(), code: input.path.code)
        return .noContent(.init())
    }

    func getCloserInviteParameters(_ input: Operations.GetCloserInviteParameters.Input) async throws -> Operations.GetCloserInviteParameters.Output {
        .ok(.init(body: .json(try await closer.inviteParameters(try await closerUser(), code: input.path.code))))
    }

    func acceptCloserInvite(_ input: Operations.AcceptCloserInvite.Input) async throws -> Operations.AcceptCloserInvite.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.acceptInvite(user, code: input.path.code, verifier: body.verifier))))
    }

    func getMyCloserCouple(_ input: Operations.GetMyCloserCouple.Input) async throws -> Operations.GetMyCloserCouple.Output {
        .ok(.init(body: .json(try await closer.myCouple(try await closerUser()))))
    }

    func getCloserCouple(_ input: Operations.GetCloserCouple.Input) async throws -> Operations.GetCloserCouple.Output {
        .ok(.init(body: .json(try await closer.couple(try await closerUser(), id: input.path.coupleId))))
    }

    func updateCloserCoupleSettings(
        _ input: Operations.UpdateCloserCoupleSettings.Input
    ) async throws -> Operations.UpdateCloserCoupleSettings.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.updateSettings(user, id: input.path.coupleId, settings: body))))
    }

    func putCloserRecoveryWrap(_ input: Operations.PutCloserRecoveryWrap.Input) async throws -> Operations.PutCloserRecoveryWrap.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.putRecoveryWrap(user, id: input.path.coupleId, wrap: body))))
    }

    func startCloserEncryptionMigration(
        _ input: Operations.StartCloserEncryptionMigration.Input
    ) async throws -> Operations.StartCloserEncryptionMigration.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .ok(.init(body: .json(try await closer.startMigration(user, id: input.path.coupleId, wrap: body))))
    }

    func completeCloserEncryptionMigration(
        _ input: Operations.CompleteCloserEncryptionMigration.Input
    ) async throws -> Operations.CompleteCloserEncryptionMigration.Output {
        .ok(.init(body: .json(try await closer.completeMigration(try await closerUser(), id: input.path.coupleId))))
    }

    func leaveCloserCouple(_ input: Operations.LeaveCloserCouple.Input) async throws -> Operations.LeaveCloserCouple.Output {
        try await closer.leave(try await closerUser(), id: input.path.coupleId)
        return .noContent(.init())
    }

    func putCloserDeviceKey(_ input: Operations.PutCloserDeviceKey.Input) async throws -> Operations.PutCloserDeviceKey.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let (device, created) = try await closer.putDeviceKey(user, deviceID: input.path.deviceId, upload: body)
        return created ? .created(.init(body: .json(device))) : .ok(.init(body: .json(device)))
    }

    func deleteCloserDeviceKey(_ input: Operations.DeleteCloserDeviceKey.Input) async throws -> Operations.DeleteCloserDeviceKey.Output {
        try await closer.deleteDeviceKey(try await closerUser(), deviceID: input.path.deviceId)
        return .noContent(.init())
    }

    func listCloserDeviceKeys(_ input: Operations.ListCloserDeviceKeys.Input) async throws -> Operations.ListCloserDeviceKeys.Output {
        .ok(.init(body: .json(try await closer.deviceKeys(try await closerUser(), of: input.path.userId))))
    }

    func sendCloserGentleReminder(_ input: Operations.SendCloserGentleReminder.Input) async throws -> Operations.SendCloserGentleReminder.Output {
        .ok(.init(body: .json(try await closer.sendGentleReminder(try await closerUser(), rateLimiter: rateLimiter))))
    }
}
