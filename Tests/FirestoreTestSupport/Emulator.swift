import Foundation

/// The Firestore emulator named by `FIRESTORE_EMULATOR_HOST`, when there is one.
public enum Emulator {
  /// `host:port` of the emulator, when the environment names one.
  public static let host = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }
  /// Whether tests can reach an emulator.
  public static let isAvailable = host != nil
  /// Set by `scripts/test.sh` (and so CI) when the emulator must take part.
  public static let isRequired = ProcessInfo.processInfo.environment["FIRESTORE_EMULATOR_REQUIRED"] == "1"
}
