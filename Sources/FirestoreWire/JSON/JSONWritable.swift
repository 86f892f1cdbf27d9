/// A model type that writes its REST JSON form to any ``JSONOutput``.
public protocol JSONWritable {
  /// Writes the REST JSON form to `output`.
  func write<Output: JSONOutput>(to output: inout Output)
}

extension JSONWritable {
  /// The REST JSON form as a tree.
  public var json: JSONValue { JSONTreeOutput.tree { write(to: &$0) } }

  /// The REST JSON form as compact UTF-8 text.
  public var jsonBytes: [UInt8] {
    var output = JSONByteOutput()
    write(to: &output)
    return output.bytes
  }
}
