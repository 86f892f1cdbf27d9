import Foundation

/// The progress line of `export` and `import` on standard error: count, rate and, when
/// the total is known, an ETA.
///
/// It is drawn only when standard error is a terminal, at most a few times a second, and
/// erased at the end; on a pipe or file it prints nothing at all, so scripts see no
/// progress noise and no control characters.
final class ProgressLine: @unchecked Sendable {
  // Used from one task at a time (the command's), so no lock.
  private let verb: String
  private let enabled: Bool
  private var total: Int?
  private var count = 0
  private let start = ContinuousClock.now
  private var lastDrawn: ContinuousClock.Instant?
  private var drawnWidth = 0

  /// A progress line for "`verb` N documents"; `enabled` defaults to "stderr is a terminal".
  init(verb: String, enabled: Bool = StandardStreams.standardErrorIsTerminal) {
    self.verb = verb
    self.enabled = enabled
  }

  /// Whether anything will be drawn (so callers can skip work only progress needs).
  var isEnabled: Bool { enabled }

  /// Sets the expected total, which turns on the ETA.
  func setTotal(_ total: Int?) { self.total = total }

  /// Adds `n` finished documents and redraws if enough time has passed.
  func advance(by n: Int = 1) {
    count += n
    guard enabled else { return }
    let now = ContinuousClock.now
    if let lastDrawn, now - lastDrawn < .milliseconds(200) { return }
    lastDrawn = now
    draw(now: now)
  }

  /// Erases the line.
  func finish() {
    guard enabled, drawnWidth > 0 else { return }
    StandardStreams.writeError("\r" + String(repeating: " ", count: drawnWidth) + "\r")
    drawnWidth = 0
  }

  private func draw(now: ContinuousClock.Instant) {
    let elapsed = now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let rate = seconds > 0 ? Double(count) / seconds : 0
    var text = "\(verb) \(count)"
    if let total { text += "/\(total)" }
    text += " documents, \(Int(rate.rounded()))/s"
    if let total, rate > 0, total > count {
      text += ", ETA \(Self.duration(Double(total - count) / rate))"
    }
    let padding = max(0, drawnWidth - text.count)
    StandardStreams.writeError("\r" + text + String(repeating: " ", count: padding))
    drawnWidth = text.count
  }

  private static func duration(_ seconds: Double) -> String {
    let s = Int(seconds.rounded(.up))
    return s >= 60 ? "\(s / 60)m\(s % 60)s" : "\(s)s"
  }
}
