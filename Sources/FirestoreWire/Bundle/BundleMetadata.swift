/// The first element of a bundle (`google.firestore.bundle.BundleMetadata`): what the
/// bundle is and how much follows it.
public struct BundleMetadata: Sendable, Equatable {
  /// The bundle's ID; a cache that loaded a bundle with this ID and a later or equal
  /// ``createTime`` skips it.
  public var id: String
  /// When the bundle's data was read (the latest read time of its contents).
  public var createTime: Timestamp
  /// The format version (1).
  public var version: UInt32
  /// How many documents (existing or not) the bundle describes.
  public var totalDocuments: UInt32
  /// The bytes of the bundle after this element, length prefixes included.
  public var totalBytes: UInt64

  /// Creates metadata.
  public init(id: String, createTime: Timestamp, version: UInt32 = 1, totalDocuments: UInt32, totalBytes: UInt64) {
    self.id = id
    self.createTime = createTime
    self.version = version
    self.totalDocuments = totalDocuments
    self.totalBytes = totalBytes
  }

  /// The JSON form.
  public var json: JSONValue {
    .object([
      ("id", .string(id)), ("createTime", .string(createTime.rfc3339)), ("version", .integer(Int64(version))),
      ("totalDocuments", .integer(Int64(totalDocuments))), ("totalBytes", .string(String(totalBytes))),
    ])
  }

  /// Reads the JSON form.
  public init(json: JSONValue) throws {
    try json.requireObject("bundle metadata")
    id = try json.requiredString("id")
    createTime = try BundleJSON.timestamp(json, "createTime")
    version = try BundleJSON.unsigned(json, "version", default: 1)
    totalDocuments = try BundleJSON.unsigned(json, "totalDocuments", default: 0)
    totalBytes = try BundleJSON.unsigned(json, "totalBytes", default: 0)
  }
}
