import FirestoreWire

extension StructuredQuery {
  /// The query under `parent` as a string that two equal queries under it share, for
  /// remembering something about a query by what it asks.
  func key(under parent: String) -> String {
    parent + " " + JSONWriter.string(json)
  }
}
