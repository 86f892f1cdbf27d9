import FirestorePlatform
import FirestoreWire
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Whether something accepts TCP connections on a loopback port: for tests that wait for a
/// server process they started.
public enum PortProbe {
  /// Whether a connection to `127.0.0.1:port` succeeds.
  public static func isListening(_ port: Int) -> Bool {
    let fd = socket(AF_INET, POSIXSocket.streamType, 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    return withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    } == 0
  }
}
