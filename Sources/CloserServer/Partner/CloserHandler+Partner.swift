import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The partner-profile operation (`GET /v1/closer/couples/{coupleId}/partner`).
extension CloserHandler {
    func getCloserPartner(_ input: Operations.GetCloserPartner.Input) async throws -> Operations.GetCloserPartner.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.partnerProfile(user, coupleID: input.path.coupleId))))
    }
}
