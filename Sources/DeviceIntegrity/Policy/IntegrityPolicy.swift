/// What to do with a request whose device verdict is missing or failed.
public enum IntegrityAction: String, Sendable, Hashable, Codable, CaseIterable {
    /// Serve the request and log the verdict.
    case log
    /// Serve the request under a rate limit.
    case limit
    /// Refuse the request (403 `integrity_required`).
    case refuse
}

/// One operator rule: for an app (or every app) and a route pattern, the actions for a missing and a failed verdict.
public struct IntegrityRule: Sendable, Hashable, Codable {
    /// The app id, or `*` for every app.
    public var app: String
    /// A path, or a prefix ending in `*` (`/v1/closer/*`), or `*` for every route.
    public var route: String
    /// The action when no verdict is recorded.
    public var missing: IntegrityAction
    /// The action when the recorded verdict failed.
    public var failed: IntegrityAction

    /// Creates a rule.
    public init(app: String, route: String, missing: IntegrityAction, failed: IntegrityAction) {
        self.app = app
        self.route = route
        self.missing = missing
        self.failed = failed
    }

    /// Whether the rule covers `app` and `path`.
    public func matches(app: String, path: String) -> Bool {
        guard self.app == "*" || self.app == app else { return false }
        if route.hasSuffix("*") { return path.hasPrefix(route.dropLast()) }
        return path == route
    }

    /// How specific the rule is: an exact app beats `*`, then a longer route beats a shorter one.
    var specificity: (Int, Int, Int) {
        (app == "*" ? 0 : 1, route.hasSuffix("*") ? 0 : 1, route.count)
    }
}

/// The operator's integrity policy: rules per app and route; a request no rule covers is served.
public struct IntegrityPolicy: Sendable, Hashable, Codable {
    /// The rules; the most specific matching rule applies.
    public var rules: [IntegrityRule]

    /// Creates a policy.
    public init(rules: [IntegrityRule] = []) {
        self.rules = rules
    }

    /// The rule that applies to `app` and `path`, if any.
    public func rule(app: String, path: String) -> IntegrityRule? {
        rules.filter { $0.matches(app: app, path: path) }.max { $0.specificity < $1.specificity }
    }

    /// The action for a request, or `nil` when it is served as is (passed verdict or no rule).
    /// - Parameters:
    ///   - verdict: the device's verdict.
    ///   - app: the request's app id.
    ///   - path: the request's path.
    public func action(for verdict: DeviceVerdict, app: String, path: String) -> IntegrityAction? {
        guard let rule = rule(app: app, path: path) else { return nil }
        switch verdict {
        case .passed: return nil
        case .failed: return rule.failed
        case .missing: return rule.missing
        }
    }
}
