import FirestoreWire
import Foundation

/// The Swift `Encoder` behind ``Firestore/Encoder``: builds the `[String: any Sendable]`
/// tree that `setData` accepts.
///
/// Values Firestore stores natively (`Data`, ``Timestamp``, ``GeoPoint``, ``VectorValue``,
/// ``DocumentReference``, ``FieldValue``) are recognised by their concrete type before their
/// own `encode(to:)` would run, so they stay as they are instead of turning into numbers,
/// byte arrays or maps (unless a data strategy says otherwise); a `Date` becomes its
/// ``Timestamp`` unless a date strategy says otherwise. Integers become `Int`; `Float`
/// becomes `Double`; a `URL` becomes its absolute string.
final class ValueEncoder: Encoder {
  /// A value being built. Maps and arrays are boxes (classes) so a container handed out
  /// earlier keeps filling the same storage after it was attached to its parent.
  enum Node {
    case value(any Sendable)
    case map(MapBox)
    case array(ArrayBox)

    /// The finished value: boxes turned into `[String: any Sendable]` and `[any Sendable]`.
    var finished: any Sendable {
      switch self {
      case .value(let value): return value
      case .map(let box): return box.finished
      case .array(let box): return box.items.map(\.finished) as [any Sendable]
      }
    }
  }

  /// The fields of a map being built.
  final class MapBox {
    var entries: [String: Node] = [:]

    var finished: [String: any Sendable] { entries.mapValues(\.finished) }
  }

  /// The elements of an array being built.
  final class ArrayBox {
    var items: [Node] = []
  }

  /// The settings of the ``Firestore/Encoder`` that started the encoding.
  struct Options: Sendable {
    var encodesNilAsNull = false
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var dateStrategy = Firestore.Encoder.DateEncodingStrategy.timestamp
    var dataStrategy = Firestore.Encoder.DataEncodingStrategy.blob
    var floatStrategy = Firestore.Encoder.NonConformingFloatEncodingStrategy.throw
    var keyStrategy = Firestore.Encoder.KeyEncodingStrategy.useDefaultKeys
  }

