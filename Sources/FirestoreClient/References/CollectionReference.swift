import FirestoreWire

/// A reference to a collection: the place to add documents, and a query over all of them.
///
/// As in the Apple SDK, a collection is a ``Query``: every query builder (`whereField`,
/// `order(by:)`, `limit(to:)`, …) and every query read (`getDocuments()`, `count`, …) is
/// available on it, and it can be passed wherever a `Query` is taken.
///
/// ```swift
/// let cities = db.collection("cities")
/// let ref = try await cities.addDocument(data: ["name": "Tokyo", "population": 37_400_068])
/// let big = try await cities.whereField("population", isGreaterThan: 10_000_000).getDocuments()
/// ```
public final class CollectionReference: Query, @unchecked Sendable, CustomStringConvertible {
  // Sendable as `Query` is: it adds only `let`s of Sendable types.
  let resourcePath: ResourcePath
  let pathError: FirestoreError?

  init(firestore: Firestore, resourcePath: ResourcePath, pathError: FirestoreError? = nil) {
    self.resourcePath = resourcePath
    self.pathError = pathError
    super.init(
      firestore: firestore,
      definition: Definition(
        parent: resourcePath.parent ?? .root, collectionID: resourcePath.lastSegment, allDescendants: false, recordedError: pathError))
  }

  /// Resolves `relative` below `base`, recording any problem instead of trapping.
  static func resolve(firestore: Firestore, base: ResourcePath, baseError: FirestoreError?, relative: String) -> CollectionReference {
    let (path, error) = ResourcePath.resolve(relative, below: base, baseError: baseError, isDocument: false)
    return CollectionReference(firestore: firestore, resourcePath: path, pathError: error)
  }

  /// The collection's ID: the last segment of its path.
  public override var collectionID: String { resourcePath.lastSegment }

  /// The slash path from the database root, e.g. `users/ada/favorites`.
  public var path: String { resourcePath.string }

  /// The document that contains this subcollection, or `nil` for a top-level collection.
  public var parent: DocumentReference? {
    guard let p = resourcePath.parent, !p.segments.isEmpty else { return nil }
    return DocumentReference(firestore: firestore, resourcePath: p, pathError: pathError)
  }

  /// A document in this collection; `documentPath` may contain slashes but must name a
  /// document (an odd number of segments relative to this collection).
  public func document(_ documentPath: String) -> DocumentReference {
    DocumentReference.resolve(firestore: firestore, base: resourcePath, baseError: pathError, relative: documentPath)
  }

  /// A document with a new random 20-character ID, as the Firebase SDKs make them.
  public func document() -> DocumentReference {
    DocumentReference(
      firestore: firestore, resourcePath: resourcePath.appending(ResourcePath(segments: [AutoID.make()])), pathError: pathError)
  }

  /// The reference, or the error recorded when it was made.
  func validated() throws(FirestoreError) -> CollectionReference {
    if let pathError { throw pathError }
    return self
  }

  public var description: String { "CollectionReference(\(path))" }
}
