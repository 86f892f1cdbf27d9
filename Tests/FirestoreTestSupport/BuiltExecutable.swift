import Foundation

/// Finds an executable of this package in the build directory, for tests that run it as
/// a user would.
public enum BuiltExecutable {
  /// The executable product `name`: next to the test bundle, or in `.build/debug`.
  public static func url(_ name: String) -> URL {
    var candidates: [URL] = []
    if let url = Bundle.main.executableURL { candidates.append(url.deletingLastPathComponent()) }
    candidates.append(Bundle.main.bundleURL)
    candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
    let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    candidates.append(packageRoot.appendingPathComponent(".build/debug"))
    for directory in candidates {
      let url = directory.appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: url.path) { return url }
    }
    return candidates[0].appendingPathComponent(name)
  }
}
