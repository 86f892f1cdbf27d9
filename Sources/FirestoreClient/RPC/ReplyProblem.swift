import Foundation

/// What is wrong with a 2xx reply whose body is not the JSON expected, as a code and a
/// message that names the problem (see ``RESTClient/malformedReply(_:_:start:size:cutShort:detail:)``).
struct ReplyProblem {
  /// How many bytes of the body the message may quote.
  static let excerptBytes = 120

  /// The HTTP status.
  var status: Int
  /// The `Content-Type` header, if any.
  var contentType: String?
  /// The first bytes of the body (at most ``excerptBytes`` are quoted).
  var start: [UInt8]
  /// The body's size in bytes, as far as it was read.
  var size: Int
  /// The body breaks off inside a JSON value.
  var cutShort: Bool
  /// The parser's or splitter's account of the problem, if any.
  var detail: String?

  /// Whether the reply is incomplete rather than wrong.
  private var isIncomplete: Bool { size > 0 && cutShort && !hasForeignContentType }

  /// A content type that is present and is not JSON: the body is someone else's reply.
  private var hasForeignContentType: Bool {
    guard let mediaType = Self.mediaType(contentType) else { return false }
    return !(mediaType == "application/json" || mediaType == "text/json" || mediaType.hasSuffix("+json"))
  }

  /// `unavailable` for a reply that did not arrive whole, `internal` for one that is not
  /// Firestore's JSON.
  var code: FirestoreError.Code { isIncomplete ? .unavailable : .internal }

  /// The message: what the body is, the status and content type, and its start.
  var message: String {
    let type = contentType ?? "no Content-Type"
    if size == 0 { return "the server sent an empty body (HTTP \(status), \(type)) where a JSON reply was expected" }
    if hasForeignContentType, let mediaType = Self.mediaType(contentType) {
      return "the server sent \(mediaType) (HTTP \(status)) where a JSON reply was expected; it starts: \(excerpt)"
    }
    if isIncomplete {
      return "the JSON reply is cut short: it ends after \(size) bytes, inside a value (HTTP \(status)); it starts: \(excerpt)"
    }
    // The wire decoder also rejects valid JSON of the wrong shape (a missing name, an
    // object where an array belongs): that is not a JSON syntax problem.
    let syntax = detail.map { $0.hasPrefix("invalid JSON") } ?? true
    let what = syntax ? "not valid JSON" : "not the JSON Firestore sends here"
    return "the reply is \(what) (HTTP \(status), \(type)): \(detail ?? "it does not parse"); it starts: \(excerpt)"
  }

  /// The start of the body as one line of text.
  private var excerpt: String {
    let text = String(decoding: start.prefix(Self.excerptBytes), as: UTF8.self)
    let line = String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    return start.count > Self.excerptBytes || size > start.count ? line + "…" : line
  }

  /// The media type of a `Content-Type` value, lower-cased, without parameters.
  private static func mediaType(_ contentType: String?) -> String? {
    guard let contentType else { return nil }
    let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
    let trimmed = mediaType.trimmingCharacters(in: .whitespaces).lowercased()
    return trimmed.isEmpty ? nil : trimmed
  }

  /// The readable text of an error body that is an HTML page (a proxy's or load balancer's),
  /// by its `Content-Type` or its opening, with tags, style sheets, scripts and extra white
  /// space removed, at most 300 characters; `nil` for anything else.
  static func htmlPage(_ body: some Collection<UInt8>, contentType: String?) -> String? {
    let text = String(decoding: body.prefix(64 << 10), as: UTF8.self)
    // By its type, or by its looks whatever the type says (a proxy may keep the upstream's).
    let opening = text.drop { $0.isWhitespace }.prefix(15).lowercased()
    let looksLikeHTML = opening.hasPrefix("<!doctype html") || opening.hasPrefix("<html")
    guard Self.mediaType(contentType) == "text/html" || looksLikeHTML else { return nil }
    // Tags go, and so do style sheets and scripts (Google's own error pages start with one).
    var plain = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "<") {
      plain += rest[..<open] + " "
      let tag = rest[open...]
      let skipped = ["style", "script"].first { tag.dropFirst().prefix(6).lowercased().hasPrefix($0) }
      if let skipped, let close = tag.range(of: "</" + skipped, options: .caseInsensitive) {
        rest = tag[close.upperBound...]
      }
      guard let end = rest.firstIndex(of: ">") else {
        rest = ""
        break
      }
      rest = rest[rest.index(after: end)...]
    }
    plain += rest
    let words = plain.split(whereSeparator: { $0.isWhitespace })
    let joined = words.joined(separator: " ")
    guard !joined.isEmpty else { return "(no text)" }
    return joined.count > 300 ? String(joined.prefix(300)) + "…" : joined
  }
}
