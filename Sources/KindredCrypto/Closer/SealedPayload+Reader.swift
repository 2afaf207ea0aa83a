/// The fast path for a payload's JSON: a strict single-pass reader for exactly the canonical
/// text `SealedPayload.canonicalJSON` writes, and that writer itself.
///
/// The canonical form of a payload is unique, so it is exactly
/// `{"answer":S,"coupleId":S,"nonce":S,"questionId":S,"userId":S,"v":1}` where each `S` is a
/// canonical string literal: literal UTF-8 except `"`, `\` and U+0000…U+001F, which appear only
/// as `\"`, `\\`, `\b`, `\f`, `\n`, `\r`, `\t` or `\u00xx` (lower-case hex, for the other
/// controls). The reader accepts nothing else; whatever it declines goes to the general
/// `CanonicalJSON` parser, which stays the authority for every error.
/// Spec: `docs/wire-formats.md`, "sealed:v1" and "Canonical JSON".
extension SealedPayload {
    /// The member names in canonical (sorted) order, with the punctuation around them.
    private static let memberOpenings: [[UInt8]] = [
        #"{"answer":"#, #","coupleId":"#, #","nonce":"#, #","questionId":"#, #","userId":"#,
    ].map { Array($0.utf8) }
    /// The last member, `"v": 1`, and the closing brace.
    private static let closing = Array(#","v":\#(version)}"#.utf8)

    /// Writes the canonical JSON of a payload directly (byte-identical to `CanonicalJSON.encode`
    /// of the six-member object, whose members sort in this order).
    /// - Parameters:
    ///   - answer: the answer text.
    ///   - context: the couple, question and author.
    ///   - nonce: the 32 nonce bytes.
    /// - Returns: the canonical UTF-8 JSON.
    static func writeCanonicalJSON(answer: String, context: SealedAnswerContext, nonce: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out = [UInt8]()
        out.reserveCapacity(answer.utf8.count + context.coupleId.utf8.count + context.questionId.utf8.count
            + context.userId.utf8.count + 128)
        out += memberOpenings[0]
        CanonicalJSON.appendString(answer, to: &out)
        out += memberOpenings[1]
        CanonicalJSON.appendString(context.coupleId, to: &out)
        out += memberOpenings[2]
        out.append(UInt8(ascii: "\""))
        Base64.append(nonce, alphabet: .urlSafeNoPadding, to: &out)
        out.append(UInt8(ascii: "\""))
        out += memberOpenings[3]
        CanonicalJSON.appendString(context.questionId, to: &out)
        out += memberOpenings[4]
        CanonicalJSON.appendString(context.userId, to: &out)
        out += closing
        return out
    }

    /// The five string members of a payload's JSON, located in one pass. It keeps only
    /// positions; the text is passed again to each accessor.
    struct CanonicalFields {
        /// One string member: the bytes between its quotes, and whether it holds escapes.
        struct Field {
            /// The raw (still escaped) bytes between the quotes.
            var range: Range<Int>
            /// Whether `range` contains at least one escape.
            var escaped: Bool
        }

        /// The members, in canonical order.
        let answer, coupleId, nonce, questionId, userId: Field

        /// Locates the members of `json`.
        /// - Parameter json: the payload's JSON.
        /// - Returns: `nil` unless it is exactly the canonical shape with canonical string
        ///   literals (UTF-8 validity and the nonce are checked by the accessors).
        init?(_ json: UnsafeBufferPointer<UInt8>) {
            let openings = SealedPayload.memberOpenings
            var i = 0
            guard let answer = Self.member(openings[0], json, &i), let coupleId = Self.member(openings[1], json, &i),
                  let nonce = Self.member(openings[2], json, &i), let questionId = Self.member(openings[3], json, &i),
                  let userId = Self.member(openings[4], json, &i),
                  Self.match(SealedPayload.closing, json, &i), i == json.count else { return nil }
            (self.answer, self.coupleId, self.nonce, self.questionId, self.userId) = (answer, coupleId, nonce, questionId, userId)
        }

        /// Reads `opening` (the punctuation and member name) and then a string literal.
        private static func member(_ opening: [UInt8], _ json: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Field? {
            guard match(opening, json, &i) else { return nil }
            return string(json, at: &i)
        }

        private static func match(_ literal: [UInt8], _ json: UnsafeBufferPointer<UInt8>, _ i: inout Int) -> Bool {
            guard json.count - i >= literal.count else { return false }
            for k in 0..<literal.count where json[i + k] != literal[k] { return false }
            i += literal.count
            return true
        }

        /// Reads a canonical string literal at `i` (which must be its opening quote).
        private static func string(_ json: UnsafeBufferPointer<UInt8>, at i: inout Int) -> Field? {
            guard i < json.count, json[i] == UInt8(ascii: "\"") else { return nil }
            let start = i + 1
            var j = start
            var escaped = false
            while true {
                j = CanonicalJSON.firstNeedingEscape(in: json, from: j)
                guard j < json.count else { return nil }
                switch json[j] {
                case UInt8(ascii: "\""):
                    i = j + 1
                    return Field(range: start..<j, escaped: escaped)
                case UInt8(ascii: "\\"):
                    guard let length = canonicalEscapeLength(json, at: j) else { return nil }
                    j += length
                    escaped = true
                default:
                    return nil  // a raw control character
                }
            }
        }

        /// The length of the canonical escape starting at `bytes[i]` (a backslash), or `nil`.
        static func canonicalEscapeLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int? {
            guard i + 1 < bytes.count else { return nil }
            switch bytes[i + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                return 2
            case UInt8(ascii: "u"):
                // Only controls without a short form: \u0000-\u001f minus \b \t \n \f \r.
                guard i + 6 <= bytes.count, bytes[i + 2] == UInt8(ascii: "0"), bytes[i + 3] == UInt8(ascii: "0"),
                      let value = controlValue(bytes[i + 4], bytes[i + 5]),
                      ![0x08, 0x09, 0x0a, 0x0c, 0x0d].contains(value) else { return nil }
                return 6
            default:
                return nil
            }
        }

        /// The byte `0xHL` for lower-case hex digits H ∈ {0, 1} and L, or `nil`.
        private static func controlValue(_ high: UInt8, _ low: UInt8) -> UInt8? {
            guard high == UInt8(ascii: "0") || high == UInt8(ascii: "1") else { return nil }
            let l: UInt8
            switch low {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): l = low - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): l = low - UInt8(ascii: "a") + 10
            default: return nil
            }
            return (high - UInt8(ascii: "0")) << 4 | l
        }

        /// Calls `body` with a field's decoded bytes (escapes resolved).
        static func withDecoded<R>(_ field: Field, in json: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            let raw = UnsafeBufferPointer(rebasing: json[field.range])
            return field.escaped ? unescaping(raw, body) : body(raw)
        }

        /// Calls `body` with `raw` (validated canonical escapes) unescaped.
        private static func unescaping<R>(_ raw: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
            var out = [UInt8]()
            out.reserveCapacity(raw.count)
            var i = 0
            while i < raw.count {
                let c = raw[i]
                guard c == UInt8(ascii: "\\") else { out.append(c); i += 1; continue }
                // Escapes were validated by `string(at:)`.
                switch raw[i + 1] {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0c)
                case UInt8(ascii: "n"): out.append(0x0a)
                case UInt8(ascii: "r"): out.append(0x0d)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    out.append(Self.controlValue(raw[i + 4], raw[i + 5]) ?? 0)
                    i += 6
                    continue
                default: out.append(raw[i + 1])  // '"' or '\'
                }
                i += 2
            }
            return out.withUnsafeBufferPointer(body)
        }

