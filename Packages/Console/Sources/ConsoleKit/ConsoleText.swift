import Essentials
import ViewKit

/// The console's text layout helpers.
enum ConsoleText {
  /// `text` broken between words into lines of at most `width` columns, at most `lines` of
  /// them (the last one ending in "…" when some was left out); a word longer than a line is
  /// cut.
  static func wrap(_ text: String, width: Int, lines limit: Int) -> [String] {
    var lines: [String] = []
    var line = ""
    for word in text.split(separator: " ", omittingEmptySubsequences: false) {
      let candidate = line.isEmpty ? String(word) : line + " " + word
      if DisplayWidth.of(candidate) <= width || line.isEmpty {
        line = candidate
      } else {
        lines.append(line)
        line = String(word)
      }
    }
    lines.append(line)
    if lines.count > limit {
      lines = Array(lines.prefix(limit))
      lines[limit - 1] = DisplayWidth.truncate(lines[limit - 1] + " …", to: width)
    }
    return lines.map { DisplayWidth.truncate($0, to: width) }
  }
}

extension String {
  /// The text without spaces at its end.
  var trailingSpacesRemoved: String {
    var text = self
    while text.last == " " { text.removeLast() }
    return text
  }
}
