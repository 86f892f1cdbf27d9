extension Query {
  /// What a query's builders set, as a value: a builder copies it, changes it and wraps it
  /// in a new ``Query``.
  struct Definition: Sendable {
    /// The document under which collections are queried, or the root.
    var parent: ResourcePath
    var collectionID: String
    var allDescendants: Bool
    var filters: [Filter] = []
    var orders: [(any FieldPathConvertible, Bool)] = []
    var limitValue: Int?
    var limitKind = LimitKind.first
    var startBound: Bound?
    var endBound: Bound?
    var offsetValue: Int?
    var projection: [any FieldPathConvertible]?
    /// The first builder misuse, thrown by every read.
    var recordedError: FirestoreError?

    init(parent: ResourcePath, collectionID: String, allDescendants: Bool, recordedError: FirestoreError? = nil) {
      self.parent = parent
      self.collectionID = collectionID
      self.allDescendants = allDescendants
      self.recordedError = recordedError
    }

    mutating func recordError(_ error: FirestoreError) {
      if recordedError == nil { recordedError = error }
    }
  }
}
