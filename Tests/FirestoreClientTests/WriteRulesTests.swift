import FirestoreWire
import Testing

@testable import FirestoreClient

/// The rules by which the official server SDKs (Go, Java, Node, Python) turn `create`,
/// `set`, `set` with merge, `update` and `delete` calls into `Write`s, as their shared
/// cross-language conformance cases pin them: one test per rule, written here in our own
/// terms. A built write must be result-equivalent to theirs (the same fields, mask,
/// transforms and precondition; the order of mask entries and transforms does not matter).
@Suite("Write rules of the official clients")
struct WriteRulesTests {
  let db = Offline.noNetwork().0
  var ref: DocumentReference { db.document("C/d") }

  typealias Data = [String: any Sendable]

  // MARK: - helpers

  private let timestamp = FieldValue.serverTimestamp()

  /// Arrays and maps nested in each other, which a set and an update store alike:
  /// ``nestedFields``.
  private static let nested: Data = [
    "a": [1, 2.5] as [any Sendable], "b": ["c": ["three", ["d": true] as Data] as [any Sendable]] as Data,
  ]
  /// The fields that store ``nested``.
  private var nestedFields: [String: Value] {
    [
      "a": .array([.integer(1), .double(2.5)]),
      "b": map(["c": .array([.string("three"), map(["d": .boolean(true)])])]),
    ]
  }

  private func expect(
    _ write: Write, fields: [String: Value], mask: [String]? = nil, transforms: [FieldTransform] = [],
    precondition: Precondition? = nil, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    guard case .update(let document) = write.operation else {
      Issue.record("expected an update, got \(write.operation)", sourceLocation: sourceLocation)
      return
    }
    #expect(document.name == ref.name, sourceLocation: sourceLocation)
    #expect(document.fields == fields, sourceLocation: sourceLocation)
    #expect(write.updateMask.map(Set.init) == mask.map(Set.init), "update mask", sourceLocation: sourceLocation)
    #expect(write.updateMask.map { $0.count == Set($0).count } ?? true, "mask repeats a path", sourceLocation: sourceLocation)
    let sorted = write.updateTransforms.sorted { $0.fieldPath < $1.fieldPath }
    #expect(sorted == transforms.sorted { $0.fieldPath < $1.fieldPath }, "transforms", sourceLocation: sourceLocation)
    #expect(write.currentDocument == precondition, sourceLocation: sourceLocation)
  }

  private func rejects(
    _ message: String, sourceLocation: SourceLocation = #_sourceLocation, _ build: () throws(FirestoreError) -> Write
  ) {
    do {
      _ = try build()
      Issue.record("expected invalidArgument mentioning \"\(message)\"", sourceLocation: sourceLocation)
    } catch {
      #expect(error.code == .invalidArgument, sourceLocation: sourceLocation)
      #expect(error.message.contains(message), "\(error.message)", sourceLocation: sourceLocation)
    }
  }

  private func set(_ data: Data) throws(FirestoreError) -> Write { try WriteBuilder.set(ref, data, merge: .none) }
  private func merge(_ data: Data) throws(FirestoreError) -> Write { try WriteBuilder.set(ref, data, merge: .all) }
  private func merge(_ data: Data, fields: [FieldPath]) throws(FirestoreError) -> Write {
    try WriteBuilder.set(ref, data, merge: .fields(fields))
  }
  private func create(_ data: Data) throws(FirestoreError) -> Write {
    try WriteBuilder.set(ref, data, merge: .none, precondition: .exists(false))
  }
  private func update(_ data: Data, precondition: Precondition? = nil) throws(FirestoreError) -> Write {
    try WriteBuilder.update(ref, try WriteBuilder.fieldPaths(data), precondition: precondition)
  }
  private func update(paths data: [FieldPath: any Sendable], precondition: Precondition? = nil) throws(FirestoreError) -> Write {
    try WriteBuilder.update(ref, data, precondition: precondition)
  }

  private func st(_ path: String) -> FieldTransform { FieldTransform(fieldPath: path, kind: .serverTimestamp) }
  private func union(_ path: String, _ values: Int64...) -> FieldTransform {
    FieldTransform(fieldPath: path, kind: .appendMissingElements(values.map(Value.integer)))
  }
  private func remove(_ path: String, _ values: Int64...) -> FieldTransform {
    FieldTransform(fieldPath: path, kind: .removeAllFromArray(values.map(Value.integer)))
  }
  private func map(_ fields: [String: Value]) -> Value { .map(fields) }

