import CloserAPI
import KindredClient

/// Date plans on the device: create from a match or freely, edit, move the status, list.
extension CloserDevice {
    /// Creates a plan (planned when it has a date, a draft otherwise).
    public func createDatePlan(_ plan: Components.Schemas.CloserDatePlanCreate) async throws(CloserKitError) -> Components.Schemas.CloserDatePlan {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.createCloserDatePlan(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app), body: .json(plan))
            }
            guard case .created(let created) = output, case .json(let result) = created.body else { throw Self.failure(output) }
            return result
        }
    }

    /// Edits a plan or moves its status; the answer carries the history.
    public func updateDatePlan(_ planId: String, _ update: Components.Schemas.CloserDatePlanUpdate) async throws(CloserKitError) -> Components.Schemas.CloserDatePlan {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.updateCloserDatePlan(path: .init(coupleId: couple.id, planId: planId), headers: .init(xKindredApp: app), body: .json(update))
            }
            guard case .ok(let ok) = output, case .json(let result) = ok.body else { throw Self.failure(output) }
            return result
        }
    }

    /// One plan with its history.
    public func datePlan(_ planId: String) async throws(CloserKitError) -> Components.Schemas.CloserDatePlan {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in
                try await $0.getCloserDatePlan(path: .init(coupleId: couple.id, planId: planId), headers: .init(xKindredApp: app))
            }
            guard case .ok(let ok) = output, case .json(let result) = ok.body else { throw Self.failure(output) }
            return result
        }
    }

    /// The couple's plans, most recently changed first.
    public func datePlans() async throws(CloserKitError) -> [Components.Schemas.CloserDatePlan] {
        try await withCouple { couple throws(CloserKitError) in
            let output = try await call { [app] in try await $0.listCloserDatePlans(path: .init(coupleId: couple.id), headers: .init(xKindredApp: app)) }
            guard case .ok(let ok) = output, case .json(let list) = ok.body else { throw Self.failure(output) }
            return list.plans
        }
    }
}
