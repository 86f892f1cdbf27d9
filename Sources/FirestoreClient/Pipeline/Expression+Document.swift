extension Expression {
  /// `document_id`: the last segment of this reference (or document name).
  public func documentId() -> FunctionExpression { call("document_id") }
  /// `collection_id`: the ID of the collection this reference is in.
  public func collectionId() -> FunctionExpression { call("collection_id") }
  /// `parent`: the reference of the document this reference's collection is under.
  public func parent() -> FunctionExpression { call("parent") }
}
