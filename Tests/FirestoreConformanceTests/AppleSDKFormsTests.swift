import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Testing

@testable import FirestoreClient

/// The Apple SDK's transaction block with its error pointer, Codable writes with
/// `mergeFields`, errors caught as `NSError`s, settings set on the instance, the deprecated
/// persistence settings and bundles from a stream, each written as ported code writes it.
@Suite("Conformance: Apple SDK forms")
struct AppleSDKFormsTests {
  /// What a transaction's completion handler received: the value as an `Int`, or the error.
  private struct Outcome: Sendable {
    let value: Int?
    let error: (any Error)?
  }

  /// Runs `start`, which hands its completion handler the transaction's result, and waits
  /// for that handler.
  private func outcome(_ start: (@escaping (Any?, (any Error)?) -> Void) -> Void) async -> Outcome {
    await withCheckedContinuation { (done: CheckedContinuation<Outcome, Never>) in
      start { object, error in done.resume(returning: Outcome(value: object as? Int, error: error)) }
    }
  }

  @Test("a block transaction reads synchronously, writes, and its returned value reaches completion", arguments: Backend.all)
  func blockTransactionValue(_ backend: Backend) async throws {
    let db = backend.db
    let counter = backend.collection().document("counter")
    try await counter.setData(["count": 41])
    let result = await outcome { completion in
      db.runTransaction(
        { (transaction, errorPointer) -> Any? in
          let snapshot: DocumentSnapshot
          do {
            try snapshot = transaction.getDocument(counter)
          } catch let fetchError as NSError {
            errorPointer?.pointee = fetchError
            return nil
          }
          let count = (snapshot.get("count") as? Int ?? 0) + 1
          transaction.updateData(["count": count], forDocument: counter)
          return count
        },
        completion: { (object, error) in completion(object, error) })
    }
    #expect(result.error == nil)
    #expect(result.value == 42)
    #expect(try await counter.getDocument(source: .server).get("count") as? Int == 42)
  }

  @Test("an error set through errorPointer reaches completion and nothing is written", arguments: Backend.all)
  func blockTransactionErrorPointer(_ backend: Backend) async throws {
    let db = backend.db
    let ref = backend.collection().document("kept")
    try await ref.setData(["v": 1])
    let attempts = Counter()
    let result = await outcome { completion in
      db.runTransaction(
        with: nil,
        block: { (transaction, errorPointer) -> Any? in
          attempts.increment()
          _ = try? transaction.getDocument(ref)
          transaction.setData(["v": 99], forDocument: ref)
          errorPointer?.pointee = NSError(domain: "app", code: 1)
          return nil
        },
        completion: { (object, error) in completion(object, error) })
    }
    let error = try #require(result.error as? NSError)
    #expect(error.domain == "app" && error.code == 1)
    #expect(result.value == nil)
    #expect(attempts.value == 1, "an error of the block is not retried")
    #expect(try await ref.getDocument(source: .server).get("v") as? Int == 1)
    // The rollback released the read lock: a write with no retries goes through.
    let noRetry = backend.firestore { $0.retryPolicy = .none }
    try await noRetry.document(ref.path).setData(["v": 2])
  }

  @Test("the async block form returns the block's value, nil included, and throws the error it set", arguments: Backend.all)
  func asyncBlockTransaction(_ backend: Backend) async throws {
    let db = backend.db
    let counter = backend.collection().document("counter")
    try await counter.setData(["count": 1])
    let value = try await db.runTransaction { transaction, errorPointer -> Any? in
      do {
        let count = (try transaction.getDocument(counter).get("count") as? Int ?? 0) + 1
        transaction.updateData(["count": count], forDocument: counter)
        return count
      } catch let fetchError as NSError {
        errorPointer?.pointee = fetchError
        return nil
      }
    }
    #expect(value as? Int == 2)
    #expect(try await counter.getDocument(source: .server).get("count") as? Int == 2)
    let none = try await db.runTransaction { _, _ in nil }
    #expect(none == nil)
    do {
      _ = try await db.runTransaction { transaction, errorPointer -> Any? in
        transaction.updateData(["count": 99], forDocument: counter)
        errorPointer?.pointee = NSError(domain: "app", code: 7)
        return 1
      }
      Issue.record("a block that set its error pointer succeeded")
    } catch let error as NSError {
      #expect(error.domain == "app" && error.code == 7)
    }
    #expect(try await counter.getDocument(source: .server).get("count") as? Int == 2)
  }

