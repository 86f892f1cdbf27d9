import FirestoreWire

/// A reference to a document location, which may or may not hold a document.
///
/// References are cheap values; creating one sends nothing. An invalid path (for
/// example `collection("a").document("b/c")`) is recorded and reported as
/// `invalidArgument` by the first call that would send a request.
///
/// ```swift
/// let ref = db.collection("users").document("ada")
/// try await ref.setData(["name": "Ada", "born": 1815])
/// let snapshot = try await ref.getDocument()
/// print(snapshot.data()?["name"] ?? "missing")
/// ```
public struct DocumentReference: Sendable, Hashable, CustomStringConvertible {
  /// The database this reference belongs to.
  public let firestore: Firestore
  let resourcePath: ResourcePath
  let pathError: FirestoreError?
  /// The full resource name, `projects/{p}/databases/{d}/documents/{path}`: made once, as
  /// every request, cache key and reply check about the document asks for it.
  let name: String

  /// - Parameter name: the resource name when it is known already (a server's document),
  ///   so that it is not joined again from the path.
  init(firestore: Firestore, resourcePath: ResourcePath, pathError: FirestoreError? = nil, name: String? = nil) {
    self.firestore = firestore
    self.resourcePath = resourcePath
    self.pathError = pathError
    self.name = name ?? resourcePath.name(below: firestore.documentsRoot)
  }

  /// Resolves `relative` below `base`, recording any problem instead of trapping.
  static func resolve(firestore: Firestore, base: ResourcePath, baseError: FirestoreError?, relative: String) -> DocumentReference {
    let (path, error) = ResourcePath.resolve(relative, below: base, baseError: baseError, isDocument: true)
    return DocumentReference(firestore: firestore, resourcePath: path, pathError: error)
  }

  /// The document's ID: the last segment of its path.
  public var documentID: String { resourcePath.lastSegment }

  /// The slash path from the database root, e.g. `users/ada/favorites/f1`.
  public var path: String { resourcePath.string }

  /// The collection that contains this document.
  public var parent: CollectionReference {
    CollectionReference(firestore: firestore, resourcePath: resourcePath.parent ?? .root, pathError: pathError)
  }

  /// A subcollection of this document; `collectionPath` may contain slashes
  /// (`"a/b/c"`), but must name a collection (an odd number of segments).
  public func collection(_ collectionPath: String) -> CollectionReference {
    CollectionReference.resolve(firestore: firestore, base: resourcePath, baseError: pathError, relative: collectionPath)
  }

  /// The reference, or the error recorded when it was made.
  func validated() throws(FirestoreError) -> DocumentReference {
    if let pathError { throw pathError }
    return self
  }

  public static func == (lhs: DocumentReference, rhs: DocumentReference) -> Bool {
    lhs.firestore === rhs.firestore && lhs.resourcePath == rhs.resourcePath
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(ObjectIdentifier(firestore))
    hasher.combine(resourcePath)
  }

  public var description: String { "DocumentReference(\(path))" }
}
