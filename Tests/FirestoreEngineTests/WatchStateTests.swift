import FirestoreEngine
import Foundation
import Testing

@testable import FirestoreWire

private let root = "projects/p/databases/(default)/documents/"

private func ts(_ s: Int64) -> Timestamp { Timestamp(seconds: 1_700_000_000 + s, nanoseconds: 0) }

private func doc(_ id: String, pop: Int64, at time: Int64 = 1) -> Document {
  Document(name: root + "cities/" + id, fields: ["pop": .integer(pop)], createTime: ts(0), updateTime: ts(time))
}

private func changed(_ d: Document, _ ids: [Int32], removed: [Int32] = []) -> ListenResponse {
  .documentChange(.init(document: d, targetIDs: ids, removedTargetIDs: removed))
}

private func target(_ kind: ListenResponse.TargetChange.Kind, _ ids: [Int32], token: String? = nil) -> ListenResponse {
  .targetChange(.init(kind: kind, targetIDs: ids, resumeToken: token.map { Data($0.utf8) }, readTime: token == nil ? nil : ts(50)))
}

private func global(_ time: Int64, token: String) -> ListenResponse {
  .targetChange(.init(resumeToken: Data(token.utf8), readTime: ts(time)))
}

private func feed(_ state: inout WatchState, _ responses: [ListenResponse]) -> [WatchAction] {
  responses.flatMap { state.apply($0) }
}

/// The one snapshot in `actions` for `id`.
private func snapshot(_ actions: [WatchAction], _ id: Int32) -> WatchSnapshot? {
  for case .snapshot(let t, let s) in actions where t == id { return s }
  return nil
}

/// Changes as "kind id old>new" text.
private func summary(_ s: WatchSnapshot?) -> [String] {
  (s?.changes ?? []).map { "\($0.kind) \($0.document.name.split(separator: "/").last!) \($0.oldIndex)>\($0.newIndex)" }
}

private func ids(_ s: WatchSnapshot?) -> [String] {
  (s?.documents ?? []).map { String($0.name.split(separator: "/").last!) }
}

private let byPop = StructuredQuery(from: [.init(collectionID: "cities")], orderBy: [.init(fieldPath: "pop", descending: false)])

/// A state with query target 2 (by pop) showing `docs` after an initial snapshot at token "T1".
private func listening(_ docs: [Document], query: StructuredQuery = byPop) -> WatchState {
  var state = WatchState()
  state.addTarget(2, query: query, documents: nil)
  _ = feed(&state, [target(.add, [2])] + docs.map { changed($0, [2]) } + [target(.current, [2], token: "C1"), global(1, token: "T1")])
  return state
}

@Suite("Watch state")
struct WatchStateTests {
  @Test("initial snapshot at the global consistency point after CURRENT")
  func initialSnapshot() throws {
    var state = WatchState()
    state.addTarget(2, query: byPop, documents: nil)
    #expect(feed(&state, [target(.add, [2]), changed(doc("c2", pop: 2), [2]), changed(doc("c1", pop: 1), [2])]).isEmpty)
    // A global point before CURRENT raises nothing.
    #expect(state.apply(global(1, token: "G0")).isEmpty)
    #expect(state.apply(target(.current, [2], token: "C1")).isEmpty)
    let actions = state.apply(global(2, token: "T1"))
    let s = try #require(snapshot(actions, 2))
    #expect(actions.count == 1)
    #expect(s.isInitial && s.readTime == ts(2))
    #expect(ids(s) == ["c1", "c2"])
    #expect(summary(s) == ["added c1 -1>0", "added c2 -1>1"])
    #expect(state.resumeToken(for: 2) == Data("T1".utf8))
  }

  @Test("an empty result still gives an initial snapshot")
  func emptyInitial() throws {
    var state = WatchState()
    state.addTarget(2, query: byPop, documents: nil)
    let s = try #require(snapshot(feed(&state, [target(.add, [2]), target(.current, [2], token: "C"), global(1, token: "T")]), 2))
    #expect(s.isInitial && s.documents.isEmpty && s.changes.isEmpty)
  }

