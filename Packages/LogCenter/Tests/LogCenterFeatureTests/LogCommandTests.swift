import CommandLineKit
import Essentials
import FeatureKit
import FeatureKitTesting
import Foundation
import LocalStore
import Testing

@testable import LogCenterFeature

@Suite struct LogCommandTests {
  /// Two instances, runtime records at several levels and probes, an hour apart each.
  func seeded() throws -> (FeatureHarness, Instance, Instance) {
    let harness = try FeatureHarness(.logCenter)
    let router = try harness.addInstance("Router A", "http://10.0.0.1:3000")
    let dongle = try harness.addInstance("Dongle B", "https://dongle.lan")
    let logger = harness.storeLogger("msa.fleet")
    logger.debug("cache warmed")
    harness.clock.advance(by: 3600)
    logger.info("instance added", metadata: ["instance_id": router.id])
    harness.clock.advance(by: 3600)
    try harness.addProbe(router, result: "ok", status: "online", previous: "unknown")
    harness.clock.advance(by: 3600)
    logger.warning("login required", metadata: ["instance_id": dongle.id])
    harness.clock.advance(by: 3600)
    try harness.addProbe(dongle, result: "timeout", status: "offline", reason: "timeout")
    harness.clock.advance(by: 3600)
    logger.error("sync failed", metadata: ["instance_id": router.id, "detail": "disk full"])
    return (harness, router, dongle)
  }

  func ids(_ result: CommandResult) throws -> [String] {
    let records = try #require(try result.jsonData()["records"] as? [[String: Any]])
    return records.compactMap { $0["id"] as? String }
  }

  @Test func listsBothLogsNewestFirstWithKindPrefixedIDs() async throws {
    let (harness, _, _) = try seeded()
    let result = try await harness.run(["logs"])
    #expect(try ids(result) == ["r4", "c2", "r3", "c1", "r2", "r1"])
    let text = result.text(width: 120)
    #expect(text.contains("sync failed"))
    #expect(text.contains("Router A"))
  }

  @Test(arguments: [
    (["--kind", "runtime"], ["r4", "r3", "r2", "r1"]),
    (["--kind", "connection"], ["c2", "c1"]),
    (["--level", "warning"], ["r4", "c2", "r3"]),
    (["--level", "error"], ["r4"]),
    (["--instance", "Router A"], ["r4", "c1", "r2"]),
    (["--search", "LOGIN"], ["r3"]),
    (["--search", "timeout"], ["c2"]),
    (["--search", "disk full"], ["r4"]),
    (["--since", "2026-01-01T02:00:00Z"], ["r4", "c2", "r3", "c1"]),
    (["--until", "2026-01-01T02:00:00Z"], ["r2", "r1"]),
    (["--since", "2h"], ["r4", "c2", "r3"]),
    (
      ["--since", "2026-01-01", "--until", "2026-01-01T01:00:01Z", "--kind", "runtime"],
      ["r2", "r1"]
    ),
    (["--limit", "2"], ["r4", "c2"]),
  ])
  func filters(arguments: [String], expected: [String]) async throws {
    let (harness, _, _) = try seeded()
    #expect(try ids(try await harness.run(["logs"] + arguments)) == expected)
  }

  @Test func instanceFilterAcceptsIDPrefixAndRefusesUnknown() async throws {
    let (harness, _, dongle) = try seeded()
    let result = try await harness.run(["logs", "--instance", String(dongle.id.prefix(6))])
    #expect(try ids(result) == ["c2", "r3"])
    let failure = await harness.outcome(["logs", "--instance", "nowhere"])
    #expect(failure.error is RegistryError)
    #expect(failure.message.contains("nowhere"))
  }

  @Test func badTimeIsRefusedWithTheFix() async throws {
    let (harness, _, _) = try seeded()
    let failure = await harness.outcome(["logs", "--since", "yesterday"])
    // A usage error (exit 64) naming the option, found while the line is parsed (issue 35).
    #expect(failure.exitCode == .usage)
    #expect(failure.message.contains("--since"))
    #expect(failure.message.contains("yesterday"))
    #expect(failure.message.contains("7d"))
  }

  @Test func showsOneRecordOfEitherKind() async throws {
    let (harness, _, _) = try seeded()
    let runtime = try await harness.run(["logs", "show", "r4"])
    let text = runtime.text(width: 120)
    #expect(text.contains("Log record r4"))
    #expect(text.contains("detail"))
    #expect(text.contains("disk full"))
    let probe = try await harness.run(["logs", "show", "C2"])
    let object = try probe.jsonData()
    #expect(object["id"] as? String == "c2")
    #expect((object["probe"] as? [String: Any])?["reason"] as? String == "timeout")
    let missing = await harness.outcome(["logs", "show", "r999"])
    #expect(missing.error as? LogCenterError == .recordNotFound("r999"))
  }

