import FirestoreWire
import Foundation

/// The Swift `Decoder` behind ``Firestore/Decoder``: reads the tree that
/// ``DocumentSnapshot/data()`` produces.
///
/// Native Firestore values are recognised by the requested type before its own
/// `init(from:)` would run: `Date` and ``Timestamp`` read a timestamp (or what the date
/// strategy says), `Data` reads bytes (or what the data strategy says), and ``GeoPoint``,
/// ``VectorValue`` and ``DocumentReference`` read themselves. Numbers convert when the value
/// fits exactly (a `Double` becomes an integer only when it is whole); an `NSNumber` is read
/// as the boolean, integer or double it holds, so a boolean never decodes as `1` nor `1` as
/// `true`.
///
/// Problems are thrown as Swift `DecodingError`s carrying a ``CodingProblem``, so Codable
/// code that catches them keeps working; ``Firestore/Decoder`` turns them into
/// ``FirestoreError``s at the end.
final class ValueDecoder: Decoder {
  /// The settings of the ``Firestore/Decoder`` that started the decoding.
  struct Options: Sendable {
    /// The document being decoded, for `@DocumentID`.
    var reference: DocumentReference?
    var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    var dateStrategy = Firestore.Decoder.DateDecodingStrategy.timestamp
    var dataStrategy = Firestore.Decoder.DataDecodingStrategy.blob
    var floatStrategy = Firestore.Decoder.NonConformingFloatDecodingStrategy.throw
    var keyStrategy = Firestore.Decoder.KeyDecodingStrategy.useDefaultKeys
  }

  /// The value at ``codingPath``.
  let value: any Sendable
  let codingPath: [any CodingKey]
  let options: Options
  /// The type being decoded here, for messages; `nil` when not known.
  let typeName: String?
  /// Whether the key strategy applies to this map's keys: not for a `[String: …]`
  /// dictionary, whose keys are data rather than property names.
  let convertsKeys: Bool

  var userInfo: [CodingUserInfoKey: Any] { options.userInfo }

  init(value: any Sendable, codingPath: [any CodingKey], options: Options, typeName: String? = nil, convertsKeys: Bool = true) {
    self.value = value
    self.codingPath = codingPath
    self.options = options
    self.typeName = typeName
    self.convertsKeys = convertsKeys
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    guard var map = value as? [String: any Sendable] else {
      throw mismatch([String: any Sendable].self, expected: typeName.map { "\($0) (a map)" } ?? "a map")
    }
    if convertsKeys { map = propertyKeyed(map) }
    return KeyedDecodingContainer(KeyedContainer<Key>(decoder: self, map: map, codingPath: codingPath))
  }

