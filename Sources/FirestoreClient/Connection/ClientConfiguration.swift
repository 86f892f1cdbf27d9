import FirestorePlatform
import Foundation

/// The values of a ``FirestoreSettings``, as one `Sendable` value: what a ``Firestore``
/// instance copies from its settings when it starts, and what its parts read from then on.
/// The defaults live here.
struct ClientConfiguration: Sendable {
  var host: String
  var isSSLEnabled: Bool
  var tokenProvider: (any TokenProvider)?
  var retryPolicy = RetryPolicy()
  var timeout = Duration.seconds(60)
  /// The most bytes of a reply: a unary reply's whole body, each element of a streamed one
  /// and what a streamed reader holds at once, all counted after decompression.
  var maximumReplyBytes = HTTPResponse.maximumBodyBytes
  var transport: (any Transport)?
  var cache = LocalCacheSettings.memory()
  var dispatchQueue: DispatchQueue?
  var logHandler: @Sendable (String) -> Void = Self.standardErrorLog

  /// The values ``FirestoreSettings/init(environment:)`` starts from: the emulator when
  /// `FIRESTORE_EMULATOR_HOST` is set, production otherwise.
  init(environment: [String: String]) {
    if let emulator = environment["FIRESTORE_EMULATOR_HOST"]?.trimmingCharacters(in: .whitespaces), !emulator.isEmpty {
      host = emulator
      isSSLEnabled = false
      tokenProvider = StaticTokenProvider.emulatorOwner
    } else {
      host = FirestoreSettings.defaultHost
      isSSLEnabled = true
      tokenProvider = nil
    }
  }

  /// The transport requests go through: ``transport``, or
  /// ``FirestoreSettings/defaultTransport``.
  var effectiveTransport: any Transport { transport ?? FirestoreSettings.defaultTransport }

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

  /// The base URL, e.g. `https://firestore.googleapis.com`.
  var baseURL: String { (isSSLEnabled ? "https://" : "http://") + host }
}
