/// A setting that cannot be used (`ServerSettings.Invalid` in the composition root): what is
/// wrong, naming the setting.
public struct SettingsError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, naming the setting.
    public let description: String

    /// Creates the error.
    public init(description: String) {
        self.description = description
    }
}