  /// The map with each field name turned into the property name the key strategy gives it.
  private func propertyKeyed(_ map: [String: any Sendable]) -> [String: any Sendable] {
    switch options.keyStrategy {
    case .useDefaultKeys:
      return map
    case .convertFromSnakeCase:
      return Dictionary(map.map { (SnakeCase.toCamelCase($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
    case .custom(let convert):
      return Dictionary(
        map.map { (convert(codingPath + [CodingPath.NameKey($0.key)]).stringValue, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    guard let array = value as? [any Sendable] else {
      throw mismatch([any Sendable].self, expected: typeName.map { "\($0) (an array)" } ?? "an array")
    }
    return UnkeyedContainer(decoder: self, array: array, codingPath: codingPath)
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(decoder: self)
  }

  private func mismatch(_ type: Any.Type, expected: String) -> DecodingError {
    Self.mismatch(type, value, at: codingPath, expected: expected)
  }

  // MARK: Values

  /// Decodes a `T` from `value`, found at `path`.
  func decode<T: Decodable>(_ type: T.Type, from value: any Sendable, at path: [any CodingKey]) throws -> T {
    if T.self == Date.self {
      return try date(from: value, at: path) as! T
    }
    if T.self == Data.self {
      return try data(from: value, at: path) as! T
    }
    if T.self == Timestamp.self || T.self == GeoPoint.self || T.self == VectorValue.self || T.self == DocumentReference.self
      || T.self == URL.self
    {
      return try Self.native(T.self, from: value, at: path)
    }
    return try T(
      from: ValueDecoder(
        value: value, codingPath: path, options: options, typeName: "\(T.self)",
        convertsKeys: !(T.self is any StringKeyedDictionary.Type)))
  }

  /// A `Date` as the date strategy reads it.
  private func date(from value: any Sendable, at path: [any CodingKey]) throws -> Date {
    let value = NumberBridge.native(value)
    switch options.dateStrategy {
    case .timestamp:
      return try Self.native(Date.self, from: value, at: path)
    case .deferredToDate:
      return try Date(from: ValueDecoder(value: value, codingPath: path, options: options, typeName: "Date"))
    case .secondsSince1970:
      return Date(timeIntervalSince1970: try Self.float(Double.self, value, at: path, strategy: options.floatStrategy))
    case .millisecondsSince1970:
      return Date(timeIntervalSince1970: try Self.float(Double.self, value, at: path, strategy: options.floatStrategy) / 1000)
    case .iso8601:
      let text = try Self.string(value, at: path)
      guard let date = ISO8601DateFormatter().date(from: text) else {
        throw Self.mismatch(Date.self, value, at: path, because: "which is not an ISO 8601 date")
      }
      return date
    case .formatted(let formatter):
      let text = try Self.string(value, at: path)
      guard let date = formatter.date(from: text) else {
        throw Self.mismatch(Date.self, value, at: path, because: "which does not match the date format")
      }
      return date
    case .custom(let decode):
      return try decode(ValueDecoder(value: value, codingPath: path, options: options, typeName: "Date"))
    }
  }

  /// `Data` as the data strategy reads it.
  private func data(from value: any Sendable, at path: [any CodingKey]) throws -> Data {
    switch options.dataStrategy {
    case .blob:
      return try Self.native(Data.self, from: value, at: path)
    case .base64:
      let text = try Self.string(value, at: path)
      guard let data = Data(base64Encoded: text) else {
        throw Self.mismatch(Data.self, value, at: path, because: "which is not Base64")
      }
      return data
    case .deferredToData:
      return try Data(from: ValueDecoder(value: value, codingPath: path, options: options, typeName: "Data"))
    case .custom(let decode):
      return try decode(ValueDecoder(value: value, codingPath: path, options: options, typeName: "Data"))
    }
  }

  /// A value Firestore stores natively, which must not go through its own `init(from:)`.
  private static func native<T>(_ type: T.Type, from value: any Sendable, at path: [any CodingKey]) throws -> T {
    let result: Any?
    if T.self == Date.self {
      result = (value as? Timestamp)?.dateValue() ?? (value as? Date)
    } else if T.self == Timestamp.self {
      result = (value as? Timestamp) ?? (value as? Date).map(Timestamp.init(date:))
    } else if T.self == URL.self, let string = value as? String {
      // Stored as its absolute string by Firestore.Encoder (URL's own Codable form is a map).
      guard let url = URL(string: string) else { throw mismatch(URL.self, value, at: path, because: "which is not a valid URL") }
      result = url
    } else {
      result = value as? T
    }
    guard let typed = result as? T else { throw mismatch(T.self, value, at: path) }
    return typed
  }

  static func bool(_ value: any Sendable, at path: [any CodingKey]) throws -> Bool {
    let value = NumberBridge.native(value)
    // A Swift Bool only: `as? Bool` would also take an `NSNumber` 1.
    guard type(of: value) == Bool.self, let b = value as? Bool else { throw mismatch(Bool.self, value, at: path) }
    return b
  }

  static func string(_ value: any Sendable, at path: [any CodingKey]) throws -> String {
    guard let s = value as? String else { throw mismatch(String.self, value, at: path) }
    return s
  }

  /// An integer of type `I`: from an integer in range, or from a whole `Double` in range.
  static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: any Sendable, at path: [any CodingKey]) throws -> I {
    let value = NumberBridge.native(value)
    switch value {
    case let i as any BinaryInteger:
      if let result = I(exactly: i) { return result }
      throw mismatch(I.self, value, at: path, because: "which is out of range")
    case let d as any BinaryFloatingPoint:
      let double = Double(d)
      if let result = I(exactly: double) { return result }
      let reason = double.isFinite && double == double.rounded() ? "which is out of range" : "which is not a whole number"
      throw mismatch(I.self, value, at: path, because: reason)
    default:
      throw mismatch(I.self, value, at: path)
    }
  }

  /// A floating-point number of type `F`, from any number whose magnitude `F` can hold, or
  /// from a string the non-conforming float strategy names.
  static func float<F: BinaryFloatingPoint>(
    _ type: F.Type, _ value: any Sendable, at path: [any CodingKey], strategy: Firestore.Decoder.NonConformingFloatDecodingStrategy
  ) throws -> F {
    let value = NumberBridge.native(value)
    if case .convertFromString(let positiveInfinity, let negativeInfinity, let nan) = strategy, let text = value as? String {
      switch text {
      case positiveInfinity: return .infinity
      case negativeInfinity: return -.infinity
      case nan: return .nan
      default: break
      }
    }
    switch value {
    case let i as any BinaryInteger:
      return F(i)
    case let d as any BinaryFloatingPoint:
      let result = F(d)
      // Precision may go (as with any Double to Float); magnitude must not.
      if result.isFinite || !Double(d).isFinite { return result }
      throw mismatch(F.self, value, at: path, because: "which is out of range")
    default:
      throw mismatch(F.self, value, at: path)
    }
  }

  // MARK: Errors

  /// The error for finding `value` where a `type` was expected: `valueNotFound` for null.
  static func mismatch(
    _ type: Any.Type, _ value: any Sendable, at path: [any CodingKey], expected: String? = nil, because reason: String? = nil
  ) -> DecodingError {
    var phrase = "expected \(expected ?? "\(type)") but found \(describe(value))"
    if let reason { phrase += ", \(reason)" }
    if value is NSNull { return .valueNotFound(type, CodingProblem.context(path, phrase)) }
    return .typeMismatch(type, CodingProblem.context(path, phrase))
  }

  /// Names a found value with its type: `String "many"`, `Int 7`, `null`, `an array of 3 elements`.
  static func describe(_ value: any Sendable) -> String {
    switch NumberBridge.native(value) {
    case is NSNull: return "null"
    case let b as Bool: return "Bool \(b)"
    case let s as String:
      // Enough to recognise the value without flooding the message.
      let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
      return "String \"\(shown)\""
    case let i as any BinaryInteger: return "\(type(of: i)) \(i)"
    case let d as any BinaryFloatingPoint: return "\(type(of: d)) \(d)"
    case let t as Timestamp: return "Timestamp \(t.rfc3339)"
    case let d as Date: return "Date \(Timestamp(date: d).rfc3339)"
    case let d as Data: return "Data of \(d.count) bytes"
    case let g as GeoPoint: return g.description
    case let v as VectorValue: return "a vector of \(v.array.count) dimensions"
    case let r as DocumentReference: return r.description
    case let f as FieldValue: return f.methodName
    case let a as [any Sendable]: return a.count == 1 ? "an array of 1 element" : "an array of \(a.count) elements"
    case let m as [String: any Sendable]: return m.count == 1 ? "a map of 1 field" : "a map of \(m.count) fields"
    default: return "\(type(of: value))"
    }
  }
}

extension ValueDecoder {
  /// Reads a map's fields. Missing keys and nulls are `nil` for `decodeIfPresent`.
  struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let decoder: ValueDecoder
    let map: [String: any Sendable]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { map.keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { map[key.stringValue] != nil }

    private func value(_ key: Key) throws -> any Sendable {
      guard let value = map[key.stringValue] else {
        throw DecodingError.keyNotFound(key, CodingProblem.context(codingPath, "is missing"))
      }
      return value
    }

    private func path(_ key: Key) -> [any CodingKey] { codingPath + [key] }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) is NSNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      try decoder.decode(T.self, from: value(key), at: path(key))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try ValueDecoder.bool(value(key), at: path(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try ValueDecoder.string(value(key), at: path(key)) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
      try ValueDecoder.float(type, value(key), at: path(key), strategy: decoder.options.floatStrategy)
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
      try ValueDecoder.float(type, value(key), at: path(key), strategy: decoder.options.floatStrategy)
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try ValueDecoder.integer(type, value(key), at: path(key)) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try ValueDecoder.integer(type, value(key), at: path(key)) }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      try ValueDecoder(value: value(key), codingPath: path(key), options: decoder.options).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try ValueDecoder(value: value(key), codingPath: path(key), options: decoder.options).unkeyedContainer()
    }

    // A missing key gives a decoder of null, as JSONDecoder does; @DocumentID relies on
    // this to reach the decoder (and its reference) even when the field is absent.
    func superDecoder() throws -> any Decoder {
      ValueDecoder(value: map["super"] ?? NSNull(), codingPath: codingPath + [CodingPath.NameKey("super")], options: decoder.options)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      ValueDecoder(value: map[key.stringValue] ?? NSNull(), codingPath: path(key), options: decoder.options)
    }
  }

  /// Reads an array's elements in order.
  struct UnkeyedContainer: UnkeyedDecodingContainer {
    let decoder: ValueDecoder
    let array: [any Sendable]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(decoder: ValueDecoder, array: [any Sendable], codingPath: [any CodingKey]) {
      self.decoder = decoder
      self.array = array
      self.codingPath = codingPath
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    private var path: [any CodingKey] { codingPath + [CodingPath.IndexKey(currentIndex)] }

    private func current(_ type: Any.Type, named name: String? = nil) throws -> any Sendable {
      guard !isAtEnd else {
        let count = array.count == 1 ? "1 element" : "\(array.count) elements"
        let phrase = "expected \(name ?? "\(type)") but the array has only \(count)"
        throw DecodingError.valueNotFound(type, CodingProblem.context(path, phrase))
      }
      return array[currentIndex]
    }

    // The index only moves past an element once it decoded, as in JSONDecoder.
    private mutating func next<T>(_ read: (any Sendable, [any CodingKey]) throws -> T) throws -> T {
      let result = try read(current(T.self), path)
      currentIndex += 1
      return result
    }

    mutating func decodeNil() throws -> Bool {
      guard try current(Any.self, named: "a value") is NSNull else { return false }
      currentIndex += 1
      return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      let decoder = decoder
      return try next { try decoder.decode(T.self, from: $0, at: $1) }
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try next(ValueDecoder.bool) }
    mutating func decode(_ type: String.Type) throws -> String { try next(ValueDecoder.string) }
    mutating func decode(_ type: Double.Type) throws -> Double {
      try next { [strategy = decoder.options.floatStrategy] in try ValueDecoder.float(type, $0, at: $1, strategy: strategy) }
    }
    mutating func decode(_ type: Float.Type) throws -> Float {
      try next { [strategy = decoder.options.floatStrategy] in try ValueDecoder.float(type, $0, at: $1, strategy: strategy) }
    }
    mutating func decode(_ type: Int.Type) throws -> Int { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try next { try ValueDecoder.integer(type, $0, at: $1) } }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try next { try ValueDecoder.integer(type, $0, at: $1) } }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
      let options = decoder.options
      return try next { try ValueDecoder(value: $0, codingPath: $1, options: options).container(keyedBy: type) }
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      let options = decoder.options
      return try next { try ValueDecoder(value: $0, codingPath: $1, options: options).unkeyedContainer() }
    }

    mutating func superDecoder() throws -> any Decoder {
      let options = decoder.options
      return try next { ValueDecoder(value: $0, codingPath: $1, options: options) }
    }
  }

  /// Reads the decoder's one value.
  struct SingleValueContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder

    var codingPath: [any CodingKey] { decoder.codingPath }
    private var value: any Sendable { decoder.value }

    func decodeNil() -> Bool { value is NSNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decode(T.self, from: value, at: codingPath) }
    func decode(_ type: Bool.Type) throws -> Bool { try ValueDecoder.bool(value, at: codingPath) }
    func decode(_ type: String.Type) throws -> String { try ValueDecoder.string(value, at: codingPath) }
    func decode(_ type: Double.Type) throws -> Double {
      try ValueDecoder.float(type, value, at: codingPath, strategy: decoder.options.floatStrategy)
    }
    func decode(_ type: Float.Type) throws -> Float {
      try ValueDecoder.float(type, value, at: codingPath, strategy: decoder.options.floatStrategy)
    }
    func decode(_ type: Int.Type) throws -> Int { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try ValueDecoder.integer(type, value, at: codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try ValueDecoder.integer(type, value, at: codingPath) }
  }
}