  @Test("two block transactions that read before either writes: one runs again and both increments land", arguments: Backend.all)
  func blockTransactionContention(_ backend: Backend) async throws {
    let db = backend.db
    let counter = backend.collection().document("counter")
    try await counter.setData(["n": 0])
    let attempts = Counter()
    let firstReads = Counter()
    let results = await withTaskGroup(of: Outcome.self) { group in
      for _ in 0..<2 {
        group.addTask {
          let first = Locked(true)
          return await outcome { completion in
            db.runTransaction(
              with: TransactionOptions(maxAttempts: 10),
              block: { (transaction, errorPointer) -> Any? in
                attempts.increment()
                let n: Int
                do {
                  n = try transaction.getDocument(counter).get("n") as? Int ?? 0
                } catch {
                  errorPointer?.pointee = error as NSError
                  return nil
                }
                let isFirstAttempt = first.withLock { value in
                  defer { value = false }
                  return value
                }
                if isFirstAttempt {
                  // Both first attempts hold their reads before either writes.
                  firstReads.increment()
                  _ = try? BlockingWait.run { try await eventually("both transactions to have read") { firstReads.value >= 2 } }
                }
                transaction.updateData(["n": n + 1], forDocument: counter)
                return n + 1
              },
              completion: { (object, error) in completion(object, error) })
          }
        }
      }
      var all: [Outcome] = []
      for await result in group { all.append(result) }
      return all
    }
    #expect(results.allSatisfy { $0.error == nil }, "\(results.compactMap(\.error))")
    #expect(Set(results.compactMap(\.value)) == [1, 2])
    #expect(attempts.value >= 3, "one of the two transactions ran again")
    #expect(try await counter.getDocument(source: .server).get("n") as? Int == 2)
  }

  private struct City: Codable {
    var name: String
    var population: Int
  }

  @Test("setData(from:mergeFields:) writes only the listed fields, on a document, a batch and a transaction", arguments: Backend.all)
  func codableMergeFields(_ backend: Backend) async throws {
    let db = backend.db
    let cities = backend.collection()
    for id in ["ref", "batch", "tx"] {
      try await cities.document(id).setData(["name": "Old", "population": 1, "mayor": "M"])
    }
    let city = City(name: "New", population: 2)
    let fields: [Any] = ["population"]
    try cities.document("ref").setData(from: city, mergeFields: fields)
    try await db.waitForPendingWrites()

    let batch = db.batch()
    try batch.setData(from: city, forDocument: cities.document("batch"), mergeFields: [FieldPath(["population"])])
    try await batch.commit()

    try await db.runTransaction { transaction in
      try transaction.setData(from: city, forDocument: cities.document("tx"), mergeFields: ["population"], encoder: Firestore.Encoder())
      return ()
    }

    for id in ["ref", "batch", "tx"] {
      let data = try #require(try await cities.document(id).getDocument(source: .server).data())
      #expect(data["name"] as? String == "Old", "\(id): an unlisted field is kept")
      #expect(data["population"] as? Int == 2, "\(id): the listed field is written")
      #expect(data["mayor"] as? String == "M", "\(id): a field the value lacks is kept")
    }
  }

  @Test("a value that cannot be encoded throws at setData(from:) in a batch and a transaction, and adds nothing", arguments: Backend.all)
  func codableEncodingErrorThrows(_ backend: Backend) async throws {
    let db = backend.db
    let ref = backend.collection().document("never")
    let batch = db.batch()
    #expect(throws: FirestoreError.self) { try batch.setData(from: 42, forDocument: ref) }
    #expect(throws: FirestoreError.self) { try batch.setData(from: 42, forDocument: ref, mergeFields: ["n"]) }
    try await batch.commit()
    try await db.runTransaction { transaction in
      _ = #expect(throws: FirestoreError.self) { try transaction.setData(from: 42, forDocument: ref) }
    }
    #expect(try await !ref.getDocument(source: .server).exists)
  }

