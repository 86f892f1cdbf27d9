import FirestoreWire

/// A field of the document a pipeline stage is looking at.
///
/// ```swift
/// db.pipeline().collection("books").where(Field("rating").greaterThan(4.5))
/// ```
public struct Field: Expression, Selectable, PipelineEncodable, FieldPathConvertible {
  /// The field's path as given: dotted, such as `"author.name"`.
  public let fieldName: String
  private let path: Result<FieldPath, FirestoreError>

  /// A field by its dotted path (`"a.b"` is field `b` of map `a`; `"__name__"` is the
  /// document's name).
  public init(_ name: String) {
    fieldName = name
    path = Result { () throws(FirestoreError) in try FieldPath.parse(dotted: name) }
  }

  /// A field by its ``FieldPath``, such as `FieldPath.documentID()`.
  public init(_ path: FieldPath) {
    fieldName = path.description
    self.path = .success(path)
  }

  /// The field's path; an invalid dotted path is an error.
  public func fieldPath() throws(FirestoreError) -> FieldPath { try path.get() }

  func encoded(_ encoder: PipelineEncoder) throws(FirestoreError) -> PipelineExpression {
    .field(try fieldPath().canonicalString)
  }
}
