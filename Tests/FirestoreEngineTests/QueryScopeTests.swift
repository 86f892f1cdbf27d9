import FirestoreEngine
import FirestoreWire
import Testing

/// Which documents a query's `from` reads: the rule the client's cache and the mock
/// server both answer queries and listens by.
@Suite("Query scope")
struct QueryScopeTests {
  private typealias Selector = StructuredQuery.CollectionSelector

  @Test("a collection reads its own documents, not those of a subcollection with its ID or of a sibling")
  func collection() {
    let cities = [Selector(collectionID: "cities")]
    #expect(StructuredQuery.reads(cities, documentAt: "cities/sf", under: ""))
    #expect(!StructuredQuery.reads(cities, documentAt: "towns/sf", under: ""))
    #expect(!StructuredQuery.reads(cities, documentAt: "states/ca/cities/sf", under: ""))
    #expect(StructuredQuery.reads(cities, documentAt: "states/ca/cities/sf", under: "states/ca"))
    #expect(!StructuredQuery.reads(cities, documentAt: "states/ny/cities/nyc", under: "states/ca"))
  }

  @Test("a collection group reads its ID at every depth below the parent, and only there")
  func collectionGroup() {
    let group = [Selector(collectionID: "landmarks", allDescendants: true)]
    #expect(StructuredQuery.reads(group, documentAt: "landmarks/a", under: ""))
    #expect(StructuredQuery.reads(group, documentAt: "cities/sf/landmarks/a", under: ""))
    #expect(StructuredQuery.reads(group, documentAt: "cities/sf/landmarks/a", under: "cities/sf"))
    #expect(!StructuredQuery.reads(group, documentAt: "cities/sfo/landmarks/a", under: "cities/sf"))
    #expect(!StructuredQuery.reads(group, documentAt: "cities/sf/parks/a", under: ""))
    // An empty ID with allDescendants reads every collection below the parent.
    #expect(StructuredQuery.reads([Selector(collectionID: "", allDescendants: true)], documentAt: "cities/sf/parks/a", under: "cities/sf"))
  }

  @Test("no selectors read the parent's direct collections whatever their IDs; a collection path reads nothing")
  func edges() {
    #expect(StructuredQuery.reads([], documentAt: "cities/sf/parks/a", under: "cities/sf"))
    #expect(!StructuredQuery.reads([], documentAt: "cities/sf/parks/a/trees/t", under: "cities/sf"))
    #expect(!StructuredQuery.reads([Selector(collectionID: "cities")], documentAt: "cities", under: ""))
    #expect(!StructuredQuery.reads([Selector(collectionID: "parks")], documentAt: "cities/sf/parks", under: "cities/sf"))
    // Segments split at "/" bytes, also where a combining mark follows the slash.
    #expect(StructuredQuery.reads([Selector(collectionID: "c")], documentAt: "c/\u{301}d", under: ""))
    #expect(StructuredQuery.reads([Selector(collectionID: "c", allDescendants: true)], documentAt: "p/\u{301}q/c/d", under: "p/\u{301}q"))
  }
}
