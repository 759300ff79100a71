import Foundation

/// WCAG 2.x contrast between two colours.
public enum Contrast {
  /// The WCAG AA minimum for body text.
  public static let minimumForText = 4.5

  /// WCAG relative luminance of `color`, 0 (black) to 1 (white).
  public static func relativeLuminance(_ color: RGBColor) -> Double {
    func linear(_ channel: UInt8) -> Double {
      let value = Double(channel) / 255
      return value <= 0.040_45 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }
    return 0.2126 * linear(color.r) + 0.7152 * linear(color.g) + 0.0722 * linear(color.b)
  }

  /// The contrast ratio, 1 to 21; the order of the arguments does not matter.
  public static func ratio(_ first: RGBColor, _ second: RGBColor) -> Double {
    let a = relativeLuminance(first)
    let b = relativeLuminance(second)
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)
  }
}
