import FirestoreWire

/// The queries whose results this instance has had from the server (a read, or a listener
/// in sync), the most recent ones: the cache holds those results, even when they were
/// empty, so a listener's first snapshot may come from it at once, as the Apple SDK raises
/// one for a target it holds results for.
struct AnsweredQueries {
  /// The most queries remembered; past it, the least recently answered tenth is forgotten.
  static let limit = 1_000

  private var lastAnswered: [String: UInt64] = [:]
  private var clock: UInt64 = 0

  /// Records that the server has just answered `query`.
  mutating func insert(_ query: ViewQuery) { insert(key: Self.key(query)) }

  /// Records that the server has just said what the document `name` is (or that there is none).
  mutating func insert(documentNamed name: String) { insert(key: name) }

  private mutating func insert(key: String) {
    clock += 1
    lastAnswered[key] = clock
    guard lastAnswered.count > Self.limit else { return }
    let oldest = lastAnswered.sorted { $0.value < $1.value }.prefix(Self.limit / 10)
    for (key, _) in oldest { lastAnswered[key] = nil }
  }

  /// Whether the server has answered `query` (and it is still remembered).
  func contains(_ query: ViewQuery) -> Bool {
    lastAnswered[Self.key(query)] != nil
  }

  /// The query as a string that two equal queries share.
  private static func key(_ query: ViewQuery) -> String {
    switch query {
    case .document(let name, _): return name
    case .query(let structured, let parent, _, _): return structured.key(under: parent)
    }
  }
}
