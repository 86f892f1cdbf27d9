/// The body of `POST …/documents:batchWrite`: writes applied independently of each other
/// (not atomically), each with its own result and status.
public struct BatchWriteRequest: Sendable, Equatable, JSONWritable {
  /// The writes; no two may name the same document (the server rejects the whole request).
  public var writes: [Write]

  /// Creates a request.
  public init(writes: [Write]) {
    self.writes = writes
  }

  /// Writes the REST JSON form, `{"writes":[…]}`.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      out.writeKey("writes")
      out.writeArray(of: writes)
    }
  }

  /// Reads a request body; a missing `writes` member is an empty list.
  public init(json: JSONValue) throws {
    try json.requireObject("BatchWriteRequest")
    writes = try json.array("writes").map(Write.init(json:))
  }
}
