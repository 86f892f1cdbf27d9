/// One write of a `:commit` (`google.firestore.v1.Write`).
public struct Write: Sendable, Equatable, JSONWritable {
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

  /// Writes the REST JSON form.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      switch operation {
      case .update(let doc):
        // An update always carries `fields`, even empty, so that Firestore sees a document.
        out.writeKey("update")
        out.writeObject { update in
          update.write("name", doc.name)
          update.writeKey("fields")
          Value.write(fields: doc.fields, to: &update)
          if let created = doc.createTime { update.write("createTime", created.rfc3339) }
        }
      case .delete(let name):
        out.write("delete", name)
      case .transform(let name):
        out.writeKey("transform")
        out.writeObject { transform in
          transform.write("document", name)
          transform.writeKey("fieldTransforms")
          transform.writeArray(of: updateTransforms)
        }
      }
      if let updateMask {
        out.writeKey("updateMask")
        out.writeObject { mask in
          mask.writeKey("fieldPaths")
          mask.writeArray { paths in
            for path in updateMask { paths.write(path) }
          }
        }
      }
      if case .transform = operation {
      } else if !updateTransforms.isEmpty {
        out.writeKey("updateTransforms")
        out.writeArray(of: updateTransforms)
      }
      if let currentDocument {
        out.writeKey("currentDocument")
        currentDocument.write(to: &out)
      }
    }
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
public enum Precondition: Sendable, Equatable, JSONWritable {
  /// The document must (true) or must not (false) exist.
  case exists(Bool)
  /// The document must exist and have last been updated at exactly this time.
  case updateTime(Timestamp)

  /// Writes the REST JSON form.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      switch self {
      case .exists(let b):
        out.writeKey("exists")
        out.write(b)
      case .updateTime(let t): out.write("updateTime", t.rfc3339)
      }
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
public struct FieldTransform: Sendable, Equatable, JSONWritable {
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

  /// Writes the REST JSON form.
  public func write<Output: JSONOutput>(to output: inout Output) {
    output.writeObject { out in
      out.write("fieldPath", fieldPath)
      switch kind {
      case .serverTimestamp: out.write("setToServerValue", "REQUEST_TIME")
      case .increment(let v): Self.write("increment", v, to: &out)
      case .maximum(let v): Self.write("maximum", v, to: &out)
      case .minimum(let v): Self.write("minimum", v, to: &out)
      case .appendMissingElements(let vs): Self.write("appendMissingElements", values: vs, to: &out)
      case .removeAllFromArray(let vs): Self.write("removeAllFromArray", values: vs, to: &out)
      }
    }
  }

  private static func write<Output: JSONOutput>(_ key: String, _ value: Value, to output: inout Output) {
    output.writeKey(key)
    value.write(to: &output)
  }

  /// Writes the member `key` as `{"values": [...]}`.
  private static func write<Output: JSONOutput>(_ key: String, values: [Value], to output: inout Output) {
    output.writeKey(key)
    output.writeObject { out in
      out.writeKey("values")
      out.writeArray(of: values)
    }
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
