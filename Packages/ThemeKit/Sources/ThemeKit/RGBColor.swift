import Foundation

/// An opaque sRGB colour with 8-bit channels, as the token file and terminals use them.
public struct RGBColor: Sendable, Hashable, Codable, CustomStringConvertible {
  /// Red, 0–255.
  public var r: UInt8
  /// Green, 0–255.
  public var g: UInt8
  /// Blue, 0–255.
  public var b: UInt8

  /// A colour from its channels.
  public init(r: UInt8, g: UInt8, b: UInt8) {
    self.r = r
    self.g = g
    self.b = b
  }

  /// Parses `#rrggbb`, `rrggbb` or the short `#rgb` form (case-insensitive); `nil` otherwise.
  public init?(hex: String) {
    var digits = hex.trimmingCharacters(in: .whitespaces)
    if digits.hasPrefix("#") { digits.removeFirst() }
    if digits.count == 3 { digits = digits.map { "\($0)\($0)" }.joined() }
    guard digits.count == 6, digits.allSatisfy(\.isHexDigit), let value = UInt32(digits, radix: 16)
    else { return nil }
    self.init(r: UInt8(value >> 16 & 0xFF), g: UInt8(value >> 8 & 0xFF), b: UInt8(value & 0xFF))
  }

  /// Builds a colour from 0–1 components, rounding and clamping each channel.
  public init(components red: Double, _ green: Double, _ blue: Double) {
    func channel(_ value: Double) -> UInt8 {
      UInt8(max(0, min(255, (value * 255).rounded())))
    }
    self.init(r: channel(red), g: channel(green), b: channel(blue))
  }

  /// `#rrggbb` in lower case.
  public var hex: String {
    String(format: "#%02x%02x%02x", r, g, b)
  }

  /// The same as ``hex``.
  public var description: String { hex }
}
