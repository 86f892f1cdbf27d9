import CommandLineSupport
import FirestoreWire

/// Checks slash paths from the database root before anything is sent, so a bad path is
/// a usage error (exit 2) that says what is wrong.
enum PathArgument {
  /// A document path: an even number of non-empty segments (`articles/a1`).
  static func document(_ path: String, command: String) throws(UsageError) -> String {
    try checked(path, command: command, isDocument: true)
  }

  /// A collection path: an odd number of non-empty segments (`articles`, `users/u1/favorites`).
  static func collection(_ path: String, command: String) throws(UsageError) -> String {
    try checked(path, command: command, isDocument: false)
  }

  /// A path of the kind the command needs.
  private static func checked(_ given: String, command: String, isDocument wanted: Bool) throws(UsageError) -> String {
    let path = try any(given, command: command)
    guard path.isDocument == wanted else {
      let (found, parity) = path.isDocument ? ("document", "even") : ("collection", "odd")
      let (needed, example) = wanted ? ("document", "articles/a1") : ("collection", "articles")
      throw UsageError(
        "'\(given)' is a \(found) path (\(parity) number of segments); \(command) needs a \(needed) path like '\(example)'",
        command: command)
    }
    return path.text
  }

  /// A document or collection path, and which it is.
  static func any(_ path: String, command: String) throws(UsageError) -> (text: String, isDocument: Bool) {
    let segments = try split(path, command: command)
    return (segments.joined(separator: "/"), segments.count % 2 == 0)
  }

  /// A collection ID for `--group`: one segment.
  static func collectionID(_ id: String, command: String) throws(UsageError) -> String {
    let segments = try split(id, command: command)
    guard segments.count == 1 else {
      throw UsageError("'\(id)' is not a collection ID; with --group give one ID like 'favorites', no slashes", command: command)
    }
    return id
  }

  private static func split(_ path: String, command: String) throws(UsageError) -> [String] {
    // A leading or trailing slash is forgiven; an empty segment in the middle is not.
    // Split on the "/" byte, as the server does (a combining mark after a slash would hide
    // it from a split by Character).
    var segments = path.slashSegments
    if segments.count > 1, segments.first == "" { segments.removeFirst() }
    if segments.count > 1, segments.last == "" { segments.removeLast() }
    guard !segments.contains("") else {
      throw UsageError("bad path '\(path)': segments must be non-empty (like 'users/u1/favorites')", command: command)
    }
    if let reserved = segments.first(where: { $0 == "." || $0 == ".." || isReserved($0) }) {
      throw UsageError("bad path '\(path)': '\(reserved)' is not a valid ID", command: command)
    }
    return segments
  }

  /// Firestore's reserved IDs, `__.*__`, matched on the bytes as the server does.
  private static func isReserved(_ id: String) -> Bool {
    id.utf8.count >= 4 && id.utf8.starts(with: "__".utf8) && id.utf8.reversed().starts(with: "__".utf8)
  }
}
