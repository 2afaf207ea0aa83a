/// The registry of fuzz targets, by name.
public enum FuzzTargets {
    /// Every target, in the order `scripts/fuzz all` runs them (most exposed first).
    public static let all: [FuzzTarget] = serverTargets + cryptoTargets + deviceTargets

    /// The target named `name`, or nil.
    public static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }

    /// The names of every target.
    public static var names: [String] { all.map(\.name) }
}
