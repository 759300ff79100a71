import Essentials
import Foundation

/// Resolved design tokens: what renderers read colours, sizes and fonts from.
///
/// Views name semantic tokens without an appearance (`semantic.ink`); the theme maps such a
/// name to `semantic.light.ink` or `semantic.dark.ink`. Full paths (`semantic.dark.ink`,
/// `primitive.color.blue.700`, `semantic.button.height`) work too.
public struct Theme: Sendable, Equatable {
  /// Every token of the file, by full dotted path.
  public let values: [String: TokenValue]
  /// `$description` of the tokens that have one.
  public let descriptions: [String: String]

  /// A theme from already resolved values.
  public init(values: [String: TokenValue], descriptions: [String: String] = [:]) {
    self.values = values
    self.descriptions = descriptions
  }

  /// Loads a W3C Design Tokens file; throws ``TokenError``.
  public init(jsonData: Data) throws {
    let result = try TokenLoader.load(jsonData)
    self.init(values: result.values, descriptions: result.descriptions)
  }

  /// The theme shipped in this package (`Resources/tokens.json`, compiled into the program).
  public static let standard = Theme.embedded(PackageResources.tokens_json)

  /// The theme in compiled-in token bytes.
  ///
  /// The shipped file is checked by this package's tests, so failing to load it is a build
  /// defect; should one ship anyway, it never stops the program: the token error is logged
  /// (to `logger`, standard error by default) and the theme is empty, so output is uncoloured.
  static func embedded(
    _ bytes: [UInt8],
    logger: Logger = Logger(label: "msa.theme", handler: StandardErrorLogHandler())
  ) -> Theme {
    do {
      return try Theme(jsonData: Data(bytes))
    } catch {
      logger.error("tokens.json cannot be loaded: \(error); output is not coloured")
      return Theme(values: [:])
    }
  }

  // MARK: - Looking up

  /// The value for `name` in `appearance`: the full path if it exists, else, for
  /// `semantic.<rest>`, the path `semantic.<appearance>.<rest>`.
  public func value(named name: String, appearance: Appearance = .light) -> TokenValue? {
    if let value = values[name] { return value }
    guard name.hasPrefix(Self.semanticPrefix) else { return nil }
    let rest = name.dropFirst(Self.semanticPrefix.count)
    return values[Self.semanticPrefix + appearance.rawValue + "." + rest]
  }

  /// The colour `name` names in `appearance`, or `nil` if it names no colour.
  public func color(named name: String, appearance: Appearance = .light) -> RGBColor? {
    if case .color(let color) = value(named: name, appearance: appearance) { return color }
    return nil
  }

  /// The dimension `name` names, or `nil` if it names no dimension.
  public func dimension(named name: String) -> Dimension? {
    if case .dimension(let dimension) = value(named: name) { return dimension }
    return nil
  }

  /// Whether `name` resolves, as a full path or as an appearance-free semantic name that
  /// exists in **every** appearance.
  public func hasToken(_ name: String) -> Bool {
    values[name] != nil
      || (name.hasPrefix(Self.semanticPrefix)
        && Appearance.allCases.allSatisfy { value(named: name, appearance: $0) != nil })
  }

  /// Every name ``hasToken(_:)`` accepts, sorted: all full paths, plus the appearance-free
  /// semantic names (`semantic.ink`).
  public var tokenNames: [String] {
    var names = Set(values.keys)
    let light = Self.semanticPrefix + Appearance.light.rawValue + "."
    for path in values.keys where path.hasPrefix(light) {
      let name = Self.semanticPrefix + path.dropFirst(light.count)
      if hasToken(name) { names.insert(name) }
    }
    return names.sorted()
  }

  static let semanticPrefix = "semantic."
}
