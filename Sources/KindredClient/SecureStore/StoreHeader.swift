import KindredCrypto

/// The clear header of `secure-store.bin`, also the AES-GCM associated data:
///
/// ```
/// "KSS1" ‖ 0x00                                            key-file mode
/// "KSS1" ‖ 0x01 ‖ salt (16) ‖ m (4) ‖ t (4) ‖ p (4)         passphrase mode (big-endian UInt32s)
/// ```
enum StoreHeader: Equatable {
    /// Key-file mode.
    case keyFile
    /// Passphrase mode with the salt and Argon2id parameters that derive the key.
    case passphrase(salt: [UInt8], parameters: Argon2id.Parameters)

    static let magic = Array("KSS1".utf8)

    /// The header's bytes.
    var bytes: [UInt8] {
        switch self {
        case .keyFile:
            return Self.magic + [0]
        case .passphrase(let salt, let parameters):
            return Self.magic + [1] + salt + [parameters.memoryKiB, parameters.iterations, parameters.parallelism].flatMap(Self.bigEndian)
        }
    }

    /// Whether the key is derived from a passphrase.
    var usesPassphrase: Bool {
        if case .passphrase = self { return true }
        return false
    }

    /// Reads the header at the start of `file`; parameters are bounded before Argon2id runs.
    /// - Throws: `SecureStoreError` naming `path` for anything else.
    init(parsing file: [UInt8], path: String) throws(SecureStoreError) {
        guard file.count >= 5, Array(file[0..<4]) == Self.magic else { throw SecureStoreError("\(path) is not a Kindred secure store") }
        switch file[4] {
        case 0:
            self = .keyFile
        case 1:
            guard file.count >= 5 + 16 + 12 else { throw SecureStoreError("\(path) is truncated") }
            let salt = Array(file[5..<21])
            let numbers = (0..<3).map { index in file[(21 + 4 * index)..<(25 + 4 * index)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
            let (memory, iterations, lanes) = (numbers[0], numbers[1], numbers[2])
            guard (1...8).contains(lanes), (1...10).contains(iterations), memory >= 8 * lanes, memory <= 262_144 else {
                throw SecureStoreError("\(path) names Argon2id parameters out of bounds")
            }
            self = .passphrase(salt: salt, parameters: Argon2id.Parameters(memoryKiB: memory, iterations: iterations, parallelism: lanes))
        default:
            throw SecureStoreError("\(path) uses an unknown key mode \(file[4])")
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}

/// The plaintext of the store: entries sorted by name, each `u16 name length ‖ name ‖ u32 value length ‖ value`.
enum StoreEntries {
    /// The plaintext holding `items`.
    static func encode(_ items: [String: [UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for (name, value) in items.sorted(by: { $0.key < $1.key }) {
            let nameBytes = Array(name.utf8)
            out += [UInt8(nameBytes.count >> 8), UInt8(nameBytes.count & 0xff)] + nameBytes
            out += [UInt8(value.count >> 24), UInt8(value.count >> 16 & 0xff), UInt8(value.count >> 8 & 0xff), UInt8(value.count & 0xff)]
            out += value
        }
        return out
    }

    /// The items in `bytes`, the plaintext of a store.
    /// - Throws: `SecureStoreError` when an entry runs past the end.
    static func decode(_ bytes: [UInt8]) throws(SecureStoreError) -> [String: [UInt8]] {
        var items: [String: [UInt8]] = [:]
        var index = 0
        func take(_ count: Int) throws(SecureStoreError) -> ArraySlice<UInt8> {
            guard count <= bytes.count - index else { throw SecureStoreError("the store's contents are malformed") }
            defer { index += count }
            return bytes[index..<(index + count)]
        }
        while index < bytes.count {
            let nameLength = try take(2).reduce(0) { $0 << 8 | Int($1) }
            let name = String(decoding: try take(nameLength), as: UTF8.self)
            let valueLength = try take(4).reduce(0) { $0 << 8 | Int($1) }
            items[name] = Array(try take(valueLength))
        }
        return items
    }
}
