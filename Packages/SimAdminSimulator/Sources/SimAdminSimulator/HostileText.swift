/// The text a hostile device serves (``Fault/hostileText``): what anyone who can send an SMS
/// to a device, or who controls a device, could make msa print.
public enum HostileText {
  /// Clear screen (`ESC[2J`), write the clipboard (OSC 52), set the window title (OSC 0), BEL,
  /// BS, CR, the one-byte CSI U+009B with a clear-screen, a right-to-left override, and the SGR
  /// sequences that colour text and conceal it (`ESC[31m`, `ESC[8m`): they pass the process's
  /// last guard, which lets msa's own colours through, so only neutralising the device's text
  /// keeps them off the terminal.
  public static let payload =
    "\u{1B}[2J\u{1B}]52;c;SEFDS0VE\u{07}\u{1B}]0;HACKED\u{07}\u{07}\u{08}\r\u{9B}2J\u{202E}"
    + "\u{1B}[31m\u{1B}[8mHIDDEN\u{1B}[0m"

  /// `text` with ``payload`` after its first four characters, so a shortened cell is cut
  /// inside the attack.
  public static func wrap(_ text: String) -> String {
    String(text.prefix(4)) + payload + String(text.dropFirst(4))
  }
}
