/// A labelled value: `Phone  +86 138…`. Siblings align their keys.
public struct KeyValue: Codable, Sendable, Equatable {
  /// The label.
  public var key: String
  /// The value, wrapped when long.
  public var value: String
  /// The value's colour; ordinary text when `nil`.
  public var tone: Tone?

  /// A key/value row.
  public init(key: String, value: String, tone: Tone? = nil) {
    self.key = key
    self.value = value
    self.tone = tone
  }
}
