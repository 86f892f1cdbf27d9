/// Random document IDs: 20 characters from `[A-Za-z0-9]`, as the Firebase SDKs and the
/// emulator make them.
package enum AutoID {
  private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")

  /// A new ID from the system's secure random generator (62^20 ≈ 2^119 possibilities).
  package static func make() -> String {
    var generator = SystemRandomNumberGenerator()
    return String((0..<20).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
  }
}
