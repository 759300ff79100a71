import Foundation

/// The `$type`s the loader understands.
public enum TokenType: String, Sendable, Codable, CaseIterable {
  /// An sRGB colour.
  case color
  /// A length with a unit.
  case dimension
  /// A font stack.
  case fontFamily
  /// A numeric font weight (100–900).
  case fontWeight
  /// A plain number.
  case number
}

/// A length such as `38px` or `1.5rem`.
public struct Dimension: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The magnitude.
  public var value: Double
  /// `px` or `rem`.
  public var unit: String

  /// A dimension from its parts.
  public init(value: Double, unit: String) {
    self.value = value
    self.unit = unit
  }

  /// `38px`, `1.5rem`.
  public var description: String {
    let number = Int(exactly: value).map { String($0) } ?? String(value)
    return number + unit
  }
}

/// A token's resolved value (aliases already followed).
public enum TokenValue: Sendable, Hashable {
  /// A colour.
  case color(RGBColor)
  /// A length.
  case dimension(Dimension)
  /// A font stack, first choice first.
  case fontFamily([String])
  /// A font weight, 100–900.
  case fontWeight(Int)
  /// A number.
  case number(Double)

  /// The `$type` of this value.
  public var type: TokenType {
    switch self {
    case .color: .color
    case .dimension: .dimension
    case .fontFamily: .fontFamily
    case .fontWeight: .fontWeight
    case .number: .number
    }
  }
}
