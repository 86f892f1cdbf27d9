import FirestorePlatform
import FirestoreTestSupport
import Foundation
import Testing

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// ``ChildProcess``: what the child gets (arguments, exactly the environment given, its
/// directory, three descriptors and nothing else), and how its end is told.
@Suite("Platform: child processes")
struct ChildProcessTests {
  /// Runs `/bin/sh -c script arguments…` with its standard output to a pipe; returns what it
  /// printed and how it ended.
  static func shell(
    _ script: String, _ arguments: [String] = [], environment: [String: String] = ["PATH": "/usr/bin:/bin"], directory: String? = nil
  ) async throws -> (output: String, termination: ChildProcess.Termination) {
    let output = Pipe()
    let child = try ChildProcess(
      executable: "/bin/sh", arguments: ["-c", script, "sh"] + arguments, environment: environment, directory: directory,
      standardOutput: .descriptor(output.fileHandleForWriting.fileDescriptor))
    try output.fileHandleForWriting.close()
    let text = await Blocking.run { String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self) }
    return (text, await Blocking.run { child.waitForExit() })
  }

  @Test("the child gets its arguments, exactly the environment given, and its directory")
  func whatTheChildGets() async throws {
    let directory = FileManager.default.temporaryDirectory.resolvingSymlinksInPath().path
    let (output, termination) = try await Self.shell(
      #"printf '%s|%s|%s|%s\n' "$1" "$GREETING" "${HOME-unset}" "$(pwd)""#, ["two words"],
      environment: ["PATH": "/usr/bin:/bin", "GREETING": "hello"], directory: directory)
    #expect(output == "two words|hello|unset|\(directory)\n")
    #expect(termination == ChildProcess.Termination(status: 0, bySignal: false))
  }

  @Test("no descriptor of this process reaches the child but the three it is given")
  func descriptors() async throws {
    // A pipe made without close-on-exec: inherited, it would be open in the child.
    var inheritable: [Int32] = [0, 0]
    try #require(pipe(&inheritable) == 0)
    defer { for fd in inheritable { close(fd) } }
    let (output, _) = try await Self.shell("ls /proc/self/fd")
    // ls's own descriptor for the directory it lists is the lowest free one: 3.
    #expect(Set(output.split(separator: "\n")) == ["0", "1", "2", "3"])
  }

  @Test("an exit status and a signal are told apart; shellStatus says them as a shell does")
  func termination() async throws {
    let exited = try await Self.shell("exit 3").termination
    #expect(exited == ChildProcess.Termination(status: 3, bySignal: false))
    #expect(exited.shellStatus == 3)
    let killed = try await Self.shell("kill -KILL $$").termination
    #expect(killed == ChildProcess.Termination(status: SIGKILL, bySignal: true))
    #expect(killed.shellStatus == 128 + SIGKILL)
  }

  @Test("a running child is running until a signal ends it; then waiting again says the same")
  func signal() async throws {
    let input = Pipe()
    let child = try ChildProcess(
      executable: "/bin/sh", arguments: ["-c", "read line"], environment: [:],
      standardInput: .descriptor(input.fileHandleForReading.fileDescriptor))
    try input.fileHandleForReading.close()
    // It waits for a line that never comes while the pipe stays open here.
    #expect(child.isRunning)
    child.signal(SIGTERM)
    let first = await Blocking.run { child.waitForExit() }
    #expect(first == ChildProcess.Termination(status: SIGTERM, bySignal: true))
    #expect(!child.isRunning)
    #expect(await Blocking.run { child.waitForExit() } == first)
    child.signal(SIGKILL)  // reaped: nothing is sent
    try input.fileHandleForWriting.close()
  }

  @Test("an executable that is not there fails to start, naming it")
  func missing() throws {
    let error = #expect(throws: ChildProcess.SpawnError.self) {
      try ChildProcess(executable: "/nonexistent/tool", arguments: [], environment: [:])
    }
    #expect(error?.code == ENOENT)
    #expect(error?.description.contains("/nonexistent/tool") == true)
  }
}