        /// A field as a String, or `nil` if its bytes are not valid UTF-8.
        static func text(_ field: Field, in json: UnsafeBufferPointer<UInt8>) -> String? {
            withDecoded(field, in: json) { String(validating: $0, as: UTF8.self) }
        }

        /// Whether the field's decoded bytes are exactly `expected`'s UTF-8.
        static func field(_ field: Field, in json: UnsafeBufferPointer<UInt8>, equals expected: String) -> Bool {
            var expected = expected
            return withDecoded(field, in: json) { decoded in expected.withUTF8 { decoded.elementsEqual($0) } }
        }

        /// Whether the nonce member is 32 bytes of strict base64url (43 characters).
        func hasValidNonce(in json: UnsafeBufferPointer<UInt8>) -> Bool {
            guard !nonce.escaped, nonce.range.count == Base64.encodedLength(SealedPayload.nonceLength, alphabet: .urlSafeNoPadding) else {
                return false
            }
            let decoded = Base64.decode(UnsafeBufferPointer(rebasing: json[nonce.range]), alphabet: .urlSafeNoPadding, format: SealedPayload.format)
            guard case .success(let bytes) = decoded else { return false }
            return bytes.count == SealedPayload.nonceLength
        }
    }

    /// The fast path of `parse(_:)`.
    /// - Parameter json: the payload's JSON.
    /// - Returns: the fields, or `nil` when the text is not a valid canonical payload (the
    ///   general parser then finds the exact error).
    static func parseFast(_ json: UnsafeBufferPointer<UInt8>) -> Contents? {
        guard let f = CanonicalFields(json), f.hasValidNonce(in: json),
              let answer = CanonicalFields.text(f.answer, in: json), let coupleId = CanonicalFields.text(f.coupleId, in: json),
              let nonce = CanonicalFields.text(f.nonce, in: json), let questionId = CanonicalFields.text(f.questionId, in: json),
              let userId = CanonicalFields.text(f.userId, in: json) else { return nil }
        return Contents(answer: answer, coupleId: coupleId, questionId: questionId, userId: userId, nonce: nonce)
    }

    /// The fast path of opening: the answer of a valid canonical payload whose couple, question
    /// and author are exactly `context`'s.
    /// - Parameters:
    ///   - json: the payload's JSON.
    ///   - context: the identifiers the reader expects.
    /// - Returns: the answer, or `nil` for anything else (invalid, or naming other identifiers;
    ///   the caller then takes the general path, which throws the exact error).
    static func answer(_ json: UnsafeBufferPointer<UInt8>, ifFor context: SealedAnswerContext) -> String? {
        guard let f = CanonicalFields(json), f.hasValidNonce(in: json),
              // Equal to a Swift String's bytes, so these three are valid UTF-8 too.
              CanonicalFields.field(f.coupleId, in: json, equals: context.coupleId),
              CanonicalFields.field(f.questionId, in: json, equals: context.questionId),
              CanonicalFields.field(f.userId, in: json, equals: context.userId) else { return nil }
        return CanonicalFields.text(f.answer, in: json)
    }
}
