import FirestoreWire
import HTTP1Server

/// Where a REST request is aimed: the database, the document path below `documents`, and
/// the custom method after a colon (`:commit`, `:runQuery`, …).
struct RESTRoute: Sendable, Equatable {
  /// The custom methods the REST API has on `documents` resources.
  static let operations: Set<String> = [
    "batchGet", "batchWrite", "runQuery", "runAggregationQuery", "commit", "beginTransaction", "rollback", "listCollectionIds",
    "partitionQuery", "executePipeline",
  ]

  /// `projects/{p}/databases/{d}`.
  var database: String
  /// Segments below `documents`, percent-decoded.
  var segments: [String]
  /// The custom method, if any.
  var operation: String?

  var path: String { segments.joined(separator: "/") }

  /// Parses `/v1/projects/{p}/databases/{d}/documents[/path][:op]`; `nil` for other URLs.
  init?(rawPath: String) {
    // Split on `/` bytes, as every resource path is (a Character split also costs more).
    var parts = rawPath.slashSegments
    guard parts.count >= 7, parts[0].isEmpty, parts[1] == "v1", parts[2] == "projects", parts[4] == "databases" else { return nil }
    guard let project = Self.decode(parts[3]), let databaseID = Self.decode(parts[5]), !project.isEmpty, !databaseID.isEmpty else {
      return nil
    }
    database = "projects/\(project)/databases/\(databaseID)"
    // The operation hangs off the last segment: `documents:commit` or `…/c1:runQuery`.
    var last = parts.removeLast()
    operation = nil
    if let colon = last.lastIndex(of: ":"), Self.operations.contains(String(last[last.index(after: colon)...])) {
      operation = String(last[last.index(after: colon)...])
      last = String(last[..<colon])
    }
    parts.append(last)
    guard parts[6] == "documents" else { return nil }
    var decoded: [String] = []
    for raw in parts.dropFirst(7) {
      guard let segment = Self.decode(raw), !segment.isEmpty else { return nil }
      decoded.append(segment)
    }
    segments = decoded
  }

  /// Percent-decoding that leaves `+` alone, as Google's REST front end does; `nil` for a
  /// bad escape or invalid UTF-8. Segments are decoded one by one so that an encoded `/`
  /// stays inside its ID.
  static func decode(_ text: String) -> String? {
    PercentEncoding.decode(text.utf8, plusIsSpace: false)
  }
}
