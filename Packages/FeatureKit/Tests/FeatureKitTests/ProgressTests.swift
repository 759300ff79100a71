import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import Testing

/// The `[n/N]` progress line carries a device's own words (a failure's reason): none of its
/// controls reaches standard error, colour and conceal sequences included (issue 30, issue 36
/// point 3), since the process's last guard lets the theme's SGR colours through.
@Suite("Progress lines")
struct ProgressTests {
  @Test("a device's colour, conceal and cursor sequences are shown, not sent")
  func deviceTextIsNeutralised() {
    let streams = CapturedStreams()
    let environment = AppEnvironment.test(streams: streams.streams)
    environment.progress(
      1, of: 2,
      "Evil: failed: \u{1B}[31mred\u{1B}[8mhidden\u{1B}[0m\r\u{9B}2J\u{202E}mirror\nsecond")
    let line = streams.error
    #expect(!line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\r" || $0 == "\u{9B}" })
    #expect(!line.unicodeScalars.contains { $0 == "\u{202E}" })
    #expect(line.hasPrefix("[1/2] Evil: failed: ␛[31mred␛[8mhidden␛[0m"))
    // One line, whatever the text holds.
    #expect(line.split(separator: "\n").count == 1)
    #expect(line.hasSuffix("second\n"))
  }
}
