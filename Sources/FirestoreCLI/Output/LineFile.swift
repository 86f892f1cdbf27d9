import FirestoreWire

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
