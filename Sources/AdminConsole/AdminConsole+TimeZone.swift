import Foundation
import Hummingbird
import KindredServerCore
import SQLKit

extension AdminConsole {
    /// `POST /admin/operators/time-zone` (CSRF-checked) with `zone=` (`UTC` or an IANA name; empty
    /// for the console's default, `admin.timeZone`): stores the signed-in operator's time zone
    /// (NULL for the default), audited, then 303 to the operators page. An unknown name is
    /// refused (400) and changes nothing.
    func setTimeZone(_ request: Request, context: KindredRequestContext) async throws -> Response {
        let (session, form) = try await postedForm(request, context: context)
        let name = form["zone"] ?? ""
        let zone: AdminTimeZone
        let stored: String?
        if name.isEmpty {
            zone = sessions.consoleTimeZone
            stored = nil
        } else if let chosen = AdminTimeZone(name: name) {
            zone = chosen
            stored = chosen.name
        } else {
            throw AdminRefusal.badRequest("“\(name.prefix(64))” is not a time zone: choose UTC or an IANA name such as Europe/Paris")
        }
        try await sessions.database.sql.update("kindred_admin_operators")
            .set("time_zone", to: SQLBind(stored))
            .where("id", .equal, session.operatorID).run()
        let shown = "\(zone.name) (\(zone.abbreviation(at: sessions.clock.now())))"
        try await audited(
            session, "operator.time-zone", target: session.email,
            notice: stored == nil ? "Dates now follow the console default time zone, \(shown)." : "Dates are now shown in \(shown)."
        )
        return Self.redirect(to: "/admin/operators")
    }

    /// The time zone choices of the operators page, the operator's own selected (none when they
    /// follow the console's default, which the page offers as its own first option).
    static func zoneOptions(session: AdminSession) -> [AdminViews.Option] {
        AdminTimeZone.choices.map { AdminViews.Option(value: $0, selected: session.choseTimeZone && $0 == session.timeZone.name) }
    }
}
