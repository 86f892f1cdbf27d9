/// One message the server sends on the Listen stream (`google.firestore.v1.ListenResponse`).
///
/// Proto3 JSON omits defaults: `targetChangeType` is absent for `NO_CHANGE` and empty
/// `targetIds` lists are absent. Document deletes and removes name the document by its
/// full resource name only.
public enum ListenResponse: Sendable, Equatable {
  /// Targets changed state (ADD, CURRENT, RESET, REMOVE) or a consistent point was reached.
  case targetChange(TargetChange)
  /// A document was added or updated in some targets, or left others.
  case documentChange(DocumentChanged)
  /// A document was deleted.
  case documentDelete(DocumentDeleted)
  /// A document left targets without being deleted (for instance it no longer matches).
  case documentRemove(DocumentRemoved)
  /// The number of documents the server holds for a target, to detect missed removals.
  case filter(ExistenceFilter)

  /// A document's new state and the targets it now belongs to and left.
  public struct DocumentChanged: Sendable, Equatable {
    /// The document's new state.
    public var document: Document
    /// Targets the document matches.
    public var targetIDs: [Int32]
    /// Targets the document no longer matches.
    public var removedTargetIDs: [Int32]

    /// Creates a document change.
    public init(document: Document, targetIDs: [Int32] = [], removedTargetIDs: [Int32] = []) {
      self.document = document
      self.targetIDs = targetIDs
      self.removedTargetIDs = removedTargetIDs
    }
  }

  /// A document that left targets: deleted (or, for a documents target, missing), or still
  /// there but no longer matching. The protocol's `DocumentDelete` and `DocumentRemove`
  /// carry the same fields; the case of ``ListenResponse`` tells them apart.
  public struct DocumentLeft: Sendable, Equatable {
    /// The document's full resource name.
    public var document: String
    /// Targets the document left.
    public var removedTargetIDs: [Int32]
    /// When the change was observed.
    public var readTime: Timestamp?

    /// Creates the payload.
    public init(document: String, removedTargetIDs: [Int32] = [], readTime: Timestamp? = nil) {
      self.document = document
      self.removedTargetIDs = removedTargetIDs
      self.readTime = readTime
    }

    /// Reads the payload of a `documentDelete` or `documentRemove`.
    public init(json: JSONValue) throws {
      document = try json.requiredString("document")
      removedTargetIDs = try json.int32Array("removedTargetIds")
      readTime = try json.optionalTimestamp("readTime")
    }

    /// The JSON form of the payload (defaults omitted).
    public var json: JSONValue {
      // Member order as the emulator writes it.
      var m: [(String, JSONValue)] = [("document", .string(document))]
      m.append("readTime", readTime.map { .string($0.rfc3339) })
      m.append("removedTargetIds", ListenResponse.ids(removedTargetIDs))
      return .object(m)
    }
  }

  /// The payload of `documentDelete`: the document was deleted (or is missing).
  public typealias DocumentDeleted = DocumentLeft
  /// The payload of `documentRemove`: the document left targets but may still exist.
  public typealias DocumentRemoved = DocumentLeft

  /// An existence filter: how many documents the server has in a target. A client holding
  /// a different number missed a change and must re-listen. The bloom filter of
  /// `unchangedNames` is not modelled (it is read past).
  public struct ExistenceFilter: Sendable, Equatable {
    /// The target the count is for.
    public var targetID: Int32
    /// How many documents match the target.
    public var count: Int32

    /// Creates an existence filter.
    public init(targetID: Int32, count: Int32) {
      self.targetID = targetID
      self.count = count
    }
  }

  /// Reads a `ListenResponse` JSON object.
  ///
  /// - Throws: ``WireFormatError`` when the object holds none of the known kinds or a
  ///   member has the wrong shape.
  public init(json: JSONValue) throws {
    try json.requireObject("ListenResponse")
    if let c = json["targetChange"] {
      self = .targetChange(try TargetChange(json: c))
    } else if let c = json["documentChange"] {
      guard let doc = c["document"] else { throw WireFormatError("documentChange lacks \"document\"") }
      self = .documentChange(
        DocumentChanged(
          document: try Document(json: doc), targetIDs: try c.int32Array("targetIds"),
          removedTargetIDs: try c.int32Array("removedTargetIds")))
    } else if let d = json["documentDelete"] {
      self = .documentDelete(try DocumentLeft(json: d))
    } else if let r = json["documentRemove"] {
      self = .documentRemove(try DocumentLeft(json: r))
    } else if let f = json["filter"] {
      // Proto3 JSON omits zeros: a missing targetId or count is 0.
      self = .filter(
        ExistenceFilter(
          targetID: try Target.int32(f["targetId"]?.asInt64("targetId") ?? 0, "targetId"),
          count: try Target.int32(f["count"]?.asInt64("count") ?? 0, "count")))
    } else {
      throw WireFormatError("unknown ListenResponse kind: \(json.objectValue?.map(\.0) ?? [])")
    }
  }

  /// The JSON form, as the server writes it (defaults omitted).
  public var json: JSONValue {
    switch self {
    case .targetChange(let c):
      return .object([("targetChange", c.json)])
    case .documentChange(let c):
      var m: [(String, JSONValue)] = [("document", c.document.json)]
      m.append("targetIds", Self.ids(c.targetIDs))
      m.append("removedTargetIds", Self.ids(c.removedTargetIDs))
      return .object([("documentChange", .object(m))])
    case .documentDelete(let d):
      return .object([("documentDelete", d.json)])
    case .documentRemove(let r):
      return .object([("documentRemove", r.json)])
    case .filter(let f):
      var m: [(String, JSONValue)] = []
      if f.targetID != 0 { m.append(("targetId", .integer(Int64(f.targetID)))) }
      if f.count != 0 { m.append(("count", .integer(Int64(f.count)))) }
      return .object([("filter", .object(m))])
    }
  }

  /// A target ID list, or `nil` when empty (proto3 JSON omits empty lists).
  static func ids(_ ids: [Int32]) -> JSONValue? {
    ids.isEmpty ? nil : .array(ids.map { .integer(Int64($0)) })
  }
}
