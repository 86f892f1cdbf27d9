import FirestoreWire
import Foundation

/// One result of a pipeline: a document, or a row the pipeline computed (an aggregate's
/// group, a `select` of expressions), which has no reference and no times.
public struct PipelineResult: Sendable {
  /// The document this result is, when it has a name.
  public let ref: DocumentReference?
  /// The document's ID, when it has a name.
  public let id: String?
  /// When the document was created; `nil` for a computed row.
  public let createTime: Timestamp?
  /// When the document last changed; `nil` for a computed row.
  public let updateTime: Timestamp?
  /// The fields in Firestore's own value type, exact to the wire.
  public let fields: [String: FirestoreWire.Value]

  init(document: Document, firestore: Firestore) {
    ref = document.name.isEmpty ? nil : UserDataWriter(firestore: firestore).reference(document.name)
    id = ref?.documentID
    createTime = document.createTime
    updateTime = document.updateTime
    fields = document.fields
    writer = UserDataWriter(firestore: firestore)
  }

  private let writer: UserDataWriter

  /// The fields as Swift values, converted as ``DocumentSnapshot/data()`` converts them,
  /// except that null is `nil`.
  public var data: [String: (any Sendable)?] {
    fields.mapValues { value in
      if case .null = value { return nil }
      return writer.convert(value)
    }
  }

  /// The value at the dotted path `fieldName`, or `nil` when it is absent or null.
  public func get(_ fieldName: String) -> (any Sendable)? { value(at: try? FieldPath.parse(dotted: fieldName)) }

  /// The value at `fieldPath`, or `nil` when it is absent or null.
  public func get(_ fieldPath: FieldPath) -> (any Sendable)? { value(at: fieldPath) }

  /// The value of `field`, or `nil` when it is absent or null.
  public func get(_ field: Field) -> (any Sendable)? { value(at: try? field.fieldPath()) }

  private func value(at path: FieldPath?) -> (any Sendable)? {
    guard let path, !path.segments.isEmpty else { return nil }
    var current: FirestoreWire.Value = .map(fields)
    for segment in path.segments {
      guard case .map(let map) = current, let next = map[segment] else { return nil }
      current = next
    }
    if case .null = current { return nil }
    return writer.convert(current)
  }
}