  // MARK: - create and set without merge

  @Test("create is a set that requires the document not to exist")
  func createRequiresAbsence() throws {
    expect(try create(["a": 1]), fields: ["a": .integer(1)], precondition: .exists(false))
    expect(try create([:]), fields: [:], precondition: .exists(false))
  }

  @Test("a plain set replaces the document: no mask, every value written as given")
  func setReplaces() throws {
    expect(try set(["a": 1]), fields: ["a": .integer(1)])
    expect(try set([:]), fields: [:])
    expect(try set(Self.nested), fields: nestedFields)
  }

  @Test("map keys in set data are field names, never split on dots or checked for special characters")
  func setKeysAreNames() throws {
    expect(try set(["a.b": ["c.d": 1] as Data, "e": 2]), fields: ["a.b": map(["c.d": .integer(1)]), "e": .integer(2)])
    expect(try set(["*": [".": 1] as Data, "~": 2]), fields: ["*": map([".": .integer(1)]), "~": .integer(2)])
  }

  @Test("a transform is taken out of the data and sent as a field transform at its full path")
  func setTransforms() throws {
    expect(try set(["a": 1, "b": timestamp]), fields: ["a": .integer(1)], transforms: [st("b")])
    expect(
      try set(["a": 1, "b": timestamp, "c": FieldValue.arrayUnion([1, 2, 3]), "d": FieldValue.arrayRemove([4, 5, 6])]),
      fields: ["a": .integer(1)], transforms: [st("b"), union("c", 1, 2, 3), remove("d", 4, 5, 6)])
    expect(
      try create(["a": 1, "b": FieldValue.arrayRemove([1, 2, 3]), "c": ["d": FieldValue.arrayUnion([4, 5, 6])] as Data]),
      fields: ["a": .integer(1)], transforms: [remove("b", 1, 2, 3), union("c.d", 4, 5, 6)], precondition: .exists(false))
  }

  @Test("a set of transforms alone still writes the document, empty")
  func setTransformAlone() throws {
    expect(try set(["a": timestamp]), fields: [:], transforms: [st("a")])
    expect(try create(["a": timestamp]), fields: [:], transforms: [st("a")], precondition: .exists(false))
  }

  @Test("a map holding only transforms contributes no field of its own")
  func setSentinelOnlyMap() throws {
    expect(try set(["a": 1, "b": ["c": timestamp] as Data]), fields: ["a": .integer(1)], transforms: [st("b.c")])
    expect(
      try set(["a": 1, "b": timestamp, "c": ["d": timestamp] as Data]), fields: ["a": .integer(1)], transforms: [st("b"), st("c.d")])
    // Nested two deep: the outer map holds only a map of transforms.
    expect(try set(["x": ["y": ["z": timestamp] as Data] as Data]), fields: [:], transforms: [st("x.y.z")])
  }

  @Test("an empty map the caller wrote is written as an empty map, beside a transform too")
  func setEmptyMapKept() throws {
    expect(try set(["a": ["b": Data(), "c": timestamp] as Data]), fields: ["a": map(["b": map([:])])], transforms: [st("a.c")])
    expect(try merge(["e": Data()]), fields: ["e": map([:])], mask: ["e"])
  }

  @Test("delete() needs a merge: a plain set or create with it is refused")
  func setRefusesDelete() {
    rejects("FieldValue.delete()") { () throws(FirestoreError) in try set(["a": 1, "b": FieldValue.delete()]) }
    rejects("FieldValue.delete()") { () throws(FirestoreError) in try create(["a": 1, "b": FieldValue.delete()]) }
  }

