import FirestoreEngine
import FirestoreWire

/// The emulator's checks of field transforms (applying them is ``FirestoreWire/TransformEvaluator``).
enum TransformEngine {
  /// Throws the emulator's error for a transform whose operand it rejects: `increment`,
  /// `maximum` and `minimum` need an integer or a double.
  static func validate(_ transform: FieldTransform.Kind) throws(MockError) {
    switch transform {
    case .increment(let v), .maximum(let v), .minimum(let v):
      switch v {
      case .integer, .double: return
      default: throw .invalidArgument("Input must be int64 or double.")
      }
    case .serverTimestamp, .appendMissingElements, .removeAllFromArray:
      return
    }
  }
}