  let options: Options
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }
  /// Whether the key strategy applies to this value's keys: not for a `[String: …]`
  /// dictionary, whose keys are data rather than property names.
  let convertsKeys: Bool

  /// What was encoded here, once something was.
  private(set) var node: Node? {
    didSet { if let node { sink?(node) } }
  }
  /// Where a `superEncoder` delivers its value in the parent container.
  private let sink: ((Node) -> Void)?

  init(options: Options, codingPath: [any CodingKey], convertsKeys: Bool = true, sink: ((Node) -> Void)? = nil) {
    self.options = options
    self.codingPath = codingPath
    self.convertsKeys = convertsKeys
    self.sink = sink
  }

  /// The field name for `key`, in a container at `path`, as the key strategy says.
  func fieldName(_ key: some CodingKey, in path: [any CodingKey]) -> String {
    guard convertsKeys else { return key.stringValue }
    switch options.keyStrategy {
    case .useDefaultKeys: return key.stringValue
    case .convertToSnakeCase: return SnakeCase.fromCamelCase(key.stringValue)
    case .custom(let convert): return convert(path + [key]).stringValue
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let box: MapBox
    if case .map(let existing)? = node {
      box = existing
    } else {
      box = MapBox()
      node = .map(box)
    }
    return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, map: box, codingPath: codingPath))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let box: ArrayBox
    if case .array(let existing)? = node {
      box = existing
    } else {
      box = ArrayBox()
      node = .array(box)
    }
    return UnkeyedContainer(encoder: self, array: box, codingPath: codingPath)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self)
  }

  /// Encodes `value` found at `path`.
  func encodeNode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node {
    if let node = try strategyNode(value, at: path) { return node }
    if let stored = try Self.stored(value, at: path) { return .value(stored) }
    return try encodeThroughOwnMethod(value, at: path)
  }

  /// Runs `value`'s own `encode(to:)`.
  private func encodeThroughOwnMethod<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node {
    let encoder = ValueEncoder(options: options, codingPath: path, convertsKeys: !(value is any StringKeyedDictionary))
    try value.encode(to: encoder)
    // A value that encoded nothing at all (an empty struct may) is an empty map, as in JSON.
    return encoder.node ?? .map(MapBox())
  }

  /// Runs a strategy's closure on a fresh encoder at `path`.
  private func encodeWithClosure(at path: [any CodingKey], _ body: (ValueEncoder) throws -> Void) throws -> Node {
    let encoder = ValueEncoder(options: options, codingPath: path)
    try body(encoder)
    return encoder.node ?? .map(MapBox())
  }

  /// `value` as a strategy stores it: a `Date`, `Data`, or a number that is not finite;
  /// `nil` for anything else (and for the strategies that store these natively).
  private func strategyNode<T: Encodable>(_ value: T, at path: [any CodingKey]) throws -> Node? {
    switch value {
    case let date as Date:
      switch options.dateStrategy {
      // As the Apple SDK's encoder: the document data holds the `Timestamp` that is stored.
      case .timestamp: return .value(Timestamp(date: date))
      case .deferredToDate: return try encodeThroughOwnMethod(date, at: path)
      case .secondsSince1970: return .value(date.timeIntervalSince1970)
      case .millisecondsSince1970: return .value(date.timeIntervalSince1970 * 1000)
      case .iso8601: return .value(ISO8601DateFormatter().string(from: date))
      case .formatted(let formatter): return .value(formatter.string(from: date))
      case .custom(let encode): return try encodeWithClosure(at: path) { try encode(date, $0) }
      }
    case let data as Data:
      switch options.dataStrategy {
      case .blob: return nil
      case .base64: return .value(data.base64EncodedString())
      case .deferredToData: return try encodeThroughOwnMethod(data, at: path)
      case .custom(let encode): return try encodeWithClosure(at: path) { try encode(data, $0) }
      }
    case let number as Double where !number.isFinite:
      return .value(try nonConforming(number, at: path))
    case let number as Float where !number.isFinite:
      return .value(try nonConforming(Double(number), at: path))
    default:
      return nil
    }
  }

  /// An infinite or NaN number as ``Firestore/Encoder/NonConformingFloatEncodingStrategy`` says.
  private func nonConforming(_ number: Double, at path: [any CodingKey]) throws -> String {
    guard case .convertToString(let positiveInfinity, let negativeInfinity, let nan) = options.floatStrategy else {
      throw EncodingError.invalidValue(
        number,
        CodingProblem.encodingContext(
          path, "has the non-finite number \(number), which nonConformingFloatEncodingStrategy .throw refuses"))
    }
    if number.isNaN { return nan }
    return number > 0 ? positiveInfinity : negativeInfinity
  }

  /// `value` as Firestore stores it, when it is a number, string, bool or one of the
  /// types Firestore stores natively; `nil` when it must be encoded through `encode(to:)`.
  static func stored(_ value: some Encodable, at path: [any CodingKey]) throws -> (any Sendable)? {
    switch value {
    case let v as Bool: return v
    case let v as String: return v
    case let v as Int: return v
    case let v as Int8: return Int(v)
    case let v as Int16: return Int(v)
    case let v as Int32: return Int(v)
    case let v as Int64: return integer(v)
    case let v as UInt8: return Int(v)
    case let v as UInt16: return Int(v)
    case let v as UInt32: return integer(Int64(v))
    case let v as UInt: return try integer(v, at: path)
    case let v as UInt64: return try integer(v, at: path)
    case let v as Double: return v
    // Exact conversion: decoding the Double back as Float gives the same Float.
    case let v as Float: return Double(v)
    case let v as Data: return v
    case let v as Timestamp: return v
    case let v as GeoPoint: return v
    case let v as VectorValue: return v
    case let v as DocumentReference: return v
    case let v as FieldValue: return v
    // As in JSONEncoder: a URL's own encode(to:) would give a map of its parts.
    case let v as URL: return v.absoluteString
    default: return nil
    }
  }

  private static func integer(_ value: Int64) -> any Sendable {
    Int(exactly: value).map { $0 as any Sendable } ?? value
  }

  private static func integer(_ value: some UnsignedInteger, at path: [any CodingKey]) throws -> any Sendable {
    guard let signed = Int64(exactly: value) else {
      throw EncodingError.invalidValue(
        value, CodingProblem.encodingContext(path, "has integer \(value), which does not fit in a 64-bit signed integer"))
    }
    return integer(signed)
  }
}

extension ValueEncoder {
  /// Encodes a value only this encoder can store as it is (a reference, a sentinel); any
  /// other encoder gets ``FirestoreEncodingError/encodingIsNotSupported(_:)`` naming `what`
  /// and the field.
  static func encodeKept(_ value: some Encodable, named what: String, to encoder: any Encoder) throws {
    guard encoder is ValueEncoder else {
      throw FirestoreEncodingError.encodingIsNotSupported(
        "\(what) at \(CodingPath.field(encoder.codingPath)) can only be encoded by Firestore.Encoder")
    }
    // This encoder keeps such a value as it is before calling encode(to:), so this does not recurse.
    var container = encoder.singleValueContainer()
    try container.encode(value)
  }
}

extension ValueEncoder {
  /// Fills a map. `nil` optionals are left out unless `encodesNilAsNull` is set.
  struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: ValueEncoder
    let map: MapBox
    let codingPath: [any CodingKey]

    private func put<T: Encodable>(_ value: T, _ key: Key) throws {
      // A @DocumentID comes from the document's reference when read, so it is never a field.
      if value is any DocumentIDMarker { return }
      map.entries[encoder.fieldName(key, in: codingPath)] = try encoder.encodeNode(value, at: codingPath + [key])
    }

