import KindredServerCore

/// Why the console refused a request; `AdminPageMiddleware` renders each as a page.
enum AdminRefusal: Error, Equatable {
    /// No live session on a page: redirect to the login page (303).
    case loginRequired
    /// A form posted without a session (403).
    case noSession
    /// A form whose CSRF token is missing or wrong (403).
    case csrf
    /// No such thing (404), with what was looked for.
    case notFound(String)
    /// A malformed request (400), with why.
    case badRequest(String)

    /// The page's HTTP status.
    var status: Int {
        switch self {
        case .loginRequired: 303
        case .noSession, .csrf: 403
        case .notFound: 404
        case .badRequest: 400
        }
    }

    /// The page's text.
    var message: String {
        switch self {
        case .loginRequired: "Log in to continue."
        case .noSession: "Forbidden: this form needs a console session. Log in and try again."
        case .csrf: "Forbidden: the form's security token is missing or wrong. Reload the page and try again."
        case .notFound(let what): "Not found: \(what)."
        case .badRequest(let why): "Bad request: \(why)."
        }
    }
}
