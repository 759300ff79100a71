import Essentials

/// How a message's code and SIM number are shown.
enum CodeText {
  /// `code` with each character replaced by the rules' mask character (`••••••`).
  static func masked(_ code: String) -> String {
    let mask = CodeDetector.standard.rules.maskCharacter
    return String(repeating: mask.isEmpty ? "•" : mask, count: code.count)
  }

  /// The instance's name with the SIM number beside it when it was known (`A · +86138…`).
  static func instanceLabel(_ message: ArchivedMessage) -> String {
    guard let number = message.simNumber, !number.isEmpty else { return message.instanceName }
    return message.instanceName + " · " + number
  }

  /// When `message` was sent or received, as lists show it: `≈ ` before a time that is when
  /// msa first archived it, because the device's named none (``ArchivedMessage/timeApproximate``).
  static func time(_ message: ArchivedMessage, _ display: MessagesDisplay) -> String {
    (message.timeApproximate ? "≈ " : "") + display.format(message.deviceAt)
  }

  /// The device's own time for `msa code`'s details: the time it names (said to have been in
  /// the future when it lay more than a day ahead of msa's clock), or its text as written
  /// (quoted, at most 40 characters, controls shown by their stand-ins) when it names none.
  static func deviceTime(
    _ message: ArchivedMessage, _ display: MessagesDisplay, _ language: AppLanguage
  ) -> String {
    guard message.timeApproximate else { return display.format(message.deviceAt) }
    if let named = DeviceTime.instant(message.deviceTimestamp) {
      return MessagesStrings.text("code.deviceTimeAhead", language, ["time": display.format(named)])
    }
    // At most 40 of its characters, each control shown by the stand-in the rest of stderr
    // and the views use (`␛`), so nothing in it can pass for the device's own text.
    let text = UntrustedText.neutralised(
      String(String.UnicodeScalarView(message.deviceTimestamp.unicodeScalars.prefix(40))),
      lineFeeds: .symbol)
    return MessagesStrings.text("code.deviceTimeUnnamed", language, ["text": text])
  }
}