  /// A probe record shows the device requests it made, in text and `--json`.
  @Test func aProbeRecordShowsItsDeviceRequests() async throws {
    let harness = try FeatureHarness(.logCenter)
    let instance = try harness.addInstance("Shop", "http://10.0.0.1:3000")
    let requests = [
      DeviceRequest(method: "GET", route: "/api/health", status: 200, bytes: 87, milliseconds: 4),
      DeviceRequest(
        method: "GET", route: "/api/stats", status: nil, bytes: nil, milliseconds: 5000,
        failure: "timeout"),
    ]
    try ConnectionLogRepository(store: harness.store).append(
      ConnectionLogEntry(
        instanceID: instance.id, instanceName: instance.name, at: harness.clock.clock.now(),
        result: "ok", status: "online", latencyMS: 5001, requests: requests))
    let shown = try await harness.run(["logs", "show", "c1"])
    let (text, json) = (shown.text(width: 120), try shown.json())
    #expect(text.contains("Device requests"))
    #expect(text.contains("GET /api/health 200 87 B 4 ms"))
    #expect(text.contains("GET /api/stats timeout 5000 ms"))
    let probe = try #require(try shown.jsonData()["probe"] as? [String: Any])
    let stored = try #require(probe["requests"] as? [[String: Any]])
    #expect(stored.count == 2)
    #expect(stored.first?["route"] as? String == "/api/health")
    #expect(stored.first?["bytes"] as? Int == 87)
    #expect(json.contains("\"milliseconds\""))
    let invalid = await harness.outcome(["logs", "show", "42"])
    #expect(invalid.error as? LogCenterError == .invalidRecordID("42"))
  }

  // MARK: - Trim and clear

  @Test func trimOlderThanDays() async throws {
    let (harness, _, _) = try seeded()
    harness.clock.advance(by: 77_400)  // now 26.5 h: r1, r2, c1 are more than a day old
    let result = try await harness.run(["logs", "trim", "--older-than", "1"])
    let removed = try #require(try result.jsonData()["removed"] as? [String: Int])
    #expect(removed == ["runtime": 2, "connection": 1])
    #expect(try ids(try await harness.run(["logs"])) == ["r4", "c2", "r3"])
  }

  @Test func trimKeepsTheNewestOfEachLog() async throws {
    let (harness, _, _) = try seeded()
    _ = try await harness.run(["logs", "trim", "--keep", "1"])
    #expect(try ids(try await harness.run(["logs"])) == ["r4", "c2"])
    _ = try await harness.run(["logs", "trim", "--keep", "0", "--kind", "connection"])
    #expect(try ids(try await harness.run(["logs"])) == ["r4"])
  }

  @Test(arguments: [
    ["logs", "trim", "--older-than", "seven"],
    ["logs", "trim", "--keep", "-3"],
    ["logs", "trim"],
    ["logs", "trim", "--older-than", "7", "--keep", "10"],
  ])
  func trimRefusesBadInputAndDeletesNothing(arguments: [String]) async throws {
    let (harness, _, _) = try seeded()
    let failure = await harness.outcome(arguments)
    let error = try #require(failure.error)
    #expect(UserFacingMessage.exitCode(of: error) == .usage)
    #expect(!failure.message.isEmpty)
    #expect(try LogBook(store: harness.store).counts().total == 6)
  }

  @Test func notANumberNamesTheOption() async throws {
    let (harness, _, _) = try seeded()
    let failure = await harness.outcome(["logs", "trim", "--older-than", "seven"])
    #expect(failure.message.contains("--older-than"))
    #expect(failure.message.contains("seven"))
  }

