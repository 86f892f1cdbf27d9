import CommandLineSupport
import FirestoreClient

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

  /// The segments of `path`, checked by the client's own rules (``ResourcePath``): the
  /// IDs Firestore reserves, the longest ID, the longest name and the deepest nesting, so
  /// that what the client would refuse is a usage error here, before anything is sent.
  private static func split(_ path: String, command: String) throws(UsageError) -> [String] {
    do {
      return try ResourcePath.parse(path, what: "path").checkedLength().segments
    } catch {
      throw UsageError("bad path: \(error.message)", command: command)
    }
  }
}
