/// Who takes Ctrl-C (SIGINT) in the real process.
///
/// The app installs one SIGINT handler for every command; it ends the process, unless a
/// command that follows something (`msa code --wait`, `msa messages watch`) has taken Ctrl-C
/// over for a while to end its loop and record its end. A second handler for the same signal
/// would not work on Linux (setting its disposition again silences the first), so there is
/// one, and this is its switch.
public enum ProcessInterrupt {
  /// Whether the process's SIGINT handler consults ``taker``.
  public static let isRouted = Locked(false)
  /// What Ctrl-C does while set; nil: it ends the process.
  public static let taker = Locked<(@Sendable () -> Void)?>(nil)

  /// Runs the taker, if any; false when there is none (the process should end).
  public static func deliver() -> Bool {
    guard let taker = taker.withLock({ $0 }) else { return false }
    taker()
    return true
  }
}
