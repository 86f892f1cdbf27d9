import FirestorePlatform

#if canImport(CCurl)
  import CCurl
  import FirestoreWire
  import Foundation

  /// One thread that drives every transfer of a ``CurlTransport`` through a libcurl multi
  /// handle: it takes commands from other threads (add, abort, resume, trade a deadline for an idle one),
  /// lets libcurl do the I/O, hands back what finished, and sleeps in `curl_multi_poll`
  /// until a socket, a libcurl timer, a deadline or a command (through its ``WakePipe``)
  /// needs it.
  ///
  /// Only this thread touches the multi handle and the easy handles in it (but for
  /// ``shutDown()`` freeing a multi handle the thread never started on); other threads talk
  /// to it through ``post(_:)``.
  final class CurlEventLoop: @unchecked Sendable {
    enum Command {
      case add(CurlExchange)
      case abort(CurlExchange, FirestoreError)
      case resume(CurlExchange)
      case idleDeadline(CurlExchange, Duration)
      /// Close the kept connections now, or once no transfer runs; then call the closure.
      case closeIdleConnections(@Sendable () -> Void)
      case shutDown
    }

    /// The loop thread's name, as tools that list a process's threads show it.
    static let threadName = "firestore-curl"

    /// The longest sleep with nothing to do; commands wake the loop at once anyway.
    private static let idleWait: Int32 = 60_000

    /// libcurl's process-wide set-up, done once before the first handle.
    private static let globalInit: Void = {
      curl_global_init(Int(CURL_GLOBAL_DEFAULT))
    }()

    /// Replaced only on the loop thread, which alone uses it once the loop started.
    private var multi: UnsafeMutableRawPointer
    /// What other threads hand the loop thread. `wake` is made with the thread, which sleeps
    /// polling it as well as libcurl's sockets. `sleeping`: the loop is in (or about to
    /// enter) that poll with no command waiting, so the next command must wake it;
    /// otherwise it takes commands before it sleeps again, and waking it would cost a write
    /// and a read for nothing.
    private struct Inbox {
      var commands: [Command] = []
      var wake: WakePipe?
      var stopped = false
      var sleeping = false
    }
    /// Shared by the loop thread and every thread that posts.
    private let inbox = Locked(Inbox())
    let statistics = Locked(CurlTransport.Statistics())

    /// The transfers in the multi handle, by easy handle. Loop thread only.
    private var running: [UnsafeMutableRawPointer: CurlExchange] = [:]
    /// The kept connections are to close once no transfer runs. Loop thread only.
    private var closeWhenIdle = false

    init() {
      _ = Self.globalInit
      multi = Self.makeMulti()
    }

    private static func makeMulti() -> UnsafeMutableRawPointer {
      let multi = curl_multi_init()!
      // Wait for a stream on an existing HTTP/2 connection rather than open another.
      _ = swiftfirestore_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, CURLPIPE_MULTIPLEX)
      return multi
    }

    /// Queues a command for the loop thread and wakes it (starting it on first use).
    func post(_ command: Command) {
      enum Outcome {
        case queued
        case wake(WakePipe)
        case start(WakePipe)
        case refused(FirestoreError)
      }
      let outcome = inbox.withLock { inbox -> Outcome in
        if inbox.stopped { return .refused(FirestoreError(.cancelled, "the transport was shut down")) }
        guard let wake = inbox.wake else {
          let wake: WakePipe
          do throws(WakePipe.OpenError) {
            wake = try WakePipe()
          } catch {
            let failure = FirestoreError(.resourceExhausted, "the transport could not start its event loop: \(error.message)")
            return .refused(failure.with { $0.requestNotSent = true })
          }
          inbox.wake = wake
          inbox.commands.append(command)
          return .start(wake)
        }
        inbox.commands.append(command)
        guard inbox.sleeping else { return .queued }
        inbox.sleeping = false
        return .wake(wake)
      }
      // Woken outside the lock: the loop thread, woken, takes the lock at once.
      switch outcome {
      case .queued: break
      case .wake(let wake): wake.signal()
      case .start(let wake):
        let thread = Thread { [self] in
          // Named from the thread itself: on Linux, a name given before `start()` never
          // reaches the system's thread (what `top -H`, `perf` and debuggers show), and
          // one longer than 15 bytes is not set at all.
          Thread.current.name = Self.threadName
          run(wake)
        }
        thread.start()
      case .refused(let error):
        switch command {
        case .add(let exchange): exchange.finish(with: error)
        case .closeIdleConnections(let done): done()
        default: break
        }
      }
    }

    /// Ends the loop: running transfers fail with `cancelled`, the handles are freed.
    func shutDown() {
      let wake = inbox.withLock { inbox -> WakePipe? in
        inbox.stopped = true
        inbox.commands.append(.shutDown)
        return inbox.wake
      }
      if let wake {
        wake.signal()
      } else {
        curl_multi_cleanup(multi)
      }
    }

    // MARK: - Loop thread

    private func run(_ wake: WakePipe) {
      var waitFor = curl_waitfd(fd: wake.readDescriptor, events: Int16(POLLIN), revents: 0)
      while true {
        guard carryOutCommands() else { return }
        var active: Int32 = 0
        curl_multi_perform(multi, &active)
        collectFinished()
        // Heads that arrived in this round, with what came of their bodies.
        for exchange in running.values { exchange.deliverHead() }
        let wait = expireDeadlines()
        closeConnectionsIfIdle()
        // Commands that came during the round are taken at once; otherwise the loop sleeps,
        // and from here on a command wakes it.
        let sleeps = inbox.withLock { inbox -> Bool in
          inbox.sleeping = inbox.commands.isEmpty
          return inbox.sleeping
        }
        if sleeps {
          waitFor.revents = 0
          curl_multi_poll(multi, &waitFor, 1, wait, nil)
          if waitFor.revents != 0 { wake.drain() }
        }
      }
    }

    /// Carries out the commands posted since the last round; `false` once the loop is shut
    /// down. The commands go with the call, so that no exchange they name is held while the
    /// loop sleeps.
    private func carryOutCommands() -> Bool {
      let commands = inbox.withLock { inbox -> [Command] in
        inbox.sleeping = false
        defer { inbox.commands.removeAll(keepingCapacity: true) }
        return inbox.commands
      }
      for command in commands {
        switch command {
        case .add(let exchange): add(exchange)
        case .abort(let exchange, let error): remove(exchange, error)
        case .resume(let exchange):
          if running[exchange.easy] === exchange {
            exchange.pausedForReader = false
            exchange.lastProgress = .now
            curl_easy_pause(exchange.easy, swiftfirestore_CURLPAUSE_CONT)
          }
        case .idleDeadline(let exchange, let idle):
          exchange.deadline = nil
          exchange.idleTimeout = idle
          exchange.lastProgress = .now
        case .closeIdleConnections(let done):
          closeWhenIdle = true
          closeConnectionsIfIdle()
          done()
        case .shutDown:
          for exchange in Array(running.values) { remove(exchange, FirestoreError(.cancelled, "the transport was shut down")) }
          curl_multi_cleanup(multi)
          return false
        }
      }
      return true
    }

    /// Closes the kept connections when asked and no transfer runs: libcurl closes them
    /// only with their multi handle, so a fresh one takes its place.
    private func closeConnectionsIfIdle() {
      guard closeWhenIdle, running.isEmpty else { return }
      closeWhenIdle = false
      curl_multi_cleanup(multi)
      multi = Self.makeMulti()
    }

    private func add(_ exchange: CurlExchange) {
      guard exchange.isStartable else { return }
      running[exchange.easy] = exchange
      let code = curl_multi_add_handle(multi, exchange.easy)
      if code != CURLM_OK {
        running[exchange.easy] = nil
        exchange.finish(
          with: FirestoreError(.internal, "libcurl could not start the request: \(String(cString: curl_multi_strerror(code)))"))
      }
    }

    /// Takes a transfer out before its end and fails it with `error`.
    private func remove(_ exchange: CurlExchange, _ error: FirestoreError) {
      if running[exchange.easy] === exchange {
        running[exchange.easy] = nil
        curl_multi_remove_handle(multi, exchange.easy)
        record(exchange)
      }
      exchange.fail(error)
    }

    /// Hands every transfer libcurl finished to its exchange.
    private func collectFinished() {
      var left: Int32 = 0
      while let message = curl_multi_info_read(multi, &left) {
        guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
          let exchange = running.removeValue(forKey: easy)
        else { continue }
        let result = message.pointee.data.result
        curl_multi_remove_handle(multi, easy)
        record(exchange)
        exchange.complete(result)
      }
    }

    private func record(_ exchange: CurlExchange) {
      let counts = exchange.transferCounts()
      statistics.withLock { s in
        s.requests += 1
        s.connectionsOpened += counts.connections
        s.bytesReceived += counts.received
        s.bytesSent += counts.sent
        if counts.http2 { s.http2Requests += 1 }
      }
    }

    /// Fails the transfers whose deadline passed; returns how long the loop may sleep
    /// before the next one does.
    private func expireDeadlines() -> Int32 {
      var wait = Self.idleWait
      // A round that ended the last transfer (most rounds of a unary call) needs no clock.
      guard !running.isEmpty else { return wait }
      let now = ContinuousClock.now
      // Taken out after the walk, which removing would disturb; most rounds expire none,
      // and then no array is made.
      var expired: [CurlExchange] = []
      for exchange in running.values {
        guard let deadline = exchange.expiry else { continue }
        if deadline <= now {
          expired.append(exchange)
        } else {
          // One more millisecond, so that the loop wakes after the deadline, not before it.
          let milliseconds = (deadline - now).saturatingMilliseconds
          wait = min(wait, Int32(clamping: milliseconds == .max ? milliseconds : milliseconds + 1))
        }
      }
      for exchange in expired { remove(exchange, exchange.deadlineError()) }
      return wait
    }
  }
#endif
