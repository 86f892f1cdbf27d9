#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process started with `posix_spawn`: in a process group of its own, with every
/// signal at its default disposition, and with no descriptor of this process but the three
/// standard streams it is given.
///
/// Foundation's `Process` is not used: on Linux (swift-corelibs-foundation of Swift 6.3) its
/// `run()` reads each `/proc/self/fd` entry with a copy that can run past the end of
/// `readdir`'s buffer, which now and then crashes a process with many descriptors open (a
/// test runner full of sockets).
public final class ChildProcess: Sendable {
  /// Where one of the child's standard streams comes from or goes to.
  public enum Stream: Sendable {
    /// `/dev/null`.
    case null
    /// A descriptor of this process, duplicated into the child; the caller keeps its own
    /// and closes it (after starting the child, for the child's end of a pipe).
    case descriptor(Int32)
  }

  /// How a child ended.
  public struct Termination: Sendable, Equatable {
    /// The exit status, or the number of the signal that ended the child.
    public let status: Int32
    /// Whether a signal ended the child.
    public let bySignal: Bool

    /// Creates a termination.
    public init(status: Int32, bySignal: Bool) {
      self.status = status
      self.bySignal = bySignal
    }

    /// The status as a shell reports it: the exit status, or 128 plus the signal's number.
    public var shellStatus: Int32 { bySignal ? 128 + status : status }
  }

  /// Why a child could not be started.
  public struct SpawnError: Error, CustomStringConvertible {
    /// What could not be started.
    public let executable: String
    /// The `errno` value `posix_spawn` returned.
    public let code: Int32

    /// The executable and the system's message.
    public var description: String { "cannot start \(executable): \(String(cString: strerror(code)))" }
  }

  /// The child's process ID.
  public let processIdentifier: pid_t
  /// The child's raw wait status, once it was reaped.
  private let reaped = Locked<Int32?>(nil)

  /// Starts `executable` (a path; nothing is looked up in `PATH`) with `arguments` and
  /// exactly `environment`, in `directory` when given.
  ///
  /// - Throws: ``SpawnError`` when the executable cannot be started.
  public init(
    executable: String, arguments: [String], environment: [String: String], directory: String? = nil,
    standardInput: Stream = .null, standardOutput: Stream = .null, standardError: Stream = .null
  ) throws {
    #if canImport(Darwin)
      var actions: posix_spawn_file_actions_t?
      var attributes: posix_spawnattr_t?
    #else
      var actions = posix_spawn_file_actions_t()
      var attributes = posix_spawnattr_t()
    #endif
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }

    for (target, stream) in [(Int32(0), standardInput), (1, standardOutput), (2, standardError)] {
      switch stream {
      case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
      case .descriptor(let source): posix_spawn_file_actions_adddup2(&actions, source, target)
      }
    }
    if let directory {
      #if canImport(Darwin)
        posix_spawn_file_actions_addchdir_np(&actions, directory)
      #else
        guard let addChdir = Self.glibc.addChdir else { throw SpawnError(executable: executable, code: ENOSYS) }
        _ = addChdir(&actions, directory)
      #endif
    }

    // A test runner may block or ignore signals its children should die of.
    var defaults = sigset_t()
    sigfillset(&defaults)
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    posix_spawnattr_setsigmask(&attributes, &unblocked)
    var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    #if canImport(Darwin)
      flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
      // Another thread's pipe end inherited here would keep that pipe from ever ending.
      guard let addCloseFrom = Self.glibc.addCloseFrom else { throw SpawnError(executable: executable, code: ENOSYS) }
      _ = addCloseFrom(&actions, 3)
    #endif
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
      for pointer in argv { free(pointer) }
      for pointer in envp { free(pointer) }
    }
    var pid = pid_t()
    let code = posix_spawn(&pid, executable, &actions, &attributes, argv, envp)
    guard code == 0 else { throw SpawnError(executable: executable, code: code) }
    processIdentifier = pid
  }

  /// Whether the child has not ended yet.
  public var isRunning: Bool {
    reaped.withLock { status in
      guard status == nil else { return false }
      // Looked at, not reaped: ``waitForExit()`` reaps.
      var info = siginfo_t()
      let result = waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOHANG | WNOWAIT)
      return result == 0 && Self.pid(of: info) == 0
    }
  }

  /// Sends `signal` to the child.
  public func signal(_ signal: Int32) {
    // Under the lock that reaping takes: until then the ID cannot pass to another process.
    reaped.withLock { status in
      if status == nil { kill(processIdentifier, signal) }
    }
  }

  /// Waits for the child to end, blocking the calling thread, and returns how it ended.
  @discardableResult
  public func waitForExit() -> Termination {
    var info = siginfo_t()
    while reaped.withLock({ $0 }) == nil, waitid(P_PID, id_t(processIdentifier), &info, WEXITED | WNOWAIT) != 0, errno == EINTR {}
    let status = reaped.withLock { reaped -> Int32 in
      if let reaped { return reaped }
      var status: Int32 = 0
      while waitpid(processIdentifier, &status, 0) == -1 && errno == EINTR {}
      reaped = status
      return status
    }
    let signal = status & 0x7f
    return signal == 0 ? Termination(status: (status >> 8) & 0xff, bySignal: false) : Termination(status: signal, bySignal: true)
  }

  #if !canImport(Darwin)
    /// glibc's file actions that its header declares only to GNU sources (glibc 2.34 and
    /// later), looked up by name.
    private struct GlibcSpawnExtensions: Sendable {
      typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
      typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
      let addChdir: AddChdir?
      let addCloseFrom: AddCloseFrom?

      init() {
        let lookUp = { (name: String) in dlsym(UnsafeMutableRawPointer(bitPattern: 0), name) }
        addChdir = lookUp("posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }
        addCloseFrom = lookUp("posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddCloseFrom.self) }
      }
    }

    private static let glibc = GlibcSpawnExtensions()
  #endif

  private static func pid(of info: siginfo_t) -> pid_t {
    #if canImport(Darwin)
      info.si_pid
    #else
      info._sifields._sigchld.si_pid
    #endif
  }
}
