import FirestoreClient
import FirestoreWire
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The favorites security rules as the project ships them (`Examples/rules/favorites.rules`),
/// for the emulator-only suites that test them.
public enum ShippedRules {
  /// The shipped rules file.
  public static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "../../Examples/rules/favorites.rules"
  ).standardized.path

  /// Loads the shipped rules into `projectID` on the emulator (rules are per project, so a
  /// suite uses a project of its own).
  public static func load(into projectID: String) async throws {
    let content = try String(contentsOfFile: path, encoding: .utf8)
    let body = JSONValue.object([
      ("rules", .object([("files", .array([.object([("name", .string("firestore.rules")), ("content", .string(content))])]))]))
    ])
    var request = URLRequest(url: URL(string: "http://\(Backend.emulator.host)/emulator/v1/projects/\(projectID):securityRules")!)
    request.httpMethod = "PUT"
    request.setValue("Bearer owner", forHTTPHeaderField: "Authorization")
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = Data(JSONWriter.bytes(body))
    let (data, response) = try await URLSession.shared.data(for: request)
    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
    guard status == 200 else {
      throw FirestoreError(.internal, "loading \(path) answered HTTP \(status): \(String(decoding: data, as: UTF8.self))")
    }
  }
}
