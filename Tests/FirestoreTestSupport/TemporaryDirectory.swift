import Foundation

/// Creates a new empty directory under the system's temporary directory, named `prefix`
/// and a UUID; the test removes it when done (`defer { try? FileManager.default.removeItem(at:) }`).
public func makeTemporaryDirectory(_ prefix: String = "firestore-test") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
