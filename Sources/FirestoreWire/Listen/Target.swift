import Foundation

/// A set of documents to watch on the Listen stream (`google.firestore.v1.Target`): the
/// results of a query, or a fixed list of documents.
///
/// A target may resume from an earlier `resumeToken` or `readTime`, in which case the
/// server only sends what changed since then (the emulator instead answers with RESET and
/// the full result). The two are one `oneof` on the wire: when both are set only
/// `resumeToken` is written, because the server rejects a message with both (and an
/// unparseable message wedges a WebChannel session).
public struct Target: Sendable, Equatable {
  /// What a target watches.
  public enum Kind: Sendable, Equatable {
    /// The results of a query. `parent` is a full resource name: `…/documents` for a root
    /// collection, `…/documents/x/y` below a document.
    case query(parent: String, StructuredQuery)
    /// Documents by full resource name; missing ones are reported as deleted.
    case documents([String])
  }

  /// The client-chosen target ID, unique among the stream's live targets and not zero.
  public var targetID: Int32
  /// What the target watches.
  public var kind: Kind
  /// Opaque token from an earlier `targetChange` to resume from, or `nil`.
  public var resumeToken: Data?
  /// Resume from this read time instead; ignored on the wire when `resumeToken` is set.
  public var readTime: Timestamp?
  /// Whether the server should remove the target once it is CURRENT.
  public var once: Bool
  /// How many documents matched at the resume point, so the server can send an existence
  /// filter at once when the count differs; only meaningful with a resume point.
  public var expectedCount: Int32?

  /// Creates a target.
  public init(
    targetID: Int32, kind: Kind, resumeToken: Data? = nil, readTime: Timestamp? = nil, once: Bool = false, expectedCount: Int32? = nil
  ) {
    self.targetID = targetID
    self.kind = kind
    self.resumeToken = resumeToken
    self.readTime = readTime
    self.once = once
    self.expectedCount = expectedCount
  }

  /// Reads a `Target` JSON object.
  ///
  /// - Throws: ``WireFormatError`` when neither or both of `query` and `documents` are
  ///   present, when `targetId` is missing or does not fit 32 bits, or when `resumeToken`
  ///   is not base64.
  public init(json: JSONValue) throws {
    try json.requireObject("Target")
    switch (json["query"], json["documents"]) {
    case (let query?, nil):
      guard let structured = query["structuredQuery"] else { throw WireFormatError("query target lacks structuredQuery") }
      kind = .query(parent: try query.requiredString("parent"), try StructuredQuery(json: structured))
    case (nil, let documents?):
      kind = .documents(
        try documents.array("documents").map {
          guard let name = $0.stringValue else { throw Value.mismatch("documents", $0) }
          return name
        })
    default:
      throw WireFormatError("a Target needs exactly one of query and documents")
    }
    guard let id = try json.optionalInt64("targetId") else { throw WireFormatError("missing \"targetId\"") }
    targetID = try Self.int32(id, "targetId")
    resumeToken = try json.optionalString("resumeToken").map {
      guard let data = Value.decodeBase64($0) else { throw WireFormatError("resumeToken is not base64") }
      return data
    }
    readTime = try json.optionalTimestamp("readTime")
    once = try json.optionalBool("once") ?? false
    // expectedCount is an Int32Value: a bare number, or the wrapper object some encoders write.
    if let count = json["expectedCount"] {
      expectedCount = try Self.int32(try (count["value"] ?? count).asInt64("expectedCount"), "expectedCount")
    }
  }

  /// The JSON form: `query` or `documents`, `targetId`, then the resume point and flags.
  public var json: JSONValue {
    var members: [(String, JSONValue)] = []
    switch kind {
    case .query(let parent, let query):
      members.append(("query", .object([("parent", .string(parent)), ("structuredQuery", query.json)])))
    case .documents(let names):
      members.append(("documents", .object([("documents", .array(names.map { .string($0) }))])))
    }
    members.append(("targetId", .integer(Int64(targetID))))
    if let resumeToken {
      members.append(("resumeToken", .string(resumeToken.base64EncodedString())))
    } else if let readTime {
      members.append(("readTime", .string(readTime.rfc3339)))
    }
    if once { members.append(("once", .bool(true))) }
    members.append("expectedCount", expectedCount.map { .integer(Int64($0)) })
    return .object(members)
  }

  static func int32(_ value: Int64, _ name: String) throws -> Int32 {
    guard let i = Int32(exactly: value) else { throw WireFormatError("\(name) \(value) does not fit in 32 bits") }
    return i
  }
}

extension JSONValue {
  /// This value as an integer (JSON number or decimal string); `name` labels the error.
  func asInt64(_ name: String) throws -> Int64 {
    switch self {
    case .number(let s), .string(let s):
      guard let i = Int64(s) else { throw WireFormatError("\(name) \"\(s)\" is not an integer") }
      return i
    default: throw Value.mismatch(name, self)
    }
  }

  /// The array member `key` as 32-bit integers (missing means empty).
  func int32Array(_ key: String) throws -> [Int32] {
    try array(key).map { try Target.int32($0.asInt64(key), key) }
  }
}
