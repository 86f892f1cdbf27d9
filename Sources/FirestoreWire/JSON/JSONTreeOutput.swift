/// A ``JSONOutput`` that makes a ``JSONValue`` tree.
public struct JSONTreeOutput: JSONOutput {
  /// The values written at this level: a container's elements, or the one top-level value.
  private var elements: [JSONValue] = []
  /// The members written at this level, when it is an object.
  private var members: [(String, JSONValue)] = []
  /// The key of the member whose value comes next, when this level is an object.
  private var pendingKey: String?

  private init() {}

  /// The tree that `write` writes.
  public static func tree(_ write: (inout JSONTreeOutput) -> Void) -> JSONValue {
    var output = JSONTreeOutput()
    write(&output)
    return output.elements.first ?? .null
  }

  private mutating func put(_ value: JSONValue) {
    if let key = pendingKey {
      members.append((key, value))
      pendingKey = nil
    } else {
      elements.append(value)
    }
  }

  /// Writes `null`.
  public mutating func writeNull() { put(.null) }
  /// Writes `true` or `false`.
  public mutating func write(_ value: Bool) { put(.bool(value)) }
  /// Writes a number given in its JSON text form.
  public mutating func writeNumber(_ text: String) { put(.number(text)) }
  /// Writes a string.
  public mutating func write(_ value: String) { put(.string(value)) }

  /// Writes an array whose elements `elements` writes.
  public mutating func writeArray(_ elements: (inout JSONTreeOutput) -> Void) {
    var inner = JSONTreeOutput()
    elements(&inner)
    put(.array(inner.elements))
  }

  /// Writes an object whose members `members` writes.
  public mutating func writeObject(_ members: (inout JSONTreeOutput) -> Void) {
    var inner = JSONTreeOutput()
    members(&inner)
    put(.object(inner.members))
  }

  /// Starts the next member of the object being written.
  public mutating func writeKey(_ key: String) { pendingKey = key }
}
