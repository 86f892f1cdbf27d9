import FirestoreWire
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where `export` writes: standard output, or a file given by `--output`.
final class LineFile: @unchecked Sendable {
  // Used by one task at a time (the command's), so no lock.
  private let fd: Int32
  private let path: String?
  private var buffer: [UInt8] = []

  /// Standard output.
  init() {
    fd = 1
    path = nil
  }

  /// Creates (or truncates) a file.
  ///
  /// - Throws: ``CLIFailure`` naming the file when it cannot be created.
  init(creating path: String) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else {
      let reason = String(cString: strerror(errno))
      throw CLIFailure(
        errno == EACCES ? "PERMISSION_DENIED" : (errno == ENOENT ? "NOT_FOUND" : "UNKNOWN"), "cannot create '\(path)': \(reason)")
    }
    self.fd = fd
    self.path = path
  }

  deinit {
    if path != nil { close(fd) }
  }

  /// Writes one NDJSON line. Standard output is written line by line (a reader sees each
  /// document at once); a file is written in 64 KB blocks.
  func writeLine(_ json: JSONValue) throws {
    if path == nil {
      StandardStreams.writeLine(json)
      return
    }
    JSONWriter.write(json, into: &buffer)
    buffer.append(UInt8(ascii: "\n"))
    if buffer.count >= 65_536 { try flush() }
  }

  /// Copies the lines of another file (as ``writeLine(_:)`` wrote them) and returns how
  /// many there were.
  func append(contentsOfFile source: String) throws -> Int {
    guard let handle = FileHandle(forReadingAtPath: source) else {
      throw CLIFailure("UNKNOWN", "cannot read '\(source)': \(String(cString: strerror(errno)))")
    }
    defer { try? handle.close() }
    var lines = 0
    while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
      lines += chunk.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
      if path == nil {
        StandardStreams.writeBytes(Array(chunk))
      } else {
        buffer.append(contentsOf: chunk)
        if buffer.count >= 65_536 { try flush() }
      }
    }
    return lines
  }

  /// Writes what is buffered.
  func flush() throws {
    guard let path else { return }
    var offset = 0
    while offset < buffer.count {
      let n = buffer.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
      if n < 0 {
        if errno == EINTR { continue }
        throw CLIFailure("UNKNOWN", "cannot write '\(path)': \(String(cString: strerror(errno)))")
      }
      offset += n
    }
    buffer.removeAll(keepingCapacity: true)
  }
}
