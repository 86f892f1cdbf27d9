import FirestoreClient
import FirestoreDemo

extension Backend {
  /// A client of this backend whose requests go through a fresh `CountingTransport`, so a
  /// test can check what was sent; the test is recorded in the ``Ledger``.
  public func counted() -> (Firestore, CountingTransport) {
    Ledger.record(self)
    let counter = CountingTransport(wrapping: transport)
    let db = firestore { $0.transport = counter }
    return (db, counter)
  }
}
