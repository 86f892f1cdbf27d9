import FirestoreWire

/// Builds REST writes from user data, applying the Firebase SDKs' rules for `setData`,
/// merges, `updateData` and sentinels, and Firestore's size limits.
enum WriteBuilder {
  /// Firestore's maximum document size, in bytes.
  static let maximumDocumentBytes = 1_048_576

  /// How a `setData` treats fields it does not mention.
  enum Merge {
    /// Replace the whole document.
    case none
    /// Touch only the fields in the data (leaf paths).
    case all
    /// Touch only these fields.
    case fields([FieldPath])
  }

  static func set(_ ref: DocumentReference, _ data: [String: any Sendable], merge: Merge, precondition: Precondition? = nil)
    throws(FirestoreError) -> Write
  {
    let ref = try ref.validated()
    var reader = UserDataReader(firestore: ref.firestore, context: mergeContext(merge))
    var fields = try reader.readFields(data)
    var transforms = reader.transforms
    var mask: [String]?
    switch merge {
    case .none:
      break
    case .all:
      mask = (reader.leafPaths + reader.deletes).map(\.canonicalString)
    case .fields(let paths):
      let listed = try mergePaths(paths)
      // A delete removes exactly one listed field: anywhere else it would be dropped
      // (outside every path) or written as part of a replaced value (below one).
      for d in reader.deletes where !listed.contains(d) {
        if let p = listed.first(where: { d.hasPrefix($0) }) {
          throw .invalidArgument(
            "FieldValue.delete() at \"\(d)\" lies inside merge field \"\(p)\"; it may only stand at a merge field itself")
        }
        throw .invalidArgument("FieldValue.delete() at \"\(d)\" is not covered by mergeFields; list the field to delete it")
      }
      for p in listed {
        let inData =
          value(at: p, in: fields) != nil || reader.deletes.contains(p) || transforms.contains { $0.0.hasPrefix(p) }
        if !inData {
          throw .invalidArgument("field \"\(p)\" is listed in mergeFields but is missing from the data")
        }
      }
      fields = project(fields, onto: listed)
      transforms = transforms.filter { t in listed.contains { t.0.hasPrefix($0) } }
      mask = listed.filter { p in !transforms.contains { $0.0 == p } }.map(\.canonicalString)
    }
    let write = Write(
      operation: .update(Document(name: ref.name, fields: fields)), updateMask: mask,
      updateTransforms: transforms.map { FieldTransform(fieldPath: $0.0.canonicalString, kind: $0.1) }, currentDocument: precondition)
    try checkSize(write, ref: ref)
    return write
  }

  /// A `setData(_:mergeFields:)`: the fields given as dotted strings or ``FieldPath``s.
  static func set(_ ref: DocumentReference, _ data: [String: any Sendable], mergeFields: [any FieldPathConvertible])
    throws(FirestoreError) -> Write
  {
    var paths: [FieldPath] = []
    for field in mergeFields { paths.append(try field.fieldPath()) }
    return try set(ref, data, merge: .fields(paths))
  }

  static func update(_ ref: DocumentReference, _ data: [FieldPath: any Sendable], precondition: Precondition?) throws(FirestoreError)
    -> Write
  {
    let ref = try ref.validated()
    if data.isEmpty { throw .invalidArgument("updateData of \(ref.path) needs at least one field to update") }
    if precondition == .exists(false) {
      throw .invalidArgument("updateData of \(ref.path) cannot require that the document does not exist; use create or setData")
    }
    var reader = UserDataReader(firestore: ref.firestore, context: .update)
    var fields: [String: Value] = [:]
    var mask: [FieldPath] = []
    let paths = data.keys.sorted { $0.segments.lexicographicallyPrecedes($1.segments) }
    for path in paths {
      let path = try path.validated()
      for segment in path.segments { try UserDataReader.validateFieldName(segment, path: path) }
      if let other = mask.first(where: { path.hasPrefix($0) || $0.hasPrefix(path) }) {
        throw .invalidArgument("field \"\(other)\" and field \"\(path)\" overlap; update each field once")
      }
      reader.currentUpdateKey = path
      let raw = data[path]!
      if let value = try reader.read(raw, path: path, depth: path.segments.count, arrays: .none) {
        setValue(value, at: path, in: &fields)
      }
      // Every key replaces its field, except a transform on its own: a delete, or a map
      // holding only sentinels, is in the mask with no value (the transforms then write
      // into the cleared field).
      if let sentinel = raw as? FieldValue, !sentinel.isDelete { continue }
      mask.append(path)
    }
    let write = Write(
      operation: .update(Document(name: ref.name, fields: fields)), updateMask: mask.map(\.canonicalString),
      updateTransforms: reader.transforms.map { FieldTransform(fieldPath: $0.0.canonicalString, kind: $0.1) },
      currentDocument: precondition ?? .exists(true))
    try checkSize(write, ref: ref)
    return write
  }

