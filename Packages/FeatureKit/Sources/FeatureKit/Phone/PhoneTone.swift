/// The colour of a badge, a notice or a value on a phone screen, by the theme's semantic
/// colour it is drawn in.
public enum PhoneTone: String, Sendable, Hashable {
  /// Working, done (`semantic.success`).
  case success
  /// Needs attention (`semantic.warning`).
  case warning
  /// Failed, destructive (`semantic.danger`).
  case danger
  /// Secondary (`semantic.muted`).
  case muted
  /// Informational (`semantic.info`).
  case info

  /// The semantic colour token, e.g. `semantic.success`.
  public var token: String { "semantic.\(rawValue)" }
}

/// A line a screen leaves after an action: what it came to, in a tone.
public struct PhoneNotice: Sendable, Equatable {
  /// The sentence.
  public var text: String
  /// Its colour.
  public var tone: PhoneTone

  /// A notice.
  public init(_ text: String, tone: PhoneTone = .success) {
    self.text = text
    self.tone = tone
  }
}
