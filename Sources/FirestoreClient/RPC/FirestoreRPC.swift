import FirestoreWire
import Foundation

/// Every call this client makes to a Firestore database, declared once: its REST method
/// name, HTTP method, path below `/v1/projects/{p}/databases/{d}/`, query parameters, and
/// how a failure of it may be retried (which also says whether it may be sent twice).
///
/// Callers pick a call here and give its body; ``RESTClient`` sends it. Nothing outside
/// the RPC layer spells an HTTP method or a path. The Listen channel's requests are in
/// ``ListenChannelRPC`` and the token endpoints' in ``TokenEndpointRPC``.
struct FirestoreRPC: Sendable {
  /// The method's name in the REST reference (`runQuery`, `commit`, …), for errors and tests.
  let name: String
  /// `GET` or `POST`.
  let httpMethod: String
  /// Below the database, URL-escaped: `documents/users/u1`, `documents:commit`.
  let path: String
  /// Query parameters, unescaped; repeated names allowed.
  var query: [(String, String)] = []
  /// How a failure is retried (see ``RetryClass``).
  let retryClass: RetryClass

  // MARK: - Reads

  /// `GET documents/{path}`: one document.
  static func get(_ document: ResourcePath) -> Self {
    Self(name: "get", httpMethod: "GET", path: documents(document), retryClass: .idempotent)
  }

  /// `POST documents:batchGet`: many documents, streamed as a JSON array.
  static let batchGet = Self(name: "batchGet", httpMethod: "POST", path: "documents:batchGet", retryClass: .idempotent)

  /// `POST {parent}:runQuery`, where `parent` is the root or a document.
  static func runQuery(parent: ResourcePath) -> Self {
    Self(name: "runQuery", httpMethod: "POST", path: documents(parent) + ":runQuery", retryClass: .idempotent)
  }

  /// `POST {parent}:runAggregationQuery`.
  static func runAggregationQuery(parent: ResourcePath) -> Self {
    Self(name: "runAggregationQuery", httpMethod: "POST", path: documents(parent) + ":runAggregationQuery", retryClass: .idempotent)
  }

  /// `POST documents:partitionQuery`.
  static let partitionQuery = Self(
    name: "partitionQuery", httpMethod: "POST", path: "documents:partitionQuery", retryClass: .idempotent)

  /// `POST documents:executePipeline`: a pipeline query, streamed as a JSON array.
  static let executePipeline = Self(
    name: "executePipeline", httpMethod: "POST", path: "documents:executePipeline", retryClass: .idempotent)

  /// `GET {parent}/{collectionID}`: one page of a collection's document names.
  static func list(parent: ResourcePath, collectionID: String, query: [(String, String)]) -> Self {
    Self(
      name: "list", httpMethod: "GET", path: documents(parent) + "/" + PercentEncoding.encode(collectionID), query: query,
      retryClass: .idempotent)
  }

  /// `POST {parent}:listCollectionIds`: one page of the collection IDs under the root or a document.
  static func listCollectionIds(parent: ResourcePath) -> Self {
    Self(name: "listCollectionIds", httpMethod: "POST", path: documents(parent) + ":listCollectionIds", retryClass: .idempotent)
  }

  // MARK: - Writes

  /// `POST documents:commit`. In a transaction a failure ends the attempt (the transaction
  /// retries as a whole); outside one, the writes decide whether a lost reply may be
  /// repeated, and `aborted` (nothing applied) always may.
  static func commit(inTransaction: Bool, repeatable: Bool) -> Self {
    Self(
      name: "commit", httpMethod: "POST", path: "documents:commit",
      retryClass: inTransaction ? .atMostOnce : .commit(repeatable: repeatable))
  }

  /// `POST documents:batchWrite`: writes applied one by one; the bulk writer retries each
  /// write by its own status, so the call itself is sent again only when it never went out.
  static let batchWrite = Self(name: "batchWrite", httpMethod: "POST", path: "documents:batchWrite", retryClass: .atMostOnce)

  /// `POST documents:beginTransaction`.
  static let beginTransaction = Self(
    name: "beginTransaction", httpMethod: "POST", path: "documents:beginTransaction", retryClass: .idempotent)

  /// `POST documents:rollback`: ending a transaction twice changes nothing.
  static let rollback = Self(name: "rollback", httpMethod: "POST", path: "documents:rollback", retryClass: .idempotent)

  // MARK: - Paths

  /// `/v1/projects/{p}/databases/{d}`: where every call's path starts.
  static func databasePath(projectID: String, database: String) -> String {
    "/v1/projects/\(PercentEncoding.encode(projectID))/databases/\(PercentEncoding.encode(database))"
  }

  /// `documents` or `documents/{escaped path}`: where a resource lives below the database.
  /// Each segment is percent-encoded, so that `%`, `?`, `#`, `+`, `/`, spaces and non-ASCII
  /// reach the server as part of the ID.
  private static func documents(_ path: ResourcePath) -> String {
    path.segments.isEmpty ? "documents" : "documents/" + path.segments.map(PercentEncoding.encode).joined(separator: "/")
  }
}
