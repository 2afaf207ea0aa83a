import CloserAPI
import Synchronization

/// What a device keeps between requests, as a phone app keeps it in memory: the couple
/// document and the published device keys of both members. Every flow reads them from here and
/// asks the server only when they are missing; they are forgotten (and read again) when the
/// server answers 404 or 409 to a request made with them, when an upload of release keys learns
/// of a device the list lacks, or when the app calls `invalidate()` (for instance on a realtime
/// `closer.couple_updated` or `closer.partner_left` event).
///
/// Also counts the HTTP requests the device made (`requestCount`), for benchmarks and tests.
public final class CloserCache: Sendable {
    private struct State {
        var couple: Components.Schemas.CloserCouple?
        var devices: [String: [Components.Schemas.CloserDeviceKey]] = [:]
    }

    private let state = Mutex(State())
    private let requests = Atomic<Int>(0)

    /// An empty cache.
    public init() {}

    /// How many HTTP requests the device has made through this cache's device.
    public var requestCount: Int { requests.load(ordering: .relaxed) }

    /// Forgets the couple and every device list (the next flow reads them from the server).
    public func invalidate() {
        state.withLock { $0 = State() }
    }

    /// Forgets the device lists only.
    func invalidateDevices() {
        state.withLock { $0.devices = [:] }
    }

    func countRequest() {
        requests.add(1, ordering: .relaxed)
    }

    /// The cached couple.
    var couple: Components.Schemas.CloserCouple? {
        get { state.withLock { $0.couple } }
        set { state.withLock { $0.couple = newValue } }
    }

    /// The cached device keys of `userId`, or `nil`.
    func devices(of userId: String) -> [Components.Schemas.CloserDeviceKey]? {
        state.withLock { $0.devices[userId] }
    }

    /// Keeps the device keys of `userId`.
    func setDevices(_ devices: [Components.Schemas.CloserDeviceKey], of userId: String) {
        state.withLock { $0.devices[userId] = devices }
    }
}
