/// Where a model type writes its REST JSON form.
///
/// A type writes its form once, as calls on an output; ``JSONTreeOutput`` makes a
/// ``JSONValue`` tree of them and ``JSONByteOutput`` compact UTF-8 text, without the other in
/// between (a large commit's body goes straight to bytes). Inside an object, each member is
/// ``writeKey(_:)`` followed by the member's value.
public protocol JSONOutput {
  /// Writes `null`.
  mutating func writeNull()
  /// Writes `true` or `false`.
  mutating func write(_ value: Bool)
  /// Writes a number given in its JSON text form.
  mutating func writeNumber(_ text: String)
  /// Writes a string.
  mutating func write(_ value: String)
  /// Writes an array whose elements `elements` writes.
  mutating func writeArray(_ elements: (inout Self) -> Void)
  /// Writes an object whose members `members` writes.
  mutating func writeObject(_ members: (inout Self) -> Void)
  /// Starts the next member of the object being written: its value comes next.
  mutating func writeKey(_ key: String)
}

extension JSONOutput {
  /// Writes a tree as it is.
  public mutating func write(_ json: JSONValue) {
    switch json {
    case .null: writeNull()
    case .bool(let b): write(b)
    case .number(let text): writeNumber(text)
    case .string(let s): write(s)
    case .array(let elements):
      writeArray { out in
        for element in elements { out.write(element) }
      }
    case .object(let members):
      writeObject { out in
        for (key, value) in members {
          out.writeKey(key)
          out.write(value)
        }
      }
    }
  }

  /// Writes an array of `elements`, each in its own form.
  public mutating func writeArray<Element: JSONWritable>(of elements: [Element]) {
    writeArray { out in
      for element in elements { element.write(to: &out) }
    }
  }

  /// Writes the member `key` with the string `value`.
  public mutating func write(_ key: String, _ value: String) {
    writeKey(key)
    write(value)
  }
}
