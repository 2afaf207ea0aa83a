import Foundation

/// Where a result of the review is, as a person would recognise it.
public struct ResultPlace: Sendable, Equatable {
    /// A photo's or video's path in the library, relative to its folder.
    public var path: String?
    /// An event's title.
    public var title: String?
    /// An event's calendar.
    public var calendar: String?
}

extension EraserDevice {
    /// Where each of `items` is: an asset's path in the last scan's library, an event's calendar
    /// and title. An item no longer there (vaulted, moved out) has no entry.
    /// - Throws: `ScanError.noScan`, the library's and calendar's errors.
    public func places(of items: [ScanItem]) throws(EraserKitError) -> [ScanItem: ResultPlace] {
        let settings = try settings()
        let library = try library(settings)
        let calendar = try calendar(settings)
        var places: [ScanItem: ResultPlace] = [:]
        for item in items {
            switch item {
            case .asset(let id):
                if let asset = try library.asset(id) { places[item] = ResultPlace(path: asset.path) }
            case .event(let id):
                if let event = try calendar?.event(id) { places[item] = ResultPlace(title: event.title, calendar: event.calendar) }
            }
        }
        return places
    }
}
