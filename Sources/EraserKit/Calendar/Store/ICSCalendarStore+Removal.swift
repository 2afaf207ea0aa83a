import Crypto
import Foundation
import KindredCrypto

extension ICSCalendarStore {
    /// The series (its master and every override) as `remove` would take it out now — its
    /// VEVENTs' exact bytes and where each one is — without changing the file: what the Vault
    /// keeps before the event leaves the calendar.
    /// - Throws: `CalendarError.notFound`, or the error that keeps the file or the event from
    ///   being read.
    public func original(_ id: EventID) throws(EraserKitError) -> RemovedEvent {
        writeLock.lock()
        defer { writeLock.unlock() }
        return try split(id).removed
    }

    /// Takes the series (its master and every override, wherever they are in the file) out of its
    /// file, rewriting the file atomically; an override's id removes its whole series.
    /// - Parameters:
    ///   - id: the event, or one of its overridden occurrences.
    ///   - expected: when given, the series' VEVENT bytes as `original(_:)` gave them; the file is
    ///     left alone unless the series is still exactly those bytes.
    /// - Returns: the series as it was, its VEVENTs' exact bytes and where each one was.
    /// - Throws: `CalendarError.notFound`, `.changed` when `expected` no longer matches, or the
    ///   error that keeps the file or the event from being read or written.
    public func remove(_ id: EventID, expecting expected: [UInt8]?) throws(EraserKitError) -> RemovedEvent {
        writeLock.lock()
        defer { writeLock.unlock() }
        let (removed, remaining, url) = try split(id)
        if let expected, expected != removed.original { throw .calendar(.changed(id)) }
        try Self.lift { () throws(CalendarError) in try AtomicFile.write(remaining, to: url) }
        forget(url)
        return removed
    }

    /// The series of `id` cut out of its file: the removal record and the file's bytes without
    /// it (checked to still be iCalendar). Called under `writeLock`.
    private func split(_ id: EventID) throws(EraserKitError) -> (removed: RemovedEvent, remaining: [UInt8], url: URL) {
        guard let calendar = try calendar(named: Self.calendarName(of: id)), let group = calendar.group(for: id) else {
            throw .calendar(.notFound(id))
        }
        return try Self.lift { () throws(CalendarError) in
            guard let event = try calendar.event(group.id, floating: floatingZone) else { throw .notFound(id) }
            let bytes = calendar.document.bytes
            var remaining: [UInt8] = []
            remaining.reserveCapacity(bytes.count)
            var original: [UInt8] = []
            var fragments: [RemovalPlacement.Fragment] = []
            var cursor = 0
            for range in group.components.map(\.byteRange) {
                remaining += bytes[cursor..<range.lowerBound]
                original += bytes[range]
                fragments.append(RemovalPlacement.Fragment(
                    offset: range.lowerBound, length: range.count,
                    before: Array(bytes[max(0, range.lowerBound - Self.contextLength)..<range.lowerBound]),
                    after: Array(bytes[range.upperBound..<min(bytes.count, range.upperBound + Self.contextLength)])))
                cursor = range.upperBound
            }
            remaining += bytes[cursor...]
            _ = try ICSParser.parse(remaining, fileName: calendar.document.fileName)
            let removed = RemovedEvent(event: event, original: original,
                                       placement: RemovalPlacement(fragments: fragments, fileDigest: Self.digest(remaining)))
            return (removed, remaining, calendar.url)
        }
    }

    /// Puts a removed series back into its calendar's file (atomically), by this rule:
    /// 1. the file is as `remove` left it (same SHA-256): each VEVENT goes back at its old
    ///    offset, so the file is byte-identical to what it was before `remove`;
    /// 2. otherwise each VEVENT goes where the (up to 256) bytes that followed it at its removal
    ///    begin, or else where the bytes that preceded it end, when those are found exactly once;
    /// 3. the VEVENTs placed by neither go together, unchanged and in their order, just before
    ///    the file's last `END:VCALENDAR`; a missing or empty file gets a new `VCALENDAR` around
    ///    them (`VERSION:2.0`, a `PRODID`, the VEVENTs' own line breaks).
    ///
    /// So the file comes back byte-identical when nothing changed since the removal, when
    /// several removals are undone in reverse order, and when other events removed or restored
    /// in between were not next to this one (edits elsewhere in the file are kept). Events next
    /// to each other, removed and then restored in the same order, come back byte-exact but may
    /// swap places: neither removal's record knows where the other one stood. The VEVENTs' own
    /// bytes are never changed, and `VTIMEZONE`s (never removed) are not added.
    /// - Throws: `CalendarError.alreadyPresent` when the file already holds every one of the
    ///   VEVENTs' bytes (restored twice); `.unknownCalendar` when a single-file store is asked to
    ///   restore into another calendar; `.malformed` when the file is no longer iCalendar.
    /// - Returns: `removed.event.id`: the VEVENTs are the same, so is their id.
    @discardableResult
    public func restore(_ removed: RemovedEvent) throws(EraserKitError) -> EventID {
        writeLock.lock()
        defer { writeLock.unlock() }
        let name = removed.event.calendar
        let existing = try calendarFiles().first { $0.name == name }?.url
        guard let url = existing ?? (isFolder ? location.appendingPathComponent(name + ".ics") : nil) else {
            throw .calendar(.unknownCalendar(name))
        }
        try Self.lift { () throws(CalendarError) in
            let pieces = Self.pieces(of: removed)
            let current = FileManager.default.fileExists(atPath: url.path) ? try LoadedCalendar.readBytes(url) : []
            if !current.isEmpty, pieces.allSatisfy({ ByteSearch.count(of: $0.bytes, in: current, upTo: 1) == 1 }) {
                throw .alreadyPresent(removed.event.id)
            }
            let restored = try Self.insert(pieces, into: current, digest: removed.placement?.fileDigest,
                                           fileName: url.lastPathComponent, lineBreak: Self.lineBreak(of: removed.original))
            _ = try ICSParser.parse(restored, fileName: url.lastPathComponent)
            try AtomicFile.write(restored, to: url)
            forget(url)
        }
        return removed.event.id
    }

