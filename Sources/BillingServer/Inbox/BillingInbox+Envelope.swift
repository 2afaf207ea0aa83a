import KindredServerCore
import Foundation

extension BillingInbox.Envelope {
    /// The envelope as JSON text, written directly (the same document `JSONEncoder` writes, in
    /// which the raw body is one escaped string; `JSONEncoder` spent more time on it than the
    /// inbox's insert did).
    var jsonText: String {
        var writer = JSONObjectWriter(capacity: body.utf8.count + eventID.utf8.count + type.utf8.count + 96)
        writer.string("body", body)
        writer.string("eventID", eventID)
        writer.string("provider", provider.rawValue)
        writer.integer("receivedAt", receivedAt)
        writer.string("type", type)
        return String(decoding: writer.finish(), as: UTF8.self)
    }
}
