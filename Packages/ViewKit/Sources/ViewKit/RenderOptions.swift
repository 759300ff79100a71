import Essentials
import ThemeKit

/// Everything the text renderer's output depends on besides the tree.
public struct RenderOptions: Sendable {
  /// The terminal width in columns; no line is wider. Values below 8 are treated as 8.
  public var width: Int
  /// Whether to emit ANSI colour.
  public var colorMode: ColorMode
  /// The language of the renderer's own words (e.g. "retry:"); the tree's text is used as is.
  public var language: AppLanguage
  /// Where colours come from.
  public var theme: Theme
  /// Which colours of the theme: `.dark` by default, as most terminals have dark backgrounds.
  public var scheme: Appearance

  /// Options; by default 80 columns, no colour, English, the standard theme, dark scheme.
  public init(
    width: Int = 80, colorMode: ColorMode = .off, language: AppLanguage = .english,
    theme: Theme = .standard, scheme: Appearance = .dark
  ) {
    self.width = width
    self.colorMode = colorMode
    self.language = language
    self.theme = theme
    self.scheme = scheme
  }
}
