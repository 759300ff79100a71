import Essentials
import Foundation
import Testing
import ThemeKit
import ViewKit

@Suite struct RendererInvariantTests {
  static let widths = [8, 12, 20, 40, 80, 120]

  /// Every node kind, alone and nested, at each width: no line too wide, no trailing space,
  /// no trailing blank line.
  static var samples: [ViewNode] {
    [Fixtures.everything] + Fixtures.everything.children
  }

  @Test(arguments: widths)
  func everyLineFitsAndHasNoTrailingSpace(width: Int) {
    for node in Self.samples {
      for language in AppLanguage.allCases {
        let text = TextRenderer.render(
          node, options: RenderOptions(width: width, language: language))
        let lines = text.components(separatedBy: "\n")
        for line in lines {
          #expect(
            DisplayWidth.of(line) <= max(width, TextRenderer.minimumWidth),
            "\(node.typeName) @\(width): \(line)")
          #expect(!line.hasSuffix(" "), "\(node.typeName) @\(width): trailing space in \(line)")
        }
        #expect(!text.hasSuffix("\n"))
        #expect(lines.last?.isEmpty == false, "\(node.typeName) ends with a blank line")
      }
    }
  }

  @Test(arguments: [ColorMode.ansi256, .truecolor])
  func colourLinesFitToo(mode: ColorMode) {
    let text = TextRenderer.render(
      Fixtures.everything, options: RenderOptions(width: 40, colorMode: mode))
    #expect(text.contains("\u{1B}["))
    for line in text.components(separatedBy: "\n") {
      #expect(DisplayWidth.of(line) <= 40)
      #expect(!line.hasSuffix(" "))
    }
  }

  @Test func isDeterministic() {
    let options = RenderOptions(width: 57, colorMode: .truecolor)
    #expect(
      TextRenderer.render(Fixtures.everything, options: options)
        == TextRenderer.render(Fixtures.everything, options: options))
  }
}

@Suite struct ColourTests {
  @Test func offHasNoEscape() {
    let text = TextRenderer.render(Fixtures.everything, options: RenderOptions(colorMode: .off))
    #expect(!text.contains("\u{1B}"))
  }

  @Test func truecolorUsesTheThemesExactColours() throws {
    let node = ViewNode.badge(Badge("ok", tone: .success))
    let theme = Theme.standard
    for scheme in Appearance.allCases {
      let color = try #require(theme.color(named: "semantic.success", appearance: scheme))
      let text = TextRenderer.render(
        node, options: RenderOptions(colorMode: .truecolor, scheme: scheme))
      #expect(text == "\u{1B}[38;2;\(color.r);\(color.g);\(color.b)m[ok]\u{1B}[0m")
    }
  }

  @Test func ansi256UsesTheNearestPaletteIndex() throws {
    let color = try #require(Theme.standard.color(named: "semantic.danger", appearance: .dark))
    let text = TextRenderer.render(
      .badge(Badge("x", tone: .danger)), options: RenderOptions(colorMode: .ansi256))
    #expect(text == "\u{1B}[38;5;\(ANSIPalette.nearestIndex(to: color))m[x]\u{1B}[0m")
  }

  @Test func selectedTableRowIsReversedOnlyWithColour() {
    let node = ViewNode.table(Fixtures.fleetTable)
    let coloured = TextRenderer.render(node, options: RenderOptions(colorMode: .truecolor))
    let selected = coloured.components(separatedBy: "\n").first { $0.contains("深圳") }
    #expect(selected?.contains("[1;7;38;2") == true)
    let plain = TextRenderer.render(node, options: RenderOptions())
    #expect(plain.components(separatedBy: "\n").contains { $0.hasPrefix("›● 深圳") })
  }

  @Test(arguments: [
    ("#000000", 16), ("#ffffff", 231), ("#ff0000", 196), ("#00ff00", 46), ("#0000ff", 21),
    ("#808080", 244), ("#5f87af", 67), ("#121212", 233),
  ])
  func mapsKnownColoursTo256(hex: String, index: Int) throws {
    let color = try #require(RGBColor(hex: hex))
    #expect(ANSIPalette.nearestIndex(to: color) == index)
  }

