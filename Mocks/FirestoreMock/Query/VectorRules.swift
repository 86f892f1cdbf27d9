import FirestoreWire

/// The emulator's checks of vector values and of `findNearest`, with its messages (all
/// verified against the emulator).
enum VectorRules {
  /// The most dimensions a vector may have.
  static let maximumDimensions = 2048
  /// The most neighbours a search may return.
  static let maximumLimit: Int32 = 1000

  /// Checks the values of written fields as the emulator does: a map tagged `__vector__`
  /// must hold exactly a `value` array of 1 to 2048 doubles, none `NaN`; neither a vector
  /// nor an array may sit inside an array; a field nests at most 20 maps and arrays; geo points lie on the globe; a reference is a
  /// resource name.
  static func validate(fields: [String: Value]) throws(MockError) {
    for (name, value) in fields {
      if nesting(value) > maximumNesting { throw .invalidArgument("Property \(name) contains an invalid nested entity.") }
      try validate(value, isElement: false, underArray: false)
    }
  }

  /// The most maps and arrays a field's value may nest (the emulator takes 20, refuses 21).
  static let maximumNesting = 20

  /// How many maps and arrays deep `value` goes.
  private static func nesting(_ value: Value) -> Int {
    switch value {
    case .array(let elements): return 1 + (elements.map(nesting).max() ?? 0)
    case .map(let fields): return 1 + (fields.values.map(nesting).max() ?? 0)
    default: return 0
    }
  }

  /// Checks `value`, an array's element when `isElement`, inside a map under an array when
  /// only `underArray`: an array may not be an element itself, a vector may not be under one.
  private static func validate(_ value: Value, isElement: Bool, underArray: Bool) throws(MockError) {
    switch value {
    case .array(let elements):
      if isElement { throw .invalidArgument("Cannot convert an array value in an array value.") }
      for element in elements { try validate(element, isElement: true, underArray: true) }
    case .geoPoint(let g):
      if !(-90...90).contains(g.latitude) {
        throw .invalidArgument("Geo point latitude '\(g.latitude)' outside permitted range -90.0 to 90.0.")
      }
      if !(-180...180).contains(g.longitude) {
        throw .invalidArgument("Geo point longitude '\(g.longitude)' outside permitted range -180.0 to 180.0.")
      }
    case .reference(let name) where !name.hasPrefix("projects/"):
      throw .invalidArgument("Resource name \"\(name)\" lacks \"projects\" at index 0.")
    case .map(let fields):
      if value.isVector {
        if underArray { throw .invalidArgument("Cannot convert a vector value in an array value.") }
        try validateVector(value)
      } else {
        for element in fields.values { try validate(element, isElement: false, underArray: underArray) }
      }
    default:
      break
    }
  }

  /// Checks one tagged vector map.
  static func validateVector(_ value: Value) throws(MockError) {
    guard case .map(let fields) = value else { return }
    guard let elements = fields[Value.vectorElementsKey] else { throw .invalidArgument("Vector map is missing key 'value'.") }
    if fields.count > 2 { throw .invalidArgument("Vector Value map has extraneous entries.") }
    guard case .array(let list) = elements else { throw .invalidArgument("Vector Value type must be an array.") }
    if list.isEmpty { throw .invalidArgument("Cannot have a zero length vector.") }
    if list.count > maximumDimensions { throw .invalidArgument("Vectors must be at most \(maximumDimensions) dimensions.") }
    for element in list {
      guard case .double(let d) = element else { throw .invalidArgument("Vector must only contain values of type 'double'") }
      if d.isNaN { throw .invalidArgument("Vector cannot contain NaN values.") }
    }
  }

  /// Checks a query's `findNearest` and what it may be combined with.
  static func validate(_ search: StructuredQuery.FindNearest, in query: StructuredQuery) throws(MockError) {
    if query.limit != nil { throw .invalidArgument("A query limit cannot be used with FindNearest") }
    if query.offset != nil { throw .invalidArgument("A query offset cannot be used with FindNearest") }
    _ = try FieldPathParser.parse(search.vectorField)
    guard search.queryVector.isVector else { throw .invalidArgument("Query Value must be of type vector.") }
    try validateVector(search.queryVector)
    guard let limit = search.limit, limit > 0, limit <= maximumLimit else {
      throw .invalidArgument("FindNearest.limit must be a positive integer of no more than \(maximumLimit)")
    }
    if search.distanceMeasure == .unspecified { throw .invalidArgument("Unknown Distance Measure.") }
    if let field = search.distanceResultField, FieldPathParser.isReserved(field) {
      throw .invalidArgument("The distanceResultField.property.name \"\(field)\" is reserved.")
    }
  }
}
