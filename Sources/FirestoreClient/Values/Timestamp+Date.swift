import FirestoreWire
import Foundation

extension FirestoreWire.Timestamp {
  /// The timestamp of a `Date`, rounded to the microsecond (a `Date` carries no more).
  ///
  /// A date far outside Firestore's range (years 1–9999), or not finite, gives a
  /// timestamp outside that range too, which a write rejects with `invalidArgument`.
  public init(date: Date) {
    let interval = date.timeIntervalSince1970
    guard interval.isFinite, abs(interval) < 1e15 else {
      self.init(seconds: interval > 0 ? Int64(1e15) : -Int64(1e15), nanoseconds: 0)
      return
    }
    let micros = (interval * 1_000_000).rounded()
    let seconds = (micros / 1_000_000).rounded(.down)
    self.init(seconds: Int64(seconds), nanoseconds: Int32((micros - seconds * 1_000_000) * 1000))
  }

  /// The current time.
  public static func now() -> FirestoreWire.Timestamp { FirestoreWire.Timestamp(date: Date()) }

  /// The `Date` of this timestamp (precision below a microsecond may be lost).
  public func dateValue() -> Date {
    Date(timeIntervalSince1970: TimeInterval(seconds) + TimeInterval(nanoseconds) / 1e9)
  }
}
