import KindredAPI
import OpenAPIRuntime

extension KindredClientError {
    /// The error of a documented error answer: its status and the envelope's code and message.
    public init(status: Int, answer: Components.Responses._Error) {
        switch answer.body {
        case .json(let envelope):
            self = .server(status: status, code: envelope.error.code, message: envelope.error.message)
        }
    }

    /// Classifies what a generated client call threw.
    ///
    /// The session's own errors (thrown by its middleware, which the generated client wraps in
    /// `ClientError`) come back unchanged; a failure after an answer arrived means the answer did
    /// not have the contract's shape; anything else never reached the server or never came back.
    init(_ error: any Error) {
        if let own = error as? KindredClientError {
            self = own
        } else if let client = error as? ClientError {
            if let own = client.underlyingError as? KindredClientError {
                self = own
            } else if let response = client.response {
                self = .invalidResponse("HTTP \(response.status.code) to \(client.operationID): \(client.causeDescription)")
            } else {
                self = .transport("\(client.underlyingError)")
            }
        } else {
            self = .transport("\(error)")
        }
    }
}
