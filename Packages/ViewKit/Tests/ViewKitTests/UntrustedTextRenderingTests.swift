import Essentials
import EssentialsTesting
import Testing
import ThemeKit

@testable import ViewKit

/// Untrusted text in every node kind never reaches the output raw.
@Suite struct UntrustedTextRenderingTests {
  /// Clear screen, OSC 52 (clipboard), OSC 0 (title), BEL, BS, CR, one-byte CSI, RLO.
  static let hostile =
    "A\u{1B}[2J\u{1B}]52;c;aGFja2Vk\u{07}\u{1B}]0;owned\u{07}\u{07}\u{08}\r\u{9B}31m\u{202E}Z"

  static var hostileTree: ViewNode {
    let h = hostile
    return .screen(
      Screen(
        title: "title " + h, subtitle: h,
        children: [
          .banner(Banner(h, tone: .warning)),
          .section(
            Section(
              title: h,
              children: [
                .keyValue(KeyValue(key: h, value: "line one\nline two " + h)),
                .text(Text("body " + h + "\nsecond\tline")),
                .inline([.badge(Badge(h)), .button(Button(title: h, command: h))]),
                .field(FormField(id: "f", label: h, value: h, placeholder: h, message: h)),
                .progress(Progress(label: h, completed: 1, total: 3)),
              ])),
          .card(Card(title: h, children: [.text(Text(h))])),
          .list(
            ListNode(
              items: [
                ListItem(id: "1", title: h, subtitle: h, badges: [Badge(h)], trailing: h)
              ], selectedID: "1")),
          .table(
            Table(
              columns: [
                TableColumn(id: "a", title: h, minWidth: 4, maxWidth: 9),
                TableColumn(id: "b", title: "B", minWidth: 4, truncation: .middle),
              ],
              rows: [TableRow(id: "r", cells: [TableCell(h), TableCell("x\ny " + h)])],
              selectedID: "r")),
          .empty(EmptyState(title: h, message: h, action: Button(title: h, command: "c"))),
          .error(ErrorState(title: h, message: h, retryCommand: h)),
        ]))
  }

  @Test(arguments: [8, 10, 13, 17, 24, 33, 40, 57, 80, 132])
  func noControlReachesTheOutputAtAnyWidth(width: Int) {
    for mode in [ColorMode.off, .ansi256, .truecolor] {
      let text = TextRenderer.render(
        Self.hostileTree, options: RenderOptions(width: width, colorMode: mode))
      #expect(RawControls.find(in: text, allowingColour: mode != .off).isEmpty, "\(mode) @\(width)")
      if mode == .off { #expect(!text.contains("\u{1B}")) }
      for line in text.components(separatedBy: "\n") {
        #expect(DisplayWidth.of(line) <= width, "\(mode) @\(width): \(line)")
      }
    }
  }

  @Test func standInsAreVisibleAndBodiesKeepTheirLines() {
    let text = TextRenderer.render(
      .stack([
        .text(Text("first\r\nsecond\u{1B}[2J")),
        .table(
          Table(
            columns: [TableColumn(id: "a", title: "A", minWidth: 4, maxWidth: 40)],
            rows: [TableRow(id: "r", cells: ["one\ntwo\tthree"])])),
      ]), options: RenderOptions(width: 60))
    let lines = text.components(separatedBy: "\n")
    #expect(lines.contains("first"))
    #expect(lines.contains("second␛[2J"))
    #expect(lines.contains("one⏎two three"))
  }

  @Test func truncationCountsTheStandIns() {
    // "␛[2J" is 4 columns: at 6 columns the cell shows "A␛[2…", never half a sequence.
    let table = ViewNode.table(
      Table(
        columns: [TableColumn(id: "a", title: "A", minWidth: 6, maxWidth: 6)],
        rows: [TableRow(id: "r", cells: ["A\u{1B}[2Jxyz"])]))
    let text = TextRenderer.render(table, options: RenderOptions(width: 20))
    #expect(text.components(separatedBy: "\n").last == "A␛[2J…")
  }

  @Test func cleanTreesAreLeftAsTheyAre() {
    #expect(NeutralisedText.of(Fixtures.everything) == Fixtures.everything)
    var tree = Self.hostileTree
    let first = tree.neutraliseText()
    let second = tree.neutraliseText()
    #expect(first)
    #expect(!second)
  }
}
