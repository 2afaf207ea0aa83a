import CloserAPI
import KindredServerCore

// The answers of the direct writes (`CloserHandler+Direct.swift`) written with `JSONObjectWriter`,
// byte for byte as the generated server's `JSONEncoder` writes them (see
// `CloserDailyQuestion+JSON.swift`, which writes the members of an answer and a keybox). A property
// added to one of these schemas fails `CloserAnswerJSONTests` until it is written here too.

extension Components.Schemas.CloserAnswer {
    /// The answer as the generated server writes it (`PUT` and `PATCH …/answers/{userId}`).
    /// - Throws: the date transcoder's error (only for dates ISO 8601 cannot write).
    func jsonBytes() throws -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 1024)
        try write(to: &writer)
        return writer.finish()
    }
}

extension Components.Schemas.CloserReleaseKeyList {
    /// The keyboxes as the generated server writes them (`POST …/release-keys`).
    /// - Throws: the date transcoder's error (only for dates ISO 8601 cannot write).
    func jsonBytes() throws -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 64 + keys.count * 320 + (missingRecipients?.count ?? 0) * 320)
        try writer.objects("keys", keys) { key, writer in try key.write(to: &writer) }
        try writer.objects("missingRecipients", missingRecipients) { device, writer in try device.write(to: &writer) }
        return writer.finish()
    }
}

extension Components.Schemas.CloserDeviceKey {
    /// Writes the device key's members.
    func write(to writer: inout JSONObjectWriter) throws {
        try writer.date("createdAt", createdAt)
        writer.string("deviceId", deviceId)
        writer.string("platform", platform.rawValue)
        writer.string("publicKey", publicKey)
        try writer.date("updatedAt", updatedAt)
        writer.string("userId", userId)
    }
}
