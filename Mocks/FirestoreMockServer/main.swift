// firestore-mock-server: runs the in-memory Firestore mock until SIGINT or SIGTERM.
//
//   firestore-mock-server [--host HOST] [--port PORT]
//
// Prints exactly one line, "listening on http://HOST:PORT", once clients can connect, and
// "stopped" after a signal has shut the server down. Exit status: 0 after a signal,
// 1 when the server cannot start, 2 for a bad command line.

import CommandLineSupport
import FirestoreMock

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The command-line help.
let usage = """
  usage: firestore-mock-server [--host HOST] [--port PORT]

  Runs an in-memory Firestore server that speaks the emulator's REST protocol.

    --host HOST   address to listen on (default 127.0.0.1)
    --port PORT   port to listen on (default 8080; 0 picks a free port)
    -h, --help    show this help and exit

  Prints "listening on http://HOST:PORT" when ready; SIGINT or SIGTERM stops it.

  """

/// What the command line asks for.
enum Invocation {
  /// Serve on this address.
  case serve(host: String, port: Int)
  /// Print the help.
  case help
  /// A usage error, with its message.
  case invalid(String)
}

/// Parses the arguments after the program name.
func parseInvocation(_ arguments: [String]) -> Invocation {
  let specs = [OptionSpec("--host", "HOST"), OptionSpec("--port", "PORT")]
  let parsed: ParsedArguments
  do throws(UsageError) {
    parsed = try ArgumentParser(globalOptions: specs).parse(arguments)
  } catch {
    return .invalid(error.message)
  }
  if parsed.wantsHelp { return .help }
  if let extra = parsed.positionals.first { return .invalid("unknown argument '\(extra)'") }
  let host = parsed.value("--host") ?? "127.0.0.1"
  guard !host.isEmpty else { return .invalid("--host needs a non-empty value") }
  var port = 8080
  if let value = parsed.value("--port") {
    guard let number = Int(value), (0...65_535).contains(number) else { return .invalid("--port must be 0...65535, got '\(value)'") }
    port = number
  }
  return .serve(host: host, port: port)
}

/// Writes to standard error, unbuffered.
func printError(_ text: String) {
  var bytes = Array(text.utf8)
  _ = write(2, &bytes, bytes.count)
}

switch parseInvocation(Array(CommandLine.arguments.dropFirst())) {
case .help:
  print(usage, terminator: "")
  exit(0)
case .invalid(let message):
  printError("firestore-mock-server: \(message)\n\n\(usage)")
  exit(2)
case .serve(let host, let port):
  // Block the stop signals before any thread exists, so every thread inherits the mask
  // and the signals wait for sigwait below instead of killing the process.
  var stopSignals = sigset_t()
  sigemptyset(&stopSignals)
  sigaddset(&stopSignals, SIGINT)
  sigaddset(&stopSignals, SIGTERM)
  pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

  let server: MockFirestoreServer
  do {
    server = try MockFirestoreServer.start(host: host, port: port)
  } catch {
    printError("firestore-mock-server: cannot start on \(host):\(port): \(error)\n")
    exit(1)
  }
  let shownHost = server.host.contains(":") ? "[\(server.host)]" : server.host
  print("listening on http://\(shownHost):\(server.port)")
  fflush(nil)

  var received: Int32 = 0
  while sigwait(&stopSignals, &received) != 0 {}
  server.stop()
  print("stopped")
  fflush(nil)
  exit(0)
}
