import FirestorePlatform
import Foundation

/// How a ``Firestore`` instance connects and caches: host, TLS, credentials, retries, time
/// limits, and the local cache.
///
/// A class, as in the Apple SDK: an instance's ``Firestore/settings`` hands out a copy, which
/// is changed and set back before the instance is first used.
///
/// ```swift
/// let settings = db.settings
/// settings.cacheSettings = PersistentCacheSettings()
/// db.settings = settings
/// ```
///
/// A fresh value honours `FIRESTORE_EMULATOR_HOST` the way the official server SDKs do:
/// when it is set (`host:port`), the host becomes that address, TLS is off, and the
/// token is the emulator's `owner` token, which bypasses security rules. Otherwise the
/// host is production Firestore over TLS with no token (set ``tokenProvider``).
///
/// Each property may be read and set from any thread; a ``Firestore`` instance takes a copy
/// of them all when it is made, when its settings are set, and when it starts.
public final class FirestoreSettings: NSObject, NSCopying, @unchecked Sendable {
  /// The production endpoint.
  public static let defaultHost = "firestore.googleapis.com"

  private let storage: Locked<ClientConfiguration>

  /// `host` or `host:port` of the Firestore endpoint.
  public var host: String {
    get { storage.withLock { $0.host } }
    set { storage.withLock { $0.host = newValue } }
  }
  /// Whether to use HTTPS. Off for the emulator.
  public var isSSLEnabled: Bool {
    get { storage.withLock { $0.isSSLEnabled } }
    set { storage.withLock { $0.isSSLEnabled = newValue } }
  }
  /// Where bearer tokens come from; `nil` sends none.
  public var tokenProvider: (any TokenProvider)? {
    get { storage.withLock { $0.tokenProvider } }
    set { storage.withLock { $0.tokenProvider = newValue } }
  }
  /// When and how failed requests are retried.
  public var retryPolicy: RetryPolicy {
    get { storage.withLock { $0.retryPolicy } }
    set { storage.withLock { $0.retryPolicy = newValue } }
  }
  /// The longest one call may take, retries and their backoff included; past it the call
  /// fails with `deadlineExceeded`. Streaming reads (``Query/stream()``) apply it, and
  /// their retries, up to the first document (or the end of an empty result); after that
  /// it bounds each wait: for the next bytes, and for the next document.
  public var timeout: Duration {
    get { storage.withLock { $0.timeout } }
    set { storage.withLock { $0.timeout = newValue } }
  }
  /// The most bytes of a reply: a unary reply's whole body, each element of a streamed one
  /// and what a streamed reader holds at once, all counted after decompression. Past it a
  /// read fails with `resourceExhausted`. Settable for tests, which need no 256 MB replies.
  var maximumReplyBytes: Int {
    get { storage.withLock { $0.maximumReplyBytes } }
    set { storage.withLock { $0.maximumReplyBytes = newValue } }
  }
  /// What carries HTTP requests; `nil` uses ``defaultTransport``.
  public var transport: (any Transport)? {
    get { storage.withLock { $0.transport } }
    set { storage.withLock { $0.transport = newValue } }
  }
  /// Where documents read and written are kept locally: in memory (the default, 100 MB),
  /// in an SQLite file that survives restarts, or nowhere. See ``LocalCacheSettings``.
  public var cache: LocalCacheSettings {
    get { storage.withLock { $0.cache } }
    set { storage.withLock { $0.cache = newValue } }
  }
  /// The local cache in the Apple SDK's spelling: ``PersistentCacheSettings``,
  /// ``MemoryCacheSettings`` or a ``LocalCacheSettings``; the same setting as ``cache``.
  ///
  /// ```swift
  /// settings.cacheSettings = PersistentCacheSettings(sizeBytes: 100 * 1024 * 1024 as NSNumber)
  /// ```
  public var cacheSettings: any LocalCacheSettingsConvertible {
    get { cache }
    set { cache = newValue.localCacheSettings }
  }
  /// Where completion handlers, snapshot listeners and snapshots-in-sync listeners are
  /// called, one at a time, in the order their events happened; `nil` (the default) uses a
  /// serial queue of the instance's own. (The Apple SDK calls them on the main queue by
  /// default; set `.main` for that, in a program that runs the main queue.)
  public var dispatchQueue: DispatchQueue? {
    get { storage.withLock { $0.dispatchQueue } }
    set { storage.withLock { $0.dispatchQueue = newValue } }
  }
  /// Receives the client's rare diagnostic messages (such as a corrupt cache file being
  /// rebuilt); by default they are written to standard error. Messages arrive as they may
  /// be shown: no URL credentials, control characters spelled out, long text cut.
  public var logHandler: @Sendable (String) -> Void {
    get { storage.withLock { $0.logHandler } }
    set { storage.withLock { $0.logHandler = newValue } }
  }

  /// The transport of settings whose ``transport`` is `nil`: ``CurlTransport/shared``
  /// (libcurl: HTTP/2, compression, proxies from the environment) where libcurl is built
  /// in, as on Linux; `URLSessionTransport.shared` on Apple platforms.
  public static var defaultTransport: any Transport {
    #if canImport(CCurl)
      CurlTransport.shared
    #else
      URLSessionTransport.shared
    #endif
  }

  /// Settings from the environment: the emulator when `FIRESTORE_EMULATOR_HOST` is set,
  /// production otherwise.
  public override convenience init() {
    self.init(environment: ProcessInfo.processInfo.environment)
  }

  /// Settings as ``init()`` would make them for the given environment variables.
  public convenience init(environment: [String: String]) {
    self.init(ClientConfiguration(environment: environment))
  }

  init(_ configuration: ClientConfiguration) {
    storage = Locked(configuration)
    super.init()
  }

  /// Settings with the same values as `other`, apart from it from now on.
  package convenience init(copying other: FirestoreSettings) {
    self.init(other.configuration)
  }

  /// Settings for an emulator at `host` (`"127.0.0.1:8080"`), with the `owner` token.
  public static func emulator(host: String) -> FirestoreSettings {
    let settings = FirestoreSettings(environment: [:])
    settings.host = host
    settings.isSSLEnabled = false
    settings.tokenProvider = StaticTokenProvider.emulatorOwner
    return settings
  }

  /// All the values at once, as a ``Firestore`` instance keeps them.
  var configuration: ClientConfiguration { storage.withLock { $0 } }

  /// Another settings object with the same values.
  public func copy(with zone: NSZone? = nil) -> Any {
    FirestoreSettings(configuration)
  }
}
