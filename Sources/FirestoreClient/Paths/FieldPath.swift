import FirestorePlatform
import FirestoreWire

/// A path to a field in a document: a list of field names, to reach into nested maps.
///
/// Use it when a field name contains a dot or other characters that a dotted string
/// cannot express:
///
/// ```swift
/// try await ref.updateData([FieldPath(["prices", "eu.de"]): 12.5])
/// ```
///
/// An empty path, a path with an empty name, or one with a reserved name (`__x__`) is
/// rejected with `invalidArgument` when used. ``documentID()`` refers to the document's key (`__name__`) in queries.
public struct FieldPath: Sendable, Hashable, CustomStringConvertible {
  /// The field names, outermost first.
  public let segments: [String]

  /// Creates a path from field names; no escaping is needed.
  public init(_ segments: [String]) { self.segments = segments }

  /// The pseudo-field of the document key, for ordering and filtering by document ID.
  public static func documentID() -> FieldPath { FieldPath(["__name__"]) }

  var isDocumentID: Bool { segments == ["__name__"] }

  /// Parses a dotted path like `"address.city"`.
  ///
  /// Rejects empty names (`"a..b"`, `".a"`) and the characters `~ * / [ ]`, as the
  /// Firebase SDKs do; use ``init(_:)`` for names that need them.
  ///
  /// Works on Unicode scalars, as the server does: a combining mark after a `.` does not
  /// hide the dot (as a Swift `Character` it would be one `".\u{301}"`).
  static func parse(dotted text: String) throws(FirestoreError) -> FieldPath {
    if text.isEmpty { throw .invalidArgument("field path must be a non-empty string") }
    if text.unicodeScalars.contains(where: { "~*/[]".unicodeScalars.contains($0) }) {
      // A huge path is quoted by its start, so that the problem still shows.
      throw .invalidArgument("field path \"\(DisplayText.excerpt(text))\" contains one of ~ * / [ ]; use FieldPath([...]) for such names")
    }
    let parts = text.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map {
      String(decoding: $0, as: UTF8.self)
    }
    if parts.contains("") {
      throw .invalidArgument("field path \"\(DisplayText.excerpt(text))\" has an empty field name (leading, trailing or doubled dot)")
    }
    return try FieldPath(parts).checkedReservedNames()
  }

  /// Checks that the path is usable: at least one name, none empty, none reserved.
  func validated() throws(FirestoreError) -> FieldPath {
    if segments.isEmpty { throw .invalidArgument("field path must have at least one field name") }
    if segments.contains("") { throw .invalidArgument("field path \(description) has an empty field name") }
    return try checkedReservedNames()
  }

  /// Whether a field name or ID is reserved by Firestore: it matches `__.*__`, on the
  /// bytes as the server matches it (`"__\u{301}x__"` is reserved although as Swift
  /// `Character`s it does not start with `"__"`).
  static func isReserved(_ name: String) -> Bool {
    // The first byte turns nearly every name away before the generic comparisons.
    let underscores = "__".utf8
    return name.utf8.count >= 4 && name.utf8.first == UInt8(ascii: "_") && name.utf8.starts(with: underscores)
      && name.utf8.reversed().starts(with: underscores)
  }

  /// Rejects reserved names, which Firestore refuses in every field path ("Invalid reserved
  /// name in field path"), except the whole path `__name__`, the document key.
  private func checkedReservedNames() throws(FirestoreError) -> FieldPath {
    if isDocumentID { return self }
    if let name = segments.first(where: Self.isReserved) {
      let what = name == "__name__" ? "; use FieldPath.documentID() alone for the document ID" : ""
      throw .invalidArgument(
        "field path \"\(description)\" uses the reserved name \"\(name)\" (names matching __.*__ are not allowed)\(what)")
    }
    return self
  }

  /// The canonical server form: names joined by dots, each back-quoted unless it is a
  /// plain identifier (`[A-Za-z_][A-Za-z_0-9]*`), with back-quotes and backslashes
  /// escaped by a backslash.
  public var canonicalString: String { CanonicalFieldPath.encode(segments) }

  public var description: String { segments.joined(separator: ".") }

  /// Parses the canonical server form (back-quoted names allowed) back into names.
  static func parse(canonical text: String) throws(FirestoreError) -> FieldPath {
    do {
      return FieldPath(try CanonicalFieldPath.decode(text))
    } catch {
      throw .invalidArgument("\(error)")
    }
  }

  /// Whether `self` equals `other` or lies inside it.
  func hasPrefix(_ other: FieldPath) -> Bool {
    segments.count >= other.segments.count && Array(segments.prefix(other.segments.count)) == other.segments
  }
}

/// Something that names a field: a dotted `String` or a ``FieldPath``.
public protocol FieldPathConvertible: Sendable {
  /// The field path this value names, or an error naming the bad input.
  func fieldPath() throws(FirestoreError) -> FieldPath
}

extension String: FieldPathConvertible {
  /// Parses `self` as a dotted path.
  public func fieldPath() throws(FirestoreError) -> FieldPath { try FieldPath.parse(dotted: self) }
}

extension FieldPath: FieldPathConvertible {
  /// Returns `self` after checking it has no empty names.
  public func fieldPath() throws(FirestoreError) -> FieldPath { try validated() }
}
