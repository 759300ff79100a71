import Foundation

/// Text that came from outside msa (a device, an SMS, a file, a name typed by someone else),
/// made safe for the places it is written to.
///
/// A *control* here is any C0 control (U+0000–001F: ESC, BEL, BS, CR, tab and line feed
/// included), DEL (U+007F), any C1 control (U+0080–009F, such as the one-byte CSI U+009B), and
/// the Unicode bidi controls U+202A–202E, U+2066–2069, U+200E, U+200F and U+061C. A terminal
/// acts on every one of them (clears the screen, sets the title or the clipboard, moves the
/// cursor, reorders what follows), so none may reach it from untrusted text:
///
/// - On a terminal (``neutralised(_:lineFeeds:)``) a control is shown by a visible stand-in:
///   C0 controls as their Control Pictures (`␛` for ESC, `␇` for BEL, `␍` for a lone CR …),
///   DEL as `␡`, C1 and bidi controls as `\u{9B}`, `\u{202E}`. A tab is spaces; a line feed
///   (or CR LF) is a line break where the view shows several lines, and `⏎` where it shows one.
/// - In JSON (``escapingJSON(_:)``) the exact content stays, each control as `\uXXXX`.
/// - In an exported cell (``escapingControls(_:keepingLineBreaks:)``) likewise `\uXXXX`.
/// - Composed output (``terminalSafe(_:)``) keeps only line feeds and the SGR colour codes msa's
///   own theme writes; it is the last guard before standard output, standard error and the
///   console's screen.
public enum UntrustedText {
  /// What a line feed inside untrusted text becomes on a terminal.
  public enum LineFeeds: Sendable {
    /// A line break, where the view shows several lines (a message body, a value).
    case breakLines
    /// `⏎`, where the view shows one line (a table cell, a title, a status line).
    case symbol
  }

  /// Shows a line feed inside a one-line place.
  public static let lineFeedSymbol = "⏎"
  /// Columns a tab becomes where the view shows several lines (one space in a one-line place).
  public static let tabWidth = 4

  // MARK: - Classifying

