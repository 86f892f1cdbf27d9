import FirestoreWire
import Foundation

/// Turns Firestore values back into Swift values for `DocumentSnapshot.data()`.
///
/// null → `NSNull()`, boolean, integer and double → `NSNumber` (as the Apple SDK returns
/// them; see ``NumberBridge``), timestamp → ``Timestamp``, string → `String`, bytes →
/// `Data`, reference → ``DocumentReference``, geo point → ``GeoPoint``, vector →
/// ``VectorValue``, array → `[any Sendable]`, map → `[String: any Sendable]`.
struct UserDataWriter {
  /// How booleans and numbers come out.
  enum Numbers {
    /// `NSNumber`, as the Apple SDK returns them.
    case nsNumber
    /// Swift's `Bool`, `Int` and `Double`.
    case native
  }

  let firestore: Firestore
  var numbers = Numbers.nsNumber

  func convert(_ fields: [String: Value]) -> [String: any Sendable] {
    // Keeps the fields' hash table as it is: no key is hashed again.
    fields.mapValues { convert($0) }
  }

  func convert(_ value: Value) -> any Sendable {
    switch value {
    case .null: return NSNull()
    case .boolean(let b): return numbers == .native ? b : NumberBridge.number(boolean: b)
    case .integer(let i): return numbers == .native ? Int(i) : NumberBridge.number(integer: i)
    case .double(let d): return numbers == .native ? d : NumberBridge.number(double: d)
    case .timestamp(let t): return t
    case .string(let s): return s
    case .bytes(let d): return d
    case .reference(let name): return reference(name)
    case .geoPoint(let g): return g
    case .array(let a): return a.map { convert($0) } as [any Sendable]
    case .map(let m):
      if let elements = value.vectorDoubles { return VectorValue(elements) }
      return convert(m)
    }
  }

  /// A reference for a resource name; names in other databases keep their path and are
  /// attached to this instance, as the Apple SDK does (it logs a warning).
  func reference(_ name: String) -> DocumentReference {
    if let ref = try? firestore.reference(forName: name) { return ref }
    let parts = name.slashSegments
    let documentsIndex = parts.firstIndex(of: "documents").map { $0 + 1 } ?? parts.count
    return DocumentReference(firestore: firestore, resourcePath: ResourcePath(segments: Array(parts[documentsIndex...])))
  }
}
