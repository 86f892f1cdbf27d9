import FirestoreEngine
import FirestorePlatform
import FirestoreWire

/// A slash-separated path below a database's document root, such as `users/u1/favorites`,
/// validated against Firestore's rules for IDs.
///
/// The one place those rules live: the client checks every reference with it, and the
/// `firestore` command line checks its path arguments with it before anything is sent.
package struct ResourcePath: Sendable, Hashable {
  /// The longest ID Firestore accepts, in UTF-8 bytes.
  package static let maximumIDBytes = 1500
  /// The most segments a path may have (Firestore allows 100 levels of nesting).
  package static let maximumSegments = 200

  /// The IDs, from the root down.
  package var segments: [String]

  init(segments: [String]) { self.segments = segments }

  static let root = ResourcePath(segments: [])

  /// Parses a relative slash path. Leading and trailing slashes are tolerated, as in the
  /// Apple SDK; empty segments in the middle are an error.
  ///
  /// Splits at every `/` byte, as the server does, even one followed by a combining mark
  /// (which Swift would glue to the slash as one `Character`).
  package static func parse(_ text: String, what: String) throws(FirestoreError) -> ResourcePath {
    // A lone ID (the common `document(id)`) is its own one segment: no split, no copies.
    if !text.isEmpty, !text.utf8.contains(UInt8(ascii: "/")) {
      try validateID(text, in: text, what: what)
      return ResourcePath(segments: [text])
    }
    var parts = text.slashSegments
    if parts.first == "" && parts.count > 1 { parts.removeFirst() }
    if parts.last == "" && parts.count > 1 { parts.removeLast() }
    guard !text.isEmpty else { throw .invalidArgument("\(what) must be a non-empty string") }
    if parts.contains("") {
      throw .invalidArgument("\(what) \"\(DisplayText.excerpt(text))\" has an empty segment (\"//\" or a leading or trailing slash)")
    }
    for part in parts { try validateID(part, in: text, what: what) }
    return ResourcePath(segments: parts)
  }

  /// Checks one collection or document ID against Firestore's rules.
  static func validateID(_ id: String, in path: String, what: String) throws(FirestoreError) {
    // A lone ID is named with its kind ("collection group ID \"..\""), an ID inside a
    // path with the path, so that every message says which input is wrong.
    let subject = { (shown: String) in path == id ? "\(what) \"\(shown)\"" : "ID \"\(shown)\" in \(what) \"\(DisplayText.excerpt(path))\"" }
    if id.isEmpty { throw .invalidArgument("\(subject(id)) is empty") }
    if id.utf8.count <= 2, id.utf8.allSatisfy({ $0 == UInt8(ascii: ".") }) {
      throw .invalidArgument("\(subject(id)) is not allowed (\".\" and \"..\" are reserved)")
    }
    // A numeric ID (`__id42__`, from Datastore) is the reserved form's one exception.
    if FieldPath.isReserved(id), ValueOrdering.numericID(id.utf8) == nil {
      throw .invalidArgument("\(subject(id)) is reserved (IDs matching __.*__ are not allowed, but for numeric IDs __id<n>__)")
    }
    if id.utf8.count > maximumIDBytes {
      throw .invalidArgument("\(subject(id.prefix(40) + "…")) is \(id.utf8.count) bytes; the maximum is \(maximumIDBytes)")
    }
  }

  /// `relative` below `base`, checked to name a document or a collection as
  /// `isDocument` says, or `base` and `relative` as given with the problem (a reference
  /// records it rather than trapping, and reports it on first use).
  static func resolve(
    _ relative: String, below base: ResourcePath, baseError: FirestoreError?, isDocument: Bool
  ) -> (path: ResourcePath, error: FirestoreError?) {
    let what = isDocument ? "document path" : "collection path"
    do throws(FirestoreError) {
      if let baseError { throw baseError }
      let path = try base.appending(try parse(relative, what: what)).checkedLength()
      guard path.isDocument == isDocument else {
        let (parity, other) = isDocument ? ("an odd", "collection") : ("an even", "document")
        throw .invalidArgument("\(what) \"\(path.string)\" has \(parity) number of segments, so it names a \(other)")
      }
      return (path, nil)
    } catch {
      return (base.appending(ResourcePath(segments: [relative])), error)
    }
  }

  /// Firestore's limit on a document name, in UTF-8 bytes.
  package static let maximumPathBytes = 6 * 1024

  /// The path, if it is within Firestore's limits on name size and nesting depth.
  package func checkedLength() throws(FirestoreError) -> ResourcePath {
    let bytes = byteCount
    if bytes > Self.maximumPathBytes {
      throw .invalidArgument("path \"\(string.prefix(60))…\" is \(bytes) bytes; Firestore's limit is \(Self.maximumPathBytes)")
    }
    if segments.count > Self.maximumSegments {
      throw .invalidArgument("path \"\(string.prefix(60))…\" has \(segments.count) segments; Firestore allows \(Self.maximumSegments)")
    }
    return self
  }

  /// Whether the path names a document: an even, non-zero number of segments.
  package var isDocument: Bool { !segments.isEmpty && segments.count % 2 == 0 }
  var isCollection: Bool { segments.count % 2 == 1 }
  var lastSegment: String { segments.last ?? "" }
  var parent: ResourcePath? { segments.isEmpty ? nil : ResourcePath(segments: Array(segments.dropLast())) }

  func appending(_ other: ResourcePath) -> ResourcePath {
    // Below the root (`db.collection(…)`, `db.document(…)`) the path is the other one as it is.
    segments.isEmpty ? other : ResourcePath(segments: segments + other.segments)
  }

  /// Whether `self` is `other` or lies below it.
  func hasPrefix(_ other: ResourcePath) -> Bool {
    segments.count >= other.segments.count && Array(segments.prefix(other.segments.count)) == other.segments
  }

  /// The path as written, `a/b/c`.
  package var string: String { segments.joined(separator: "/") }

  /// The resource name of the path below `root`, a database's documents root: `root` for
  /// the empty path, `root/a/b` for `a/b`.
  func name(below root: String) -> String { String(root: root, slashSegments: segments) }

  /// The UTF-8 length of ``string``, without joining it.
  var byteCount: Int { segments.reduce(max(segments.count - 1, 0)) { $0 + $1.utf8.count } }
}