  @Test func clearNeedsYesAndSaysWhatAndHowMany() async throws {
    let (harness, _, _) = try seeded()
    let failure = await harness.outcome(["logs", "clear"])
    #expect(failure.message.contains("6"))
    #expect(failure.message.contains("--yes"))
    #expect(failure.message.contains("runtime"))
    #expect(try LogBook(store: harness.store).counts().total == 6)

    let kindOnly = try await harness.run(["logs", "clear", "--kind", "connection", "--yes"])
    #expect(
      try kindOnly.jsonData()["removed"] as? [String: Int] == ["runtime": 0, "connection": 2])
    _ = try await harness.run(["logs", "clear", "--yes"])
    #expect(try LogBook(store: harness.store).counts().total == 0)
    // Nothing left: no confirmation is needed.
    _ = try await harness.run(["logs", "clear"])
  }

  // MARK: - Export

  @Test func exportsJSONLines() async throws {
    let (harness, router, _) = try seeded()
    let file = harness.directory.appendingPathComponent("logs.jsonl")
    let result = try await harness.run(
      ["logs", "export", "--format", "jsonl", "--output", file.path, "--instance", router.id])
    #expect(try result.jsonData()["count"] as? Int == 3)
    let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 3)
    let first = try #require(
      try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
    #expect(first["id"] as? String == "r4")
    #expect(first["kind"] as? String == "runtime")
    #expect(first["date"] as? String == "2026-01-01T05:00:00Z")
    #expect(first["level"] as? String == "error")
    #expect((first["metadata"] as? [String: String])?["detail"] == "disk full")
    // An existing file is not replaced without --force.
    let again = await harness.outcome(["logs", "export", "--output", file.path])
    #expect(again.error as? AtomicFile.Failure == .destinationExists(path: file.path))
    _ = try await harness.run(["logs", "export", "--output", file.path, "--force"])
    #expect(try String(contentsOf: file, encoding: .utf8).split(separator: "\n").count == 6)
  }

  @Test func exportsCSVWithQuoting() async throws {
    let (harness, _, _) = try seeded()
    harness.storeLogger().info("a, \"quoted\" message", metadata: ["formula": "=SUM(A1)"])
    let file = harness.directory.appendingPathComponent("logs.csv")
    _ = try await harness.run(
      ["logs", "export", "--format", "csv", "--output", file.path, "--kind", "runtime"])
    let text = try String(contentsOf: file, encoding: .utf8)
    let lines = text.components(separatedBy: "\r\n")
    #expect(lines[0] == "id,kind,date,level,source,instance_id,instance_name,message,metadata")
    #expect(lines[1].hasPrefix("r5,runtime,2026-01-01T05:00:00Z,info,msa.test,,,"))
    #expect(lines[1].contains("\"a, \"\"quoted\"\" message\""))
    #expect(lines[1].hasSuffix(",formula==SUM(A1)"))
    harness.storeLogger().info("=HYPERLINK(\"http://x\")")
    _ = try await harness.run(
      ["logs", "export", "--format", "csv", "--output", file.path, "--force", "--search", "HYPER"])
    let defused = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\r\n")
    #expect(defused[1].contains(",\"'=HYPERLINK(\"\"http://x\"\")\","))
    #expect(lines.count == 7)  // header, 5 records, trailing empty
  }

  @Test func exportToStandardOutputCarriesTheRecords() async throws {
    let (harness, _, _) = try seeded()
    let result = try await harness.run(["logs", "export", "--kind", "connection"])
    // Raw JSON Lines on stdout, one record a line, never wrapped by the text renderer.
    #expect(result.isWritten)
    let lines = harness.streams.output.split(separator: "\n")
    #expect(lines.count == 2)
    #expect(lines.contains { $0.contains("\"id\":\"c2\"") })
    for line in lines {
      #expect(try JSONSerialization.jsonObject(with: Data(line.utf8)) is [String: Any])
    }
  }

  @Test func unwritableExportPathFailsAndLeavesNothing() async throws {
    let (harness, _, _) = try seeded()
    // Paths no one can write, root included (CI runs as root, so a read-only folder would
    // not do): a missing folder, and a "folder" that is a file.
    let plainFile = harness.directory.appendingPathComponent("plain.txt")
    try Data("x".utf8).write(to: plainFile)
    let targets = [
      harness.directory.appendingPathComponent("missing/folder/out.csv"),
      plainFile.appendingPathComponent("out.jsonl"),
    ]
    for target in targets {
      let failure = await harness.outcome(["logs", "export", "--output", target.path])
      guard case .unwritable(let path, _)? = failure.error as? AtomicFile.Failure else {
        Issue.record("expected unwritable, got \(String(describing: failure.error))")
        continue
      }
      #expect(path == target.path)
      #expect(failure.message.contains(target.path))
    }
    #expect(
      !FileManager.default.fileExists(
        atPath: harness.directory.appendingPathComponent("missing").path))
    #expect(harness.fileNames().allSatisfy { !AtomicFile.isTemporaryName($0) })
  }
}
