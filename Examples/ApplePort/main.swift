// apple-port: code written against Firebase's Apple SDK (`FirebaseFirestore`), built against
// FirestoreClient with nothing changed but the imports and the making of the `Firestore`
// instance (`Firestore.firestore()` finds the project and the emulator in the environment).
// It is built in Swift 5 language mode, as the apps it comes from are.
//
//   FIRESTORE_EMULATOR_HOST=127.0.0.1:8080 GOOGLE_CLOUD_PROJECT=demo-port swift run apple-port seeds
//
// Commands:
//   seeds                 runs the Firestore calls of the seeds (../shared/seeds) and checks
//                         what they show
//   program               runs a program written against the Apple SDK's API for values,
//                         aggregations, Codable strategies, listen options, offline writes,
//                         snapshots in sync and termination
//   offline-write DIR N   with a persistent cache in DIR and the network disabled, queues N
//                         writes, prints "queued …" and waits to be killed (the restart test)
//   deliver DIR           opens the persistent cache in DIR and waits until the writes a
//                         previous run queued reached the server; then queries the cache
//                         through the persistent cache index manager
//
// Prints what it saw, one fact per line; exits 1 with "MISMATCH: …" when something differs
// from what the Apple SDK would show.
import FirestoreClient
import Foundation

/// Stops with status 1 when `condition` does not hold.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition {
    print("MISMATCH: \(message())")
    exit(1)
  }
}

/// Polls `condition` (on the main actor, where the seeds' `DispatchQueue.main` blocks run)
/// until it holds, or fails after `seconds`. The limit only catches a hang: on a loaded
/// two-core machine running every suite beside this program, one step (a listener back in
/// sync after the network returns) has taken over half a minute.
func waitUntil(_ what: @autoclosure () -> String, seconds: Double = 120, _ condition: () -> Bool) async {
  let deadline = Date().addingTimeInterval(seconds)
  while !condition() {
    if Date() > deadline {
      print("MISMATCH: timed out waiting for \(what())")
      exit(1)
    }
    try? await Task.sleep(nanoseconds: 20_000_000)
  }
}

let arguments = CommandLine.arguments.dropFirst()
do {
  switch arguments.first {
  case "seeds":
    try await runSeeds()
  case "program":
    try await runProgram()
  case "offline-write":
    let values = Array(arguments.dropFirst())
    guard values.count == 2, let count = Int(values[1]) else { throw PortUsage() }
    try await offlineWrite(directory: values[0], count: count)
  case "deliver":
    guard let directory = arguments.dropFirst().first else { throw PortUsage() }
    try await deliver(directory: directory)
  default:
    throw PortUsage()
  }
  print("OK")
} catch is PortUsage {
  print("usage: apple-port seeds | program | offline-write DIR N | deliver DIR")
  exit(2)
} catch {
  print("MISMATCH: \(error)")
  exit(1)
}

/// A command line the program does not understand.
struct PortUsage: Error {}
