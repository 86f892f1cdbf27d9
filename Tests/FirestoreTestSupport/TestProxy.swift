import Foundation

/// The HTTPS proxy (`tinyproxy`) that `scripts/test.sh` starts beside the ``HTTP2Front``,
/// named in `FIRESTORE_TEST_PROXY` (its URL) and `FIRESTORE_TEST_PROXY_LOG` (its log).
public enum TestProxy {
  /// The proxy's URL.
  public static let url = ProcessInfo.processInfo.environment["FIRESTORE_TEST_PROXY"].flatMap { $0.isEmpty ? nil : $0 }
  /// The proxy's log, which records every tunnel it opens.
  public static let log = ProcessInfo.processInfo.environment["FIRESTORE_TEST_PROXY_LOG"].flatMap { $0.isEmpty ? nil : $0 }
  /// Whether the proxy and the front behind it can be reached.
  public static let isAvailable = HTTP2Front.isAvailable && url != nil && log != nil

  /// How many tunnels to `host` the proxy has opened so far.
  public static func tunnels(to host: String) -> Int {
    guard let log, let text = try? String(contentsOfFile: log, encoding: .utf8) else { return 0 }
    return text.components(separatedBy: "CONNECT \(host) ").count - 1
  }
}
