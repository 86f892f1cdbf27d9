import FirestoreWire
import Foundation

extension Firestore {
  /// Firestore's maximum request size.
  static let maximumRequestBytes = 10 * 1_048_576

  /// Commits writes atomically and returns one result per write.
  func commit(_ writes: [Write], transaction: String? = nil) async throws -> [WriteResult] {
    let call = RESTClient.Call(
      method: "POST", path: "documents:commit", body: CommitRequest(writes: writes, transaction: transaction).json,
      idempotent: transaction == nil && WriteBuilder.isIdempotent(writes), retriesAborted: transaction == nil)
    let size = call.body?.count ?? 0
    if size > Self.maximumRequestBytes {
      throw FirestoreError(
        .invalidArgument,
        "commit of \(writes.count) writes is \(size) bytes; Firestore's request limit is \(Self.maximumRequestBytes) bytes (10 MiB)")
    }
    if let error = rest.configurationError { throw error }
    // Latency compensation: listeners show the writes now, and take them back on failure.
    // A transaction's writes depend on its reads, so they show only once committed.
    let batchID = transaction == nil && !writes.isEmpty ? localStore.addBatch(writes) : nil
    let results: [WriteResult]
    do {
      let reply = try await rest.unary(call)
      let response = try decode("commit response") { try CommitResponse(json: reply) }
      guard response.writeResults.count == writes.count || writes.isEmpty else {
        throw FirestoreError(.internal, "commit returned \(response.writeResults.count) results for \(writes.count) writes")
      }
      let commitTime = response.commitTime ?? Timestamp(seconds: 0, nanoseconds: 0)
      results = response.writeResults.map {
        WriteResult(updateTime: $0.updateTime ?? commitTime, commitTime: commitTime, transformResults: $0.transformResults)
      }
    } catch {
      if let batchID { localStore.rejectBatch(batchID) }
      throw error
    }
    if let batchID {
      localStore.acknowledgeBatch(batchID, results: results)
    } else if !writes.isEmpty {
      localStore.didCommit(writes, results: results)
    }
    return results
  }

  /// Runs a wire decoding step, turning its failure into `internal` with the thing named.
  func decode<T>(_ what: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch let error as FirestoreError {
      throw error
    } catch {
      throw FirestoreError(.internal, "malformed \(what) from server: \(error)", underlyingError: error as? WireFormatError)
    }
  }
}
