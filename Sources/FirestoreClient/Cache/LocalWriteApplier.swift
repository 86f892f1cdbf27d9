import FirestoreEngine
import FirestoreWire

/// Applies a ``FirestoreWire/Write`` to a document on the client, as the server will: for
/// latency compensation (before the commit answers, server timestamps as placeholders) and
/// for updating the cache once it has (with the server's transform results).
enum LocalWriteApplier {
  /// The document after `write`, or `nil` when it does not exist afterwards.
  ///
  /// A write whose precondition fails against `base` leaves `base` as it is (the server
  /// will reject it). Times are kept from `base`; the caller sets them when they are known.
  ///
  /// - Parameters:
  ///   - base: the document before the write, `nil` when it does not exist.
  ///   - localWriteTime: when the write was made; pending server timestamps carry it.
  ///   - transformResults: the commit's results for this write, or `nil` while pending.
  ///   - incrementBases: while pending, the values the write's increments start from when
  ///     `base` exists (see ``incrementBases(of:on:)``).
  static func apply(
    _ write: Write, to base: Document?, localWriteTime: Timestamp, transformResults: [Value]?,
    incrementBases: [String: Value] = [:]
  ) -> Document? {
    var base = base
    if transformResults == nil, !incrementBases.isEmpty, var document = base {
      for (fieldPath, value) in incrementBases { FieldMap.set(&document.fields, QueryEvaluator.segments(fieldPath), value) }
      base = document
    }
    switch write.currentDocument {
    case .exists(true)?, .updateTime?:
      if base == nil { return nil }
    case .exists(false)?:
      if base != nil { return base }
    case nil:
      break
    }
    var fields: [String: Value]
    switch write.operation {
    case .delete:
      return nil
    case .update(let doc):
      if let mask = write.updateMask {
        fields = base?.fields ?? [:]
        FieldMap.applyMask(mask.map(QueryEvaluator.segments), from: doc.fields, to: &fields)
      } else {
        fields = doc.fields
      }
    case .transform:
      fields = base?.fields ?? [:]
    }
    for (i, transform) in write.updateTransforms.enumerated() {
      let path = QueryEvaluator.segments(transform.fieldPath)
      let current = FieldMap.get(fields, path)
      let value: Value
      if let results = transformResults, i < results.count, !isArrayTransform(transform.kind) {
        value = results[i]
      } else if case .serverTimestamp = transform.kind {
        // `.previous` reads the field as it was before this write, not in the write's own
        // fields (a set leaves it out): the Apple SDK takes it from the base document too.
        let before = base.flatMap { FieldMap.get($0.fields, path) }
        value = Value.pendingServerTimestamp(localWriteTime: localWriteTime, previous: before)
      } else {
        value = TransformEvaluator.apply(transform.kind, to: current, requestTime: localWriteTime).newValue
      }
      FieldMap.set(&fields, path, value)
    }
    return Document(
      name: write.documentName, fields: fields, createTime: base?.createTime, updateTime: base?.updateTime)
  }

  /// The values the increments of `write` start from, by field path: each field's number
  /// in `document` as the write is made, 0 when it holds none.
  ///
  /// An increment is the one transform that must not be applied twice. While the write is
  /// pending, a listener's server version of the document may already contain it (the
  /// listen can answer before the commit does); applied over these values instead of that
  /// version's, the write shows its own result, not the sum twice. The Apple SDK records
  /// the same values as a batch's base mutations.
  static func incrementBases(of write: Write, on document: Document?) -> [String: Value] {
    var bases: [String: Value] = [:]
    for transform in write.updateTransforms {
      guard case .increment = transform.kind else { continue }
      let current = document.flatMap { FieldMap.get($0.fields, QueryEvaluator.segments(transform.fieldPath)) }
      bases[transform.fieldPath] = TransformEvaluator.incrementBase(current)
    }
    return bases
  }

  /// Whether the write's outcome does not depend on the document before it: a delete, or a
  /// whole-document set, whose transforms apply to the fields it sets (the server replaces
  /// the document first: an increment of a field the set leaves out starts from nothing).
  static func isBlind(_ write: Write) -> Bool {
    switch write.operation {
    case .delete: return write.currentDocument == nil
    case .transform: return false
    case .update:
      return write.updateMask == nil && (write.currentDocument == nil || write.currentDocument == .exists(false))
    }
  }

  /// Array transforms report `null` as their result; their value is computed locally.
  private static func isArrayTransform(_ kind: FieldTransform.Kind) -> Bool {
    switch kind {
    case .appendMissingElements, .removeAllFromArray: return true
    default: return false
    }
  }
}
