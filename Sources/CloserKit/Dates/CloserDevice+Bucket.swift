import CloserAPI
import KindredClient

/// The couple's bucket list on the device: add, list, complete or reopen, remove.
extension CloserDevice {
    /// Adds an item.
    public func addBucketItem(title: String, category: String? = nil) async throws(CloserKitError) -> Components.Schemas.CloserBucketItem {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.createCloserBucketItem(
                    path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(.init(title: title, category: category))
                )
            }
            guard case .created(let created) = output, case .json(let item) = created.body else { throw Self.failure(output) }
            return item
        }
    }

    /// The list: open items first, then completed ones.
    public func bucketItems() async throws(CloserKitError) -> [Components.Schemas.CloserBucketItem] {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.listCloserBucketItems(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
            return list.items
        }
    }

    /// Completes (or, with `false`, reopens) an item.
    public func completeBucketItem(_ itemId: String, completed: Bool = true) async throws(CloserKitError) -> Components.Schemas.CloserBucketItem {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.updateCloserBucketItem(
                    path: .init(coupleId: couple.id, itemId: itemId), headers: .init(xKindredApp: app), body: .json(.init(completed: completed))
                )
            }
            guard case .ok(let ok) = output, case .json(let item) = ok.body else { throw Self.failure(output) }
            return item
        }
    }

    /// Removes an item.
    public func removeBucketItem(_ itemId: String) async throws(CloserKitError) {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.deleteCloserBucketItem(path: .init(coupleId: couple.id, itemId: itemId), headers: .init(xKindredApp: app))
            }
            guard case .noContent = output else { throw Self.failure(output) }
        }
    }
}
