/// The order in which queued write batches go to the server, as a pure value: feed it what
/// happens and it returns what to send.
///
/// * Batches are sent in the order they were queued. A batch waits while an earlier one
///   that writes one of its documents is not settled, so the writes to each document land
///   in order; batches of other documents go out alongside, at most
///   ``maximumInFlight`` at a time.
/// * A batch is sent again only when its last attempt cannot have been applied (it never
///   reached the server, or the server refused it without applying it) or when applying
///   it twice changes nothing (``Entry/isIdempotent``); that is up to the caller of
///   ``finish(_:_:)``, which says ``Outcome/retry`` only then.
/// * After a failed attempt the queue backs off (``Action/backOff(attempt:)``) before
///   sending anything again; a success resets the backoff. While the network is disabled
///   nothing is sent; enabling it sends at once.
struct MutationQueue: Sendable {
  /// One batch waiting for the server's answer.
  struct Entry: Sendable, Equatable {
    let id: Int
    /// The documents the batch writes.
    let documents: Set<String>
    /// Whether applying the batch twice has the effect of applying it once.
    let isIdempotent: Bool
    /// Whether an attempt is under way.
    var inFlight = false
  }

  /// What to do.
  enum Action: Sendable, Equatable {
    /// Send the batch with this ID.
    case send(Int)
    /// Wait (with backoff after `attempt` failures in a row; the longest when the server
    /// was `overloaded`), then call ``backOffElapsed()``.
    case backOff(attempt: Int, overloaded: Bool = false)
  }

  /// How an attempt ended.
  enum Outcome: Sendable, Equatable {
    /// The server applied the batch.
    case acknowledged
    /// The batch was not applied, or applying it again is harmless: keep it and try later.
    case retry
    /// As ``retry``, after the server refused it for load (`resourceExhausted`): the
    /// backoff that starts is the longest.
    case overloaded
    /// The batch is settled without being applied (refused, or its outcome unknowable):
    /// drop it.
    case rejected
    /// The batch was not applied and leaves the queue unsettled: it waits elsewhere (for
    /// the user who made it) and may come back with ``restore(_:)``.
    case withdrawn
  }

  /// The most batches sent at once.
  static let maximumInFlight = 10
  /// How far down the queue a batch may be sent ahead of waiting ones: a long run of
  /// batches of one document is not scanned on every change.
  static let lookahead = 100

  /// The batches not yet settled, in queue order.
  var entries: ArraySlice<Entry> { slots[first...] }
  /// ``entries`` from index `first` on; the slots before it are settled batches not yet
  /// dropped. Batches settle near the front, so the front's side of a gap is closed (a
  /// few moves) rather than the long tail's, and the front is dropped once it is half the
  /// storage: draining a long queue costs no move of the whole queue per batch.
  private var slots: [Entry] = []
  private var first = 0
  /// Whether batches may be sent (``Firestore/disableNetwork()`` clears it).
  private(set) var isNetworkEnabled = true
  /// Failed attempts since the last success.
  private(set) var failedAttempts = 0
  /// Whether a backoff is running; nothing is sent until it ends.
  private(set) var isBackingOff = false
  /// How many entries are in flight.
  private var inFlightCount = 0

  /// Queues a batch, whose ID is above every queued one; returns what to send now.
  mutating func enqueue(_ entry: Entry) -> [Action] {
    var entry = entry
    entry.inFlight = false
    slots.append(entry)
    return sendable()
  }

  /// Records how an attempt of batch `id` ended; returns what to do next.
  mutating func finish(_ id: Int, _ outcome: Outcome) -> [Action] {
    guard let index = index(of: id) else { return sendable() }
    if slots[index].inFlight { inFlightCount -= 1 }
    switch outcome {
    case .acknowledged:
      removeEntry(at: index)
      failedAttempts = 0
    case .rejected, .withdrawn:
      removeEntry(at: index)
    case .retry, .overloaded:
      slots[index].inFlight = false
      failedAttempts += 1
      if !isBackingOff {
        isBackingOff = true
        return [.backOff(attempt: failedAttempts, overloaded: outcome == .overloaded)]
      }
    }
    return sendable()
  }

