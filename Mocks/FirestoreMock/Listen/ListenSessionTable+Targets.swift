import FirestoreEngine
import FirestoreWire
import Foundation

extension ListenSessionTable {
  /// Adds a target: ADD; then the documents (or, when resuming from a token or read time,
  /// only what changed since); CURRENT with a resume token; the other targets' changes up
  /// to the same read time; and a global NO_CHANGE. An invalid target gets ADD then REMOVE
  /// with a cause instead; an id already in use gets a stream error.
  func add(_ target: Target, to session: inout ListenSession) {
    let id = target.targetID
    if session.targets[id] != nil {
      session.enqueue(.data(Self.streamError(.invalidArgument, message: "Target ID \(id) already exists.")))
      return
    }
    session.enqueue(.targetChange(.init(kind: .add, targetIDs: [id])))
    let readTime = store.readTime()
    var baseline: [String: Timestamp]?
    if let since = target.resumeToken.map({ ListenResumeToken.decode($0) }) ?? target.readTime.map({ Optional($0) }) {
      // A token that is not ours, too old, or in the future: start over with a RESET.
      if let since, since <= readTime, let documents = try? evaluate(target, database: session.database, at: since) {
        baseline = Self.view(documents)
      } else {
        session.enqueue(.targetChange(.init(kind: .reset, targetIDs: [id])))
      }
    }
    var state = ListenTargetState(target: target, view: baseline ?? [:])
    do {
      let changes = try changes(&state, database: session.database, at: readTime, initial: baseline == nil)
      for change in changes { session.enqueue(change) }
    } catch {
      session.enqueue(.targetChange(.init(kind: .remove, targetIDs: [id], cause: Self.cause(error))))
      return
    }
    session.enqueue(
      .targetChange(.init(kind: .current, targetIDs: [id], resumeToken: ListenResumeToken.encode(readTime), readTime: readTime)))
    _ = refresh(&session, at: readTime)
    if !target.once { session.targets[id] = state }
    session.enqueue(Self.globalChange(at: readTime))
  }

  /// Queues what changed up to `readTime` in every target of `session` (or only in those
  /// that read any of `changedPaths`); targets that fail get REMOVE with a cause. Returns
  /// whether anything was queued.
  func refresh(_ session: inout ListenSession, at readTime: Timestamp, reading changedPaths: Set<String>? = nil) -> Bool {
    var queued = false
    for id in session.targets.keys.sorted() {
      guard var state = session.targets[id] else { continue }
      if let changedPaths, !reads(state.target, anyOf: changedPaths, database: session.database) { continue }
      do {
        let changes = try changes(&state, database: session.database, at: readTime, initial: false)
        for change in changes { session.enqueue(change) }
        queued = queued || !changes.isEmpty
        session.targets[id] = state
      } catch {
        session.targets[id] = nil
        session.enqueue(.targetChange(.init(kind: .remove, targetIDs: [id], cause: Self.cause(error))))
        queued = true
      }
    }
    return queued
  }

  /// The responses that bring the client's view of a target (``ListenTargetState/view``)
  /// to `readTime`, updating the view: documentChange for new or updated documents,
  /// documentRemove for ones that left a query but exist, documentDelete for deleted ones
  /// (and, when `initial`, for every missing document of a documents target, as the
  /// emulator sends them).
  private func changes(
    _ state: inout ListenTargetState, database: String, at readTime: Timestamp, initial: Bool
  ) throws(MockError) -> [ListenResponse] {
    let id = state.target.targetID
    let documents = try evaluate(state.target, database: database, at: readTime)
    var responses: [ListenResponse] = []
    for document in documents where state.view[document.name] != document.updateTime {
      responses.append(.documentChange(.init(document: document, targetIDs: [id])))
    }
    let current = Self.view(documents)
    var gone = state.view.keys.filter { current[$0] == nil }
    if case .documents(let names) = state.target.kind, initial {
      var seen = Set<String>()
      gone = names.filter { current[$0] == nil && seen.insert($0).inserted }
    }
    if !gone.isEmpty {
      gone.sort { ValueOrdering.compareResourceNames($0, $1) < 0 }
      let paths = try gone.map { name throws(MockError) in try store.relativePath(name, db: database) }
      let existing = try store.get(database, paths: paths, consistency: .readTime(readTime)).documents
      for (name, (_, document)) in zip(gone, existing) {
        if document != nil {
          responses.append(.documentRemove(.init(document: name, removedTargetIDs: [id], readTime: readTime)))
        } else {
          responses.append(.documentDelete(.init(document: name, removedTargetIDs: [id], readTime: readTime)))
        }
      }
    }
    state.view = current
    return responses
  }

  /// The documents a target holds at `time`, in query (or key) order.
  func evaluate(_ target: Target, database: String, at time: Timestamp) throws(MockError) -> [Document] {
    switch target.kind {
    case .documents(let names):
      let paths = try names.map { name throws(MockError) in try store.relativePath(name, db: database) }
      return try store.get(database, paths: paths, consistency: .readTime(time)).documents.compactMap(\.1)
    case .query(let parent, let query):
      guard let relative = Self.relativeParent(parent, database: database) else {
        throw .invalidArgument("Query parent \"\(parent)\" is not in database \(database).")
      }
      if !relative.isEmpty { _ = try store.relativePath(parent, db: database) }
      for selector in query.from where selector.collectionID.contains("/") {
        throw .invalidArgument("Collection id \"\(selector.collectionID)\" is invalid because it contains \"/\".")
      }
      let candidates = try store.candidates(database, parent: relative, selectors: query.from, consistency: .readTime(time))
      return try QueryEngine.execute(query, over: candidates.documents)
    }
  }

  /// Whether `target` reads a document at any of `paths` (below the database's documents root).
  private func reads(_ target: Target, anyOf paths: Set<String>, database: String) -> Bool {
    switch target.kind {
    case .documents(let names):
      let root = database + "/documents/"
      return names.contains { name in name.removingBytePrefix(root).map(paths.contains) ?? false }
    case .query(let parent, let query):
      guard let relative = Self.relativeParent(parent, database: database) else { return false }
      return paths.contains { StructuredQuery.reads(query.from, documentAt: $0, under: relative) }
    }
  }

  /// A query parent's path below the database's documents root (`""` for the root itself),
  /// or `nil` when it is not in that database.
  private static func relativeParent(_ parent: String, database: String) -> String? {
    let root = database + "/documents"
    return parent == root ? "" : parent.removingBytePrefix(root + "/")
  }

  private static func view(_ documents: [Document]) -> [String: Timestamp] {
    var view: [String: Timestamp] = [:]
    for document in documents { view[document.name] = document.updateTime ?? Timestamp(seconds: 0, nanoseconds: 0) }
    return view
  }

  /// A target's REMOVE cause for an error: the gRPC code number and the message.
  static func cause(_ error: MockError) -> ListenResponse.TargetChange.Cause {
    .init(code: error.code.rawValue, message: error.message)
  }
}
