import Foundation

/// Invalid UTF-8 in an SMS list (issue 14): each bad sequence becomes U+FFFD and the messages
/// it was in are marked ``SmsMessage/repaired``, instead of their text being lost.
///
/// SimAdmin writes JSON with serde, which only emits UTF-8, but a fork or a proxy in between
/// can pass bytes through unchecked. Strict decoding then fails for the whole page; decoding
/// leniently would make the field an empty string. So the body is first rewritten with a
/// marker in place of every bad sequence — a Unicode noncharacter the body does not contain,
/// so a device's own U+FFFD is never taken for a repair — and decoded normally; the marker is
/// then turned into U+FFFD and its messages are marked.
enum UTF8Repair {
  /// `body` with every invalid UTF-8 sequence (maximal subpart, as `String(decoding:as:)`
  /// replaces) turned into `marker`, or nil when `body` is valid UTF-8 or holds every
  /// candidate marker.
  static func marking(_ body: Data) -> (body: Data, marker: Unicode.Scalar)? {
    let text = String(decoding: body, as: UTF8.self)
    // Decoding repairs invalid UTF-8 with U+FFFD, which never gives back the same bytes.
    guard !text.utf8.elementsEqual(body) else { return nil }
    let used = Set(text.unicodeScalars.lazy.filter { (0xFDD0...0xFDEF).contains($0.value) })
    guard
      let marker = (0xFDD0...0xFDEF).lazy.compactMap(Unicode.Scalar.init)
        .first(where: { !used.contains($0) })
    else { return nil }
    var output = String.UnicodeScalarView()
    var iterator = body.makeIterator()
    var decoder = UTF8()
    decoding: while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar): output.append(scalar)
      case .error: output.append(marker)
      case .emptyInput: break decoding
      }
    }
    return (Data(String(output).utf8), marker)
  }

  /// `text` with `marker` turned into U+FFFD, and whether it held one.
  static func unmark(_ text: String, _ marker: Unicode.Scalar) -> (String, Bool) {
    guard text.unicodeScalars.contains(marker) else { return (text, false) }
    var output = String.UnicodeScalarView()
    for scalar in text.unicodeScalars { output.append(scalar == marker ? "\u{FFFD}" : scalar) }
    return (String(output), true)
  }
}

extension SmsMessageList {
  /// The list with `marker` turned into U+FFFD, each message that held it marked repaired.
  func unmarking(_ marker: Unicode.Scalar) -> SmsMessageList {
    SmsMessageList(
      messages: messages.map { message in
        var copy = message
        var repaired = false
        func fix(_ text: String) -> String {
          let (fixed, changed) = UTF8Repair.unmark(text, marker)
          repaired = repaired || changed
          return fixed
        }
        copy.direction = fix(message.direction)
        copy.phoneNumber = fix(message.phoneNumber)
        copy.content = fix(message.content)
        copy.timestamp = fix(message.timestamp)
        copy.status = fix(message.status)
        copy.pdu = message.pdu.map(fix)
        copy.repaired = repaired
        return copy
      }, unreadablePositions: unreadablePositions)
  }
}
