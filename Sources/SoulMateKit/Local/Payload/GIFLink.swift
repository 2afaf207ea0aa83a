import Foundation

/// A GIF message's value: an https URL, and the provider's GIF id carried in the URL fragment
/// `#gif-id=<id>` that the sender appends and the receiver parses back. A URL without that
/// fragment is a valid GIF with no id. Spec: docs/soulmate-device.md, "Payloads".
public struct GIFLink: Equatable, Sendable {
    /// The fragment's key.
    public static let fragmentKey = "gif-id"
    /// The longest URL accepted (with its fragment), in UTF-8 bytes.
    public static let maximumLength = 2048

    /// The GIF's URL, without the `gif-id` fragment.
    public let url: String
    /// The provider's id of the GIF (1–128 of `A-Z a-z 0-9 - _ .`), or `nil`.
    public let id: String?

    /// A GIF link to send.
    /// - Parameters:
    ///   - url: an absolute https URL with a host, no user info, no white space and no fragment.
    ///   - id: the provider's GIF id, or `nil`.
    /// - Throws: `SoulMateKitError.invalidGIF` naming the problem.
    public init(url: String, id: String? = nil) throws(SoulMateKitError) {
        try Self.checkURL(url)
        if let id {
            guard !url.contains("#") else { throw .invalidGIF("the URL already has a fragment; the GIF id cannot be added") }
            guard Self.isValidID(id) else { throw .invalidGIF("the GIF id must be 1–128 of A-Z a-z 0-9 - _ .") }
        }
        self.url = url
        self.id = id
        guard wireValue.utf8.count <= Self.maximumLength else {
            throw .invalidGIF("the URL is longer than \(Self.maximumLength) bytes")
        }
    }

    /// Parses a received GIF value: the URL, with its id when the fragment is `gif-id=<id>`.
    /// - Parameter wireValue: the payload's value.
    /// - Throws: `SoulMateKitError.invalidGIF` for a value that is not a usable https URL, or a
    ///   `gif-id` fragment with an invalid id.
    public init(wireValue: String) throws(SoulMateKitError) {
        let prefix = "#\(Self.fragmentKey)="
        if let range = wireValue.range(of: prefix), !wireValue[range.upperBound...].contains("#") {
            try self.init(url: String(wireValue[..<range.lowerBound]), id: String(wireValue[range.upperBound...]))
        } else {
            try self.init(url: wireValue, id: nil)
        }
    }

    /// The payload value: `url`, then `#gif-id=<id>` when there is an id.
    public var wireValue: String {
        guard let id else { return url }
        return "\(url)#\(Self.fragmentKey)=\(id)"
    }

    private static func checkURL(_ url: String) throws(SoulMateKitError) {
        guard !url.isEmpty else { throw .invalidGIF("the URL is empty") }
        guard url.utf8.count <= maximumLength else { throw .invalidGIF("the URL is longer than \(maximumLength) bytes") }
        guard !url.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 }) else {
            throw .invalidGIF("the URL contains white space or control characters")
        }
        guard let components = URLComponents(string: url), components.scheme?.lowercased() == "https" else {
            throw .invalidGIF("not an https URL")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidGIF("the URL has no host") }
        guard components.user == nil, components.password == nil else { throw .invalidGIF("the URL carries user info") }
    }

    private static func isValidID(_ id: String) -> Bool {
        (1...128).contains(id.utf8.count) && id.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x2D || byte == 0x5F || byte == 0x2E
        }
    }
}
