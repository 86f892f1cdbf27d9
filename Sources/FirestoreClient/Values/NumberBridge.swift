import FirestoreWire
import Foundation

/// Numbers and booleans as the Apple SDK hands them out and takes them in: `NSNumber`.
///
/// Foundation bridges an `NSNumber` to every Swift number type it fits exactly, on Linux as
/// on Apple platforms, so `as? Int`, `as? Int64`, `as? Double` and `as? NSNumber` all work on
/// what ``DocumentSnapshot/data()`` returns. A boolean is Foundation's boolean `NSNumber`
/// (`NSNumber(value: true)`), which casts to `Bool` (and, as in the Apple SDK, to `1` or `0`).
enum NumberBridge {
  /// The class of Foundation's boolean numbers (`__NSCFBoolean`), which tells `true` from `1`.
  private static let booleanClass: AnyClass = type(of: NSNumber(value: true))

  /// `value` when it is an `NSNumber` object, `nil` for anything else — also for Swift
  /// numbers, which are not turned into objects to find out (that would allocate).
  static func number(_ value: Any) -> NSNumber? {
    guard type(of: value) is NSNumber.Type else { return nil }
    return value as? NSNumber
  }

  /// Whether `number` is a boolean rather than a number that happens to be 0 or 1.
  static func isBoolean(_ number: NSNumber) -> Bool {
    type(of: number) == booleanClass
  }

  /// The Firestore value of an `NSNumber`: a boolean, a double for a floating-point
  /// number, otherwise an integer; `nil` for an unsigned value beyond `Int64.max`.
  static func value(of number: NSNumber) -> Value? {
    if isBoolean(number) { return .boolean(number.boolValue) }
    switch number.objCType.pointee {
    case CChar(UInt8(ascii: "d")), CChar(UInt8(ascii: "f")):
      return .double(number.doubleValue)
    case CChar(UInt8(ascii: "Q")), CChar(UInt8(ascii: "L")):
      return Int64(exactly: number.uint64Value).map(Value.integer)
    default:
      return .integer(number.int64Value)
    }
  }

  /// The `NSNumber` for a Firestore boolean, integer or double.
  static func number(boolean: Bool) -> NSNumber { NSNumber(value: boolean) }

  /// The `NSNumber` of a 64-bit integer.
  static func number(integer: Int64) -> NSNumber { NSNumber(value: integer) }

  /// The `NSNumber` of a double.
  static func number(double: Double) -> NSNumber { NSNumber(value: double) }

  /// `value` with an `NSNumber` turned into the Swift value it stands for (`Bool`, `Int`
  /// or `Double`), so that strict readers (the Codable decoder) tell a boolean from `1`;
  /// anything else as it is.
  static func native(_ value: any Sendable) -> any Sendable {
    guard let number = number(value), let wire = self.value(of: number) else { return value }
    switch wire {
    case .boolean(let b): return b
    case .integer(let i): return Int(i)
    case .double(let d): return d
    default: return value
    }
  }
}
