/// Light or dark colours; the semantic colour tokens exist once per appearance.
///
/// Not called `ColorScheme` so that it never clashes with SwiftUI's type.
public enum Appearance: String, Sendable, Codable, CaseIterable {
  /// Dark text on the cool-grey canvas.
  case light
  /// Light text on the deep ink-blue canvas.
  case dark
}