  /// Takes batches that are not in flight out of the queue, unsettled (their user signed
  /// out); returns the IDs taken. A batch in flight stays until its attempt ends.
  mutating func withdraw(_ ids: Set<Int>) -> Set<Int> {
    var taken = Set<Int>()
    compact()
    slots.removeAll { entry in
      guard ids.contains(entry.id), !entry.inFlight else { return false }
      taken.insert(entry.id)
      return true
    }
    return taken
  }

  /// Puts withdrawn batches back in queue order, each after the earlier batches of its
  /// documents; returns what to send now.
  mutating func restore(_ restored: [Entry]) -> [Action] {
    guard !restored.isEmpty else { return sendable() }
    compact()
    var merged: [Entry] = []
    merged.reserveCapacity(entries.count + restored.count)
    var others = restored.map { entry -> Entry in
      var entry = entry
      entry.inFlight = false
      return entry
    }.sorted { $0.id < $1.id }[...]
    for entry in entries {
      while let next = others.first, next.id < entry.id {
        merged.append(next)
        others.removeFirst()
      }
      merged.append(entry)
    }
    merged.append(contentsOf: others)
    slots = merged
    return sendable()
  }

  /// The backoff is over: sends what may go.
  mutating func backOffElapsed() -> [Action] {
    isBackingOff = false
    return sendable()
  }

  /// The server was reached again (by any request): a backoff running is cut short.
  mutating func serverReachable() -> [Action] {
    guard isBackingOff else { return [] }
    isBackingOff = false
    return sendable()
  }

  /// Allows or stops sending. Enabling sends at once, without waiting for a backoff.
  mutating func setNetworkEnabled(_ enabled: Bool) -> [Action] {
    isNetworkEnabled = enabled
    guard enabled else { return [] }
    isBackingOff = false
    return sendable()
  }

  /// The slot of batch `id`: entries are in increasing ID order.
  private func index(of id: Int) -> Int? {
    var low = first
    var high = slots.count
    while low < high {
      let middle = (low + high) / 2
      if slots[middle].id < id { low = middle + 1 } else { high = middle }
    }
    return low < slots.count && slots[low].id == id ? low : nil
  }

  /// Takes the entry in slot `index` out, moving the shorter side of the gap.
  private mutating func removeEntry(at index: Int) {
    guard index - first < slots.count - index else {
      slots.remove(at: index)
      return
    }
    var i = index
    while i > first {
      slots[i] = slots[i - 1]
      i -= 1
    }
    first += 1
    if first * 2 >= slots.count { compact() }
  }

  /// Drops the settled slots before ``entries``.
  private mutating func compact() {
    guard first > 0 else { return }
    slots.removeFirst(first)
    first = 0
  }

  /// Marks as in flight, and returns, the batches that may go now.
  private mutating func sendable() -> [Action] {
    guard isNetworkEnabled, !isBackingOff, inFlightCount < Self.maximumInFlight else { return [] }
    var blocked = Set<String>()
    var actions: [Action] = []
    let candidates = slots.indices.dropFirst(first).prefix(Self.lookahead)
    for i in candidates {
      guard inFlightCount < Self.maximumInFlight else { break }
      let entry = slots[i]
      if !entry.inFlight && entry.documents.isDisjoint(with: blocked) {
        slots[i].inFlight = true
        inFlightCount += 1
        actions.append(.send(entry.id))
      }
      // Later batches of these documents wait for this one, sent or not (the last one
      // has none to hold back; a large batch's names would all be hashed again).
      if i != candidates.last { blocked.formUnion(entry.documents) }
    }
    return actions
  }
}
