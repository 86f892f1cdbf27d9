import FirestoreClient

/// The three-state reads behind ``UserProfileRepository``, for any document and model.
enum DocumentLoader {
  /// Cache first, then the server; see ``UserProfileRepository/profile()``.
  static func load<Value: Sendable>(
    _ reference: DocumentReference, decode: @escaping @Sendable (DocumentSnapshot) throws -> Value
  ) -> AsyncStream<LoadState<Value>> {
    states { continuation in
      var cached: Value?
      if let snapshot = try? await reference.getDocument(source: .cache), snapshot.exists {
        cached = try? decode(snapshot)
        if let cached { continuation.yield(.loading(cached: cached)) }
      }
      do {
        let snapshot = try await reference.getDocument(source: .server)
        guard snapshot.exists else {
          // The server is the authority on existence: a cached copy of a deleted
          // document is not shown as if it were current.
          throw FirestoreError(.notFound, "document \(reference.path) does not exist")
        }
        continuation.yield(.loaded(try decode(snapshot)))
      } catch let error as FirestoreError where error.code == .notFound {
        continuation.yield(.failed(error))
      } catch {
        // The server could not be reached (or the read was cancelled): a cached value
        // is still a value, and only without one is this a failure.
        continuation.yield(cached.map { .loaded($0) } ?? .failed(.wrapping(error)))
      }
    }
  }

  /// A live follow; see ``UserProfileRepository/followProfile()``.
  static func follow<Value: Sendable>(
    _ reference: DocumentReference, decode: @escaping @Sendable (DocumentSnapshot) throws -> Value
  ) -> AsyncStream<LoadState<Value>> {
    states { continuation in
      var last: Value?
      var loaded = false
      do {
        for try await snapshot in reference.snapshots(includeMetadataChanges: true) {
          if snapshot.metadata.isFromCache {
            // The cache speaks first; the server's answer is still on its way.
            guard snapshot.exists, let value = try? decode(snapshot) else { continue }
            last = value
            continuation.yield(loaded ? .loaded(value) : .loading(cached: value))
          } else if snapshot.exists {
            let value = try decode(snapshot)
            last = value
            loaded = true
            continuation.yield(.loaded(value))
          } else {
            last = nil
            loaded = true
            continuation.yield(.failed(FirestoreError(.notFound, "document \(reference.path) does not exist")))
          }
        }
      } catch {
        if let last {
          if !loaded { continuation.yield(.loaded(last)) }
        } else if !loaded || !(error is CancellationError) {
          continuation.yield(.failed(.wrapping(error)))
        }
      }
    }
  }

  /// A stream of states that starts `loading` and ends when `body` returns; a consumer that
  /// stops listening cancels `body`.
  private static func states<Value: Sendable>(
    _ body: @escaping @Sendable (AsyncStream<LoadState<Value>>.Continuation) async -> Void
  ) -> AsyncStream<LoadState<Value>> {
    AsyncStream { continuation in
      let task = Task {
        continuation.yield(.loading(cached: nil))
        await body(continuation)
        continuation.finish()
      }
      continuation.onTermination = { _ in task.cancel() }
    }
  }
}