  /// Whether `scalar` is a control in the sense above (C0, DEL, C1 or a bidi control).
  @inline(__always)
  public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    if value < 0xA0 { return value < 0x20 || value >= 0x7F }
    return isBidiControl(value)
  }

  /// Whether `value` is one of the Unicode bidi controls.
  @inline(__always)
  static func isBidiControl(_ value: UInt32) -> Bool {
    switch value {
    case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
    default: false
    }
  }

  /// Whether `text` holds any control (C0 including tab and line feed, DEL, C1, bidi): such a
  /// name, tag or group name is refused.
  public static func containsControl<S: StringProtocol>(_ text: S) -> Bool {
    guard mayContainControl(text.utf8) else { return false }
    return text.unicodeScalars.contains(where: isControl)
  }

  /// The first control in `text`, if any.
  public static func firstControl<S: StringProtocol>(in text: S) -> Unicode.Scalar? {
    guard mayContainControl(text.utf8) else { return nil }
    return text.unicodeScalars.first(where: isControl)
  }

  /// `U+001B`: how a message names a character.
  public static func codePoint(_ scalar: Unicode.Scalar) -> String {
    let hex = String(scalar.value, radix: 16, uppercase: true)
    return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }

  /// A cheap byte screen with no false negatives: `false` means no control can be in the text.
  /// Every control's UTF-8 is a byte below 0x20, 0x7F, or starts with 0xC2 (C1), 0xD8
  /// (U+061C) or 0xE2 (the U+20xx bidi controls).
  @inline(__always)
  static func mayContainControl<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
    for byte in bytes {
      if byte < 0x20 || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2 {
        return true
      }
    }
    return false
  }

  /// Whether ``neutralised(_:lineFeeds:)`` would change `text`.
  public static func needsNeutralising(_ text: String, lineFeeds: LineFeeds = .symbol) -> Bool {
    let screened =
      text.utf8.withContiguousStorageIfAvailable { mayContainControl($0) }
      ?? mayContainControl(text.utf8)
    guard screened else { return false }
    guard lineFeeds == .breakLines else { return text.unicodeScalars.contains(where: isControl) }
    return text.unicodeScalars.contains { $0 != "\n" && isControl($0) }
  }

  // MARK: - On a terminal

  /// `text` with every control replaced by its visible stand-in (see the type's summary).
  public static func neutralised(_ text: String, lineFeeds: LineFeeds = .symbol) -> String {
    neutralisedIfNeeded(text, lineFeeds: lineFeeds) ?? text
  }

  /// ``neutralised(_:lineFeeds:)``, or `nil` when `text` has no control (so a caller can keep
  /// its value without copying it).
  public static func neutralisedIfNeeded(_ text: String, lineFeeds: LineFeeds = .symbol)
    -> String?
  {
    guard needsNeutralising(text, lineFeeds: lineFeeds) else { return nil }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
    var scalars = text.unicodeScalars.makeIterator()
    var pending = scalars.next()
    while let scalar = pending {
      pending = scalars.next()
      guard isControl(scalar) else {
        result.unicodeScalars.append(scalar)
        continue
      }
      switch scalar {
      case "\n":
        result += lineFeeds == .breakLines ? "\n" : lineFeedSymbol
      case "\r" where pending == "\n":
        // CR LF is one line break.
        pending = scalars.next()
        result += lineFeeds == .breakLines ? "\n" : lineFeedSymbol
      case "\t":
        result += String(repeating: " ", count: lineFeeds == .breakLines ? tabWidth : 1)
      default:
        result += standIn(for: scalar)
      }
    }
    return result
  }

  /// The visible stand-in of one control: `␀`…`␟` for C0 (`␛` for ESC), `␡` for DEL,
  /// `\u{XX}` for C1 and bidi controls. Other scalars come back as themselves.
  public static func standIn(for scalar: Unicode.Scalar) -> String {
    let value = scalar.value
    if value < 0x20, let picture = Unicode.Scalar(0x2400 + value) { return String(picture) }
    if value == 0x7F { return "␡" }
    guard isControl(scalar) else { return String(scalar) }
    return "\\u{" + String(value, radix: 16, uppercase: true) + "}"
  }

  /// Composed terminal output made safe: line feeds, tabs (msa's own tab-separated listings;
  /// a tab only moves the cursor right) and SGR sequences (`ESC [ digits;… m`, the theme's
  /// colours) stay; every other control, in or out of an escape sequence, is shown by its
  /// stand-in, so no content can clear the screen, set the title or the clipboard, or move the
  /// cursor back. Untrusted text has been neutralised before (its tabs are spaces); this is the
  /// last guard. Output without controls is returned as is.
  ///
  /// Without `keepingColour` an SGR sequence is shown by stand-ins too: for standard error,
  /// which msa never colours, so a device's colour or conceal code (`ESC[8m` hides what
  /// follows) in a progress line or a diagnostic shows as `␛[8m`.
  public static func terminalSafe(_ output: String, keepingColour: Bool = true) -> String {
    let bytes = Array(output.utf8)
    guard needsGuard(bytes, keepingColour: keepingColour) else { return output }
    var result: [UInt8] = []
    result.reserveCapacity(bytes.count + 16)
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x0A || byte == 0x09 || (byte >= 0x20 && byte < 0x7F) {
        result.append(byte)
        index += 1
        continue
      }
      if byte == 0x1B, keepingColour, let end = sgrEnd(bytes, from: index) {
        result.append(contentsOf: bytes[index..<end])
        index = end
        continue
      }
      let (scalar, length) = scalarAt(bytes, index)
      if let scalar, isControl(scalar) {
        result.append(contentsOf: standIn(for: scalar).utf8)
      } else {
        result.append(contentsOf: bytes[index..<min(bytes.count, index + length)])
      }
      index += length
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// Whether composed output has anything but line feeds, tabs, printable text and (when
  /// `keepingColour`) SGR codes.
  static func needsGuard(_ bytes: [UInt8], keepingColour: Bool = true) -> Bool {
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 0x1B {
        guard keepingColour, let end = sgrEnd(bytes, from: index) else { return true }
        index = end
        continue
      }
      if byte != 0x0A && byte != 0x09 && (byte < 0x20 || byte == 0x7F) { return true }
      if byte >= 0x80 {
        let (scalar, length) = scalarAt(bytes, index)
        if let scalar, isControl(scalar) { return true }
        index += length
        continue
      }
      index += 1
    }
    return false
  }

  /// The scalar whose UTF-8 starts at `index` and its length in bytes. Only the scalars that
  /// can be controls (lead bytes 0xC2, 0xD8, 0xE2 and ASCII) are decoded; others are `nil`.
  @inline(__always)
  static func scalarAt(_ bytes: [UInt8], _ index: Int) -> (Unicode.Scalar?, Int) {
    let lead = bytes[index]
    let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    guard index + length <= bytes.count else { return (nil, bytes.count - index) }
    var value: UInt32
    switch lead {
    case 0..<0x80: value = UInt32(lead)
    case 0xC2, 0xD8: value = (UInt32(lead & 0x1F) << 6) | UInt32(bytes[index + 1] & 0x3F)
    case 0xE2:
      value =
        (UInt32(lead & 0x0F) << 12) | (UInt32(bytes[index + 1] & 0x3F) << 6)
        | UInt32(bytes[index + 2] & 0x3F)
    default: return (nil, length)
    }
    return (Unicode.Scalar(value), length)
  }

  /// ``sgrEnd(_:from:)``, for the byte checks of the tests.
  public static func sgrEndForTesting(_ bytes: [UInt8], _ start: Int) -> Int? {
    sgrEnd(bytes, from: start)
  }

  /// The end of the SGR sequence `ESC [ [0-9;]* m` starting at `start`, or `nil` when the
  /// bytes there are anything else.
  static func sgrEnd(_ bytes: [UInt8], from start: Int) -> Int? {
    guard start + 2 < bytes.count, bytes[start] == 0x1B, bytes[start + 1] == UInt8(ascii: "[")
    else { return nil }
    var index = start + 2
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "m") { return index + 1 }
      guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ";")
      else { return nil }
      index += 1
    }
    return nil
  }

  // MARK: - In files and JSON

  /// JSON text with every control written as `\uXXXX`. JSON encoders escape C0 controls but
  /// write DEL, C1 and bidi controls raw; a JSON document's structure is ASCII, so these can
  /// only be inside strings, where the escape means the same character. Line feeds between
  /// tokens (pretty printing) stay.
  public static func escapingJSON(_ json: String) -> String {
    escaping(json) { scalar, _ in scalar != "\n" }
  }

  /// An exported cell's text with controls written as `\uXXXX`, except tab, line feed and a
  /// CR before a line feed when `keepingLineBreaks` (CSV quotes a cell holding them); a lone
  /// CR, which would move a terminal's cursor back over the line, is escaped.
  public static func escapingControls(_ text: String, keepingLineBreaks: Bool) -> String {
    guard keepingLineBreaks else { return escaping(text) { _, _ in true } }
    return escaping(text) { scalar, next in
      switch scalar {
      case "\n", "\t": false
      case "\r": next != "\n"
      default: true
      }
    }
  }

  /// One CSV cell (RFC 4180) of untrusted text: controls other than tab, line feed and CR
  /// written as `\uXXXX` (as in JSON); a cell a spreadsheet would run as a formula (starting
  /// with `=`, `+`, `-`, `@`, tab or CR) prefixed with `'`, except a whole phone number such as
  /// `+8613800138000`; quoted when it holds a comma, a quote or a line break.
  public static func csvCell(_ text: String) -> String {
    var value = escapingControls(text, keepingLineBreaks: true)
    if let first = text.unicodeScalars.first, "=+-@\t\r".unicodeScalars.contains(first),
      !isPhoneNumber(text)
    {
      value = "'" + value
    }
    // Scalars, not characters: CR LF is one Character, equal to neither "\r" nor "\n".
    guard value.unicodeScalars.contains(where: { ",\"\n\r".unicodeScalars.contains($0) }) else {
      return value
    }
    return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// `+8613800138000`: a plus and digits only, a number rather than a formula.
  static func isPhoneNumber(_ text: String) -> Bool {
    text.count > 1 && text.hasPrefix("+")
      && text.dropFirst().allSatisfy { $0.isASCII && $0.isNumber }
  }

  /// `text` with the controls for which `shouldEscape(control, next scalar)` holds written as
  /// `\uXXXX`.
  static func escaping(
    _ text: String, where shouldEscape: (Unicode.Scalar, Unicode.Scalar?) -> Bool
  ) -> String {
    // Line feeds are the usual control here (pretty JSON, multi-line bodies): screen past them.
    let screened = text.utf8.contains { byte in
      (byte < 0x20 && byte != 0x0A) || byte == 0x7F || byte == 0xC2 || byte == 0xD8 || byte == 0xE2
    }
    guard screened else { return text }
    var result = ""
    result.unicodeScalars.reserveCapacity(text.unicodeScalars.count + 8)
    var scalars = text.unicodeScalars.makeIterator()
    var next = scalars.next()
    while let scalar = next {
      next = scalars.next()
      if isControl(scalar) && shouldEscape(scalar, next) {
        result += jsonEscape(scalar.value)
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// `\u` and four lowercase hex digits (every control is below U+10000).
  static func jsonEscape(_ value: UInt32) -> String {
    let hex = String(value, radix: 16)
    return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
  }
}
