import FirestorePlatform
import FirestoreWire
import Foundation

/// A started child process whose output is collected as it comes, read on threads of
/// their own so that a full pipe never blocks the child.
public final class RunningProcess: Sendable {
  private let child: ChildProcess
  private let output = Locked((stdout: Data(), stderr: Data()))
  private let done = DispatchGroup()

  /// Starts `executable arguments…` with exactly `environment`, writes `stdin` (if any) to
  /// its standard input and then closes it, without waiting for the child to read it.
  public init(_ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String]) throws {
    let out = Pipe()
    let err = Pipe()
    let input = Pipe()
    child = try ChildProcess(
      executable: executable.path, arguments: arguments, environment: environment,
      standardInput: .descriptor(input.fileHandleForReading.fileDescriptor),
      standardOutput: .descriptor(out.fileHandleForWriting.fileDescriptor),
      standardError: .descriptor(err.fileHandleForWriting.fileDescriptor))
    // The child's ends: kept open here, the pipes would never end.
    for handle in [out.fileHandleForWriting, err.fileHandleForWriting, input.fileHandleForReading] { try? handle.close() }
    for (pipe, isOut) in [(out, true), (err, false)] {
      done.enter()
      Thread.detachNewThread { [output, done] in
        let handle = pipe.fileHandleForReading
        while true {
          let data = handle.availableData
          if data.isEmpty { break }
          output.withLock { isOut ? $0.stdout.append(data) : $0.stderr.append(data) }
        }
        done.leave()
      }
    }
    // Written on a thread of its own: more than a pipe holds waits for the child to read.
    let writer = input.fileHandleForWriting
    Thread.detachNewThread {
      if let stdin { try? writer.write(contentsOf: Data(stdin.utf8)) }
      try? writer.close()
    }
  }

  /// Standard output so far.
  public var stdoutSoFar: String { output.withLock { String(decoding: $0.stdout, as: UTF8.self) } }

  /// Waits until standard output holds `count` lines (or `seconds` pass, or the process ends).
  public func waitForLines(_ count: Int, seconds: Double = 30) async throws {
    let deadline = Date().addingTimeInterval(seconds)
    while stdoutSoFar.filter({ $0 == "\n" }).count < count && Date() < deadline && child.isRunning {
      try await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Sends a signal.
  public func signal(_ number: Int32) { child.signal(number) }

  /// Waits for the process to end and returns what it did.
  public func finish() async -> ProcessResult {
    let termination = await Blocking.run { [child, done] in
      defer { done.wait() }
      return child.waitForExit()
    }
    return output.withLock {
      ProcessResult(
        status: termination.shellStatus, stdout: String(decoding: $0.stdout, as: UTF8.self),
        stderr: String(decoding: $0.stderr, as: UTF8.self))
    }
  }

  /// Runs `executable arguments…` to the end.
  public static func run(_ executable: URL, _ arguments: [String], stdin: String? = nil, environment: [String: String]) async throws
    -> ProcessResult
  {
    try await RunningProcess(executable, arguments, stdin: stdin, environment: environment).finish()
  }
}