  @Test("no sentinel may stand in an array, at any depth, and array arguments hold plain values")
  func sentinelsNotInArrays() {
    let sentinels: [FieldValue] = [
      timestamp, FieldValue.delete(), FieldValue.arrayUnion([1]), FieldValue.arrayRemove([1]), FieldValue.increment(1),
    ]
    for sentinel in sentinels {
      rejects("inside arrays") { () throws(FirestoreError) in try merge(["a": [1, 2, sentinel] as [any Sendable]]) }
      rejects("inside arrays") { () throws(FirestoreError) in try merge(["a": [1, ["b": sentinel] as Data] as [any Sendable]]) }
      rejects("inside arrays") { () throws(FirestoreError) in try update(["a": [1, ["b": sentinel] as Data] as [any Sendable]]) }
    }
    rejects("cannot contain another FieldValue") { () throws(FirestoreError) in
      try set(["a": FieldValue.arrayUnion([1, timestamp, 3])])
    }
    rejects("cannot contain another FieldValue") { () throws(FirestoreError) in
      try update(["a": FieldValue.arrayRemove([1, timestamp, 3])])
    }
  }

  // MARK: - set with merge: true

  @Test("merge masks every leaf of the data, nested maps by their leaves")
  func mergeAllMasksLeaves() throws {
    expect(try merge(["a": 1, "b": 2]), fields: ["a": .integer(1), "b": .integer(2)], mask: ["a", "b"])
    expect(try merge(["h": ["g": 3, "f": 4] as Data]), fields: ["h": map(["f": .integer(4), "g": .integer(3)])], mask: ["h.f", "h.g"])
    expect(try merge([:]), fields: [:], mask: [])
  }

  @Test("merge leaves transforms out of the mask, and a map of only transforms adds no mask entry")
  func mergeAllTransforms() throws {
    expect(try merge(["a": 1, "b": timestamp]), fields: ["a": .integer(1)], mask: ["a"], transforms: [st("b")])
    expect(try merge(["a": timestamp]), fields: [:], mask: [], transforms: [st("a")])
    let union = FieldTransform(fieldPath: "b.c", kind: .appendMissingElements([.string("foo"), .string("bar")]))
    expect(
      try merge(["a": 1, "b": ["c": FieldValue.arrayUnion(["foo", "bar"])] as Data]), fields: ["a": .integer(1)], mask: ["a"],
      transforms: [union])
    // The data loss this rule prevents: `b` in the mask with an empty value would wipe b.x.
    expect(
      try merge(["a": 1, "b": ["c": timestamp] as Data]), fields: ["a": .integer(1)], mask: ["a"], transforms: [st("b.c")])
  }

  @Test("merge turns a nested delete into a mask path with no value")
  func mergeAllDelete() throws {
    expect(try merge(["a": 1, "b": ["c": FieldValue.delete()] as Data]), fields: ["a": .integer(1)], mask: ["a", "b.c"])
  }

  // MARK: - set with mergeFields

  @Test("mergeFields writes and masks only the listed fields")
  func mergeFieldsProjects() throws {
    expect(try merge(["a": 1, "b": 2], fields: [FieldPath(["a"])]), fields: ["a": .integer(1)], mask: ["a"])
    expect(
      try merge(["h": ["g": 4, "f": 5] as Data], fields: [FieldPath(["h", "g"])]), fields: ["h": map(["g": .integer(4)])],
      mask: ["h.g"])
    expect(
      try merge(["*": ["~": true] as Data], fields: [FieldPath(["*", "~"])]), fields: ["*": map(["~": .boolean(true)])], mask: ["`*`.`~`"])
  }

  @Test("a listed field that holds a map replaces that whole map")
  func mergeFieldsNonLeaf() throws {
    expect(
      try merge(["h": ["f": 5, "g": 6] as Data, "e": 7], fields: [FieldPath(["h"])]),
      fields: ["h": map(["f": .integer(5), "g": .integer(6)])], mask: ["h"])
    expect(
      try merge(["h": ["f": 5, "g": timestamp] as Data, "e": 7], fields: [FieldPath(["h"])]), fields: ["h": map(["f": .integer(5)])],
      mask: ["h"], transforms: [st("h.g")])
    expect(
      try merge(["h": ["g": timestamp] as Data, "e": 7], fields: [FieldPath(["h"])]), fields: [:], mask: ["h"], transforms: [st("h.g")])
  }

