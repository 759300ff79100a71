import Foundation

/// The phone's wording rules: no terminal words on a phone, and a shared message written for
/// the terminal cut before its terminal advice.
public enum PhoneWording {
  /// The terminal word `text` holds, if any: a command (`msa …`), an option (`--flag`), a
  /// console key ("按 v", "press v") or a shell's advice (`ulimit`, standard input).
  public static func terminalWord(in text: String) -> String? {
    let scalars = Array(text.unicodeScalars)
    func isLetter(_ scalar: Unicode.Scalar) -> Bool {
      (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
    }
    func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
      isLetter(scalar) || (scalar >= "0" && scalar <= "9") || scalar == "_"
    }
    for index in scalars.indices {
      let previous = index > 0 ? scalars[index - 1] : " "
      let rest = String(String.UnicodeScalarView(scalars[index...]))
      // `msa ` as a word (a command line), not inside another word.
      if rest.hasPrefix("msa "), !isWordCharacter(previous) { return "msa " }
      // `--flag` (two hyphens, a letter), not after another word character.
      if rest.hasPrefix("--"), index + 2 < scalars.count, isLetter(scalars[index + 2]),
        !isWordCharacter(previous), previous != "-"
      {
        let flag = rest.prefix { $0 == "-" || $0.isLetter || $0 == "_" || $0.isNumber }
        return String(flag)
      }
      // A key to press: 按 v, 按 Enter, press v, Press q.
      for word in ["按 ", "按", "press ", "Press "] where rest.hasPrefix(word) {
        let after = scalars.index(index, offsetBy: word.unicodeScalars.count)
        if after < scalars.count,
          isLetter(scalars[after]) || scalars[after] == "/"
            || scalars[after] == "?"
        {
          let key = String(String.UnicodeScalarView(scalars[after...])).prefix {
            $0.isLetter || $0 == "/" || $0 == "?"
          }
          if key.count == 1 || ["Enter", "Tab", "Esc", "Space", "Ctrl"].contains(String(key)) {
            return word + key
          }
        }
      }
    }
    for word in ["ulimit", "standard input", "标准输入", "stdin", "Ctrl-", "MSA_HOME"]
    where text.contains(word) {
      return word
    }
    return nil
  }

  /// `message` without its terminal advice: the sentences (and clauses after `:` or `;`)
  /// up to the first one that holds a terminal word; `fallback` when nothing is left.
  ///
  /// Shared messages name commands to run ("No group named X; create it with: msa groups
  /// add X"); a phone shows what went wrong ("No group named X") and offers its own way.
  public static func plain(_ message: String, fallback: String) -> String {
    guard terminalWord(in: message) != nil else { return message }
    var kept: [String] = []
    var piece = ""
    var cut = false
    for character in message {
      piece.append(character)
      if "。.；;：:！!？?".contains(character) {
        if terminalWord(in: piece) != nil {
          cut = true
          break
        }
        kept.append(piece)
        piece = ""
      }
    }
    if !cut, !piece.isEmpty {
      if terminalWord(in: piece) == nil { kept.append(piece) } else { cut = true }
    }
    // A clause that introduces the command ("create it with:") goes with it.
    if cut, let last = kept.last?.trimmingCharacters(in: .whitespaces).last, "：:".contains(last) {
      kept.removeLast()
    }
    let text = kept.joined()
    var trimmed = text.trimmingCharacters(in: .whitespaces)
    while let last = trimmed.last, "：:；;,，(（".contains(last) {
      trimmed.removeLast()
      trimmed = trimmed.trimmingCharacters(in: .whitespaces)
    }
    if let last = trimmed.last, !"。.！!？?".contains(last), !trimmed.isEmpty {
      trimmed += trimmed.unicodeScalars.contains { $0.value >= 0x2E80 } ? "。" : "."
    }
    return trimmed.isEmpty ? fallback : trimmed
  }
}