    /// How many bytes of context a fragment keeps on each side.
    static let contextLength = 256

    /// One VEVENT to put back: its bytes and, when known, its placement.
    struct Piece {
        var bytes: [UInt8]
        var fragment: RemovalPlacement.Fragment?
    }

    /// `original` cut along its fragments; one piece without placement when they do not fit it.
    static func pieces(of removed: RemovedEvent) -> [Piece] {
        guard let fragments = removed.placement?.fragments, !fragments.isEmpty,
              fragments.allSatisfy({ $0.length > 0 && $0.offset >= 0 }),
              fragments.reduce(0, { $0 + $1.length }) == removed.original.count,
              zip(fragments, fragments.dropFirst()).allSatisfy({ $0.offset + $0.length <= $1.offset }) else {
            return [Piece(bytes: removed.original, fragment: nil)]
        }
        var start = 0
        return fragments.map { fragment in
            defer { start += fragment.length }
            return Piece(bytes: Array(removed.original[start..<(start + fragment.length)]), fragment: fragment)
        }
    }

    /// `restore`'s rule, on bytes.
    static func insert(_ pieces: [Piece], into current: [UInt8], digest: String?, fileName: String,
                       lineBreak: [UInt8]) throws(CalendarError) -> [UInt8] {
        if let digest, !current.isEmpty, Self.digest(current) == digest,
           pieces.allSatisfy({ $0.fragment != nil }) {
            var result = current
            var fits = true
            for piece in pieces {
                guard let offset = piece.fragment?.offset, offset <= result.count else { fits = false; break }
                result.insert(contentsOf: piece.bytes, at: offset)
            }
            if fits { return result }
        }
        var result = current
        var leftover: [UInt8] = []
        for piece in pieces {
            if let fragment = piece.fragment, let offset = position(of: fragment, in: result) {
                result.insert(contentsOf: piece.bytes, at: offset)
            } else {
                leftover += piece.bytes
            }
        }
        guard !leftover.isEmpty else { return result }
        let document = try ICSParser.parse(result, fileName: fileName)
        if let last = document.calendars.last {
            result.insert(contentsOf: leftover, at: last.endLineStart)
            return result
        }
        let begin = Array("BEGIN:VCALENDAR".utf8) + lineBreak + Array("VERSION:2.0".utf8) + lineBreak
            + Array("PRODID:-//Ex-Eraser//EraserKit//EN".utf8) + lineBreak
        return result + begin + leftover + Array("END:VCALENDAR".utf8) + lineBreak
    }

    /// Where a fragment's context puts it in `bytes`: where its unique `before` ends and its
    /// unique `after` begins. When both are found at different places, something was put between
    /// them since the removal (another restored event) and the fragment goes after it.
    static func position(of fragment: RemovalPlacement.Fragment, in bytes: [UInt8]) -> Int? {
        let afterBefore = fragment.before.isEmpty ? nil : ByteSearch.unique(fragment.before, in: bytes).map { $0 + fragment.before.count }
        let beforeAfter = fragment.after.isEmpty ? nil : ByteSearch.unique(fragment.after, in: bytes)
        if let afterBefore, let beforeAfter, afterBefore > beforeAfter { return afterBefore }
        return beforeAfter ?? afterBefore
    }

    /// CRLF, unless the VEVENTs use bare LFs.
    static func lineBreak(of bytes: [UInt8]) -> [UInt8] {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return [0x0D, 0x0A] }
        return newline > 0 && bytes[newline - 1] == 0x0D ? [0x0D, 0x0A] : [0x0A]
    }

    static func digest(_ bytes: [UInt8]) -> String { Hex.encode(SHA256.hash(data: bytes)) }
}

/// Finding bytes in bytes.
enum ByteSearch {
    /// How many times `needle` occurs in `haystack` (overlaps included), counting past `upTo`
    /// no further.
    static func count(of needle: [UInt8], in haystack: [UInt8], upTo limit: Int) -> Int {
        var found = 0
        var start = 0
        while found <= limit, let index = firstIndex(of: needle, in: haystack, from: start) {
            found += 1
            start = index + 1
        }
        return found
    }

    /// The offset of `needle` in `haystack` when it occurs exactly once.
    static func unique(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard let first = firstIndex(of: needle, in: haystack, from: 0) else { return nil }
        return firstIndex(of: needle, in: haystack, from: first + 1) == nil ? first : nil
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let head = needle.first, needle.count <= haystack.count else { return nil }
        var index = start
        let last = haystack.count - needle.count
        while index <= last {
            guard let candidate = haystack[index...last].firstIndex(of: head) else { return nil }
            if haystack[candidate..<(candidate + needle.count)].elementsEqual(needle) { return candidate }
            index = candidate + 1
        }
        return nil
    }
}
