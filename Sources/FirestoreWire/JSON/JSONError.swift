/// A failure to read JSON text, or JSON that does not have the shape Firestore's REST API
/// gives it.
public struct WireFormatError: Error, Sendable, Equatable, CustomStringConvertible {
  /// What was wrong, naming the offending member or byte offset.
  public var message: String

  /// Creates an error with a message that names the problem.
  public init(_ message: String) { self.message = message }

  public var description: String { message }
}
