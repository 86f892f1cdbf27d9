/// One write of a `:commit` (`google.firestore.v1.Write`).
public struct Write: Sendable, Equatable {
  /// What the write does to its document.
  public enum Operation: Sendable, Equatable {
    /// Sets fields (all of them, or those in ``Write/updateMask``).
    case update(Document)
    /// Deletes the named document.
    case delete(String)
    /// Applies only ``Write/updateTransforms`` to the named document (legacy form).
    case transform(String)
  }

  /// The operation.
  public var operation: Operation
  /// For an update: the fields to touch; `nil` replaces the whole document.
  public var updateMask: [String]?
  /// Transforms applied after the operation, in order.
  public var updateTransforms: [FieldTransform]
  /// A condition that must hold or the whole commit fails.
  public var currentDocument: Precondition?

  /// Creates a write.
  public init(
    operation: Operation, updateMask: [String]? = nil, updateTransforms: [FieldTransform] = [], currentDocument: Precondition? = nil
  ) {
    self.operation = operation
    self.updateMask = updateMask
    self.updateTransforms = updateTransforms
    self.currentDocument = currentDocument
  }

  /// The name of the document this write targets.
  public var documentName: String {
    switch operation {
    case .update(let doc): return doc.name
    case .delete(let name), .transform(let name): return name
    }
  }

  /// The REST JSON form.
  public var json: JSONValue {
    var m: [(String, JSONValue)] = []
    switch operation {
    case .update(let doc):
      // An update always carries `fields`, even empty, so that Firestore sees a document.
      var d: [(String, JSONValue)] = [("name", .string(doc.name)), ("fields", Value.json(fields: doc.fields))]
      d.append("createTime", doc.createTime.map { .string($0.rfc3339) })
      m.append(("update", .object(d)))
    case .delete(let name):
      m.append(("delete", .string(name)))
    case .transform(let name):
      m.append(("transform", .object([("document", .string(name)), ("fieldTransforms", .array(updateTransforms.map(\.json)))])))
    }
    if let updateMask {
      m.append(("updateMask", .object([("fieldPaths", .array(updateMask.map(JSONValue.string)))])))
    }
    if case .transform = operation {
    } else if !updateTransforms.isEmpty {
      m.append(("updateTransforms", .array(updateTransforms.map(\.json))))
    }
    m.append("currentDocument", currentDocument?.json)
    return .object(m)
  }

  /// Reads a REST `Write`.
  public init(json: JSONValue) throws {
    try json.requireObject("Write")
    if let update = json["update"] {
      operation = .update(try Document(json: update))
      updateTransforms = try json.array("updateTransforms").map(FieldTransform.init(json:))
    } else if let name = try json.optionalString("delete") {
      operation = .delete(name)
      updateTransforms = []
    } else if let transform = json["transform"] {
      operation = .transform(try transform.requiredString("document"))
      updateTransforms = try transform.array("fieldTransforms").map(FieldTransform.init(json:))
    } else {
      throw WireFormatError("a Write needs update, delete or transform")
    }
    if let mask = json["updateMask"] {
      updateMask = try mask.array("fieldPaths").map { v in
        guard case .string(let s) = v else { throw Value.mismatch("fieldPaths", v) }
        return s
      }
    }
    currentDocument = try json["currentDocument"].map(Precondition.init(json:))
  }
}

/// A condition on the current state of a document (`google.firestore.v1.Precondition`).
public enum Precondition: Sendable, Equatable {
  /// The document must (true) or must not (false) exist.
  case exists(Bool)
  /// The document must exist and have last been updated at exactly this time.
  case updateTime(Timestamp)

  /// The REST JSON form.
  public var json: JSONValue {
    switch self {
    case .exists(let b): return .object([("exists", .bool(b))])
    case .updateTime(let t): return .object([("updateTime", .string(t.rfc3339))])
    }
  }

  /// Reads a REST `Precondition`.
  public init(json: JSONValue) throws {
    if let b = try json.optionalBool("exists") {
      self = .exists(b)
    } else if let t = try json.optionalTimestamp("updateTime") {
      self = .updateTime(t)
    } else {
      throw WireFormatError("a Precondition needs exists or updateTime")
    }
  }
}

/// A server-side transformation of one field (`DocumentTransform.FieldTransform`).
public struct FieldTransform: Sendable, Equatable {
  /// The transformation.
  public enum Kind: Sendable, Equatable {
    /// Set to the time the server processed the request.
    case serverTimestamp
    /// Add this number.
    case increment(Value)
    /// Set to the larger of the current value and this one.
    case maximum(Value)
    /// Set to the smaller of the current value and this one.
    case minimum(Value)
    /// Append each element not already present (array union).
    case appendMissingElements([Value])
    /// Remove every occurrence of each element (array remove).
    case removeAllFromArray([Value])
  }

  /// The canonical field path.
  public var fieldPath: String
  /// The transformation.
  public var kind: Kind

  /// Creates a transform.
  public init(fieldPath: String, kind: Kind) {
    self.fieldPath = fieldPath
    self.kind = kind
  }

  /// The REST JSON form.
  public var json: JSONValue {
    let payload: (String, JSONValue)
    switch kind {
    case .serverTimestamp: payload = ("setToServerValue", .string("REQUEST_TIME"))
    case .increment(let v): payload = ("increment", v.json)
    case .maximum(let v): payload = ("maximum", v.json)
    case .minimum(let v): payload = ("minimum", v.json)
    case .appendMissingElements(let vs): payload = ("appendMissingElements", .object([("values", .array(vs.map(\.json)))]))
    case .removeAllFromArray(let vs): payload = ("removeAllFromArray", .object([("values", .array(vs.map(\.json)))]))
    }
    return .object([("fieldPath", .string(fieldPath)), payload])
  }

  /// Reads a REST `FieldTransform`.
  public init(json: JSONValue) throws {
    fieldPath = try json.requiredString("fieldPath")
    if let v = try json.optionalString("setToServerValue") {
      guard v == "REQUEST_TIME" else { throw WireFormatError("unknown server value \"\(v)\"") }
      kind = .serverTimestamp
    } else if let v = json["increment"] {
      kind = .increment(try Value(json: v))
    } else if let v = json["maximum"] {
      kind = .maximum(try Value(json: v))
    } else if let v = json["minimum"] {
      kind = .minimum(try Value(json: v))
    } else if let v = json["appendMissingElements"] {
      kind = .appendMissingElements(try v.array("values").map(Value.init(json:)))
    } else if let v = json["removeAllFromArray"] {
      kind = .removeAllFromArray(try v.array("values").map(Value.init(json:)))
    } else {
      throw WireFormatError("unknown field transform for \"\(fieldPath)\"")
    }
  }
}