  @Test("transforms in listed fields are kept, those outside are dropped, and a listed transform is not masked")
  func mergeFieldsTransforms() throws {
    expect(
      try merge(["a": 1, "b": timestamp], fields: [FieldPath(["a"]), FieldPath(["b"])]), fields: ["a": .integer(1)], mask: ["a"],
      transforms: [st("b")])
    expect(try merge(["a": 1, "b": timestamp], fields: [FieldPath(["a"])]), fields: ["a": .integer(1)], mask: ["a"])
    expect(try merge(["a": 1, "b": timestamp], fields: [FieldPath(["b"])]), fields: [:], mask: [], transforms: [st("b")])
  }

  @Test("a delete at a listed field is a mask path with no value")
  func mergeFieldsDelete() throws {
    let data: Data = ["a": 1, "b": ["c": FieldValue.delete()] as Data]
    expect(try merge(data, fields: [FieldPath(["b", "c"])]), fields: [:], mask: ["b.c"])
    expect(try merge(data, fields: [FieldPath(["a"]), FieldPath(["b", "c"])]), fields: ["a": .integer(1)], mask: ["a", "b.c"])
  }

  @Test("mergeFields refuses a delete outside the listed fields, or inside one")
  func mergeFieldsDeleteMisplaced() {
    rejects("not covered by mergeFields") { () throws(FirestoreError) in
      try merge(["a": 1, "b": FieldValue.delete()], fields: [FieldPath(["a"])])
    }
    rejects("lies inside merge field \"h\"") { () throws(FirestoreError) in
      try merge(["h": ["g": FieldValue.delete()] as Data], fields: [FieldPath(["h"])])
    }
  }

  @Test("mergeFields refuses a field missing from the data, and one field listed inside another")
  func mergeFieldsListing() throws {
    rejects("missing from the data") { () throws(FirestoreError) in try merge(["a": 1], fields: [FieldPath(["b"]), FieldPath(["a"])]) }
    rejects("one lies inside the other") { () throws(FirestoreError) in
      try merge(["a": ["b": 1] as Data], fields: [FieldPath(["a"]), FieldPath(["a", "b"])])
    }
    rejects("one lies inside the other") { () throws(FirestoreError) in
      try merge(["a": ["b": 1] as Data], fields: [FieldPath(["a", "b"]), FieldPath(["a"])])
    }
    // The same field twice is one field, as in the Apple SDK's field mask.
    expect(try merge(["a": 1], fields: [FieldPath(["a"]), FieldPath(["a"])]), fields: ["a": .integer(1)], mask: ["a"])
  }

  // MARK: - update with string keys

  @Test("update masks each key, splits keys on dots and requires the document to exist")
  func updateBasics() throws {
    expect(try update(["a": 1]), fields: ["a": .integer(1)], mask: ["a"], precondition: .exists(true))
    expect(
      try update(["a.b.c": 1]), fields: ["a": map(["b": map(["c": .integer(1)])])], mask: ["a.b.c"], precondition: .exists(true))
    // Only the top-level keys are paths; keys of a value map are names.
    expect(
      try update(["h.g": ["j.k": 6] as Data]), fields: ["h": map(["g": map(["j.k": .integer(6)])])], mask: ["h.g"],
      precondition: .exists(true))
    expect(try update(Self.nested), fields: nestedFields, mask: ["a", "b"], precondition: .exists(true))
  }

  @Test("update quotes names that are not plain identifiers in the mask")
  func updateQuoting() throws {
    expect(
      try update(["_0.1.+2": 1]), fields: ["_0": map(["1": map(["+2": .integer(1)])])], mask: ["_0.`1`.`+2`"],
      precondition: .exists(true))
  }

  @Test("update refuses dotted keys it cannot parse")
  func updateBadKeys() {
    rejects("contains one of ~ * / [ ]") { () throws(FirestoreError) in try update(["a~b": 1]) }
    rejects("empty field name") { () throws(FirestoreError) in try update(["a..b": 1]) }
  }

  @Test("update of a transform alone sends an empty mask, not the transformed field")
  func updateTransformAlone() throws {
    expect(try update(["a": timestamp]), fields: [:], mask: [], transforms: [st("a")], precondition: .exists(true))
    expect(try update(["a.b.c": timestamp]), fields: [:], mask: [], transforms: [st("a.b.c")], precondition: .exists(true))
    expect(
      try update(["a": FieldValue.arrayUnion([1, 2, 3])]), fields: [:], mask: [], transforms: [union("a", 1, 2, 3)],
      precondition: .exists(true))
    expect(
      try update(["a": FieldValue.arrayRemove([1, 2, 3])]), fields: [:], mask: [], transforms: [remove("a", 1, 2, 3)],
      precondition: .exists(true))
  }