    // Synthesized `encode(to:)` calls encodeIfPresent for optionals, whose default skips
    // `nil` without ever calling encodeNil; these overloads honour `encodesNilAsNull`.
    private func putIfPresent<T: Encodable>(_ value: T?, _ key: Key) throws {
      if let value {
        try put(value, key)
      } else if encoder.options.encodesNilAsNull {
        map.entries[encoder.fieldName(key, in: codingPath)] = .value(NSNull())
      }
    }

    mutating func encodeNil(forKey key: Key) throws { map.entries[encoder.fieldName(key, in: codingPath)] = .value(NSNull()) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(value, key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(value, key) }

    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try putIfPresent(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try putIfPresent(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
      let nested = MapBox()
      map.entries[encoder.fieldName(key, in: codingPath)] = .map(nested)
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, map: nested, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      let nested = ArrayBox()
      map.entries[encoder.fieldName(key, in: codingPath)] = .array(nested)
      return UnkeyedContainer(encoder: encoder, array: nested, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: CodingPath.NameKey("super")) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key) }

    private func superEncoder(named key: any CodingKey) -> any Encoder {
      let map = map
      let name = encoder.fieldName(key, in: codingPath)
      return ValueEncoder(options: encoder.options, codingPath: codingPath + [key]) { map.entries[name] = $0 }
    }
  }

  /// Fills an array.
  struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: ValueEncoder
    let array: ArrayBox
    let codingPath: [any CodingKey]

    var count: Int { array.items.count }

    private var nextPath: [any CodingKey] { codingPath + [CodingPath.IndexKey(count)] }

    private func append<T: Encodable>(_ value: T) throws {
      array.items.append(try encoder.encodeNode(value, at: nextPath))
    }

    mutating func encodeNil() throws { array.items.append(.value(NSNull())) }
    mutating func encode<T: Encodable>(_ value: T) throws { try append(value) }
    mutating func encode(_ value: Bool) throws { try append(value) }
    mutating func encode(_ value: String) throws { try append(value) }
    mutating func encode(_ value: Double) throws { try append(value) }
    mutating func encode(_ value: Float) throws { try append(value) }
    mutating func encode(_ value: Int) throws { try append(value) }
    mutating func encode(_ value: Int8) throws { try append(value) }
    mutating func encode(_ value: Int16) throws { try append(value) }
    mutating func encode(_ value: Int32) throws { try append(value) }
    mutating func encode(_ value: Int64) throws { try append(value) }
    mutating func encode(_ value: UInt) throws { try append(value) }
    mutating func encode(_ value: UInt8) throws { try append(value) }
    mutating func encode(_ value: UInt16) throws { try append(value) }
    mutating func encode(_ value: UInt32) throws { try append(value) }
    mutating func encode(_ value: UInt64) throws { try append(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
      let path = nextPath
      let nested = MapBox()
      array.items.append(.map(nested))
      return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: encoder, map: nested, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
      let path = nextPath
      let nested = ArrayBox()
      array.items.append(.array(nested))
      return UnkeyedContainer(encoder: encoder, array: nested, codingPath: path)
    }

    mutating func superEncoder() -> any Encoder {
      // Reserve the slot now so later elements keep their positions.
      let path = nextPath
      let index = array.items.count
      let array = array
      array.items.append(.value(NSNull()))
      return ValueEncoder(options: encoder.options, codingPath: path) { array.items[index] = $0 }
    }
  }

  /// Sets the encoder's one value.
  struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: ValueEncoder

    var codingPath: [any CodingKey] { encoder.codingPath }

    private func set<T: Encodable>(_ value: T) throws {
      encoder.node = try encoder.encodeNode(value, at: codingPath)
    }

    mutating func encodeNil() throws { encoder.node = .value(NSNull()) }
    mutating func encode<T: Encodable>(_ value: T) throws { try set(value) }
    mutating func encode(_ value: Bool) throws { try set(value) }
    mutating func encode(_ value: String) throws { try set(value) }
    mutating func encode(_ value: Double) throws { try set(value) }
    mutating func encode(_ value: Float) throws { try set(value) }
    mutating func encode(_ value: Int) throws { try set(value) }
    mutating func encode(_ value: Int8) throws { try set(value) }
    mutating func encode(_ value: Int16) throws { try set(value) }
    mutating func encode(_ value: Int32) throws { try set(value) }
    mutating func encode(_ value: Int64) throws { try set(value) }
    mutating func encode(_ value: UInt) throws { try set(value) }
    mutating func encode(_ value: UInt8) throws { try set(value) }
    mutating func encode(_ value: UInt16) throws { try set(value) }
    mutating func encode(_ value: UInt32) throws { try set(value) }
    mutating func encode(_ value: UInt64) throws { try set(value) }
  }
}
