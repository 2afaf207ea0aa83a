import Foundation

/// Where an `EraserDevice` gets its photo library and calendar: every flow that needs them (scan,
/// review, apply, restore, preview, places) asks these factories, with the profile's settings,
/// each time. `folders` — a `FolderPhotoLibrary` and an `ICSCalendarStore` at the paths the last
/// scan named — is the default, the one `kindred eraser` uses; the iOS app passes factories that
/// give `PhotoKitLibrary` and `EventKitCalendarStore`, which need no path.
public struct DeviceSources: Sendable {
    /// Makes the library for the profile's settings.
    public typealias LibraryFactory = @Sendable (DeviceSettings) throws(EraserKitError) -> any PhotoLibrary
    /// Makes the calendar for the profile's settings, or `nil` when there is none to use.
    public typealias CalendarFactory = @Sendable (DeviceSettings) throws(EraserKitError) -> (any CalendarStore)?

    /// The library's factory.
    public let library: LibraryFactory
    /// The calendar's factory.
    public let calendar: CalendarFactory

    /// Sources made by these factories. A factory may return the same object each time (the app's
    /// PhotoKit library) or a new one (the folder library, opened on each call).
    public init(library: @escaping LibraryFactory, calendar: @escaping CalendarFactory) {
        self.library = library
        self.calendar = calendar
    }

    /// The Linux device: the folder library at `photosPath` (`ScanError.noScan` when no scan named
    /// one) and the `.ics` calendar at `calendarPath` (`nil` when no scan named one), dates read in
    /// the settings' zone.
    public static let folders = DeviceSources(
        library: { (settings) throws(EraserKitError) -> any PhotoLibrary in
            guard let path = settings.photosPath else { throw .scan(.noScan) }
            return try FolderPhotoLibrary(root: URL(fileURLWithPath: path), timeZone: try settings.timeZone())
        },
        calendar: { (settings) throws(EraserKitError) -> (any CalendarStore)? in
            guard let path = settings.calendarPath else { return nil }
            return try ICSCalendarStore(location: URL(fileURLWithPath: path), floatingTimeZone: try settings.timeZone())
        })
}