  @Test("updateData takes the Apple SDK's [AnyHashable: Any], its keys dotted Strings and FieldPaths mixed", arguments: Backend.all)
  func updateDataMixedKeys(_ backend: Backend) async throws {
    let db = backend.db
    let ref = backend.collection().document("mixed")
    try await ref.setData(["a": ["b": 1], "c.d": 1, "kept": true])
    let mixed: [AnyHashable: Any] = ["a.b": 2, FieldPath(["c.d"]): 2]
    try await ref.updateData(mixed)
    let batch = db.batch()
    batch.updateData(["a.e": 3, FieldPath(["f"]): 3] as [AnyHashable: Any], forDocument: ref)
    try await batch.commit()
    try await db.runTransaction { transaction in
      _ = transaction.updateData(["g": 4, FieldPath(["h", "i"]): 4] as [AnyHashable: Any], forDocument: ref)
    }
    let data = try #require(try await ref.getDocument(source: .server).data())
    #expect((data["a"] as? [String: Any])?["b"] as? Int == 2 && (data["a"] as? [String: Any])?["e"] as? Int == 3)
    #expect(data["c.d"] as? Int == 2 && data["f"] as? Int == 3 && data["g"] as? Int == 4)
    #expect((data["h"] as? [String: Any])?["i"] as? Int == 4 && data["kept"] as? Bool == true)
    // A key of another type names it, and nothing is sent.
    await #expect { try await ref.updateData([42: 1] as [AnyHashable: Any]) } throws: {
      ($0 as? FirestoreError)?.code == .invalidArgument && ($0 as? FirestoreError)?.message.contains("Int") == true
    }
  }

  @Test("a mergeFields element that is neither a String nor a FieldPath fails the write with invalidArgument", arguments: Backend.all)
  func codableMergeFieldsBadElement(_ backend: Backend) async throws {
    let db = backend.db
    let ref = backend.collection().document("bad")
    let batch = db.batch()
    try batch.setData(from: City(name: "X", population: 1), forDocument: ref, mergeFields: [42])
    await #expect { try await batch.commit() } throws: { ($0 as? FirestoreError)?.code == .invalidArgument }
    #expect(try await !ref.getDocument(source: .server).exists)
  }

  @Test(
    "what the client throws is caught as an NSError of FirestoreErrorDomain and by the Apple SDK's code patterns",
    arguments: Backend.all)
  func errorsAreNSErrors(_ backend: Backend) async throws {
    let db = backend.db
    let missing = backend.collection().document("missing")
    // A server's refusal.
    do {
      try await missing.updateData(["v": 1])
      Issue.record("an update of a missing document succeeded")
    } catch let error as NSError {
      #expect(error.domain == FirestoreErrorDomain)
      #expect(error.code == FirestoreErrorCode.notFound.rawValue)
      #expect(FirestoreErrorCode.Code(rawValue: error.code) == .notFound)
      #expect(!error.localizedDescription.isEmpty)
    }
    // The client's own check, before anything is sent.
    do {
      _ = try await db.collection("c").whereField("", isEqualTo: 1).getDocuments()
      Issue.record("a query on an empty field path ran")
    } catch let error as NSError where error.domain == FirestoreErrorDomain {
      #expect(error.code == FirestoreErrorCode.invalidArgument.rawValue)
    }
    // The Apple SDK's patterns on the bridged error type.
    do {
      try await missing.updateData(["v": 1])
    } catch FirestoreErrorCode.notFound {
    } catch {
      Issue.record("catch FirestoreErrorCode.notFound did not match \(error)")
    }
    do {
      try await missing.updateData(["v": 1])
    } catch let error as FirestoreErrorCode {
      #expect(error.code == .notFound)
      #expect(error.canonicalCode == .notFound)
    }
    // A completion handler's error, switched on as the Apple SDK documents it.
    let handed: (any Error)? = await withCheckedContinuation { done in
      missing.updateData(["v": 1]) { error in done.resume(returning: error) }
    }
    switch handed {
    case FirestoreErrorCode.notFound?: break
    default: Issue.record("the completion handler's error did not match FirestoreErrorCode.notFound: \(String(describing: handed))")
    }
    #expect((handed as NSError?)?.domain == FirestoreErrorDomain)
  }

  @Test("settings are a copy that is set back before first use; after it, setting them is refused and logged", arguments: Backend.all)
  func settableSettings(_ backend: Backend) async throws {
    let ref = backend.collection().document("d")
    try await ref.setData(["v": 1])
    let logged = Locked<[String]>([])
    // Made for a host where nothing listens, as an app's default settings may be.
    let unreachable = FirestoreSettings.emulator(host: "127.0.0.1:1")
    unreachable.logHandler = { message in logged.withLock { $0.append(message) } }
    let db = Firestore(projectID: Backend.projectID, settings: unreachable)
    unreachable.host = backend.host  // the object given to init is the caller's: the instance kept a copy
    #expect(db.settings.host == "127.0.0.1:1")

    let settings = db.settings
    settings.host = backend.host
    settings.isSSLEnabled = backend == .http2
    settings.transport = backend.transport
    settings.cacheSettings = MemoryCacheSettings()
    #expect(db.settings.host == "127.0.0.1:1", "the getter hands out a copy")
    db.settings = settings
    #expect(db.settings.host == backend.host)
    #expect(db.settings.cache == .memory())
    #expect(try await db.document(ref.path).getDocument().get("v") as? Int == 1, "the set settings are used")

    let late = db.settings
    late.host = "127.0.0.1:1"
    db.settings = late
    #expect(db.settings.host == backend.host, "a started instance keeps its settings")
    #expect(logged.withLock { $0 }.contains { $0.contains("settings were not changed") })
    #expect(try await db.document(ref.path).getDocument(source: .server).get("v") as? Int == 1)
    try await db.terminate()
  }

  /// The task form of `loadBundle`, which a synchronous caller gets (an `async` one gets the
  /// `async` form).
  private static func startLoading(_ bundle: Data, into db: Firestore) -> LoadBundleTask {
    db.loadBundle(bundle)
  }

  /// The progress sequences are the Apple SDK's bundle tests': in progress once the metadata
  /// is read and after each document, then the end; only the end for a bundle loaded
  /// before; in progress, then the error, for one of another project, whose error progress
  /// the completion gets too.
  @Test("loadBundle's task reports its progress to observers, then calls completion; a bad bundle ends in error", arguments: Backend.all)
  func loadBundleTask(_ backend: Backend) async throws {
    let source = backend.collection()
    try await source.document("a").setData(["v": 1])
    try await source.document("b").setData(["v": 2])
    let db = backend.firestore()
    var builder = db.bundle("task-\(UUID().uuidString)")
    try builder.add(queryName: "all", querySnapshot: try await db.collection(source.path).getDocuments())
    let bundle = builder.build()
    // Observers are called on this queue: an observer added and removed in one block of it
    // is gone before any progress can reach it, however far the load has come.
    let callbacks = DispatchQueue(label: "loadBundleTask-callbacks")
    let reader = backend.firestore { $0.dispatchQueue = callbacks }
    let heard = Locked<[String]>([])
    let task = callbacks.sync {
      let task = Self.startLoading(bundle, into: reader)
      let removed = task.addObserver { _ in heard.withLock { $0.append("removed observer called") } }
      task.removeObserverWith(handle: removed)
      return task
    }
    let final: LoadBundleTaskProgress = await withCheckedContinuation { done in
      task.addObserver { progress in
        heard.withLock { $0.append("\(progress.state) \(progress.documentsLoaded)") }
        if progress.state != .inProgress { done.resume(returning: progress) }
      }
    }
    #expect(final.state == .success && final.documentsLoaded == 2 && final.totalDocuments == 2)
    #expect(heard.withLock { $0 } == ["inProgress 0", "inProgress 1", "inProgress 2", "success 2"])
    #expect(try await reader.collection(source.path).getDocuments(source: .cache).count == 2)
    // Loaded before: the end alone. The task is not kept: its observers hear it all the same.
    let (again, observedAgain) = Self.observedEnd()
    let completed: LoadBundleTaskProgress? = await withCheckedContinuation { done in
      reader.loadBundle(InputStream(data: bundle)) { progress, _ in done.resume(returning: progress) }.addObserver(again)
    }
    #expect(completed?.state == .success, "a bundle loaded before completes at once")
    #expect(await observedAgain.reduce(into: []) { $0.append($1) } == ["success 2"])

    let failed: (LoadBundleTaskProgress?, (any Error)?) = await withCheckedContinuation { done in
      reader.loadBundle(Data("12{\"not\":".utf8)) { progress, error in done.resume(returning: (progress, error)) }
    }
    #expect((failed.1 as? NSError)?.code == FirestoreErrorCode.unknown.rawValue)
    #expect(failed.0?.state == .error && failed.0?.documentsLoaded == 0)

    // Another project's bundle: its metadata reads, its query does not belong here.
    let other = Firestore(projectID: "other-project", settings: reader.settings)
    var foreign = other.bundle("foreign-\(UUID().uuidString)")
    try foreign.add(queryName: "q", querySnapshot: try await other.collection(source.path).getDocuments())
    let (foreignObserver, foreignHeard) = Self.observedEnd()
    let foreignEnd: LoadBundleTaskProgress? = await withCheckedContinuation { done in
      reader.loadBundle(foreign.build()) { progress, _ in done.resume(returning: progress) }.addObserver(foreignObserver)
    }
    #expect(foreignEnd?.state == .error)
    #expect(await foreignHeard.reduce(into: []) { $0.append($1) } == ["inProgress 0", "error 0"])
  }

  /// An observer for a bundle's load, and what it hears ("state documents"), which ends
  /// with the load: the completion handler and the observers are called apart, so the test
  /// waits for each.
  static func observedEnd() -> (observer: @Sendable (LoadBundleTaskProgress) -> Void, heard: AsyncStream<String>) {
    let (heard, sink) = AsyncStream.makeStream(of: String.self)
    return (
      { progress in
        sink.yield("\(progress.state) \(progress.documentsLoaded)")
        if progress.state != .inProgress { sink.finish() }
      },
      heard
    )
  }

  @Test(
    "a cache read's completion handler answers as the cache was at the call, also when terminate follows at once", arguments: Backend.all)
  func cacheReadsInCallOrder(_ backend: Backend) async throws {
    let db = backend.firestore()
    let items = db.collection(backend.collection().path)
    try await items.document("a").setData(["match": true])
    let (document, count) = await Self.readCacheThenTerminate(items)
    #expect(document == "a exists")
    #expect(count == "1 match")
  }

  /// Starts two cache reads with completion handlers and terminates the instance right
  /// after, as an Apple SDK test's tear-down does; returns what the handlers heard.
  private static func readCacheThenTerminate(_ items: CollectionReference) async -> (String, String) {
    let heard = Locked<(document: String?, query: String?)>((nil, nil))
    let answered = AsyncStream<Void>.makeStream()
    items.document("a").getDocument(source: .cache) { snapshot, error in
      heard.withLock { $0.document = snapshot.map { $0.exists ? "a exists" : "a missing" } ?? "\(String(describing: error))" }
      answered.continuation.yield()
    }
    items.whereField("match", isEqualTo: true).getDocuments(source: .cache) { snapshot, error in
      heard.withLock { $0.query = snapshot.map { "\($0.count) match" } ?? "\(String(describing: error))" }
      answered.continuation.yield()
    }
    try? await items.firestore.terminate()
    var iterator = answered.stream.makeAsyncIterator()
    for _ in 0..<2 { await iterator.next() }
    return heard.withLock { ($0.document ?? "", $0.query ?? "") }
  }

  @Test("loadBundle takes an InputStream as it takes Data", arguments: Backend.all)
  func loadBundleFromStream(_ backend: Backend) async throws {
    let source = backend.collection()
    try await source.document("a").setData(["v": 1])
    let db = backend.firestore()
    let snapshot = try await db.collection(source.path).getDocuments()
    var builder = db.bundle("stream-\(UUID().uuidString)")
    try builder.add(queryName: "all", querySnapshot: snapshot)
    let bundle = builder.build()
    let reader = backend.firestore()
    let progress = try await reader.loadBundle(InputStream(data: bundle))
    #expect(progress.state == .success && progress.documentsLoaded == 1)
    let cached = try await reader.collection(source.path).getDocuments(source: .cache)
    #expect(cached.documents.map(\.documentID) == ["a"])
  }
}

@Suite("Apple SDK forms: deprecated persistence settings")
struct PersistenceSettingsSpellingTests {
  // Deprecated as in the Apple SDK; the test is marked so that using them warns nowhere.
  @available(*, deprecated)
  @Test("isPersistenceEnabled switches between a memory and a persistent cache of the same size; cacheSizeBytes sizes it")
  func isPersistenceEnabled() {
    let settings = FirestoreSettings(environment: [:])
    #expect(!settings.isPersistenceEnabled)
    settings.cacheSizeBytes = 50 * 1_048_576
    settings.isPersistenceEnabled = true
    #expect(settings.cache == .persistent(directory: PersistentCacheSettings.defaultDirectory, sizeBytes: 50 * 1_048_576))
    #expect(settings.isPersistenceEnabled && settings.cacheSizeBytes == 50 * 1_048_576)
    settings.cacheSizeBytes = FirestoreCacheSizeUnlimited
    settings.isPersistenceEnabled = false
    #expect(settings.cache == .memory(sizeBytes: Int(FirestoreCacheSizeUnlimited)))
    settings.cache = .none
    settings.isPersistenceEnabled = false
    #expect(settings.cache == .none, "a cache that is not persistent stays as it is")
  }
}
