import FirestoreWire
import Foundation

extension Firestore {
  /// A builder for a bundle with this ID (see ``BundleBuilder``).
  public func bundle(_ id: String) -> BundleBuilder { BundleBuilder(id: id) }

  /// Loads a bundle (built by ``BundleBuilder`` or another Firestore SDK) into the local
  /// cache: its documents, and its named queries for ``getQuery(named:)``. Reads from the
  /// cache then see them without a request.
  ///
  /// ```swift
  /// let progress = try await db.loadBundle(try Data(contentsOf: bundleURL))
  /// if let latest = await db.getQuery(named: "latest") {
  ///   let stories = try await latest.getDocuments(source: .cache)
  /// }
  /// ```
  ///
  /// A bundle whose ID was loaded before, from data read at the same time or later, is
  /// not applied again (its documents could be older than the cache's). A cached document
  /// that changed after the bundle read it is kept.
  ///
  /// - Returns: the final progress, in state ``LoadBundleTaskState/success``.
  /// - Throws: `unknown`, as the Apple SDK reports it, applying nothing, for bytes that are
  ///   not a well-formed bundle of this database (the message names the problem and where);
  ///   `failedPrecondition` when this instance has no local cache
  ///   (``LocalCacheSettings/none``).
  public func loadBundle(_ bundle: Data) async throws -> LoadBundleTaskProgress {
    try load(bundle, reporting: nil)
  }

  /// Starts loading a bundle and returns the task whose observers hear its progress (see
  /// ``loadBundle(_:)-(Data)``); `completion`, if given, is called after the observers with
  /// the final progress, and the error when loading failed (the progress is then in state
  /// ``LoadBundleTaskState/error``). The task need not be kept for its observers to hear it.
  @discardableResult
  public func loadBundle(
    _ bundleData: Data, completion: ((LoadBundleTaskProgress?, (any Error)?) -> Void)? = nil
  ) -> LoadBundleTask {
    startLoading({ bundleData }, completion: completion)
  }

  /// Starts loading a bundle read from `stream` to its end (see
  /// ``loadBundle(_:completion:)-(Data,_)``).
  @discardableResult
  public func loadBundle(
    _ bundleStream: InputStream, completion: ((LoadBundleTaskProgress?, (any Error)?) -> Void)? = nil
  ) -> LoadBundleTask {
    let stream = UncheckedStream(stream: bundleStream)
    return startLoading({ try Self.readAll(stream.stream) }, completion: completion)
  }

  /// An `InputStream` handed to the loading task, which alone reads it.
  private struct UncheckedStream: @unchecked Sendable {
    let stream: InputStream
  }

  private func startLoading(
    _ read: @escaping @Sendable () throws -> Data, completion: ((LoadBundleTaskProgress?, (any Error)?) -> Void)?
  ) -> LoadBundleTask {
    let queue = callbackQueue
    let task = LoadBundleTask(queue: queue)
    let callback = completion.map { completion in
      UncheckedCallback<(LoadBundleTaskProgress?, (any Error)?)> { completion($0.0, $0.1) }
    }
    Task {
      do {
        let progress = try self.load(try read(), reporting: task)
        if let callback { queue.async { callback.call((progress, nil)) } }
      } catch {
        if let callback { queue.async { callback.call((.failed, error)) } }
      }
    }
    return task
  }

  /// Loads a bundle, telling `task` (if any) of its progress as the Apple SDK does: in
  /// progress once its metadata is read and as each document is read, then its end (only
  /// the end for a bundle loaded before). It is checked whole and applied all at once.
  private func load(_ bundle: Data, reporting task: LoadBundleTask?) throws -> LoadBundleTaskProgress {
    do {
      if let error = rest.configurationError { throw error }
      guard localStore.isCaching else {
        throw FirestoreError(
          .failedPrecondition, "loadBundle needs a local cache, and this Firestore was made with LocalCacheSettings.none")
      }
      let contents: BundleContents
      var reportsProgress = false
      do {
        contents = try BundleContents.read(Array(bundle), documentsRoot: documentsRoot) { metadata in
          guard let task, !localStore.hasLoadedBundle(metadata) else { return }
          reportsProgress = true
          task.report(
            LoadBundleTaskProgress(
              documentsLoaded: 0, totalDocuments: Int(metadata.totalDocuments), bytesLoaded: 0, totalBytes: Int64(metadata.totalBytes),
              state: .inProgress))
        }
      } catch {
        // The Apple SDK reports every bundle it cannot read as `unknown` (its integration
        // tests hold it to that); the message still names the problem.
        throw error.with { $0.code = .unknown }
      }
      let metadata = contents.metadata
      let total = (documents: Int(metadata.totalDocuments), bytes: Int64(metadata.totalBytes))
      if reportsProgress, let task {
        for (index, end) in contents.documentEnds.enumerated() {
          task.report(
            LoadBundleTaskProgress(
              documentsLoaded: index + 1, totalDocuments: total.documents, bytesLoaded: end, totalBytes: total.bytes, state: .inProgress))
        }
      }
      _ = localStore.loadBundle(metadata, documents: contents.documents, queries: contents.queries)
      let done = LoadBundleTaskProgress(
        documentsLoaded: total.documents, totalDocuments: total.documents, bytesLoaded: total.bytes, totalBytes: total.bytes,
        state: .success)
      task?.report(done)
      return done
    } catch {
      task?.report(.failed)
      throw error
    }
  }

  /// Loads a bundle given as text (see ``loadBundle(_:)-(Data)``).
  public func loadBundle(_ bundle: String) async throws -> LoadBundleTaskProgress {
    try await loadBundle(Data(bundle.utf8))
  }

  /// Loads a bundle read from `stream` to its end (see ``loadBundle(_:)-(Data)``); the
  /// stream is opened if it is not open yet, and closed afterwards.
  ///
  /// - Throws: `unknown` when the stream fails before its end, besides the errors of the
  ///   `Data` form.
  public func loadBundle(_ stream: InputStream) async throws -> LoadBundleTaskProgress {
    try await loadBundle(try Self.readAll(stream))
  }

  /// The bytes of `stream` up to its end.
  private static func readAll(_ stream: InputStream) throws(FirestoreError) -> Data {
    if stream.streamStatus == .notOpen { stream.open() }
    defer { stream.close() }
    var data = Data()
    var chunk = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
      let count = stream.read(&chunk, maxLength: chunk.count)
      if count < 0 {
        throw FirestoreError(.unknown, "the bundle stream failed: \(stream.streamError.map { "\($0)" } ?? "unknown error")")
      }
      if count == 0 { return data }
      data.append(contentsOf: chunk[0..<count])
    }
  }

  /// The query a loaded bundle saved under `name`, or `nil` when no loaded bundle has one.
  ///
  /// Run it with ``FirestoreSource/cache`` to read the bundle's results without a request;
  /// it is an ordinary query, so it may also run on the server or be listened to.
  public func getQuery(named name: String) async -> Query? {
    guard let named = localStore.namedQuery(name) else { return nil }
    return try? Query.fromBundle(named, firestore: self)
  }
}
