import FirestorePlatform
import FirestoreWire
import Foundation
import HTTP1Server

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The state a ``MockHTTPServer`` shares with its threads: the handler, the stop pipe and
/// the open connections.
///
/// Stopping writes one byte to a pipe that is never drained, so every poll of every thread
/// sees it at once and keeps seeing it. Only the thread that owns a connection closes its
/// descriptor (after unregistering it under the lock), so `stop()` can shut down registered
/// descriptors without racing a close and a descriptor number being reused.
final class MockHTTPServerRuntime: Sendable {
  private struct State {
    var stopping = false
    var acceptRunning = true
    var connections: [Int: Int32] = [:]
    var nextConnectionID = 0
    var liveConnectionThreads = 0
    var wakeClosed = false
  }

  let configuration: MockHTTPServerConfiguration
  let handler: MockHTTPServer.Handler
  let faults: FaultInjector
  let log: RequestLog
  /// The read end of the stop pipe; readable once the server stops.
  let wakeRead: Int32
  private let wakeWrite: Int32
  /// Marks this server's connection threads in their thread dictionary (under
  /// `connectionThreadKey`), so that `stop()` called from a handler does not wait for its
  /// own thread: a thread's name cannot tell servers apart (Linux takes 15 bytes at most).
  private let connectionMarker: String
  private static let connectionThreadKey = "firestore-mock-http-connection"
  private let state = Locked(State())

  init(
    configuration: MockHTTPServerConfiguration, handler: @escaping MockHTTPServer.Handler, faults: FaultInjector, log: RequestLog
  ) throws {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw HTTPSocketError.fromErrno("pipe") }
    for fd in fds { POSIXSocket.setCloseOnExec(fd) }
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    self.wakeRead = fds[0]
    self.wakeWrite = fds[1]
    self.configuration = configuration
    self.handler = handler
    self.faults = faults
    self.log = log
    self.connectionMarker = "firestore-mock-http-\(fds[0])-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Whether `stop()` has begun.
  var isStopping: Bool { state.withLock { $0.stopping } }

  /// The accept thread's and the connection threads' names, as tools that list a
  /// process's threads show them. Linux takes names of at most 15 bytes; a longer one is
  /// not set at all.
  static let acceptThreadName = "mock-accept"
  static let connectionThreadName = "mock-connection"

  /// Starts the accept thread for a listening socket.
  func startAccepting(listener: Int32) {
    let thread = Thread { [self] in
      // Named from the thread itself: on Linux, a name given before `start()` never
      // reaches the system's thread.
      Thread.current.name = Self.acceptThreadName
      acceptLoop(listener: listener)
    }
    thread.start()
  }

  private func acceptLoop(listener: Int32) {
    while true {
      guard HTTPSocket.waitReadable(listener, wake: wakeRead, timeoutMilliseconds: -1) == .readable else { break }
      let fd = accept(listener, nil, nil)
      if fd < 0 {
        switch errno {
        case EINTR, EAGAIN, EWOULDBLOCK, ECONNABORTED, EPROTO: continue
        default:
          // Out of descriptors or memory: back off instead of spinning; stop() still works.
          _ = HTTPSocket.sleep(milliseconds: 10, wake: wakeRead)
          continue
        }
      }
      HTTPSocket.configureAccepted(fd, sendTimeoutSeconds: configuration.sendTimeoutSeconds)
      let registered: Int? = state.withLock { state in
        guard !state.stopping else { return nil }
        let id = state.nextConnectionID
        state.nextConnectionID += 1
        state.connections[id] = fd
        state.liveConnectionThreads += 1
        return id
      }
      guard let id = registered else {
        close(fd)
        break
      }
      let marker = connectionMarker
      let thread = Thread { [self] in
        Thread.current.name = Self.connectionThreadName
        Thread.current.threadDictionary[Self.connectionThreadKey] = marker
        HTTPConnection(fd: fd, runtime: self).run()
        finishConnection(id: id, fd: fd)
      }
      thread.start()
    }
    close(listener)
    markAcceptFinished()
  }

  /// Notes that the accept thread is gone.
  func markAcceptFinished() {
    state.withLock { state in
      state.acceptRunning = false
      closeWakeIfIdle(&state)
    }
  }

  private func finishConnection(id: Int, fd: Int32) {
    state.withLock { state in
      state.connections[id] = nil
      close(fd)
      state.liveConnectionThreads -= 1
      closeWakeIfIdle(&state)
    }
  }

  /// Closes the stop pipe once stopping and no thread can poll it any more.
  private func closeWakeIfIdle(_ state: inout State) {
    guard state.stopping, !state.acceptRunning, state.liveConnectionThreads == 0, !state.wakeClosed else { return }
    state.wakeClosed = true
    close(wakeRead)
    close(wakeWrite)
  }

  /// Signals every thread to stop and shuts down every open connection (which wakes
  /// blocked reads and makes blocked or later sends fail). Idempotent; does not wait.
  func beginStop() {
    state.withLock { state in
      guard !state.stopping else { return }
      state.stopping = true
      var byte: UInt8 = 1
      _ = write(wakeWrite, &byte, 1)
      for fd in state.connections.values { shutdown(fd, Int32(SHUT_RDWR)) }
    }
  }

  /// Waits (bounded by the stop timeout) until the accept thread and every connection
  /// thread but the caller's own have finished; `false` when the timeout left one running.
  func waitForThreads() -> Bool {
    let ownThreads = Thread.current.threadDictionary[Self.connectionThreadKey] as? String == connectionMarker ? 1 : 0
    let deadline = ContinuousClock.now + .milliseconds(configuration.stopTimeoutMilliseconds)
    while true {
      let done = state.withLock { !$0.acceptRunning && $0.liveConnectionThreads <= ownThreads }
      if done { return true }
      if ContinuousClock.now >= deadline { return false }
      usleep(2_000)
    }
  }
}
