import FirestoreWire

/// The Apple SDK's fire-and-forget and completion-handler forms of adding a document.
extension CollectionReference {
  /// Adds a document with a new random ID without waiting for the server, and returns its
  /// reference at once (the write is queued; see ``DocumentReference/setData(_:completion:)``).
  @discardableResult
  public func addDocument(data: [String: Any]) -> DocumentReference {
    addDocument(data: data, completion: nil)
  }

  /// Adds a document with a new random ID and returns its reference at once; `completion`
  /// hears the server's answer.
  @discardableResult
  public func addDocument(data: [String: Any], completion: (((any Error)?) -> Void)?) -> DocumentReference {
    let ref = document()
    ref.setData(data, completion: completion)
    return ref
  }

  /// Adds a document from an `Encodable` value without waiting for the server, and returns
  /// its reference at once; `completion`, if given, hears the server's answer.
  ///
  /// - Throws: `invalidArgument` when the value cannot be encoded (nothing is queued).
  @discardableResult
  public func addDocument<T: Encodable>(
    from value: T, encoder: Firestore.Encoder = Firestore.Encoder(), completion: (((any Error)?) -> Void)? = nil
  ) throws -> DocumentReference {
    let ref = document()
    try ref.setData(from: value, encoder: encoder, completion: completion)
    return ref
  }
}

/// The Apple SDK's fire-and-forget and completion-handler forms of a batch commit.
extension WriteBatch {
  /// Commits the batch without waiting for the server: its writes are queued, atomically.
  public func commit() {
    commit(completion: nil)
  }

  /// Commits the batch; `completion` hears the server's answer on
  /// ``FirestoreSettings/dispatchQueue``.
  public func commit(completion: (((any Error)?) -> Void)?) {
    firestore.submit(takeWrites(), completion: completion)
  }
}
