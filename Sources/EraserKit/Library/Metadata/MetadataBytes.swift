import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a metadata reader gave up: a sentence naming the structure and, where it helps, the
/// offset. `MediaMetadataReader` turns it into `LibraryError.unreadableMetadata`.
struct MetadataFailure: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Random access to the bytes being parsed: a file read with `pread`, or bytes in memory.
/// Every read is bounds-checked: a range past the end fails with a `MetadataFailure`, never traps.
protocol MediaByteSource {
    /// The number of bytes.
    var count: Int { get }
    /// Exactly `length` bytes from `offset`.
    func read(at offset: Int, length: Int, what: String) throws(MetadataFailure) -> MediaBytes
}

extension MediaByteSource {
    /// Checks that `[offset, offset + length)` lies inside the source (overflow-safe).
    func checkRange(_ offset: Int, _ length: Int, what: String) throws(MetadataFailure) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw MetadataFailure("\(what) at offset \(offset) (\(length) bytes) runs past the end of the file (\(count) bytes)")
        }
    }
}

/// Bytes held in memory.
struct MediaMemorySource: MediaByteSource {
    let bytes: [UInt8]
    var count: Int { bytes.count }

    func read(at offset: Int, length: Int, what: String) throws(MetadataFailure) -> MediaBytes {
        try checkRange(offset, length, what: what)
        return MediaBytes(bytes[offset..<(offset + length)])
    }
}

/// An open file, read with `pread` so that a large video is never loaded whole.
final class MediaFileSource: MediaByteSource {
    let descriptor: Int32
    let count: Int

    /// Opens `path` for reading.
    /// - Throws: the `errno` text when the file cannot be opened or measured, or is not a regular file.
    init(path: String) throws(MetadataFailure) {
        // O_NONBLOCK: opening a FIFO put in a file's place must not wait for a writer.
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw MetadataFailure(String(cString: strerror(errno))) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            let reason = info.st_mode & S_IFMT == S_IFREG || info.st_mode == 0 ? String(cString: strerror(errno)) : "not a regular file"
            close(fd)
            throw MetadataFailure(reason)
        }
        descriptor = fd
        count = Int(info.st_size)
    }

    deinit { close(descriptor) }

    func read(at offset: Int, length: Int, what: String) throws(MetadataFailure) -> MediaBytes {
        try checkRange(offset, length, what: what)
        var buffer = [UInt8](repeating: 0, count: length)
        var done = 0
        while done < length {
            let got = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, length - done, off_t(offset + done))
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw MetadataFailure("cannot read \(what): \(String(cString: strerror(errno)))")
            }
            if got == 0 { throw MetadataFailure("\(what) at offset \(offset): the file ended early") }
            done += got
        }
        return MediaBytes(buffer[...])
    }
}

/// A bounds-checked window on bytes in memory, indexed from 0, with big- and little-endian
/// integer reads. Every read outside the window throws; none traps.
struct MediaBytes {
    private let storage: ArraySlice<UInt8>

    init(_ storage: ArraySlice<UInt8>) { self.storage = storage }
    init(_ bytes: [UInt8]) { self.storage = bytes[...] }

    var count: Int { storage.count }

    /// The bytes `[offset, offset + length)`, as a new view indexed from 0.
    func slice(_ offset: Int, _ length: Int, what: String) throws(MetadataFailure) -> MediaBytes {
        try check(offset, length, what: what)
        let start = storage.startIndex + offset
        return MediaBytes(storage[start..<(start + length)])
    }

    /// The bytes from `offset` to the end.
    func suffix(from offset: Int, what: String) throws(MetadataFailure) -> MediaBytes {
        try slice(offset, count - offset, what: what)
    }

    /// The bytes as an array.
    var array: [UInt8] { Array(storage) }

    /// Whether the view starts with `prefix` (false when it is shorter).
    func starts(with prefix: [UInt8]) -> Bool { storage.starts(with: prefix) }

    func u8(_ offset: Int, what: String) throws(MetadataFailure) -> UInt8 {
        try check(offset, 1, what: what)
        return storage[storage.startIndex + offset]
    }

    func u16(_ offset: Int, bigEndian: Bool = true, what: String) throws(MetadataFailure) -> UInt16 {
        UInt16(truncatingIfNeeded: try integer(offset, 2, bigEndian: bigEndian, what: what))
    }

    func u32(_ offset: Int, bigEndian: Bool = true, what: String) throws(MetadataFailure) -> UInt32 {
        UInt32(truncatingIfNeeded: try integer(offset, 4, bigEndian: bigEndian, what: what))
    }

    func u64(_ offset: Int, bigEndian: Bool = true, what: String) throws(MetadataFailure) -> UInt64 {
        try integer(offset, 8, bigEndian: bigEndian, what: what)
    }

    /// Four bytes as an ASCII code (`ftyp`, `IHDR`), with non-printable bytes shown as `?`.
    func fourCC(_ offset: Int, what: String) throws(MetadataFailure) -> String {
        let bytes = try slice(offset, 4, what: what).array
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    private func integer(_ offset: Int, _ size: Int, bigEndian: Bool, what: String) throws(MetadataFailure) -> UInt64 {
        try check(offset, size, what: what)
        var value: UInt64 = 0
        let start = storage.startIndex + offset
        for i in 0..<size {
            let byte = UInt64(storage[start + (bigEndian ? i : size - 1 - i)])
            value = value << 8 | byte
        }
        return value
    }

    private func check(_ offset: Int, _ length: Int, what: String) throws(MetadataFailure) {
        guard offset >= 0, length >= 0, offset <= count, length <= count - offset else {
            throw MetadataFailure("\(what) at offset \(offset) (\(length) bytes) lies outside its \(count)-byte structure")
        }
    }
}
