import FirestoreWire
import Foundation

extension Firestore {
  /// Sends writes in one `:batchWrite` request: each applied on its own, with its own status.
  ///
  /// The transport does not resend it on its own (only when it provably never left): the
  /// ``BulkWriter`` decides per write what may be retried.
  func batchWrite(_ writes: [Write]) async throws -> BatchWriteResponse {
    let call = RESTClient.Call(.batchWrite, encodedBody: Data(BatchWriteRequest(writes: writes).jsonBytes))
    let size = call.body?.count ?? 0
    if size > Self.maximumRequestBytes {
      throw FirestoreError(
        .invalidArgument,
        "batchWrite of \(writes.count) writes is \(size) bytes; Firestore's request limit is \(Self.maximumRequestBytes) bytes (10 MiB)")
    }
    let reply = try await rest.unary(call)
    return try decode("batchWrite response") { try BatchWriteResponse(json: reply) }
  }
}
