import Logging
import Synchronization
import Testing

@testable import KindredServer

/// The server's log handler writes `StreamLogHandler`'s lines with the metadata set on the logger.
@Suite struct DeferredMetadataLogHandlerTests {
    /// Collects what the handler writes.
    final class Lines: TextOutputStream, Sendable {
        let text = Mutex("")
        func write(_ string: String) { text.withLock { $0 += string } }
    }

    @Test func metadataIsRenderedSortedAndEventMetadataWins() {
        let lines = Lines()
        var logger = Logger(label: "kindred") { label in
            DeferredMetadataLogHandler(stream: StreamLogHandler(label: label, stream: lines, metadataProvider: nil))
        }
        logger[metadataKey: "request_id"] = "r-1"
        logger[metadataKey: "app"] = "closer"
        logger.info("request", metadata: ["status": "200", "app": "pulse"])
        logger.debug("not written")
        let written = lines.text.withLock { $0 }
        #expect(written.hasSuffix(" info kindred: app=pulse request_id=r-1 status=200 [KindredServerTests] request\n"))
        #expect(written.split(separator: "\n").count == 1)
        #expect(logger[metadataKey: "request_id"] == "r-1")
    }

    @Test func levelIsTheStreamsLevel() {
        var handler = DeferredMetadataLogHandler.standardError(label: "kindred")
        handler.logLevel = .notice
        #expect(handler.logLevel == .notice)
    }
}
