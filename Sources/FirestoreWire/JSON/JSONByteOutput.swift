/// A ``JSONOutput`` that writes compact JSON text as UTF-8 (``JSONWriter``'s form).
public struct JSONByteOutput: JSONOutput {
  /// The text written so far.
  public private(set) var bytes: [UInt8]
  /// A value was written at this level, so the next one needs a comma before it.
  private var needsComma = false

  /// An empty output with room for `capacity` bytes.
  public init(capacity: Int = 256) {
    bytes = []
    bytes.reserveCapacity(capacity)
  }

  /// An output that appends to `bytes`, as a new value after what they hold.
  public init(appendingTo bytes: [UInt8]) {
    self.bytes = bytes
  }

  private mutating func separate() {
    if needsComma { bytes.append(UInt8(ascii: ",")) }
  }

  /// Writes `null`.
  public mutating func writeNull() {
    separate()
    bytes.append(contentsOf: "null".utf8)
    needsComma = true
  }

  /// Writes `true` or `false`.
  public mutating func write(_ value: Bool) {
    separate()
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
    needsComma = true
  }

  /// Writes a number given in its JSON text form.
  public mutating func writeNumber(_ text: String) {
    separate()
    bytes.append(contentsOf: text.utf8)
    needsComma = true
  }

  /// Writes a string, quoted and escaped.
  public mutating func write(_ value: String) {
    separate()
    JSONWriter.writeString(value, into: &bytes)
    needsComma = true
  }

  /// Writes an array whose elements `elements` writes.
  public mutating func writeArray(_ elements: (inout JSONByteOutput) -> Void) {
    writeContainer(UInt8(ascii: "["), UInt8(ascii: "]"), elements)
  }

  /// Writes an object whose members `members` writes.
  public mutating func writeObject(_ members: (inout JSONByteOutput) -> Void) {
    writeContainer(UInt8(ascii: "{"), UInt8(ascii: "}"), members)
  }

  private mutating func writeContainer(_ open: UInt8, _ close: UInt8, _ contents: (inout JSONByteOutput) -> Void) {
    separate()
    bytes.append(open)
    needsComma = false
    contents(&self)
    bytes.append(close)
    needsComma = true
  }

  /// Starts the next member of the object being written.
  public mutating func writeKey(_ key: String) {
    separate()
    JSONWriter.writeString(key, into: &bytes)
    bytes.append(UInt8(ascii: ":"))
    needsComma = false
  }
}