  @Test("incremental add, modify, remove with Firebase indexes")
  func incremental() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2), doc("c", pop: 3)])
    let actions = feed(
      &state,
      [
        .documentDelete(.init(document: root + "cities/a", removedTargetIDs: [2])),
        changed(doc("c", pop: 0, at: 2), [2]),
        changed(doc("d", pop: 5), [2]),
        global(3, token: "T2"),
      ])
    let s = try #require(snapshot(actions, 2))
    #expect(!s.isInitial)
    #expect(ids(s) == ["c", "b", "d"])
    #expect(summary(s) == ["removed a 0>-1", "added d -1>2", "modified c 1>0"])
    #expect(s.changes[0].document == doc("a", pop: 1))
  }

  @Test("RESET re-sending the same documents yields no snapshot (emulator behaviour)")
  func resetSameDocuments() {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2)])
    let actions = feed(
      &state,
      [
        target(.reset, [2], token: "R"), changed(doc("a", pop: 1), [2]), changed(doc("b", pop: 2), [2]), target(.current, [2], token: "C2"),
        global(3, token: "T2"),
      ])
    #expect(actions.isEmpty)
    #expect(state.resumeToken(for: 2) == Data("T2".utf8))
  }

  @Test("RESET with one document changed yields one .modified; a missing one is removed")
  func resetWithChanges() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2), doc("c", pop: 3)])
    let modified = try #require(
      snapshot(
        feed(
          &state,
          [
            target(.reset, [2], token: "R"), changed(doc("a", pop: 1), [2]), changed(doc("b", pop: 2, at: 2), [2]),
            changed(doc("c", pop: 3), [2]),
            target(.current, [2], token: "C2"), global(3, token: "T2"),
          ]), 2))
    #expect(summary(modified) == ["modified b 1>1"])
    // Delete c on the emulator: it is simply not re-sent.
    let removed = try #require(
      snapshot(
        feed(
          &state,
          [
            target(.reset, [2]), changed(doc("a", pop: 1), [2]), changed(doc("b", pop: 2, at: 2), [2]), target(.current, [2]),
            global(4, token: "T3"),
          ]),
        2))
    #expect(summary(removed) == ["removed c 2>-1"])
    // Only absent from the set sent again: the server did not say it removed c.
    #expect(removed.removedByServer.isEmpty)
  }

  @Test("a global point between RESET and CURRENT raises nothing")
  func resetNotCurrent() {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2)])
    #expect(feed(&state, [target(.reset, [2]), changed(doc("a", pop: 1), [2]), global(3, token: "T2")]).isEmpty)
    #expect(state.resumeToken(for: 2) == Data("T1".utf8))
    #expect(feed(&state, [changed(doc("b", pop: 2), [2]), target(.current, [2]), global(4, token: "T3")]).isEmpty)
  }

  @Test("documentRemove leaves one target; documentDelete removes from all listed")
  func removeVersusDelete() throws {
    var state = WatchState()
    state.addTarget(2, query: byPop, documents: nil)
    state.addTarget(4, query: nil, documents: [root + "cities/a"])
    let initial = feed(
      &state,
      [
        target(.add, [2]), target(.add, [4]), changed(doc("a", pop: 1), [2, 4]), changed(doc("b", pop: 2), [2]),
        target(.current, [2, 4], token: "C"), global(1, token: "T1"),
      ])
    #expect(ids(snapshot(initial, 2)) == ["a", "b"] && ids(snapshot(initial, 4)) == ["a"])
    let afterRemove = feed(&state, [.documentRemove(.init(document: root + "cities/a", removedTargetIDs: [2])), global(2, token: "T2")])
    #expect(summary(snapshot(afterRemove, 2)) == ["removed a 0>-1"])
    #expect(snapshot(afterRemove, 2)?.removedByServer == [root + "cities/a"])
    #expect(snapshot(afterRemove, 4) == nil)
    let afterDelete = feed(
      &state, [.documentDelete(.init(document: root + "cities/a", removedTargetIDs: [4], readTime: ts(3))), global(3, token: "T3")])
    #expect(summary(snapshot(afterDelete, 4)) == ["removed a 0>-1"])
    #expect(snapshot(afterDelete, 4)?.removedByServer == [root + "cities/a"])
    #expect(snapshot(afterDelete, 4)?.documents == [])
    #expect(snapshot(afterDelete, 2) == nil)
  }

  @Test("documentChange with the target in removedTargetIds takes the document out")
  func leavesQuery() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 4)])
    let s = try #require(snapshot(feed(&state, [changed(doc("b", pop: 0, at: 2), [], removed: [2]), global(3, token: "T2")]), 2))
    #expect(summary(s) == ["removed b 1>-1"])
  }

  @Test("documents target as the emulator sends it: missing, then deleted")
  func documentsTarget() throws {
    let a = root + "cities/c1"
    let nope = root + "cities/nope"
    var state = WatchState()
    state.addTarget(Target(targetID: 6, kind: .documents([a, nope])))
    let initial = try #require(
      snapshot(
        feed(
          &state,
          [
            target(.add, [6]), changed(Document(name: a, updateTime: ts(1)), [6]),
            .documentDelete(.init(document: nope, removedTargetIDs: [6], readTime: ts(1))), target(.current, [6], token: "C"),
            global(1, token: "T"),
          ]), 6))
    #expect(initial.documents.map(\.name) == [a])
    // Later the emulator re-sends every watched document, with no RESET or CURRENT.
    let later = feed(
      &state,
      [
        .documentDelete(.init(document: nope, removedTargetIDs: [6], readTime: ts(2))),
        .documentDelete(.init(document: a, removedTargetIDs: [6], readTime: ts(2))), global(2, token: "T2"),
      ])
    #expect(summary(snapshot(later, 6)) == ["removed c1 0>-1"])
  }

  @Test("a documents target takes no other document, whatever target IDs the server gives it")
  func documentsTargetKeepsItsNames() throws {
    let watched = root + "cities/c1"
    var state = WatchState()
    state.addTarget(Target(targetID: 6, kind: .documents([watched])))
    let actions = feed(
      &state,
      [
        target(.add, [6]), changed(doc("other", pop: 1), [6]), target(.current, [6], token: "C"), global(1, token: "T"),
      ])
    #expect(try #require(snapshot(actions, 6)).documents.isEmpty)
    let later = feed(&state, [changed(doc("stray", pop: 2), [6]), changed(doc("c1", pop: 3, at: 2), [6]), global(2, token: "T2")])
    #expect(ids(snapshot(later, 6)) == ["c1"])
  }

  @Test("a query target takes no document outside its collection; a collection group's, none outside its parent")
  func queryTargetKeepsItsCollection() throws {
    let towns = Document(name: root + "towns/t1", fields: ["pop": .integer(1)], createTime: ts(0), updateTime: ts(1))
    let nested = Document(name: root + "cities/a/cities/b", fields: ["pop": .integer(2)], createTime: ts(0), updateTime: ts(1))
    let elsewhere = Document(name: "projects/q/databases/(default)/documents/cities/z", createTime: ts(0), updateTime: ts(1))
    var state = WatchState()
    state.addTarget(Target(targetID: 2, kind: .query(parent: String(root.dropLast()), byPop)))
    let group = StructuredQuery(from: [.init(collectionID: "cities", allDescendants: true)])
    state.addTarget(Target(targetID: 4, kind: .query(parent: root + "cities/a", group)))
    let actions = feed(
      &state,
      [target(.add, [2, 4])] + [doc("c1", pop: 3), towns, nested, elsewhere].map { changed($0, [2, 4]) }
        + [target(.current, [2, 4], token: "C"), global(1, token: "T")])
    #expect(ids(snapshot(actions, 2)) == ["c1"])
    #expect(try #require(snapshot(actions, 4)).documents.map(\.name) == [nested.name])
  }

  @Test("existence filter mismatch asks for a reset; the re-listen reports only real differences")
  func existenceFilter() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2)])
    #expect(state.apply(.filter(.init(targetID: 2, count: 2))).isEmpty)
    #expect(state.apply(.filter(.init(targetID: 2, count: 3))) == [.resetTarget(targetID: 2)])
    #expect(state.resumeToken(for: 2) == nil)
    // Changes of the old incarnation, before the server answered the re-listen, are ignored.
    let actions = feed(
      &state,
      [
        changed(doc("z", pop: 9), [2]), global(2, token: "X"), target(.remove, [2]), target(.add, [2]), changed(doc("a", pop: 1), [2]),
        changed(doc("b", pop: 2), [2]), changed(doc("c", pop: 3), [2]), target(.current, [2], token: "C"), global(3, token: "T3"),
      ])
    #expect(actions.count == 1)
    let s = try #require(snapshot(actions, 2))
    #expect(!s.isInitial)
    #expect(summary(s) == ["added c -1>2"])
  }

  @Test("REMOVE with a cause fails only that target")
  func targetError() throws {
    var state = listening([doc("a", pop: 1)])
    state.addTarget(3, query: byPop, documents: nil)
    let actions = feed(
      &state,
      [
        .targetChange(.init(kind: .remove, targetIDs: [3], cause: .init(code: 7, message: "denied"))), changed(doc("b", pop: 2), [2, 3]),
        target(.current, [3]), global(2, token: "T2"),
      ])
    #expect(actions.first == .targetError(targetID: 3, code: 7, message: "denied"))
    #expect(actions.count == 2)
    #expect(summary(snapshot(actions, 2)) == ["added b -1>1"])
    #expect(state.targetIDs == [2])
  }

  @Test("two targets get their own RESET blocks and one global point")
  func twoTargets() throws {
    let big = StructuredQuery(
      from: [.init(collectionID: "cities")], filter: .field(path: "pop", op: .greaterThanOrEqual, value: .integer(3)))
    var state = listening([doc("a", pop: 1), doc("c", pop: 3)])
    state.addTarget(4, query: big, documents: nil)
    let initial = feed(
      &state, [target(.add, [4]), changed(doc("c", pop: 3), [4]), target(.current, [4], token: "C4"), global(2, token: "T2")])
    #expect(initial.count == 1)
    #expect(snapshot(initial, 4)?.isInitial == true)
    // c leaves target 4 by a field change: the emulator just does not re-send it there.
    let later = feed(
      &state,
      [
        target(.reset, [4]), target(.current, [4]), target(.reset, [2]), changed(doc("a", pop: 1), [2]),
        changed(doc("c", pop: 0, at: 3), [2]),
        target(.current, [2]), global(3, token: "T3"),
      ])
    #expect(summary(snapshot(later, 2)) == ["modified c 1>0"])
    #expect(summary(snapshot(later, 4)) == ["removed c 0>-1"])
  }

  @Test("descending order with ties broken by name (descending too, like the server)")
  func descendingOrder() throws {
    let query = StructuredQuery(from: [.init(collectionID: "cities")], orderBy: [.init(fieldPath: "pop", descending: true)])
    var state = WatchState()
    state.addTarget(2, query: query, documents: nil)
    let docs = [doc("a", pop: 5), doc("d", pop: 1), doc("c", pop: 9), doc("b", pop: 5)]
    let s = try #require(
      snapshot(feed(&state, [target(.add, [2])] + docs.map { changed($0, [2]) } + [target(.current, [2]), global(1, token: "T")]), 2))
    #expect(ids(s) == ["c", "b", "a", "d"])
    #expect(
      DocumentOrdering.normalizedOrderBy(query) == [
        .init(fieldPath: "pop", descending: true), .init(fieldPath: "__name__", descending: true),
      ])
  }

  @Test("inequality fields are ordered implicitly before the name")
  func implicitOrder() {
    let query = StructuredQuery(
      from: [.init(collectionID: "c")],
      filter: .composite(
        op: .and, filters: [.field(path: "z", op: .notEqual, value: .string("x")), .field(path: "a.b", op: .lessThan, value: .integer(1))]))
    #expect(
      DocumentOrdering.normalizedOrderBy(query) == [
        .init(fieldPath: "a.b", descending: false), .init(fieldPath: "z", descending: false),
        .init(fieldPath: "__name__", descending: false),
      ])
  }

  @Test("limit cuts the view; a document pushed out is removed")
  func limit() throws {
    var query = byPop
    query.limit = 2
    var state = listening([doc("a", pop: 1), doc("b", pop: 2), doc("c", pop: 3)], query: query)
    let s = try #require(snapshot(feed(&state, [changed(doc("z", pop: 0), [2]), global(2, token: "T2")]), 2))
    #expect(ids(s) == ["z", "a"])
    #expect(summary(s) == ["removed b 1>-1", "added z -1>0"])
  }

  @Test("connection loss: resume from the last committed token and report only real differences")
  func reconnect() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2)])
    // Half a RESET block arrives, with a newer token, then the stream drops.
    _ = feed(&state, [target(.reset, [2], token: "R"), changed(doc("a", pop: 1), [2]), target(.current, [2], token: "C2")])
    state.connectionLost()
    #expect(state.resumeToken(for: 2) == Data("T1".utf8))
    #expect(state.targetIDs == [2])
    // Messages before the re-add's ADD are ignored.
    #expect(feed(&state, [changed(doc("q", pop: 0), [2]), target(.current, [2]), global(2, token: "X")]).isEmpty)
    // The emulator answers a resume with RESET and the full result.
    let actions = feed(
      &state,
      [
        target(.add, [2]), target(.reset, [2], token: "R2"), changed(doc("a", pop: 1), [2]), changed(doc("b", pop: 2, at: 5), [2]),
        changed(doc("c", pop: 3), [2]), target(.current, [2], token: "C3"), global(3, token: "T3"),
      ])
    let s = try #require(snapshot(actions, 2))
    #expect(!s.isInitial)
    #expect(summary(s) == ["added c -1>2", "modified b 1>1"])
  }

  @Test("connection loss: production-style resume sends only the delta since the token")
  func reconnectIncremental() throws {
    var state = listening([doc("a", pop: 1), doc("b", pop: 2)])
    _ = feed(&state, [changed(doc("a", pop: 7, at: 3), [2])])  // Not yet consistent: dropped.
    state.connectionLost()
    state.addTarget(2, query: byPop, documents: nil)  // Optional bookkeeping: no second ADD is expected.
    let s = try #require(
      snapshot(
        feed(
          &state,
          [
            target(.add, [2]), changed(doc("a", pop: 7, at: 3), [2]),
            .documentDelete(.init(document: root + "cities/b", removedTargetIDs: [2])), target(.current, [2]), global(4, token: "T4"),
          ]),
        2))
    #expect(summary(s) == ["removed b 1>-1", "modified a 0>0"])
  }

  @Test("a reconnected stream's consistent point older than the last one raises nothing until one as recent")
  func olderConsistentPointWaits() throws {
    var state = listening([doc("a", pop: 1)])
    _ = feed(&state, [changed(doc("a", pop: 2, at: 10), [2]), global(10, token: "T10")])
    state.connectionLost()
    // A lagging server answers the resume from before the last point the listener saw.
    let behind = feed(
      &state, [target(.add, [2]), target(.reset, [2]), changed(doc("a", pop: 1), [2]), target(.current, [2]), global(5, token: "T5")])
    #expect(snapshot(behind, 2) == nil)
    // The older point's token does not describe the view: a later point without one keeps the last.
    let caughtUp = feed(
      &state, [changed(doc("a", pop: 2, at: 10), [2]), .targetChange(.init(targetIDs: [], readTime: ts(12)))])
    let s = try #require(snapshot(caughtUp, 2))
    #expect(s.changes.isEmpty)
    #expect(s.documents.first?.fields["pop"] == .integer(2))
    #expect(state.resumeToken(for: 2) == Data("T10".utf8))
  }

  @Test("an ADD naming no target answers none; a filter before the first snapshot raises one snapshot, not two")
  func addWithoutTargetsAndEarlyFilter() throws {
    var state = WatchState()
    state.addTarget(2, query: byPop, documents: nil)
    _ = feed(&state, [target(.add, [2]), changed(doc("a", pop: 1), [2]), target(.current, [2], token: "C")])
    #expect(feed(&state, [.filter(.init(targetID: 2, count: 0))]) == [.resetTarget(targetID: 2)])
    // The client's removeTarget and addTarget are owed their answers; an ADD of no target is not one.
    _ = feed(&state, [target(.add, []), target(.remove, [2]), changed(doc("stale", pop: 9), [2])])
    let first = feed(&state, [target(.add, [2]), target(.current, [2], token: "C2"), global(3, token: "T3")])
    #expect(try #require(snapshot(first, 2)).documents.isEmpty)
    #expect(snapshot(feed(&state, [global(4, token: "T4")]), 2) == nil, "nothing changed since the first snapshot")
  }

  @Test("duplicated and stale responses do not corrupt state")
  func duplicates() throws {
    var state = WatchState()
    state.addTarget(2, query: byPop, documents: nil)
    let initial: [ListenResponse] = [
      target(.add, [2]), changed(doc("a", pop: 1), [2]), changed(doc("b", pop: 2), [2]), target(.current, [2], token: "C"),
      global(1, token: "T1"),
    ]
    let actions = feed(&state, initial.flatMap { [$0, $0] })
    #expect(actions.count == 1)
    #expect(ids(snapshot(actions, 2)) == ["a", "b"])
    // A repeated ADD must not wipe the view, a stale version must not roll it back.
    let later = feed(
      &state,
      [
        target(.add, [2]), changed(doc("b", pop: 2, at: 4), [2]), changed(doc("b", pop: 2, at: 1), [2]), global(2, token: "T2"),
        global(2, token: "T2"),
      ])
    #expect(later.count == 1)
    #expect(summary(snapshot(later, 2)) == ["modified b 1>1"])
    // Changes for unknown targets are ignored.
    #expect(feed(&state, [changed(doc("x", pop: 1), [9]), target(.add, [9]), target(.current, [9]), global(3, token: "T3")]).isEmpty)
  }

  @Test("a removed target delivers nothing more, and its ID can be reused")
  func clientRemove() throws {
    var state = listening([doc("a", pop: 1)])
    state.removeTarget(2)
    #expect(feed(&state, [changed(doc("b", pop: 2), [2]), global(2, token: "T2")]).isEmpty)
    state.addTarget(2, query: byPop, documents: nil)
    // REMOVE of the old incarnation, then the new one's ADD.
    let s = try #require(
      snapshot(
        feed(
          &state,
          [
            changed(doc("z", pop: 5), [2]), target(.remove, [2]), target(.add, [2]), changed(doc("a", pop: 1), [2]), target(.current, [2]),
            global(3, token: "T3"),
          ]),
        2))
    #expect(s.isInitial && ids(s) == ["a"])
  }
}
