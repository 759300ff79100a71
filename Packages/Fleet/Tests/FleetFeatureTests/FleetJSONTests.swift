import CommandLineKit
import Essentials
import FeatureKitTesting
import Foundation
import SimAdminClient
import SimAdminSimulator
import Testing

@testable import FleetFeature

/// `fleet list --json` and `fleet show --json` are written directly (``JSONOutputWritable``):
/// byte for byte what `JSONOutput`'s encoder writes for the same rows.
@Suite struct FleetJSONTests {
  /// The payload through the encoder (a wrapper that is not ``JSONOutputWritable``).
  struct ThroughEncoder<Value: Encodable>: Encodable {
    var value: Value
    func encode(to encoder: any Encoder) throws {
      var container = encoder.singleValueContainer()
      try container.encode(value)
    }
  }

  func expectSame(_ payload: InstancesPayload, sourceLocation: SourceLocation = #_sourceLocation)
    throws
  {
    var writer = JSONOutputWriter()
    payload.write(to: &writer)
    #expect(!writer.isUnwritable, sourceLocation: sourceLocation)
    for language in [AppLanguage.english, .simplifiedChinese] {
      let direct = try JSONOutput.render(command: "fleet list", data: payload, language: language)
      let encoded = try JSONOutput.render(
        command: "fleet list", data: ThroughEncoder(value: payload), language: language)
      #expect(direct == encoded, sourceLocation: sourceLocation)
    }
  }

  static let hostile = [
    "quote \" backslash \\ slash /", "ctl \u{1}\u{1B}[2J\u{7F}\u{85}\n\r\t", "bidi \u{202E}gpj.exe",
    "中文名称 验证", "😀 𝄞 non-BMP", "",
  ]

  /// A row with every field set (the snapshot's too), from `text`.
  static func fullRow(_ index: Int, _ text: String) -> FleetRow {
    var snapshot = DeviceSnapshot(
      phoneNumbers: ["+8613800138000", text], operatorName: text, signalPercent: 71,
      registration: "registered", temperatureCelsius: 41.5, model: text, imei: "8612345",
      iccid: "8986", dataActive: index % 2 == 0, memoryPercent: 33.0, uptime: "3d 4h",
      latestSMS: SMSPreview(
        direction: "incoming", peer: text, maskedBody: "code ****** \(text)",
        date: Date(timeIntervalSince1970: 1_764_658_800.5 + Double(index))))
    snapshot.notes = [
      SnapshotNote(part: .stats, .timeout),
      SnapshotNote(part: .latestSMS, .upstream(message: text)),
    ]
    return FleetRow(
      id: "id\(index)", name: text, origin: "http://10.0.0.\(index):3000", isPlainHTTP: true,
      group: text, tags: [text, "lab"], revision: index + 1, hasPassword: true,
      status: .offline, reason: .timeout, detail: text,
      checkedAt: Date(timeIntervalSince1970: 1_764_658_900.25), latencyMS: 12 * index,
      version: "1.2.0", snapshot: snapshot,
      snapshotFetchedAt: Date(timeIntervalSince1970: 1_764_658_800),
      createdAt: Date(timeIntervalSince1970: 1_764_000_000 + Double(index)))
  }

  /// Whether every stored property of `value` (optionals included) holds a value, so that a
  /// field the writer forgot shows in the comparison.
  static func everyFieldIsSet(_ value: Any) -> Bool {
    Mirror(reflecting: value).children.allSatisfy { child in
      let inner = Mirror(reflecting: child.value)
      return inner.displayStyle != .optional || inner.children.first != nil
    }
  }

  @Test func everyFieldOfEveryRowIsWrittenAsTheEncoderWritesIt() throws {
    let rows = Self.hostile.enumerated().map { Self.fullRow($0.offset, $0.element) }
    let row = try #require(rows.first)
    let snapshot = try #require(row.snapshot)
    #expect(Self.everyFieldIsSet(row))
    #expect(Self.everyFieldIsSet(snapshot))
    #expect(Self.everyFieldIsSet(try #require(snapshot.latestSMS)))
    #expect(Self.everyFieldIsSet(try #require(snapshot.notes?.first)))
    try expectSame(InstancesPayload(instances: rows))
    // The `--fields` names are the members a full row writes.
    let text = try JSONOutput.render(
      command: "fleet list", data: InstancesPayload(instances: [row]))
    for field in FleetRow.jsonFields { #expect(text.contains("\"\(field)\" : "), "\(field)") }
  }

  @Test func sparseAndEmptyFleetsAreWrittenAsTheEncoderWritesThem() throws {
    try expectSame(InstancesPayload(instances: []))
    let bare = FleetRow(
      id: "a1", name: "Bare", origin: "https://h", isPlainHTTP: false,
      createdAt: Date(timeIntervalSince1970: 0))
    var empty = bare
    empty.snapshot = DeviceSnapshot()
    empty.snapshot?.notes = []
    empty.reason = .noSIM
    try expectSame(InstancesPayload(instances: [bare, empty, bare]))
  }

  /// Real rows: a simulated fleet tested, then listed.
  @Test func aTestedFleetIsListedAsTheEncoderListsIt() async throws {
    let fleet = try await SimulatedFleet.start([
      DeviceProfile(name: "Alpha", smsCount: 3), DeviceProfile(name: "验证 节点", smsCount: 1),
      DeviceProfile(name: "locked", password: "pw", smsCount: 0),
    ])
    let harness = try FeatureHarness(.fleet)
    await harness.register(fleet)
    _ = await harness.outcome(["fleet", "edit", "Alpha", "--tag", "shop \"floor\""])
    _ = await harness.outcome(["fleet", "test", "--all", "--timeout", "2"])
    await fleet.stop()
    let listed = try await harness.outcome(["fleet", "list"]).payload(InstancesPayload.self)
    #expect(listed.instances.count == 3)
    #expect(listed.instances.contains { $0.snapshot != nil })
    try expectSame(listed)
  }
}