  @Test(arguments: [
    ([String: String](), true, false, ColorMode.ansi256),
    (["COLORTERM": "truecolor"], true, false, .truecolor),
    (["COLORTERM": "24bit", "TERM": "xterm-256color"], true, false, .truecolor),
    (["NO_COLOR": ""], true, false, .ansi256),
    (["NO_COLOR": "1", "COLORTERM": "truecolor"], true, false, .off),
    (["TERM": "dumb", "COLORTERM": "truecolor"], true, false, .off),
    (["COLORTERM": "truecolor"], false, false, .off),
    (["COLORTERM": "truecolor"], true, true, .off),
  ])
  func detectsColourMode(
    environment: [String: String], isTerminal: Bool, flag: Bool, expected: ColorMode
  ) {
    #expect(
      ColorMode.detect(environment: environment, isTerminal: isTerminal, noColorFlag: flag)
        == expected)
  }

  /// no-color.org, bixense.com/clicolors and `--color`: a flag beats the environment.
  @Test(arguments: [
    (["NO_COLOR": "1"], true, ColorChoice.auto, ColorMode.off),
    (["NO_COLOR": "1"], true, .always, .ansi256),
    (["CLICOLOR_FORCE": "1"], false, .auto, .ansi256),
    (["CLICOLOR_FORCE": "1", "TERM": "dumb"], false, .auto, .ansi256),
    (["CLICOLOR_FORCE": "0"], false, .auto, .off),
    (["CLICOLOR_FORCE": ""], false, .auto, .off),
    (["CLICOLOR_FORCE": "1", "NO_COLOR": "1"], true, .auto, .off),
    (["CLICOLOR_FORCE": "1"], true, .never, .off),
    ([:], false, .always, .ansi256),
    (["TERM": "dumb", "COLORTERM": "truecolor"], false, .always, .truecolor),
    (["TERM": "dumb"], true, .auto, .off),
    ([:], false, .auto, .off),
  ])
  func colourChoiceAndEnvironment(
    environment: [String: String], isTerminal: Bool, choice: ColorChoice, expected: ColorMode
  ) {
    #expect(
      ColorMode.detect(environment: environment, isTerminal: isTerminal, choice: choice)
        == expected)
  }
}

@Suite struct LayoutRuleTests {
  func render(_ node: ViewNode, width: Int = 40, language: AppLanguage = .english) -> [String] {
    TextRenderer.render(node, options: RenderOptions(width: width, language: language))
      .components(separatedBy: "\n")
  }

  @Test func keyValueSiblingsAlignTheirValues() {
    let lines = render(
      .stack([
        .keyValue(KeyValue(key: "Name", value: "Office")),
        .keyValue(KeyValue(key: "运营商", value: "中国移动")),
      ]))
    #expect(lines == ["Name    Office", "运营商  中国移动"])
  }

  @Test func cardDrawsABoxAndFallsBackWhenNarrow() {
    let card = ViewNode.card(Card(title: "SIM", children: [.text(Text("ok"))]))
    #expect(
      render(card, width: 20) == [
        "┌─ SIM ────────────┐", "│ ok               │", "└──────────────────┘",
      ])
    #expect(render(card, width: 19) == ["SIM", "  ok"])
  }

  @Test func fieldShowsMessageAndHidesSecrets() {
    #expect(
      render(
        .field(
          FormField(
            id: "p", label: "Password", value: "hunter2", message: "Too short", isSecure: true)))
        == ["Password: ••••", "  Too short"])
  }

  @Test func bannerAndProgressAndButton() {
    #expect(render(.banner(Banner("Saved", tone: .success))) == ["✔ Saved"])
    #expect(render(.banner(Banner("Careful", tone: .warning))) == ["⚠ Careful"])
    #expect(render(.banner(Banner("Failed", tone: .danger))) == ["✖ Failed"])
    #expect(render(.banner(Banner("Note", tone: .info))) == ["ℹ Note"])
    #expect(
      render(.progress(Progress(label: "Sync", completed: 5, total: 10)), width: 30)
        == ["Sync [#########---------] 5/10"])
    #expect(render(.progress(Progress(label: "Scan", completed: 3))) == ["Scan · 3"])
    #expect(render(.button(Button(title: "Test", command: "fleet test n1"))) == ["[ Test ]"])
  }

  @Test func errorStateShowsTheRetryCommandInEitherLanguage() {
    let node = ViewNode.error(
      ErrorState(title: "Offline", message: "Refused", retryCommand: "fleet test n1"))
    #expect(render(node, language: .english).last?.hasSuffix("retry: fleet test n1") == true)
    #expect(render(node, language: .simplifiedChinese).last?.hasSuffix("重试：fleet test n1") == true)
  }

  @Test func tableDropsLowestPriorityColumnsWhenNarrow() {
    let narrow = render(.table(Fixtures.fleetTable), width: 40)
    let header = narrow.first ?? ""
    #expect(header.contains("Name") && header.contains("Status"))
    #expect(!header.contains("Temp"))
    #expect(narrow.last?.hasPrefix("+") == true)
    let wide = render(.table(Fixtures.fleetTable), width: 120)
    #expect(wide.first?.contains("Temp") == true)
  }

  @Test func catalogueIsComplete() {
    #expect(ViewKitStrings.catalogue.problems().isEmpty)
  }
}
