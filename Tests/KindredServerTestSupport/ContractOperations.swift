/// The operations (`"GET /v1/…"`) an OpenAPI document declares, read from its text in the
/// layout every Kindred contract uses (paths at two spaces, methods at four), so that each
/// domain's authorization matrix can check that its table calls every operation.
package func contractOperations(_ document: [UInt8]) -> Set<String> {
    var operations: Set<String> = []
    var path: String?
    for line in String(decoding: document, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false) {
        if line.hasPrefix("  /v1/"), line.hasSuffix(":") {
            path = String(line.dropFirst(2).dropLast())
        } else if let current = path, line.hasPrefix("    "), !line.hasPrefix("     "), line.hasSuffix(":") {
            let method = line.trimmingCharacters(in: .whitespaces).dropLast().uppercased()
            if ["GET", "PUT", "POST", "DELETE", "PATCH"].contains(method) { operations.insert("\(method) \(current)") }
        } else if !line.hasPrefix(" "), !line.isEmpty {
            path = nil
        }
    }
    return operations
}
