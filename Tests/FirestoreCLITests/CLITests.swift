import Testing

/// The CLI suites, one process at a time: each test already runs several processes in a
/// row, and running them side by side would only load a shared machine for no gain.
@Suite("firestore command line", .serialized)
struct CLITests {}
