import Foundation
import SimAdminClient
import Testing

@testable import FleetFeature

/// The stored snapshot text is written directly (``DeviceSnapshot/writtenJSONText()``): byte
/// for byte what `JSONEncoder` (`.sortedKeys`, `.iso8601`) writes for the same snapshot, and
/// the encoder's answer where the writer steps aside.
@Suite struct SnapshotTextTests {
  static func encoded(_ snapshot: DeviceSnapshot) -> String? {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    encoder.dateEncodingStrategy = .iso8601
    guard let data = try? encoder.encode(snapshot) else { return nil }
    return String(decoding: data, as: UTF8.self)
  }

  /// The writer's text is the encoder's, byte for byte, when it writes one; the stored text
  /// (``DeviceSnapshot/jsonText()``) always is.
  func expectSame(_ snapshot: DeviceSnapshot, sourceLocation: SourceLocation = #_sourceLocation) {
    let expected = Self.encoded(snapshot)
    if let written = snapshot.writtenJSONText() {
      #expect(
        Array(written.utf8) == expected.map { Array($0.utf8) }, "\(written) / \(expected ?? "nil")",
        sourceLocation: sourceLocation)
    }
    #expect(
      snapshot.jsonText().map { Array($0.utf8) } == expected.map { Array($0.utf8) },
      sourceLocation: sourceLocation)
  }

  /// Every byte below 0x80 and a few beyond, in every string field.
  static let texts: [String] = [
    "", "plain", "quote \" backslash \\ slash / both \\/", "中文 验证码 😀 𝄞", "e\u{301} é",
    "\u{7F}\u{85}\u{202E}\u{2028}\u{2029}\u{FEFF}",
    String((0..<0x80).map { Character(UnicodeScalar($0)!) }),
  ]

  static func full(_ text: String, _ number: Double, date: Date?) -> DeviceSnapshot {
    var snapshot = DeviceSnapshot(
      phoneNumbers: ["+8613800138000", text], operatorName: text, signalPercent: 62,
      registration: text, temperatureCelsius: number, model: text, imei: text, iccid: text,
      dataActive: false, memoryPercent: number, uptime: text,
      latestSMS: SMSPreview(direction: text, peer: text, maskedBody: text, date: date))
    snapshot.notes = [
      SnapshotNote(part: .stats, .timeout),
      SnapshotNote(part: .latestSMS, .upstream(message: text)),
    ]
    return snapshot
  }

  @Test("every field, odd texts", arguments: 0..<texts.count)
  func oddTexts(_ index: Int) {
    let text = Self.texts[index]
    expectSame(Self.full(text, 41.5, date: Date(timeIntervalSince1970: 1_764_658_800)))
  }

  @Test("numbers and dates at the edges")
  func numbersAndDates() {
    let numbers: [Double] = [
      0, -0.0, 1, -1, 0.1, 1.5, 33.0, 47.25, 1e-5, 1e-7, 123456789.125, 1e15, 1e16, 1e17,
      1.7976931348623157e308, .leastNonzeroMagnitude, .pi, -273.15, 100,
    ]
    for number in numbers {
      let snapshot = Self.full("x", number, date: nil)
      #expect(snapshot.writtenJSONText() != nil)
      expectSame(snapshot)
    }
    let dates: [Double] = [
      0, -1, -0.5, 0.999, 1_764_658_800.5, 1_764_658_800.999_9, 253_402_300_799, -12_212_553_600,
      951_782_400, 4_102_444_800,
    ]
    for seconds in dates {
      let snapshot = Self.full("x", 1, date: Date(timeIntervalSince1970: seconds))
      #expect(snapshot.writtenJSONText() != nil)
      expectSame(snapshot)
    }
  }

  @Test("what the encoder refuses or writes otherwise steps aside, and still matches")
  func refused() {
    for number in [Double.nan, .infinity, -.infinity] {
      let snapshot = Self.full("x", number, date: nil)
      #expect(snapshot.writtenJSONText() == nil)
      expectSame(snapshot)
    }
    for seconds in [1e13, -1e13, 253_402_300_800, -62_135_596_800, -12_219_292_800] {
      let snapshot = Self.full("x", 1, date: Date(timeIntervalSince1970: seconds))
      #expect(snapshot.writtenJSONText() == nil)
      expectSame(snapshot)
    }
  }

  @Test("empty and partial snapshots")
  func partial() {
    expectSame(DeviceSnapshot())
    expectSame(DeviceSnapshot(phoneNumbers: [], signalPercent: 0))
    var notesOnly = DeviceSnapshot()
    notesOnly.notes = []
    expectSame(notesOnly)
    notesOnly.notes = [SnapshotNote(part: .stats, .httpStatus(502))]
    expectSame(notesOnly)
    expectSame(
      DeviceSnapshot(latestSMS: SMSPreview(direction: "in", peer: "1", maskedBody: "", date: nil)))
  }

  /// Every snapshot of these tests whose stored text is said to read back as itself does:
  /// decoded, it is the same snapshot, every string byte for byte.
  @Test("a text that reads back as itself does, so a refresh may show the snapshot it holds")
  func readsBackAsItself() {
    var snapshots = Self.texts.map {
      Self.full($0, 41.5, date: Date(timeIntervalSince1970: 1_764_658_800))
    }
    for number in [0, -0.0, 0.1, 1e-7, 47.25, 99.875, .leastNonzeroMagnitude] {
      snapshots.append(Self.full("x", number, date: nil))
    }
    for seconds: Double in [0, -1, 951_782_400, 253_402_300_799, -12_212_553_600] {
      snapshots.append(Self.full("x", 1, date: Date(timeIntervalSince1970: seconds)))
    }
    snapshots += [DeviceSnapshot(), DeviceSnapshot(phoneNumbers: [], signalPercent: 0)]
    for snapshot in snapshots {
      let (text, readsBack) = snapshot.storedText()
      #expect(readsBack, "\(text ?? "nil")")
      let read = DeviceSnapshot.decode(text)
      #expect(read == snapshot)
      #expect(
        Array(String(reflecting: read).utf8)
          == Array(String(reflecting: Optional(snapshot)).utf8))
    }
    // A fraction of a second, a date the writer leaves to the encoder, a number it refuses:
    // not said to read back as itself (the text is decoded instead).
    let fraction = Self.full("x", 1, date: Date(timeIntervalSince1970: 1_764_658_800.5))
    #expect(fraction.storedText().readsBackAsItself == false)
    #expect(DeviceSnapshot.decode(fraction.storedText().text) != fraction)
    #expect(
      Self.full("x", 1, date: Date(timeIntervalSince1970: -62_135_596_800)).storedText()
        .readsBackAsItself == false)
    #expect(Self.full("x", .nan, date: nil).storedText() == (nil, false))
    // A reading outside the range it is believed in (issue 36) is read back as unknown, so
    // such a text does not read back as itself either.
    for number in [123456789.125, 1e17, -273.15, 1.7976931348623157e308, 101] {
      let absurd = Self.full("x", number, date: nil)
      #expect(absurd.storedText().readsBackAsItself == false, "\(number)")
      let read = DeviceSnapshot.decode(absurd.storedText().text)
      #expect(read?.memoryPercent == nil && read?.operatorName == "x", "\(number)")
    }
    for percent in [-7, 101, Int.min, Int.max] {
      let absurd = DeviceSnapshot(phoneNumbers: [], signalPercent: percent)
      #expect(absurd.storedText().readsBackAsItself == false, "\(percent)")
      #expect(DeviceSnapshot.decode(absurd.storedText().text) == DeviceSnapshot(phoneNumbers: []))
    }
  }

  @Test("a row shows the held snapshot only when its stored text is the held text")
  func heldOnlyForItsText() {
    let held = Self.full("held", 1, date: nil)
    let other = Self.full("stored", 2, date: nil)
    let heldText = held.jsonText() ?? ""
    #expect(FleetRow.snapshot(stored: heldText, held: (heldText, held)) == held)
    #expect(FleetRow.snapshot(stored: other.jsonText(), held: (heldText, held)) == other)
    #expect(FleetRow.snapshot(stored: nil, held: (heldText, held)) == nil)
    #expect(FleetRow.snapshot(stored: other.jsonText(), held: nil) == other)
  }
}
