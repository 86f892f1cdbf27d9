import FirestoreWire
import Foundation

extension Firestore {
  /// Firestore's maximum request size.
  static let maximumRequestBytes = 10 * 1_048_576

  /// Commits writes atomically and returns one result per write.
  ///
  /// Outside a transaction the writes are queued (``WritePipeline``): listeners show them at
  /// once, and they are sent in order, also after the network comes back; the call returns
  /// when the server applied them. A transaction's writes are sent at once, since they
  /// depend on its reads, and reach the cache and listeners as the server reports them, as
  /// in the Apple SDK.
  ///
  /// - Parameter encodedWrites: the writes' text written ahead
  ///   (``BatchTextBuffers/encodedWrites(_:)``), if it was.
  func commit(_ writes: [Write], transaction: String? = nil, encodedWrites: consuming [[UInt8]]? = nil) async throws -> [WriteResult] {
    let body = try commitBody(writes, transaction: transaction, encodedWrites: consume encodedWrites)
    guard let transaction else {
      if writes.isEmpty { return [] }
      return try await writePipeline.commit(writes, body: body)
    }
    return try await Self.sendCommit(writes, body: body, transaction: transaction, rest: rest)
  }

  /// Queues writes without waiting for the server (the Apple SDK's fire-and-forget and
  /// completion-handler forms) and calls `completion`, if any, on ``callbackQueue`` once the
  /// server applied them (`nil`) or refused them. Writes that cannot be queued (bad input,
  /// a terminated instance) are reported to `completion` at once, or, without one, through
  /// ``FirestoreSettings/logHandler``, since there is no caller to throw to.
  func submit(_ writes: Result<[Write], FirestoreError>, completion: (((any Error)?) -> Void)?) {
    let callback = completion.map { UncheckedCallback($0) }
    let queue = callbackQueue
    // Not `self`: a queued write must not keep the instance alive.
    let log = configuration.log
    let report: @Sendable ((any Error)?) -> Void = { error in
      if let callback {
        queue.async { callback.call(error) }
      } else if let error {
        log("a write without a completion handler failed: \(error)")
      }
    }
    let body: Data
    let batch: [Write]
    do throws(FirestoreError) {
      batch = try writes.get()
      body = try commitBody(batch, transaction: nil)
    } catch {
      return report(error)
    }
    if batch.isEmpty { return report(nil) }
    writePipeline.submit(batch, body: body) { result in
      switch result {
      case .success: report(nil)
      case .failure(let error): report(error)
      }
    }
  }

  /// The commit's request body, encoded once for every attempt; refuses, before anything
  /// is queued or sent, one over Firestore's request limit or on an unusable instance.
  /// - Parameter encodedWrites: the writes' text written ahead
  ///   (``BatchTextBuffers/encodedWrites(_:)``), if it was.
  private func commitBody(
    _ writes: [Write], transaction: String?, encodedWrites: consuming [[UInt8]]? = nil
  ) throws(FirestoreError) -> Data {
    try checkUsable()
    let body =
      if let parts = consume encodedWrites {
        batchText.body(encodedWrites: parts, transaction: transaction)
      } else {
        Data(CommitRequest(writes: writes, transaction: transaction).jsonBytes)
      }
    if body.count > Self.maximumRequestBytes {
      throw FirestoreError(
        .invalidArgument,
        "commit of \(writes.count) writes is \(body.count) bytes; Firestore's request limit is \(Self.maximumRequestBytes) bytes (10 MiB)")
    }
    return body
  }

  /// Sends one commit, whose request body is `body`, and returns its results.
  /// - Parameter user: the user whose token must carry the commit (a queued batch's maker);
  ///   `nil` for any.
  static func sendCommit(
    _ writes: [Write], body: Data, transaction: String?, rest: RESTClient, user: TokenUser? = nil
  ) async throws -> [WriteResult] {
    var call = RESTClient.Call(
      .commit(inTransaction: transaction != nil, repeatable: WriteBuilder.isIdempotent(writes)), encodedBody: body)
    call.requiredUser = user
    let response = try await rest.unary(call) { try CommitResponse(jsonBytes: $0) }
    guard response.writeResults.count == writes.count || writes.isEmpty else {
      // Applied, but which result is which write's cannot be told, now or on a retry.
      throw FirestoreError(.internal, "commit returned \(response.writeResults.count) results for \(writes.count) writes")
        .with { $0.replyUnusable = true }
    }
    let commitTime = response.commitTime ?? Timestamp(seconds: 0, nanoseconds: 0)
    return response.writeResults.map {
      WriteResult(updateTime: $0.updateTime ?? commitTime, commitTime: commitTime, transformResults: $0.transformResults)
    }
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