  @Test("update with data and transforms masks the data keys only")
  func updateTransforms() throws {
    expect(
      try update(["a": 1, "b": timestamp, "c": FieldValue.arrayUnion([1, 2, 3]), "d": FieldValue.arrayRemove([4, 5, 6])]),
      fields: ["a": .integer(1)], mask: ["a"], transforms: [st("b"), union("c", 1, 2, 3), remove("d", 4, 5, 6)],
      precondition: .exists(true))
  }

  @Test("update replaces a key whose value is a map, even one holding only transforms")
  func updateMapOfTransforms() throws {
    // The key is in the mask with no value: the field is cleared, then the transforms write into it.
    expect(
      try update(["a": 1, "b": ["c": timestamp] as Data]), fields: ["a": .integer(1)], mask: ["a", "b"], transforms: [st("b.c")],
      precondition: .exists(true))
    expect(
      try update(["a": 1, "b": FieldValue.arrayRemove([1, 2, 3]), "c": ["d": FieldValue.arrayRemove([4, 5, 6])] as Data]),
      fields: ["a": .integer(1)], mask: ["a", "c"], transforms: [remove("b", 1, 2, 3), remove("c.d", 4, 5, 6)],
      precondition: .exists(true))
    expect(
      try update(["a": ["b": Data(), "c": timestamp] as Data]), fields: ["a": map(["b": map([:])])], mask: ["a"], transforms: [st("a.c")],
      precondition: .exists(true))
  }

  @Test("a transform beside a value in the same map does not widen the mask")
  func updateNestedTransformBesideValue() throws {
    expect(
      try update(["a.b": 7, "a.c": timestamp]), fields: ["a": map(["b": .integer(7)])], mask: ["a.b"], transforms: [st("a.c")],
      precondition: .exists(true))
  }

  @Test("update deletes a key by masking it without a value, at any dotted depth")
  func updateDelete() throws {
    expect(try update(["a": FieldValue.delete()]), fields: [:], mask: ["a"], precondition: .exists(true))
    expect(try update(["a": 1, "b": FieldValue.delete()]), fields: ["a": .integer(1)], mask: ["a", "b"], precondition: .exists(true))
    expect(
      try update(["a": 1, "b.c": FieldValue.delete(), "b.d": 2]), fields: ["a": .integer(1), "b": map(["d": .integer(2)])],
      mask: ["a", "b.c", "b.d"], precondition: .exists(true))
  }

  @Test("update refuses a delete inside a value")
  func updateNestedDelete() {
    rejects("top level") { () throws(FirestoreError) in try update(["a": ["b": FieldValue.delete()] as Data]) }
  }

  @Test("update refuses two keys where one lies inside the other")
  func updatePrefixes() {
    rejects("overlap") { () throws(FirestoreError) in try update(["a.b": 1, "a": 2]) }
    rejects("overlap") { () throws(FirestoreError) in try update(["a": ["b": 1] as Data, "a.d": 2]) }
  }

  @Test("update refuses two keys that name one field: a dictionary cannot say which wins")
  func updateSameFieldTwice() {
    let mixed: [AnyHashable: Any] = ["a.b": 100, FieldPath(["a", "b"]): 200]
    rejects("named by two keys") { () throws(FirestoreError) in
      try WriteBuilder.update(ref, try UserData.fieldPaths(mixed).get(), precondition: nil)
    }
  }

  @Test("update refuses no fields, and a precondition that the document does not exist")
  func updateRefusals() {
    rejects("at least one field") { () throws(FirestoreError) in try update([:]) }
    rejects("at least one field") { () throws(FirestoreError) in try update(paths: [:]) }
    rejects("cannot require that the document does not exist") { () throws(FirestoreError) in
      try update(["a": 1], precondition: .exists(false))
    }
    rejects("cannot require that the document does not exist") { () throws(FirestoreError) in
      try update(paths: [FieldPath(["a"]): 1], precondition: .exists(false))
    }
  }

