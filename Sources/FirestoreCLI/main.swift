// firestore: a command line for Firestore documents. See FirestoreCommandLine and
// `firestore --help`.

import Foundation

let status = await FirestoreCommandLine.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(status)
