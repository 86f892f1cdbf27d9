/// One element of a Firestore bundle (`google.firestore.bundle.BundleElement`).
///
/// A bundle is a sequence of elements, each the decimal byte length of its JSON followed
/// by the JSON: first the ``BundleMetadata``, then the named queries, then for each
/// document its ``BundledDocumentMetadata`` and, when it exists, the ``Document``.
public enum BundleElement: Sendable, Equatable {
  /// The bundle's metadata (always first).
  case metadata(BundleMetadata)
  /// A named query.
  case namedQuery(NamedQuery)
  /// A document's metadata.
  case documentMetadata(BundledDocumentMetadata)
  /// A document's data, after its metadata.
  case document(Document)

  /// The JSON form: an object with one member naming the kind.
  public var json: JSONValue {
    switch self {
    case .metadata(let m): return .object([("metadata", m.json)])
    case .namedQuery(let q): return .object([("namedQuery", q.json)])
    case .documentMetadata(let m): return .object([("documentMetadata", m.json)])
    case .document(let d): return .object([("document", d.json)])
    }
  }

  /// Reads the JSON form.
  public init(json: JSONValue) throws {
    guard case .object(let members) = json, members.count == 1, let (kind, payload) = members.first else {
      throw WireFormatError("a bundle element must be a JSON object with exactly one member, got \(JSONWriter.string(json).prefix(80))")
    }
    switch kind {
    case "metadata": self = .metadata(try BundleMetadata(json: payload))
    case "namedQuery": self = .namedQuery(try NamedQuery(json: payload))
    case "documentMetadata": self = .documentMetadata(try BundledDocumentMetadata(json: payload))
    case "document": self = .document(try BundleJSON.document(payload))
    default: throw WireFormatError("unknown bundle element \"\(kind)\"")
    }
  }

  /// The element as it is stored in a bundle: its JSON's byte length in decimal, then the JSON.
  public var lengthPrefixed: [UInt8] {
    var body: [UInt8] = []
    JSONWriter.write(json, into: &body)
    return Array(String(body.count).utf8) + body
  }
}
