import FirestoreWire
import Foundation
import Testing

@testable import FirestoreClient

/// The request bodies this library sends for pipelines, against those the official
/// Python client builds for the same pipelines, both made in this run.
@Suite("Pipeline encoding")
struct PipelineEncodingTests {
  let db = Offline.noNetwork().0

  @Test("every corpus case is encoded as the Python client encodes it")
  func corpusMatchesPythonClient() throws {
    guard let python = Self.corpusPython() else {
      if Self.corpusRequired {
        Issue.record(
          "no Python with google-cloud-firestore: set FIRESTORE_PIPELINE_PYTHON or run bash scripts/test.sh, which installs it")
      }
      return
    }
    let theirs = try Self.pythonCorpus(python)
    let ours = PipelineCorpus.cases(db)
    #expect(Set(ours.map(\.name)) == Set(theirs.keys), "the Swift and Python corpora name different cases")
    #expect(Set(ours.map(\.name)).count == ours.count, "a Swift case name repeats")
    for item in ours {
      guard let expected = theirs[item.name] else { continue }
      let body = try item.body(db)
      let mine = JSONWriter.string(PipelineJSONNormalizer.normalized(body))
      let python = JSONWriter.string(PipelineJSONNormalizer.normalized(expected))
      #expect(mine == python, "case \(item.name):\n ours:   \(mine)\n python: \(python)")
    }
  }

  @Test("a request reads back as the value it was written from")
  func requestRoundTrip() throws {
    for item in PipelineCorpus.cases(db) {
      let request = try item.pipeline.request(
        firestore: db, readTime: item.readTime, transaction: item.transaction, explainOptions: item.explainOptions,
        additionalOptions: item.additionalOptions)
      let reread = try ExecutePipelineRequest(json: try JSONParser.parse(JSONWriter.bytes(request.json)))
      #expect(JSONWriter.string(reread.json) == JSONWriter.string(request.json), "case \(item.name)")
    }
  }

  // MARK: - The Python side

  /// Where the Python client is: `FIRESTORE_PIPELINE_PYTHON`, else the environment
  /// `scripts/test.sh` makes, else the benchmarks' one.
  static func corpusPython() -> String? {
    let environment = ProcessInfo.processInfo.environment
    if let python = environment["FIRESTORE_PIPELINE_PYTHON"], !python.isEmpty { return python }
    let root = packageRoot()
    for candidate in [".build/pipeline-python/bin/python", "Benchmarks/peer/.venv/bin/python"] {
      let path = root.appendingPathComponent(candidate).path
      if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
  }

  /// Whether a missing Python client fails the test (in CI, and wherever the emulator
  /// suite is required): otherwise the comparison is left out with a note.
  static var corpusRequired: Bool {
    let environment = ProcessInfo.processInfo.environment
    return environment["CI"] == "true" || environment["REQUIRE_EMULATOR"] == "1"
  }

  static func packageRoot() -> URL {
    URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
  }

  /// Runs `scripts/pipeline-corpus.py`: its REST body for each case, by name.
  static func pythonCorpus(_ python: String) throws -> [String: JSONValue] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = [packageRoot().appendingPathComponent("scripts/pipeline-corpus.py").path]
    // Away from the package, whose directories could shadow the client's modules.
    process.currentDirectoryURL = FileManager.default.temporaryDirectory
    var environment = ProcessInfo.processInfo.environment
    environment["PYTHONDONTWRITEBYTECODE"] = "1"
    process.environment = environment
    // The script's errors go to a file, so that only one pipe needs draining.
    let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("pipeline-corpus-\(UUID().uuidString).err")
    _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
    defer { try? FileManager.default.removeItem(at: errorFile) }
    let output = Pipe()
    process.standardOutput = output
    process.standardError = try FileHandle(forWritingTo: errorFile)
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let errorText = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
      throw CorpusError("pipeline-corpus.py failed (\(process.terminationStatus)): \(errorText.suffix(2000))")
    }
    var cases: [String: JSONValue] = [:]
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where !line.isEmpty {
      let record = try JSONParser.parse(Array(line.utf8))
      guard let name = record["case"]?.stringValue, let body = record["restBody"] else {
        throw CorpusError("pipeline-corpus.py wrote a line without case or restBody")
      }
      cases[name] = body
    }
    return cases
  }
}

private struct CorpusError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
