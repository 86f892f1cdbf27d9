import FirestoreWire
import Foundation

/// The mock's resume tokens: opaque to clients, they encode the read time of the snapshot
/// they were sent with (12 bytes: seconds then nanoseconds, big-endian).
///
/// Resuming a target from a token re-runs it at that time and sends only what differs from
/// now, as production does.
enum ListenResumeToken {
  /// The token for a snapshot read at `time`.
  static func encode(_ time: Timestamp) -> Data {
    var bytes: [UInt8] = []
    let seconds = UInt64(bitPattern: time.seconds)
    for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: seconds >> UInt64(shift))) }
    let nanos = UInt32(bitPattern: time.nanoseconds)
    for shift in stride(from: 24, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: nanos >> UInt32(shift))) }
    return Data(bytes)
  }

  /// The read time a token stands for, or `nil` when it is not one of ours.
  static func decode(_ token: Data) -> Timestamp? {
    let bytes = [UInt8](token)
    guard bytes.count == 12 else { return nil }
    let seconds = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
    let nanos = bytes[8..<12].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
    guard nanos < 1_000_000_000 else { return nil }
    return Timestamp(seconds: Int64(bitPattern: seconds), nanoseconds: Int32(nanos))
  }
}
