import FirestoreClient
import FirestoreWire
import Foundation

/// The article documents of the `bulk` scenario; `Benchmarks/peer/bulk_writer.py` builds
/// the same ones, so both clients send the same bytes' worth.
enum BulkArticles {
  static let words = [
    "lorem", "ipsum", "dolor", "sit", "amet", "swift", "linux", "firestore", "query", "snapshot", "listener", "document",
    "collection", "index", "latency", "bulk",
  ]
  static let categories = ["tech", "science", "sports", "culture", "business"]
  static let tags = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]
  /// 2024-01-01T00:00:00Z.
  static let baseSeconds: Int64 = 1_704_067_200

  /// `length` characters of words picked by a fixed rule from `seed`.
  static func text(_ seed: Int, _ length: Int) -> String {
    var out = ""
    var count = 0  // all ASCII: characters are bytes, counted without rescanning
    var k = 0
    while count < length {
      if count > 0 {
        out += " "
        count += 1
      }
      let word = words[(seed * 31 + k * 7 + k / 16) % words.count]
      out += word
      count += word.utf8.count
      k += 1
    }
    return String(out.utf8.prefix(length))!
  }

  /// The fields of article `i`.
  static func article(_ i: Int) -> [String: any Sendable] {
    [
      "title": String(format: "Article %05d: ", i) + text(i, 26),
      "content": text(i + 1, 2048),
      "category": categories[i % categories.count],
      "publishedAt": Timestamp(seconds: baseSeconds + Int64(i) * 37 * 60, nanoseconds: 0),
      "views": (i * 7919) % 1_000_000,
      "tags": [tags[i % 8], tags[(i + 3) % 8], tags[(i + 5) % 8]],
    ]
  }
}
