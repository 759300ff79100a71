import EssentialsTesting
import FeatureKit
import FeatureKitTesting
import Foundation
import Testing
import ViewKit

@testable import ConsoleKit

/// A device's text in the body, the status line and a question never reaches the tty raw.
@Suite struct UntrustedTextConsoleTests {
  static let hostile =
    "x\u{1B}[2J\u{1B}]52;c;aGFja2Vk\u{07}\u{1B}]0;owned\u{07}\u{07}\u{08}\r\u{9B}31m\u{202E}y"

  static let hostileView = ShellFixtures.statusTable(
    title: "Nodes " + hostile,
    rows: [
      TableRow(
        id: "id-evil", cells: [TableCell("evil " + hostile), TableCell(hostile)],
        link: "nodes/id-evil")
    ], after: [.text(Text("body\n" + hostile))])

  @Test(arguments: [(40, 12), (80, 24), (57, 15)])
  func framesHoldNoControlButColour(width: Int, height: Int) throws {
    let context = try makeContext()
    var state = ConsoleState(
      tabs: ConsoleState.tabs(of: context.registry, language: .english), width: width,
      height: height)
    _ = ConsoleUpdate.update(
      &state, .loaded(path: "nodes", view: Self.hostileView, at: loadedAt), context: context)
    let batch = Batch(
      id: state.takeID(), screenID: state.screen.id, title: "test", outcome: nil, total: 1,
      finished: 0, failures: [], names: [:], form: nil)
    _ = ConsoleUpdate.start(&state, batch, [.run(arguments: ["x"], affected: [], batch: batch.id)])
    _ = ConsoleUpdate.update(
      &state,
      .finished(
        batch: batch.id, affected: [],
        outcome: ActionOutcome(succeeded: false, message: "evil: " + Self.hostile)),
      context: context)
    #expect(state.screen.result != nil)
    var asking = state
    _ = send([.character("d")], to: &asking, context)
    for screen in [state, asking] {
      for mode in [ColorMode.off, .ansi256, .truecolor] {
        let frame = ConsoleRenderer.render(
          screen, context: context, colorMode: mode, theme: .standard,
          timeZone: TimeZone(identifier: "UTC") ?? .current)
        #expect(RawControls.find(in: frame, allowingColour: mode != .off).isEmpty, "\(mode)")
        let lines = frame.components(separatedBy: "\n")
        #expect(lines.count == height)
        for line in lines { #expect(DisplayWidth.of(line) <= width) }
        #expect(frame.contains("␛[2J"))
      }
    }
  }

  @Test func theTerminalLayerLetsOnlyColourThrough() {
    let frame = "\u{1B}[38;5;33mok\u{1B}[0m " + Self.hostile
    let lines = TerminalSession.frameLines(frame)
    #expect(lines.count == 1)
    #expect(RawControls.find(in: lines[0], allowingColour: true).isEmpty)
    #expect(lines[0].hasPrefix("\u{1B}[38;5;33mok\u{1B}[0m x␛[2J␛]52;c;"))
  }
}