  @Test("update takes an exists or last-update-time precondition in place of its own")
  func updatePreconditions() throws {
    expect(try update(["a": 1], precondition: .exists(true)), fields: ["a": .integer(1)], mask: ["a"], precondition: .exists(true))
    let time = Timestamp(seconds: 42, nanoseconds: 0)
    expect(try update(["a": 1], precondition: .updateTime(time)), fields: ["a": .integer(1)], mask: ["a"], precondition: .updateTime(time))
    expect(
      try update(paths: [FieldPath(["a"]): 1], precondition: .updateTime(time)), fields: ["a": .integer(1)], mask: ["a"],
      precondition: .updateTime(time))
  }

  // MARK: - update with FieldPath keys

  @Test("FieldPath keys are not split on dots and are quoted in the mask")
  func updatePathsNoSplit() throws {
    expect(
      try update(paths: [FieldPath(["a.b", "f.g"]): ["n.o": 7] as Data]), fields: ["a.b": map(["f.g": map(["n.o": .integer(7)])])],
      mask: ["`a.b`.`f.g`"], precondition: .exists(true))
    expect(
      try update(paths: [FieldPath(["*", "~"]): 1, FieldPath(["*", "`"]): 2]), fields: ["*": map(["`": .integer(2), "~": .integer(1)])],
      mask: ["`*`.`~`", "`*`.`\\``"], precondition: .exists(true))
    expect(
      try update(paths: [FieldPath(["a", "b"]): 1]), fields: ["a": map(["b": .integer(1)])], mask: ["a.b"], precondition: .exists(true))
  }

  @Test("FieldPath keys follow the same mask, transform and delete rules as string keys")
  func updatePathsRules() throws {
    expect(
      try update(paths: [FieldPath(["foo", "bar"]): 1, FieldPath(["foo", "delete"]): FieldValue.delete()]),
      fields: ["foo": map(["bar": .integer(1)])], mask: ["foo.bar", "foo.delete"], precondition: .exists(true))
    expect(
      try update(paths: [FieldPath(["a"]): 1, FieldPath(["b"]): timestamp, FieldPath(["c"]): ["d": timestamp] as Data]),
      fields: ["a": .integer(1)], mask: ["a", "c"], transforms: [st("b"), st("c.d")], precondition: .exists(true))
    expect(
      try update(paths: [FieldPath(["a", "b"]): 7, FieldPath(["a", "c"]): timestamp]), fields: ["a": map(["b": .integer(7)])],
      mask: ["a.b"], transforms: [st("a.c")], precondition: .exists(true))
    expect(try update(paths: [FieldPath(["a"]): timestamp]), fields: [:], mask: [], transforms: [st("a")], precondition: .exists(true))
    rejects("top level") { () throws(FirestoreError) in try update(paths: [FieldPath(["a"]): ["b": FieldValue.delete()] as Data]) }
  }

  @Test("FieldPath keys must be non-empty paths of non-empty names that do not overlap")
  func updatePathsRefusals() {
    // A path given twice cannot reach the builder: a dictionary keyed by paths holds each once.
    rejects("at least one field name") { () throws(FirestoreError) in try update(paths: [FieldPath([]): 1]) }
    rejects("empty field name") { () throws(FirestoreError) in try update(paths: [FieldPath(["*", ""]): 1]) }
    rejects("overlap") { () throws(FirestoreError) in try update(paths: [FieldPath(["a", "b"]): 1, FieldPath(["a"]): 2]) }
    rejects("overlap") { () throws(FirestoreError) in try update(paths: [FieldPath(["a"]): ["b": 1] as Data, FieldPath(["a", "d"]): 2]) }
  }

  // MARK: - delete

  @Test("delete sends the document name with the precondition given, if any")
  func deleteRules() throws {
    #expect(try WriteBuilder.delete(ref, precondition: nil) == Write(operation: .delete(ref.name)))
    #expect(
      try WriteBuilder.delete(ref, precondition: .exists(true)) == Write(operation: .delete(ref.name), currentDocument: .exists(true)))
    let time = Timestamp(seconds: 42, nanoseconds: 0)
    #expect(
      try WriteBuilder.delete(ref, precondition: .updateTime(time))
        == Write(operation: .delete(ref.name), currentDocument: .updateTime(time)))
  }
}
