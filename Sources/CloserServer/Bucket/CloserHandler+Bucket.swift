import CloserAPI
import KindredServerCore
import OpenAPIRuntime

/// The operations of the `bucket` tag.
extension CloserHandler {
    func listCloserBucketItems(_ input: Operations.ListCloserBucketItems.Input) async throws -> Operations.ListCloserBucketItems.Output {
        let user = try await closerUser()
        return .ok(.init(body: .json(try await closer.bucketItems(user, coupleID: input.path.coupleId))))
    }

    func createCloserBucketItem(_ input: Operations.CreateCloserBucketItem.Input) async throws -> Operations.CreateCloserBucketItem.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        return .created(.init(body: .json(try await closer.addBucketItem(user, coupleID: input.path.coupleId, body: body))))
    }

    func updateCloserBucketItem(_ input: Operations.UpdateCloserBucketItem.Input) async throws -> Operations.UpdateCloserBucketItem.Output {
        let user = try await closerUser()
        guard case .json(let body) = input.body else { throw KindredError.badRequest("expected a JSON body") }
        let item = try await closer.setBucketItemCompleted(user, coupleID: input.path.coupleId, itemID: input.path.itemId, completed: body.completed)
        return .ok(.init(body: .json(item)))
    }

    func deleteCloserBucketItem(_ input: Operations.DeleteCloserBucketItem.Input) async throws -> Operations.DeleteCloserBucketItem.Output {
        try await closer.removeBucketItem(try await closerUser(), coupleID: input.path.coupleId, itemID: input.path.itemId)
        return .noContent(.init())
    }
}
