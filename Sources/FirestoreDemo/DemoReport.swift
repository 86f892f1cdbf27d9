/// What ``DemoRunner/run(output:)`` measured: the cost of walking the article feed with
/// ``ArticleFeed`` beside the naive one-get-per-article approach on the same walk, and
/// what the other scenarios observed.
public struct DemoReport: Sendable {
  /// How many articles the walk visited.
  public var articlesWalked: Int
  /// The batch size of the feed.
  public var batchSize: Int
  /// The cost with ``ArticleFeed``: one ID-only query, one `:batchGet` per batch.
  public var feed: ApproachCost
  /// The cost of the naive approach on the same walk: one full query, one `get` per article.
  public var onePerArticle: ApproachCost
  /// Articles reported missing (deleted between the ID read and the batch read).
  public var missingArticles = 0
  /// The profile states observed, in order (`loading`, `loading(cached)`, `loaded`, `failed`).
  public var profileStates: [String] = []
  /// How many versions of the live favorites list arrived.
  public var favoritesUpdates = 0

  /// Round trips of the naive approach per round trip of ours (0 when ours made none).
  public var roundTripRatio: Double {
    feed.roundTrips == 0 ? 0 : Double(onePerArticle.roundTrips) / Double(feed.roundTrips)
  }

  /// The cost table, one line per approach, ready to print.
  public var summary: String {
    func row(_ name: String, _ cost: ApproachCost) -> String {
      name.padding(toLength: 30, withPad: " ", startingAt: 0) + pad(cost.roundTrips, 12) + pad(cost.documentsRead, 16)
        + pad(cost.bytesReceived, 16)
    }
    let ratio = (roundTripRatio * 10).rounded() / 10
    return [
      "walk of \(articlesWalked) articles, batches of \(batchSize)",
      "approach".padding(toLength: 30, withPad: " ", startingAt: 0) + pad("round trips", 12) + pad("documents read", 16)
        + pad("bytes received", 16),
      row("ArticleFeed (IDs + batchGet)", feed),
      row("one get per article", onePerArticle),
      "\(ratio)x fewer round trips",
    ].joined(separator: "\n")
  }

  private func pad(_ value: some CustomStringConvertible, _ width: Int) -> String {
    let text = "\(value)"
    return String(repeating: " ", count: max(1, width - text.count)) + text
  }
}
