import FirestorePlatform
import Foundation

/// How a ``Firestore`` instance connects and caches: host, TLS, credentials, retries, time
/// limits, and the local cache.
///
/// A fresh value honours `FIRESTORE_EMULATOR_HOST` the way the official server SDKs do:
/// when it is set (`host:port`), the host becomes that address, TLS is off, and the
/// token is the emulator's `owner` token, which bypasses security rules. Otherwise the
/// host is production Firestore over TLS with no token (set ``tokenProvider``).
///
/// ```swift
/// var settings = FirestoreSettings()
/// settings.timeout = .seconds(10)
/// let db = Firestore(projectID: "my-project", settings: settings)
/// ```
public struct FirestoreSettings: Sendable {
  /// The production endpoint.
  public static let defaultHost = "firestore.googleapis.com"

  /// `host` or `host:port` of the Firestore endpoint.
  public var host: String
  /// Whether to use HTTPS. Off for the emulator.
  public var isSSLEnabled: Bool
  /// Where bearer tokens come from; `nil` sends none.
  public var tokenProvider: (any TokenProvider)?
  /// When and how failed requests are retried.
  public var retryPolicy: RetryPolicy
  /// The longest one call may take, retries and their backoff included; past it the call
  /// fails with `deadlineExceeded`. Streaming reads (``Query/stream()``) apply it, and
  /// their retries, up to the first document (or the end of an empty result); after that
  /// it bounds each wait: for the next bytes, and for the next document.
  public var timeout: Duration
  /// The most bytes of a reply: a unary reply's whole body, each element of a streamed one
  /// and what a streamed reader holds at once, all counted after decompression. Past it a
  /// read fails with `resourceExhausted`. Settable for tests, which need no 256 MB replies.
  var maximumReplyBytes = HTTPResponse.maximumBodyBytes
  /// What carries HTTP requests; `nil` uses ``defaultTransport``.
  public var transport: (any Transport)?
  /// Where documents read and written are kept locally: in memory (the default, 100 MB),
  /// in an SQLite file that survives restarts, or nowhere. See ``LocalCacheSettings``.
  public var cache: LocalCacheSettings
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
  public var dispatchQueue: DispatchQueue?
  /// Receives the client's rare diagnostic messages (such as a corrupt cache file being
  /// rebuilt); by default they are written to standard error. Messages arrive as they may
  /// be shown: no URL credentials, control characters spelled out, long text cut.
  public var logHandler: @Sendable (String) -> Void

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

  /// The transport requests go through: ``transport``, or ``defaultTransport``.
  var effectiveTransport: any Transport { transport ?? Self.defaultTransport }

  /// Settings from the environment: the emulator when `FIRESTORE_EMULATOR_HOST` is set,
  /// production otherwise.
  public init() {
    self.init(environment: ProcessInfo.processInfo.environment)
  }

  /// Settings as ``init()`` would make them for the given environment variables.
  public init(environment: [String: String]) {
    if let emulator = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingCharacters(in: .whitespaces), !emulator.isEmpty {
      host = emulator
      isSSLEnabled = false
      tokenProvider = StaticTokenProvider.emulatorOwner
    } else {
      host = Self.defaultHost
      isSSLEnabled = true
      tokenProvider = nil
    }
    retryPolicy = RetryPolicy()
    timeout = .seconds(60)
    transport = nil
    cache = .memory()
    dispatchQueue = nil
    logHandler = Self.standardErrorLog
  }

  /// What the client logs through: ``logHandler``, given each message as it may be shown
  /// (a message quoting a server's reply or a file name could carry control characters
  /// or a URL's password, and the handler may write to a terminal).
  var log: @Sendable (String) -> Void {
    let handler = logHandler
    return { message in handler(DisplayText.sanitize(message)) }
  }

  /// Writes a message to standard error, one line per message.
  static let standardErrorLog: @Sendable (String) -> Void = { message in
    FileHandle.standardError.write(Data("[FirestoreClient] \(message)\n".utf8))
  }

  /// Settings for an emulator at `host` (`"127.0.0.1:8080"`), with the `owner` token.
  public static func emulator(host: String) -> FirestoreSettings {
    var s = FirestoreSettings(environment: [:])
    s.host = host
    s.isSSLEnabled = false
    s.tokenProvider = StaticTokenProvider.emulatorOwner
    return s
  }

  /// The base URL, e.g. `https://firestore.googleapis.com`.
  var baseURL: String { (isSSLEnabled ? "https://" : "http://") + host }
}
