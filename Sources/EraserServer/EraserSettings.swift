/// Ex-Eraser's settings (`exeraser.*` in the server's configuration; docs/server.md).
public struct EraserSettings: Sendable, Equatable {
    /// Reference photos one face scan may use on the free tier (the Healing Pass allows 5).
    public var freeReferencePhotos = 3
    /// Items the Vault may hold on the free tier (the Healing Pass has no limit).
    public var freeVaultItems = 50
    /// Date ranges one scan may look through on the free tier.
    public var freeDateRanges = 1
    /// Contacts one scan may match on the free tier.
    public var freeContacts = 1
    /// Analytics batches one account may send per hour.
    public var analyticsBatchesPerUserPerHour = 60
    /// How many days of analytics events the server keeps (older ones are pruned daily).
    public var analyticsRetentionDays = 400

    /// The defaults.
    public init() {}
}
