import Essentials
import FleetFeature
import Foundation
import LocalStore
import MessagesFeature
import ViewKit

/// `msa-bench render`: the workbench (rows of `msa fleet list --json`) and the message list
/// (the archive's newest 200) built with the features' own view functions and rendered by
/// ViewKit's `TextRenderer` at 120 columns, timed in-process.
enum BenchRender {
  private struct Listing: Decodable {
    var data: InstancesPayload
  }

  static func run(_ options: BenchOptions) throws {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    let listing = try decoder.decode(
      Listing.self, from: Data(contentsOf: URL(fileURLWithPath: try options.string("fleet-json"))))
    let rows = listing.data.instances
    let clock = AppClock.system
    let store = try Store.open(
      directory: URL(fileURLWithPath: try options.string("home")), modules: [Messages.schema],
      clock: clock, readOnly: true)
    let messages = try MessageArchive(store: store).list(limit: 200)
    let repetitions = try options.int("reps", 20)
    let render = RenderOptions(width: 120)
    let workbench = WorkbenchState(rows: rows, now: clock.now())
    let list = MessageListState(
      messages: messages, showBodies: false, nextCursor: nil, timeZone: .current)

    func measure(_ body: () -> String) -> (lines: Int, samples: [Double]) {
      var lines = 0
      var samples: [Double] = []
      for index in 0..<(repetitions + 2) {
        let (text, elapsed) = Stopwatch.milliseconds(body)
        lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        if index >= 2 { samples.append(elapsed) }
      }
      return (lines, samples)
    }
    let fleet = measure {
      TextRenderer.render(WorkbenchView.view(workbench, language: .english), options: render)
    }
    let archive = measure {
      TextRenderer.render(MessagesViews.list(list, language: .english), options: render)
    }
    try BenchOutput.json([
      [
        "case": "workbench", "rows": rows.count, "lines": fleet.lines, "samples": fleet.samples,
      ],
      [
        "case": "messages", "rows": messages.count, "lines": archive.lines,
        "samples": archive.samples,
      ],
    ])
  }
}
