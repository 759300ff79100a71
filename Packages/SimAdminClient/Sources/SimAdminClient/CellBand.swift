/// A cell's band as SimAdmin writes it: `B3` (qmicli), `LTE B3` / `NR n78` / `WCDMA B1`
/// (ModemManager and mmcli), or `""` when unknown (SIMADMIN-API §3).
public struct CellBand: Sendable, Hashable {
  /// The text as sent.
  public var raw: String
  /// The technology prefix (`LTE`, `NR`, `WCDMA`), when the text has one.
  public var technology: String?
  /// The band alone (`B3`, `n78`), or `nil` when unknown or unreadable.
  public var label: String?
  /// The band number (3, 78), or `nil`.
  public var number: Int?

  /// Reads both forms; anything else keeps only ``raw``.
  public init(_ raw: String) {
    self.raw = raw
    let words = raw.split(separator: " ", omittingEmptySubsequences: true)
    guard (1...2).contains(words.count), let last = words.last,
      let first = last.first, "BbNn".contains(first)
    else { return }
    let digits = last.dropFirst()
    guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits),
      value < 10_000
    else { return }
    if words.count == 2 {
      let prefix = String(words[0])
      guard prefix.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return }
      technology = prefix
    }
    label = String(last)
    number = value
  }
}
