/// Helpers for coding paths: the keys used by ``Firestore/Encoder`` and ``Firestore/Decoder``,
/// and the text that names a path in error messages.
enum CodingPath {
  /// `address.zip`, `tags[2]`, `rooms[0].name`; empty for the document itself.
  static func describe(_ path: [any CodingKey]) -> String {
    var text = ""
    for key in path {
      // Only array positions get brackets; an Int-keyed dictionary's key is a field name.
      if key is IndexKey, let index = key.intValue {
        text += "[\(index)]"
      } else {
        if !text.isEmpty { text += "." }
        text += key.stringValue
      }
    }
    return text
  }

  /// `field "address.zip"`, or `document` for the empty path.
  static func field(_ path: [any CodingKey]) -> String {
    path.isEmpty ? "document" : "field \"\(describe(path))\""
  }

  /// The key of an element of an array.
  struct IndexKey: CodingKey {
    let index: Int

    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }

    var stringValue: String { "[\(index)]" }
    var intValue: Int? { index }
  }

  /// A key given by name, such as `super`.
  struct NameKey: CodingKey {
    let stringValue: String

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }

    var intValue: Int? { nil }
  }
}
