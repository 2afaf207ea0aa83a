import Foundation
import Hummingbird
import KindredServerCore
import SQLKit

extension AdminConsole {
    /// `POST /admin/operators/time-zone` (CSRF-checked) with `zone=` (`UTC` or an IANA name):
    /// stores the signed-in operator's time zone, audited, then 303 to the operators page. An
    /// unknown name is refused (400) and changes nothing.
    func setTimeZone(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let name = form["zone"] ?? ""
        guard let zone = AdminTimeZone(name: name) else {
            throw AdminRefusal.badRequest("“\(name.prefix(64))” is not a time zone: choose UTC or an IANA name such as Europe/Paris")
        }
        try await sessions.database.sql.update("kindred_admin_operators")
            .set("time_zone", to: zone == .utc ? SQLBind(String?.none) : SQLBind(zone.name))
            .where("id", .equal, session.operatorID).run()
        try await audited(
            session, "operator.time-zone", target: session.email,
            notice: "Dates are now shown in \(zone.name) (\(zone.abbreviation(at: sessions.clock.now())))."
        )
        return Self.redirect(to: "/admin/operators")
    }

    /// The time zone choices of the operators page, the operator's own selected.
    static func zoneOptions(selected: AdminTimeZone) -> [AdminViews.Option] {
        AdminTimeZone.choices.map { AdminViews.Option(value: $0, selected: $0 == selected.name) }
    }
}
