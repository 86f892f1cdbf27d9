import FirestoreWire
import Foundation

/// Where ended listens could resume, by what they watched: a new listen of the same query
/// or documents sends the token, and the server sends only what changed since (as the
/// SDKs' target cache lets a re-listen resume), instead of every result again.
///
/// Only names and versions are kept: the documents themselves are read from the cache when
/// the listen resumes, and a listen whose documents the cache let go, or holds older than
/// the listen had them, starts from scratch (the server would not send them again). The
/// most recently ended ``limit`` listens are remembered.
struct ResumePoints {
  /// A listen's resume token and the update time of each document it held at the token's
  /// consistent point.
  struct Point {
    var token: Data
    var versions: [String: Timestamp]
  }

  /// The most listens remembered; past it, the one that ended first is forgotten.
  static let limit = 100

  private var points: [String: (point: Point, order: UInt64)] = [:]
  private var clock: UInt64 = 0

  /// Remembers where a listen of `kind` that just ended could resume.
  mutating func insert(_ point: Point, for kind: Target.Kind) {
    clock += 1
    points[Self.key(kind)] = (point, clock)
    guard points.count > Self.limit, let oldest = points.min(by: { $0.value.order < $1.value.order }) else { return }
    points[oldest.key] = nil
  }

  /// Takes the resume point of `kind`, if one is remembered: one listen resumes from it.
  mutating func take(for kind: Target.Kind) -> Point? {
    points.removeValue(forKey: Self.key(kind))?.point
  }

  /// `kind` as a string that two listens of the same documents share.
  private static func key(_ kind: Target.Kind) -> String {
    switch kind {
    case .query(let parent, let query): return query.key(under: parent)
    case .documents(let names): return names.joined(separator: "\n")
    }
  }
}
