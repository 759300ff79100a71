import Essentials
import EssentialsTesting
import Foundation
import Testing

@testable import ThemeKit

@Suite struct ThemeTests {
  static let semanticColours = [
    "canvas", "surface", "ink", "muted", "line", "primary", "info", "danger", "warning",
    "success", "brand", "brandAccent", "bar", "onBar", "barAccent", "onPrimary", "bubbleIn",
    "bubbleOut", "onBubbleOut",
  ]

  @Test(arguments: semanticColours)
  func standardThemeHasEverySemanticColourInBothAppearances(name: String) throws {
    let theme = Theme.standard
    #expect(theme.hasToken("semantic.\(name)"))
    let light = try #require(theme.color(named: "semantic.\(name)", appearance: .light))
    let dark = try #require(theme.color(named: "semantic.\(name)", appearance: .dark))
    #expect(light != dark)
    #expect(theme.tokenNames.contains("semantic.\(name)"))
  }

  @Test func damagedTokensGiveAnUncolouredThemeAndALogLine() throws {
    let memory = InMemoryLogHandler()
    let theme = Theme.embedded(
      Array("{\"semantic\": {".utf8), logger: Logger(label: "msa.theme", handler: memory))
    #expect(theme.values.isEmpty)
    #expect(theme.color(named: "semantic.ink") == nil)
    let record = try #require(memory.records.first)
    #expect(record.level == .error)
    #expect(record.message.contains("tokens.json"))
  }

  @Test func compiledInTokensAreTheSourceFile() throws {
    let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../../Sources/ThemeKit/Resources/tokens.json").standardized
    #expect(Data(PackageResources.tokens_json) == (try Data(contentsOf: source)))
    #expect(Theme.standard == (try Theme(jsonData: Data(contentsOf: source))))
  }

  @Test func paletteMatchesTheBrief() throws {
    let theme = Theme.standard
    #expect(theme.color(named: "semantic.canvas")?.hex == "#f3f5f8")
    #expect(theme.color(named: "semantic.light.brandAccent")?.hex == "#c9a227")
    let primary = try #require(theme.color(named: "semantic.primary"))
    #expect(primary.b > primary.r && primary.b > primary.g)
    let danger = try #require(theme.color(named: "semantic.danger"))
    #expect(danger.r > danger.g && danger.r > danger.b)
  }

  @Test(arguments: [
    ("semantic.button.height", "38px"), ("semantic.button.heightCompact", "34px"),
    ("semantic.button.heightLarge", "42px"), ("semantic.button.radius", "10px"),
    ("semantic.button.iconSize", "40px"), ("semantic.card.radius", "14px"),
  ])
  func dimensionsMatchTheSeeds(name: String, expected: String) {
    #expect(Theme.standard.dimension(named: name)?.description == expected)
  }

  @Test func typographyResolves() {
    #expect(Theme.standard.value(named: "semantic.font.weightEmphasis") == .fontWeight(600))
    guard case .fontFamily(let fonts) = Theme.standard.value(named: "semantic.font.code") else {
      Issue.record("semantic.font.code is not a font family")
      return
    }
    #expect(fonts.last == "monospace")
  }

  @Test func unknownNamesAreAbsent() {
    #expect(!Theme.standard.hasToken("semantic.nope"))
    #expect(Theme.standard.color(named: "semantic.button.height") == nil)
    #expect(Theme.standard.color(named: "primitive.nope") == nil)
  }

  @Test func hexRoundTrips() {
    #expect(RGBColor(hex: "#1D4ED8")?.hex == "#1d4ed8")
    #expect(RGBColor(hex: "12345") == nil)
    #expect(RGBColor(hex: "#gggggg") == nil)
  }
}

@Suite struct ContrastTests {
  @Test func knownRatios() throws {
    let black = RGBColor(r: 0, g: 0, b: 0)
    let white = RGBColor(r: 255, g: 255, b: 255)
    #expect(abs(Contrast.ratio(black, white) - 21) < 0.001)
    #expect(Contrast.ratio(white, white) == 1)
    // #767676 on white is the classic just-passing AA grey (4.54:1).
    let grey = try #require(RGBColor(hex: "#767676"))
    #expect(abs(Contrast.ratio(grey, white) - 4.54) < 0.01)
    #expect(Contrast.ratio(grey, white) == Contrast.ratio(white, grey))
  }

  static let pairs: [(String, String, Appearance)] = {
    let texts = ["ink", "muted", "primary", "info", "danger", "warning", "success", "brand"]
    return Appearance.allCases.flatMap { appearance in
      ["canvas", "surface"].flatMap { background in
        texts.map { ($0, background, appearance) }
      }
    }
  }()

  /// The phone's own pairs: the brand bar's title and gold, a primary or danger button's
  /// label, an outgoing bubble's text and an incoming bubble's text and time.
  static let phonePairs: [(String, String, Appearance)] = Appearance.allCases.flatMap {
    appearance in
    [
      ("onBar", "bar"), ("barAccent", "bar"), ("onPrimary", "primary"), ("onPrimary", "danger"),
      ("onBubbleOut", "bubbleOut"), ("ink", "bubbleIn"), ("muted", "bubbleIn"),
    ].map { ($0.0, $0.1, appearance) }
  }

  @Test(arguments: phonePairs)
  func phoneTextOnItsBackgroundMeetsAA(text: String, background: String, appearance: Appearance)
    throws
  {
    try textOnBackgroundMeetsAA(text: text, background: background, appearance: appearance)
  }

  @Test(arguments: pairs)
  func textOnBackgroundMeetsAA(text: String, background: String, appearance: Appearance) throws {
    let theme = Theme.standard
    let foreground = try #require(theme.color(named: "semantic.\(text)", appearance: appearance))
    let back = try #require(theme.color(named: "semantic.\(background)", appearance: appearance))
    let ratio = Contrast.ratio(foreground, back)
    #expect(
      ratio >= Contrast.minimumForText,
      "\(appearance) \(text) on \(background) is \(ratio):1")
  }
}
