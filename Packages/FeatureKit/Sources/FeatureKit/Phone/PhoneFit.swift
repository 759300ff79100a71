/// Whether a phone string fits where it is shown on a 390-point-wide iPhone at the largest
/// standard Dynamic Type size (xxxLarge), estimated from the characters' advance widths.
///
/// Only one-line places are checked (titles, buttons, chips, badges, swipe actions, dialog
/// buttons): text that wraps always fits, and a device's or a user's own text (``PhoneText/Role/foreign``)
/// may be cut. The estimate is the SF Pro / PingFang advance of each character at the place's
/// font size: CJK and full-width characters one em, Latin capitals 0.66 em, lower case
/// 0.54 em, digits 0.6 em, spaces and narrow punctuation 0.3 em, anything else one em; a
/// semibold place adds 5 %. docs/ios.md gives the sizes and widths and what only a phone can
/// show.
public enum PhoneFit {
  /// The width of the screen the estimate is for, in points.
  public static let screenWidth = 390.0

  /// A one-line place: its font size at xxxLarge and the width it has, in points.
  public struct Place: Sendable, Equatable {
    /// Font size in points.
    public var fontSize: Double
    /// Whether the font is semibold or bold.
    public var isBold: Bool
    /// The width available, in points.
    public var width: Double
  }

  /// The place of a role, nil for places that wrap or are not checked.
  public static func place(of role: PhoneText.Role) -> Place? {
    switch role {
    // The navigation bar's title is 17 pt semibold whatever the text size; it has the bar
    // less a 44-point button and margins on each side.
    case .title: Place(fontSize: 17, isBold: true, width: screenWidth - 2 * (16 + 44 + 8))
    // A large title is 34 pt bold across the bar less its margins.
    case .largeTitle: Place(fontSize: 34, isBold: true, width: screenWidth - 32)
    // A full-width button in an inset list: body (23 pt at xxxLarge) semibold, the screen
    // less the list's insets (20 each side) and the button's padding (16 each side).
    case .button: Place(fontSize: 23, isBold: true, width: screenWidth - 2 * 20 - 2 * 16)
    // A bar button: 17 pt semibold, about a third of the bar.
    case .toolbar: Place(fontSize: 17, isBold: true, width: 120)
    // A pull-down menu's item: body (23 pt) in a menu about 250 points wide less its icon
    // and padding, on at most two lines.
    case .menu: Place(fontSize: 23, isBold: false, width: 2 * (250 - 60))
    // A chip in a horizontal scroller: subheadline (21 pt) in the screen less its padding.
    case .chip: Place(fontSize: 21, isBold: false, width: screenWidth - 32 - 24)
    // A badge beside a title: caption (18 pt) semibold, at most 160 points.
    case .badge: Place(fontSize: 18, isBold: true, width: 160)
    // A swipe action: 17 pt, at most a third of the row.
    case .swipe: Place(fontSize: 17, isBold: false, width: 130)
    // A dialog's button: body (23 pt) across the sheet less its margins.
    case .dialogButton: Place(fontSize: 23, isBold: false, width: screenWidth - 16 - 32)
    case .label, .body, .foreign: nil
    }
  }

  /// The estimated width of `text` at `fontSize` points.
  public static func width(of text: String, fontSize: Double, isBold: Bool = false) -> Double {
    var ems = 0.0
    for scalar in text.unicodeScalars {
      ems += advance(scalar)
    }
    return ems * fontSize * (isBold ? 1.05 : 1)
  }

  static func advance(_ scalar: Unicode.Scalar) -> Double {
    switch scalar.value {
    case 0x20, 0x2C, 0x2E, 0x3A, 0x3B, 0x27, 0x7C, 0x21, 0x49, 0x69, 0x6C: 0.3  // narrow
    case 0x41...0x5A: 0.66  // A–Z
    case 0x61...0x7A: 0.54  // a–z
    case 0x30...0x39: 0.6  // 0–9
    case 0x21...0x7E: 0.6
    case 0x300...0x36F, 0x200B...0x200D, 0xFE0F: 0
    default: 1.0
    }
  }

  /// Why `text` does not fit its place, nil when it does (or its place wraps).
  public static func problem(_ text: PhoneText) -> String? {
    guard let place = place(of: text.role) else { return nil }
    let width = width(of: text.text, fontSize: place.fontSize, isBold: place.isBold)
    guard width > place.width else { return nil }
    return "“\(text.text)” (\(text.role.rawValue)) is about \(Int(width.rounded())) pt wide"
      + " at xxxLarge; the place has \(Int(place.width)) pt"
  }
}
