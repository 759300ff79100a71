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
}
