@testable import KindredServer
@testable import KindredServerCore
import KindredServerTestSupport
import Logging
import Synchronization
import Testing


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
        #expect(written.hasSuffix(" info kindred: app=pulse request_id=r-1 status=200 [KindredServerCoreTests] request\n"))
        #expect(written.split(separator: "\n").count == 1)
        #expect(logger[metadataKey: "request_id"] == "r-1")
    }

    /// Three words, so a `Logger` holds it inline and a per-request entry copies no box; a copy's
    /// entries, level and provider stay its own.
    @Test func handlerFitsInALoggerAndCopiesAreIndependent() {
        #expect(MemoryLayout<DeferredMetadataLogHandler>.size <= 3 * MemoryLayout<Int>.size)
        let lines = Lines()
        var first = Logger(label: "kindred") { label in
            DeferredMetadataLogHandler(stream: StreamLogHandler(label: label, stream: lines, metadataProvider: nil))
        }
        first[metadataKey: "request_id"] = "r-1"
        var second = first
        second[metadataKey: "request_id"] = "r-2"
        second.logLevel = .error
        second.handler.metadataProvider = Logger.MetadataProvider { ["trace": "t-9"] }
        first.info("one")
        second.info("not written")
        second.error("two")
        let written = lines.text.withLock { $0 }.split(separator: "\n")
        #expect(written.count == 2)
        #expect(written.first?.hasSuffix(" info kindred: request_id=r-1 [KindredServerCoreTests] one") == true)
        #expect(written.last?.hasSuffix(" error kindred: request_id=r-2 trace=t-9 [KindredServerCoreTests] two") == true)
        #expect(first.logLevel == .info)
        #expect(first.handler.metadataProvider == nil)
    }

    @Test func levelIsTheStreamsLevel() {
        var handler = DeferredMetadataLogHandler.standardError(label: "kindred")
        handler.logLevel = .notice
        #expect(handler.logLevel == .notice)
    }
}
