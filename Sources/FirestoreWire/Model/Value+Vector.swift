/// Vector values: Firestore has no vector kind on the wire; a vector is a map
/// `{"__type__": "__vector__", "value": [double, …]}` that the server recognises by its tag.
extension Value {
  /// The map key that tags a special map.
  public static let typeKey = "__type__"
  /// The tag of a vector map.
  public static let vectorTag = "__vector__"
  /// The key of a vector map's elements.
  public static let vectorElementsKey = "value"

  /// The vector of these doubles, as the wire carries it.
  public static func vector(_ elements: [Double]) -> Value {
    .map([typeKey: .string(vectorTag), vectorElementsKey: .array(elements.map(Value.double))])
  }

  /// Whether this is a map tagged as a vector (well formed or not).
  public var isVector: Bool {
    guard case .map(let fields) = self, case .string(Self.vectorTag)? = fields[Self.typeKey] else { return false }
    return true
  }

  /// The elements of a vector map as they are stored (`[]` when it has no array of them),
  /// or `nil` when this is not a vector.
  public var vectorElements: [Value]? {
    guard isVector, case .map(let fields) = self else { return nil }
    if case .array(let elements)? = fields[Self.vectorElementsKey] { return elements }
    return []
  }

  /// The doubles of a well-formed vector: a tagged map whose `value` is an array of doubles
  /// and nothing else; `nil` otherwise.
  public var vectorDoubles: [Double]? {
    guard case .map(let fields) = self, fields.count == 2, let elements = vectorElements,
      fields[Self.vectorElementsKey] != nil
    else { return nil }
    var doubles: [Double] = []
    doubles.reserveCapacity(elements.count)
    for element in elements {
      guard case .double(let d) = element else { return nil }
      doubles.append(d)
    }
    return doubles
  }
}
