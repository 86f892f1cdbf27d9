/// Reads the elements of a bundle (see ``BundleElement``) one at a time from its bytes,
/// checking the format as it goes.
///
/// ```swift
/// var reader = BundleReader(bytes)
/// while let (element, size) = try reader.next() { … }
/// ```
public struct BundleReader: Sendable {
  /// The longest length prefix read: an element is never 10^18 bytes or more, and 18
  /// digits cannot overflow an `Int`.
  static let maximumLengthDigits = 18

  private let bytes: [UInt8]
  /// Where the next element starts.
  public private(set) var offset = 0

  /// Reads from a bundle's bytes.
  public init(_ bytes: [UInt8]) {
    self.bytes = bytes
  }

  /// The next element and how many bytes it took (length prefix included), or `nil` at
  /// the end of the bundle.
  ///
  /// - Throws: ``WireFormatError`` for a length prefix that is not a decimal number, a
  ///   bundle that ends inside an element, or an element that is not valid JSON of a known kind.
  public mutating func next() throws -> (element: BundleElement, byteCount: Int)? {
    guard offset < bytes.count else { return nil }
    let start = offset
    var length = 0
    var digits = 0
    while offset < bytes.count, bytes[offset] != UInt8(ascii: "{") {
      let byte = bytes[offset]
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), digits < Self.maximumLengthDigits else {
        throw WireFormatError("bundle byte \(offset): expected the decimal length of the next element, found byte \(byte)")
      }
      length = length * 10 + Int(byte - UInt8(ascii: "0"))
      digits += 1
      offset += 1
    }
    guard digits > 0 else { throw WireFormatError("bundle byte \(offset): an element has no length prefix") }
    guard offset < bytes.count else { throw WireFormatError("the bundle ends after a length prefix, where an element should follow") }
    guard length <= bytes.count - offset else {
      throw WireFormatError(
        "bundle byte \(offset): the element claims \(length) bytes but only \(bytes.count - offset) remain (a truncated bundle)")
    }
    let json: JSONValue
    do {
      json = try JSONParser.parse(bytes[offset..<(offset + length)])
    } catch {
      throw WireFormatError("bundle byte \(offset): the element is not valid JSON of \(length) bytes: \(error)")
    }
    offset += length
    return (try BundleElement(json: json), offset - start)
  }
}
