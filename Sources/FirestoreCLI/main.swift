// firestore: a command line for Firestore documents. See FirestoreCommandLine and
// `firestore --help`.

import CommandLineSupport
import Foundation

let status: Int32
do {
  // Read from argv itself: an argument that is not UTF-8 is refused rather than repaired.
  let arguments = try ProcessArguments.current()
  status = await FirestoreCommandLine.run(arguments, environment: ProcessInfo.processInfo.environment)
} catch {
  status = FirestoreCommandLine.report(error)
}
exit(status)
