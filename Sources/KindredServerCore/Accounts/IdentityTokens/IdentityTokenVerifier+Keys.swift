import AsyncHTTPClient
import Foundation
import NIOCore

extension IdentityTokenVerifier {
    /// A fetched key set is kept this long when its response has no `max-age`.
    public static let defaultCacheLifetime: TimeInterval = 3600
    /// A fetched key set is never kept longer than this, whatever its `max-age`.
    public static let maximumCacheLifetime: TimeInterval = 86_400
    /// Fetches of a ``JWKSSource/url(_:)`` set are this far apart at least (after a failure,
    /// or for a token naming an unknown `kid`); also the shortest cache lifetime.
    public static let minimumRefetchInterval: TimeInterval = 60
    /// How long one fetch of a key set may take.
    static let fetchTimeout: TimeAmount = .seconds(10)

    /// The key set, which holds `kid` unless refetching (when allowed) did not find it.
    ///
    /// - Throws: ``IdentityTokenError/unknownKey`` when no key is named `kid`; the load error
    ///   when no key set could be loaded at all.
    func keys(containing kid: String) async throws(IdentityTokenError) -> IdentityKeySet {
        var keys = try await currentKeys()
        if keys.keyIDs.contains(kid) { return keys }
        if case .url = source, mayFetchAgain {
            logger.info(
                "an identity token names an unknown key; refetching the key set", metadata: ["kid": "\(kid.prefix(64))"])
            await refresh()
            if let cached { keys = cached.keys }
        }
        guard keys.keyIDs.contains(kid) else {
            logger.debug("an identity token names an unknown key", metadata: ["kid": "\(kid.prefix(64))"])
            throw .unknownKey
        }
        return keys
    }

    /// The cached key set while it is fresh (or a refetch is not yet allowed), else a new one,
    /// else the stale one.
    private func currentKeys() async throws(IdentityTokenError) -> IdentityKeySet {
        if let cached, clock.now() < cached.freshUntil || !mayFetchAgain { return cached.keys }
        let failure = await refresh()
        if let cached { return cached.keys }
        throw failure ?? .jwksUnavailable("no key set loaded from \(source)")
    }

    /// Whether the last fetch is at least ``minimumRefetchInterval`` ago.
    private var mayFetchAgain: Bool {
        guard let lastFetchAttempt else { return true }
        return clock.now().timeIntervalSince(lastFetchAttempt) >= Self.minimumRefetchInterval
    }

    /// Loads the key set into the cache, joining a load already under way.
    ///
    /// - Returns: Why loading failed, or nil when the cache now holds the new set.
    @discardableResult
    private func refresh() async -> IdentityTokenError? {
        if let fetchInFlight { return await fetchInFlight.value }
        let task = Task { await self.load() }
        fetchInFlight = task
        let failure = await task.value
        fetchInFlight = nil
        return failure
    }

    /// Reads and parses the key set and caches it.
    private func load() async -> IdentityTokenError? {
        let started = clock.now()
        lastFetchAttempt = started
        do {
            let (document, lifetime) = try await readDocument()
            let keys = try await IdentityKeySet.parse(document, logger: logger)
            cached = (keys, lifetime.map { started.addingTimeInterval($0) } ?? .distantFuture)
            logger.info(
                "loaded an identity provider key set",
                metadata: [
                    "source": "\(source)", "kids": "\(keys.keyIDs.sorted().joined(separator: ","))",
                    "cache_seconds": "\(lifetime.map { "\(Int($0))" } ?? "forever")",
                ])
            return nil
        } catch {
            if cached != nil {
                logger.warning(
                    "could not reload an identity provider key set; keeping the cached one",
                    metadata: ["error": "\(error)"])
            } else {
                logger.error("could not load an identity provider key set", metadata: ["error": "\(error)"])
            }
            return error
        }
    }

    /// The JWKS document and how long to cache it (nil: for good).
    private func readDocument() async throws(IdentityTokenError) -> ([UInt8], TimeInterval?) {
        switch source {
        case .json(let json):
            return (Array(json.utf8), nil)
        case .file(let path):
            do {
                return (Array(try Data(contentsOf: URL(fileURLWithPath: path))), nil)
            } catch {
                throw .jwksUnavailable("cannot read the JWKS file \(path)")
            }
        case .url(let url):
            return try await fetch(url)
        }
    }

    /// GETs the key set from `url`.
    private func fetch(_ url: URL) async throws(IdentityTokenError) -> ([UInt8], TimeInterval?) {
        guard let httpClient else { throw .jwksUnavailable("no HTTP client to fetch \(url)") }
        var request = HTTPClientRequest(url: url.absoluteString)
        request.headers.add(name: "Accept", value: "application/json")
        let response: HTTPClientResponse
        do {
            response = try await httpClient.execute(request, timeout: Self.fetchTimeout, logger: logger)
        } catch {
            throw .jwksUnavailable("GET \(url) failed: \(error)")
        }
        guard response.status == .ok else {
            throw .jwksUnavailable("GET \(url) answered \(response.status.code)")
        }
        let body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: IdentityKeySet.maximumDocumentSize)
        } catch {
            throw .jwksUnavailable("GET \(url) body could not be read (over \(IdentityKeySet.maximumDocumentSize) bytes?)")
        }
        let lifetime = CacheControl.lifetime(
            of: response.headers["Cache-Control"], default: Self.defaultCacheLifetime,
            minimum: Self.minimumRefetchInterval, maximum: Self.maximumCacheLifetime)
        return (Array(buffer: body), lifetime)
    }
}
