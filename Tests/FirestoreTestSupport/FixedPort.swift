import Foundation

/// Ports below the kernel's ephemeral range, for a server a test stops and starts again on
/// the same address.
///
/// Every other server in the suite binds port 0, and the kernel hands those out from its
/// ephemeral range, as it does the local ports of outgoing connections. A port outside that
/// range stays free while its server is down: a stopped server's port inside it can go to
/// another test's server, which then answers requests meant for nobody.
public enum FixedPort {
  /// Calls `start` with ports below the ephemeral range, picked at random, until one binds,
  /// and returns what it made; the last error after 50 ports that did not.
  public static func start<Server>(_ start: (Int) throws -> Server) throws -> Server {
    let ports = 10_000..<max(ephemeralLowerBound(), 10_001)
    var lastError: (any Error)?
    for _ in 0..<50 {
      do {
        return try start(Int.random(in: ports))
      } catch {
        lastError = error
      }
    }
    throw lastError!
  }

  /// The first port of the kernel's ephemeral range (32768 when it cannot be read).
  static func ephemeralLowerBound() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8),
      let first = text.split(whereSeparator: \.isWhitespace).first, let port = Int(first)
    else { return 32_768 }
    return port
  }
}
