#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A socket call that failed while starting a server.
public struct HTTPSocketError: Error, Sendable, CustomStringConvertible {
  /// The call that failed, e.g. `bind(127.0.0.1:8080)`.
  public var operation: String
  /// The `errno` (or `getaddrinfo`) code.
  public var code: Int32
  /// The system's description of the code.
  public var message: String

  /// An error from the current `errno`.
  package static func fromErrno(_ operation: String) -> HTTPSocketError {
    let code = errno
    return HTTPSocketError(operation: operation, code: code, message: String(cString: strerror(code)))
  }

  /// `operation: message (code)`.
  public var description: String { "\(operation): \(message) (\(code))" }
}