  static func delete(_ ref: DocumentReference, precondition: Precondition?) throws(FirestoreError) -> Write {
    Write(operation: .delete(try ref.validated().name), currentDocument: precondition)
  }

  /// Parses the keys of an `updateData` dictionary as dotted paths.
  static func fieldPaths(_ data: [String: any Sendable]) throws(FirestoreError) -> [FieldPath: any Sendable] {
    try fieldPaths(data) { key throws(FirestoreError) in try FieldPath.parse(dotted: key) }
  }

  /// `data` by the field path `path` reads from each key. Two keys that name one field (a
  /// dotted string and a ``FieldPath``) are refused: a dictionary has no order to tell which
  /// one the caller meant to win.
  static func fieldPaths<Key>(
    _ data: [Key: any Sendable], path: (Key) throws(FirestoreError) -> FieldPath
  ) throws(FirestoreError) -> [FieldPath: any Sendable] {
    var out: [FieldPath: any Sendable] = [:]
    out.reserveCapacity(data.count)
    for (key, value) in data {
      let path = try path(key)
      guard out.updateValue(value, forKey: path) == nil else {
        throw .invalidArgument("field \"\(path)\" is named by two keys; update each field once")
      }
    }
    return out
  }

  /// Whether sending the writes twice has the same effect as sending them once, so that
  /// a commit that may or may not have landed can be retried.
  static func isIdempotent(_ writes: [Write]) -> Bool {
    writes.allSatisfy { w in
      switch w.currentDocument {
      case .exists(false), .updateTime: return false
      case .exists(true): if case .delete = w.operation { return false }
      case nil: break
      }
      return !increments(w)
    }
  }

  /// Whether `write` increments a field: the one transform that adds again when repeated.
  static func increments(_ write: Write) -> Bool {
    write.updateTransforms.contains { if case .increment = $0.kind { return true } else { return false } }
  }

  /// Validates `mergeFields`: no path may lie inside another (which would be ambiguous:
  /// replace the outer value, or merge the inner one?). A path listed twice counts once.
  private static func mergePaths(_ paths: [FieldPath]) throws(FirestoreError) -> [FieldPath] {
    var listed: [FieldPath] = []
    for path in paths {
      let path = try path.validated()
      if listed.contains(path) { continue }
      if let other = listed.first(where: { path.hasPrefix($0) || $0.hasPrefix(path) }) {
        throw .invalidArgument("mergeFields lists \"\(other)\" and \"\(path)\", and one lies inside the other; list each field once")
      }
      listed.append(path)
    }
    return listed
  }

  private static func mergeContext(_ merge: Merge) -> UserDataReader.Context {
    if case .none = merge { return .set }
    return .mergeSet
  }

  static func value(at path: FieldPath, in fields: [String: Value]) -> Value? {
    var current = Value.map(fields)
    for segment in path.segments {
      guard case .map(let m) = current, let next = m[segment] else { return nil }
      current = next
    }
    return current
  }

  static func setValue(_ value: Value, at path: FieldPath, in fields: inout [String: Value]) {
    guard let first = path.segments.first else { return }
    if path.segments.count == 1 {
      fields[first] = value
      return
    }
    var child: [String: Value] = [:]
    if case .map(let existing) = fields[first] { child = existing }
    setValue(value, at: FieldPath(Array(path.segments.dropFirst())), in: &child)
    fields[first] = .map(child)
  }

  /// Keeps only the listed paths (and what lies beneath them).
  private static func project(_ fields: [String: Value], onto paths: [FieldPath]) -> [String: Value] {
    var out: [String: Value] = [:]
    for p in paths {
      if let v = value(at: p, in: fields) { setValue(v, at: p, in: &out) }
    }
    return out
  }

  /// Rejects a document over Firestore's 1 MiB limit before it is sent.
  private static func checkSize(_ write: Write, ref: DocumentReference) throws(FirestoreError) {
    guard case .update(let doc) = write.operation else { return }
    let size = DocumentSize.of(documentName: ref.name, fields: doc.fields)
    if size > maximumDocumentBytes {
      throw .invalidArgument("document \(ref.path) would be \(size) bytes; Firestore's maximum is \(maximumDocumentBytes) bytes (1 MiB)")
    }
  }
}
